#include "tests/solver/test_puzzles.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <stdexcept>

namespace sudoku::testing {

std::string TestEnv(const char* name) {
  if (const char* value = std::getenv(name); value != nullptr && *value != '\0') return value;
  const std::string n(name);
  if (n == "SUDOKU_TEST_DATA_DIR") return SUDOKU_BUILT_TEST_DATA_DIR;
  if (n == "SUDOKU_SHARED_DATA_DIR") return SUDOKU_BUILT_SHARED_DATA_DIR;
  if (n == "SUDOKU_BENCH_BIN") return SUDOKU_BUILT_BENCH_BIN;
  return "";
}

std::vector<Fixture> LoadFixtures(const std::string& file_name) {
  const std::string path = TestEnv("SUDOKU_TEST_DATA_DIR") + "/" + file_name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<Fixture> fixtures;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    // The puzzle is 81 characters, unless an invalid one says otherwise: split at the first
    // colon after the puzzle and at the next one.
    const size_t first = text.find(':');
    const size_t second = text.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) {
      throw std::runtime_error(path + ":" + std::to_string(line) + ": expected puzzle:count:solution");
    }
    fixtures.push_back({text.substr(0, first), text.substr(first + 1, second - first - 1),
                        text.substr(second + 1), line});
  }
  return fixtures;
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

namespace {

std::vector<std::string> TextFilesIn(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::vector<std::string> SharedDataFiles() { return TextFilesIn(TestEnv("SUDOKU_SHARED_DATA_DIR")); }

std::vector<std::string> SharedMultiSolutionFiles() {
  const std::string dir = TestEnv("SUDOKU_SHARED_DATA_DIR");
  return dir.empty() ? std::vector<std::string>{} : TextFilesIn(dir + "/multi_solution");
}

size_t PublicSetStride() {
  const std::string text = TestEnv("SUDOKU_TEST_PUBLIC_STRIDE");
  const size_t stride = text.empty() ? 1 : std::strtoull(text.c_str(), nullptr, 10);
  return stride == 0 ? 1 : stride;
}

namespace {

// A permutation of 0..8 that keeps the three groups of three (bands or stacks) as groups.
std::array<int, 9> BandPermutation(std::mt19937_64& rng) {
  std::array<int, 3> bands = {0, 1, 2};
  std::shuffle(bands.begin(), bands.end(), rng);
  std::array<int, 9> p{};
  for (int b = 0; b < 3; ++b) {
    std::array<int, 3> within = {0, 1, 2};
    std::shuffle(within.begin(), within.end(), rng);
    for (int i = 0; i < 3; ++i) p[b * 3 + i] = bands[b] * 3 + within[i];
  }
  return p;
}

}  // namespace

std::string Transform(std::string_view grid, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::array<char, 10> digits{};
  std::array<int, 9> relabel{};
  std::iota(relabel.begin(), relabel.end(), 0);
  std::shuffle(relabel.begin(), relabel.end(), rng);
  for (int d = 0; d < 9; ++d) digits[d + 1] = static_cast<char>('1' + relabel[d]);
  const auto rows = BandPermutation(rng);
  const auto cols = BandPermutation(rng);
  const bool transpose = rng() & 1;
  std::string out(kCells, '.');
  for (int r = 0; r < 9; ++r) {
    for (int c = 0; c < 9; ++c) {
      const int from = transpose ? cols[c] * 9 + rows[r] : rows[r] * 9 + cols[c];
      const char x = grid[from];
      if (x >= '1' && x <= '9') out[r * 9 + c] = digits[x - '0'];
    }
  }
  return out;
}

std::string WithBlanks(std::string_view grid, int blanks, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::array<int, kCells> cells{};
  std::iota(cells.begin(), cells.end(), 0);
  std::shuffle(cells.begin(), cells.end(), rng);
  std::string out(grid);
  for (int i = 0; i < blanks; ++i) out[cells[i]] = '.';
  return out;
}

std::string DeadlyRectangle(std::string_view grid) {
  for (int r1 = 0; r1 < 9; ++r1) {
    for (int r2 = r1 + 1; r2 < r1 / 3 * 3 + 3; ++r2) {
      for (int c1 = 0; c1 < 9; ++c1) {
        for (int c2 = c1 / 3 * 3 + 3; c2 < 9; ++c2) {
          const char a = grid[r1 * 9 + c1], b = grid[r1 * 9 + c2];
          if (grid[r2 * 9 + c1] == b && grid[r2 * 9 + c2] == a) {
            std::string out(grid);
            for (int cell : {r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2}) out[cell] = '.';
            return out;
          }
        }
      }
    }
  }
  return "";
}

std::string TestName(const char* kernel_name) {
  std::string name(kernel_name);
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

}  // namespace sudoku::testing
