// An independent check of solver output and a reference solver, for every suite and the fuzz
// targets. Deliberately plain code that shares no code or method with solver/ (row, column and
// box masks and a backtracking search over cells; no SIMD, no propagation beyond the masks), so
// that the tests do not trust what they test.
//
// Thread-safety: stateless functions; safe from any thread.
#ifndef SUDOKU_TESTS_SUPPORT_SUDOKU_CHECK_H_
#define SUDOKU_TESTS_SUPPORT_SUDOKU_CHECK_H_

#include <string>
#include <string_view>

namespace sudoku::testing {

// True when `solution` is 81 digits forming a valid grid that keeps every given of the
// 81-character `puzzle` ('1'-'9' givens, anything else blank).
bool IsSolutionOf(std::string_view puzzle, std::string_view solution);

// Solutions of an 81-character puzzle ('1'-'9' givens, anything else blank), counted up to
// `limit`. The first solution found goes to `first` when given. Clashing givens, or a puzzle
// that is not 81 characters, give 0.
int CountSolutions(std::string_view puzzle, int limit, std::string* first = nullptr);

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_SUPPORT_SUDOKU_CHECK_H_
