#include "tests/bench/bench_puzzles.h"
#include "tests/support/paths.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

namespace sudoku::bench {
namespace {

PuzzleSet Load(const std::filesystem::path& path) {
  PuzzleSet set;
  set.name = path.stem().string();
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    Grid grid;
    if (line.empty() || line[0] == '#' || ParsePuzzle(line, &grid)) continue;
    set.texts.push_back(line);
  }
  std::mt19937_64 rng(20241122);
  std::shuffle(set.texts.begin(), set.texts.end(), rng);
  for (const auto& text : set.texts) {
    Grid grid;
    ParsePuzzle(text, &grid);
    set.grids.push_back(grid);
  }
  return set;
}

std::vector<PuzzleSet> LoadAll() {
  std::vector<PuzzleSet> sets;
  const std::filesystem::path shared =
      testing::TestPath("SUDOKU_SHARED_DATA_DIR");
  for (const char* name : {"puzzles_17_clue", "magictour_top1465", "qqwing_mixed",
                           "sudokuexchange_diabolical"}) {
    const auto path = shared / (std::string(name) + ".txt");
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) sets.push_back(Load(path));
  }
  if (sets.empty()) {
    sets.push_back(Load(std::filesystem::path(testing::TestPath("SUDOKU_TEST_DATA_DIR")) /
                        "bench_puzzles.txt"));
  }
  return sets;
}

}  // namespace

const std::vector<PuzzleSet>& Sets() {
  static const std::vector<PuzzleSet> sets = LoadAll();
  return sets;
}

}  // namespace sudoku::bench
