#include "tests/client/sudoku_check.h"

#include <algorithm>
#include <array>
#include <bit>
#include <random>

namespace sudoku::testing {
namespace {

bool IsGiven(char c) { return c >= '1' && c <= '9'; }

int BoxOf(int cell) { return cell / 27 * 3 + cell % 9 / 3; }

// Plain backtracking on the cell with the fewest candidates.
struct Counter {
  std::array<int, 81> cells{};
  std::array<uint16_t, 9> rows{}, columns{}, boxes{};
  int limit = 1;
  int found = 0;
  std::string* first = nullptr;

  bool Place(int cell, int digit) {
    const uint16_t bit = static_cast<uint16_t>(1u << digit);
    if ((rows[cell / 9] | columns[cell % 9] | boxes[BoxOf(cell)]) & bit) return false;
    rows[cell / 9] |= bit;
    columns[cell % 9] |= bit;
    boxes[BoxOf(cell)] |= bit;
    cells[cell] = digit + 1;
    return true;
  }
  void Remove(int cell) {
    const uint16_t bit = static_cast<uint16_t>(1u << (cells[cell] - 1));
    rows[cell / 9] &= static_cast<uint16_t>(~bit);
    columns[cell % 9] &= static_cast<uint16_t>(~bit);
    boxes[BoxOf(cell)] &= static_cast<uint16_t>(~bit);
    cells[cell] = 0;
  }

  void Search() {
    int best = -1;
    int best_count = 10;
    uint16_t best_free = 0;
    for (int cell = 0; cell < 81; ++cell) {
      if (cells[cell] != 0) continue;
      const uint16_t free =
          static_cast<uint16_t>(~(rows[cell / 9] | columns[cell % 9] | boxes[BoxOf(cell)]) & 0x1ff);
      const int count = std::popcount(free);
      if (count < best_count) {
        best = cell;
        best_count = count;
        best_free = free;
        if (count == 0) return;
      }
    }
    if (best < 0) {
      if (found++ == 0 && first != nullptr) {
        first->clear();
        for (int d : cells) first->push_back(static_cast<char>('0' + d));
      }
      return;
    }
    for (int digit = 0; digit < 9 && found < limit; ++digit) {
      if (!(best_free & (1u << digit))) continue;
      Place(best, digit);
      Search();
      Remove(best);
    }
  }
};

}  // namespace

bool IsSolutionOf(std::string_view puzzle, std::string_view solution) {
  if (puzzle.size() != 81 || solution.size() != 81) return false;
  for (int cell = 0; cell < 81; ++cell) {
    if (!IsGiven(solution[cell])) return false;
    if (IsGiven(puzzle[cell]) && puzzle[cell] != solution[cell]) return false;
  }
  for (int unit = 0; unit < 9; ++unit) {
    uint16_t row = 0, column = 0, box = 0;
    for (int i = 0; i < 9; ++i) {
      row |= static_cast<uint16_t>(1u << (solution[unit * 9 + i] - '1'));
      column |= static_cast<uint16_t>(1u << (solution[i * 9 + unit] - '1'));
      box |= static_cast<uint16_t>(
          1u << (solution[(unit / 3 * 3 + i / 3) * 9 + unit % 3 * 3 + i % 3] - '1'));
    }
    if (row != 0x1ff || column != 0x1ff || box != 0x1ff) return false;
  }
  return true;
}

int CountSolutions(std::string_view puzzle, int limit, std::string* first) {
  Counter counter;
  counter.limit = limit;
  counter.first = first;
  for (int cell = 0; cell < 81; ++cell) {
    if (IsGiven(puzzle[cell]) && !counter.Place(cell, puzzle[cell] - '1')) return 0;
  }
  counter.Search();
  return counter.found;
}

std::string Transform(std::string_view puzzle, uint64_t seed) {
  std::mt19937_64 random(seed);
  auto permutation = [&random](int n) {
    std::vector<int> p(n);
    for (int i = 0; i < n; ++i) p[i] = i;
    std::shuffle(p.begin(), p.end(), random);
    return p;
  };
  const std::vector<int> digits = permutation(9);
  const std::vector<int> bands = permutation(3), stacks = permutation(3);
  std::array<int, 9> row_of{}, column_of{};
  for (int band = 0; band < 3; ++band) {
    const std::vector<int> rows = permutation(3), columns = permutation(3);
    for (int i = 0; i < 3; ++i) {
      row_of[band * 3 + i] = bands[band] * 3 + rows[i];
      column_of[band * 3 + i] = stacks[band] * 3 + columns[i];
    }
  }
  const bool transpose = random() & 1;
  std::string out(81, '.');
  for (int r = 0; r < 9; ++r) {
    for (int c = 0; c < 9; ++c) {
      const char from = puzzle[row_of[r] * 9 + column_of[c]];
      const int cell = transpose ? c * 9 + r : r * 9 + c;
      out[cell] = IsGiven(from) ? static_cast<char>('1' + digits[from - '1']) : '.';
    }
  }
  return out;
}

}  // namespace sudoku::testing
