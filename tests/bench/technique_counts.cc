// technique-counts: how many puzzles of a file need each technique of the logical solver
// (solver/logic.h), as their hardest and at all, how many need a trial, and what Rate() and
// Explain() cost per puzzle.
//
//   build/tests/technique_counts FILE [--limit N]
//
// Prints one line per technique with a count ("technique  hardest  used  steps"), then
// "puzzles N, rate X us/puzzle, explain Y us/puzzle, all ratings Z us/puzzle (HoDoKu's path H,
// SE's S)" (Z: QQWing's, HoDoKu's and SE's at once, rating::RateGrid, what `solve --rate` costs
// the daemon; H and S each path alone, what `--rate-only hodoku` and `--rate-only se` cost).
// Each puzzle is rated, explained and rated on every scale once, one thread; the times are the
// process's CPU time over the whole file (on a shared machine, wall-clock time counts the other
// tenants too).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "solver/logic.h"
#include "solver/rating.h"
#include "solver/solver.h"

namespace {

using sudoku::logic::kTechniqueCount;
using sudoku::logic::Technique;

std::vector<sudoku::Grid> ReadPuzzles(const char* path, size_t limit) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "technique_counts: cannot read %s\n", path);
    std::exit(1);
  }
  std::vector<sudoku::Grid> grids;
  for (std::string line; grids.size() < limit && std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    sudoku::Grid grid{};
    if (sudoku::ParsePuzzle(std::string_view(line).substr(0, sudoku::kCells), &grid)) continue;
    grids.push_back(grid);
  }
  return grids;
}

double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && !(argc == 4 && std::string(argv[2]) == "--limit")) {
    std::fprintf(stderr, "usage: technique_counts FILE [--limit N]\n");
    return 2;
  }
  const size_t limit = argc == 4 ? std::stoul(argv[3]) : static_cast<size_t>(-1);
  const std::vector<sudoku::Grid> grids = ReadPuzzles(argv[1], limit);

  double start = CpuSeconds();
  for (const sudoku::Grid& grid : grids) sudoku::logic::Rate(grid);
  const double rate_seconds = CpuSeconds() - start;

  // Each of RateGrid's ways, CPU seconds over the file.
  const auto rate_grid = [&grids](sudoku::rating::RatedPaths paths) {
    const double begin = CpuSeconds();
    for (const sudoku::Grid& grid : grids) sudoku::rating::RateGrid(grid, paths);
    return CpuSeconds() - begin;
  };
  const double scales_seconds = rate_grid(sudoku::rating::RatedPaths::kBoth);
  const double hodoku_seconds = rate_grid(sudoku::rating::RatedPaths::kHodoku);
  const double se_seconds = rate_grid(sudoku::rating::RatedPaths::kSe);

  std::vector<size_t> hardest(kTechniqueCount), used(kTechniqueCount), steps(kTechniqueCount);
  start = CpuSeconds();
  for (const sudoku::Grid& grid : grids) {
    const sudoku::logic::Explanation explanation = sudoku::logic::Explain(grid);
    std::vector<bool> seen(kTechniqueCount);
    int top = 0;
    for (const sudoku::logic::Step& step : explanation.steps) {
      const int technique = static_cast<int>(step.technique);
      ++steps[technique];
      seen[technique] = true;
      if (technique > top) top = technique;
    }
    if (!explanation.steps.empty()) ++hardest[top];
    for (int t = 0; t < kTechniqueCount; ++t) used[t] += seen[t];
  }
  const double explain_seconds = CpuSeconds() - start;

  std::printf("%-30s %8s %8s %9s\n", "technique", "hardest", "used", "steps");
  for (int t = 0; t < kTechniqueCount; ++t) {
    if (used[t] == 0) continue;
    std::printf("%-30s %8zu %8zu %9zu\n", sudoku::logic::Name(static_cast<Technique>(t)),
                hardest[t], used[t], steps[t]);
  }
  const double n = grids.empty() ? 1.0 : static_cast<double>(grids.size());
  std::printf(
      "puzzles %zu, rate %.1f us/puzzle, explain %.1f us/puzzle, all ratings %.1f us/puzzle "
      "(HoDoKu's path %.1f, SE's %.1f)\n",
      grids.size(), rate_seconds * 1e6 / n, explain_seconds * 1e6 / n, scales_seconds * 1e6 / n,
      hodoku_seconds * 1e6 / n, se_seconds * 1e6 / n);
  return 0;
}
