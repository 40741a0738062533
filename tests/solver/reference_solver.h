// A deliberately plain sudoku solver and checker for the solver tests. It shares no code or
// method with solver/ (row, column and box masks and a backtracking search over cells, no SIMD,
// no propagation beyond the masks), so that the tests do not trust what they test.
//
// Thread-safety: stateless functions; safe from any thread.
#ifndef SUDOKU_TESTS_SOLVER_REFERENCE_SOLVER_H_
#define SUDOKU_TESTS_SOLVER_REFERENCE_SOLVER_H_

#include <string>
#include <string_view>

namespace sudoku::reference {

// Solutions of an 81-character puzzle ('1'-'9' givens, anything else blank), counted up to
// `limit`. The first solution found goes to `first` when given. Clashing givens give 0.
int CountSolutions(std::string_view puzzle, int limit, std::string* first = nullptr);

// True when `solution` is 81 digits forming a valid grid that keeps every given of `puzzle`.
bool IsSolutionOf(std::string_view puzzle, std::string_view solution);

}  // namespace sudoku::reference

#endif  // SUDOKU_TESTS_SOLVER_REFERENCE_SOLVER_H_
