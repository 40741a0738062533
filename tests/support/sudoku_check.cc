#include "tests/support/sudoku_check.h"

#include <array>

namespace sudoku::testing {
namespace {

struct Masks {
  std::array<int, 9> row{}, column{}, box{};  // bit d set: digit d+1 used
};

int BoxOf(int cell) { return cell / 27 * 3 + cell % 9 / 3; }

struct Counter {
  std::array<int, 81> cells{};
  Masks used;
  int limit = 1;
  int found = 0;
  std::string* first = nullptr;

  void Search() {
    // The empty cell with the fewest digits left, so that hard puzzles finish in time.
    int best = -1, best_options = 0, best_count = 10;
    for (int cell = 0; cell < 81; ++cell) {
      if (cells[cell] != 0) continue;
      const int options =
          ~(used.row[cell / 9] | used.column[cell % 9] | used.box[BoxOf(cell)]) & 0x1ff;
      const int count = __builtin_popcount(static_cast<unsigned>(options));
      if (count < best_count) {
        best = cell;
        best_options = options;
        best_count = count;
      }
    }
    if (best < 0) {
      if (found++ == 0 && first != nullptr) {
        first->clear();
        for (int v : cells) first->push_back(static_cast<char>('0' + v));
      }
      return;
    }
    for (int d = 0; d < 9 && found < limit; ++d) {
      if (!(best_options >> d & 1)) continue;
      Set(best, d, true);
      Search();
      Set(best, d, false);
    }
  }

  void Set(int cell, int d, bool on) {
    cells[cell] = on ? d + 1 : 0;
    used.row[cell / 9] ^= 1 << d;
    used.column[cell % 9] ^= 1 << d;
    used.box[BoxOf(cell)] ^= 1 << d;
  }
};

}  // namespace

bool IsSolutionOf(std::string_view puzzle, std::string_view solution) {
  if (puzzle.size() != 81 || solution.size() != 81) return false;
  Masks seen;
  for (int cell = 0; cell < 81; ++cell) {
    const char c = solution[cell];
    if (c < '1' || c > '9') return false;
    if (puzzle[cell] >= '1' && puzzle[cell] <= '9' && puzzle[cell] != c) return false;
    const int bit = 1 << (c - '1');
    if ((seen.row[cell / 9] | seen.column[cell % 9] | seen.box[BoxOf(cell)]) & bit) return false;
    seen.row[cell / 9] |= bit;
    seen.column[cell % 9] |= bit;
    seen.box[BoxOf(cell)] |= bit;
  }
  return true;
}

int CountSolutions(std::string_view puzzle, int limit, std::string* first) {
  if (puzzle.size() != 81) return 0;
  Counter counter;
  counter.limit = limit;
  counter.first = first;
  for (int cell = 0; cell < 81; ++cell) {
    const char c = puzzle[cell];
    if (c < '1' || c > '9') continue;
    const int d = c - '1';
    const int bit = 1 << d;
    if ((counter.used.row[cell / 9] | counter.used.column[cell % 9] |
         counter.used.box[BoxOf(cell)]) & bit) {
      return 0;
    }
    counter.Set(cell, d, true);
  }
  counter.Search();
  return counter.found;
}

}  // namespace sudoku::testing
