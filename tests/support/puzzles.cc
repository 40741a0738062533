#include "tests/support/puzzles.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <random>

namespace sudoku::testing {

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
  std::string out(81, '.');
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
  std::array<int, 81> cells{};
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

std::vector<std::string> GeneratePuzzles(int count, int givens, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<std::string> out;
  out.reserve(count);
  for (int p = 0; p < count; ++p) {
    // A solved grid from the classic pattern, then symmetries that keep it solved: relabel the
    // digits, permute rows inside bands and the bands, the same for columns.
    std::array<int, 9> digits;
    std::iota(digits.begin(), digits.end(), 1);
    std::shuffle(digits.begin(), digits.end(), random);
    auto order = [&random] {
      std::array<int, 3> bands{0, 1, 2};
      std::shuffle(bands.begin(), bands.end(), random);
      std::array<int, 9> lines;
      for (int b = 0; b < 3; ++b) {
        std::array<int, 3> inner{0, 1, 2};
        std::shuffle(inner.begin(), inner.end(), random);
        for (int i = 0; i < 3; ++i) lines[b * 3 + i] = bands[b] * 3 + inner[i];
      }
      return lines;
    };
    const auto rows = order();
    const auto columns = order();
    std::string grid(81, '.');
    for (int r = 0; r < 9; ++r) {
      for (int c = 0; c < 9; ++c) {
        const int row = rows[r], column = columns[c];
        const int value = (row * 3 + row / 3 + column) % 9;
        grid[r * 9 + c] = static_cast<char>('0' + digits[value]);
      }
    }
    std::array<int, 81> cells;
    std::iota(cells.begin(), cells.end(), 0);
    std::shuffle(cells.begin(), cells.end(), random);
    for (int i = givens; i < 81; ++i) grid[cells[i]] = '.';
    out.push_back(std::move(grid));
  }
  return out;
}

std::string Pencilmarks(std::string_view puzzle) {
  std::string out;
  for (const char c : puzzle) {
    const bool blank = c < '1' || c > '9';
    for (char d = '1'; d <= '9'; ++d) out += blank || c == d ? d : '.';
  }
  return out;
}

}  // namespace sudoku::testing
