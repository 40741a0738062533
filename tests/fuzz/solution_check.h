// An independent check of a solver's answer for the fuzz targets (no solver code involved).
//
// Thread-safety: a pure function.
#ifndef SUDOKU_TESTS_FUZZ_SOLUTION_CHECK_H_
#define SUDOKU_TESTS_FUZZ_SOLUTION_CHECK_H_

#include <string_view>

namespace sudoku::fuzz {

// True when `solution` is 81 digits '1'-'9' with every row, column and box a permutation, and
// it keeps each given ('1'-'9') of the 81-character `puzzle`.
inline bool IsSolutionOf(std::string_view puzzle, std::string_view solution) {
  if (puzzle.size() != 81 || solution.size() != 81) return false;
  for (int i = 0; i < 81; ++i) {
    if (solution[i] < '1' || solution[i] > '9') return false;
    if (puzzle[i] >= '1' && puzzle[i] <= '9' && puzzle[i] != solution[i]) return false;
  }
  for (int unit = 0; unit < 9; ++unit) {
    unsigned row = 0, column = 0, box = 0;
    for (int k = 0; k < 9; ++k) {
      row |= 1u << (solution[unit * 9 + k] - '0');
      column |= 1u << (solution[k * 9 + unit] - '0');
      box |= 1u << (solution[(unit / 3 * 3 + k / 3) * 9 + unit % 3 * 3 + k % 3] - '0');
    }
    if (row != 0x3fe || column != 0x3fe || box != 0x3fe) return false;
  }
  return true;
}

}  // namespace sudoku::fuzz

#endif  // SUDOKU_TESTS_FUZZ_SOLUTION_CHECK_H_
