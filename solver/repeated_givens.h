// Repeated givens, as the kernels ask about them. Internal to solver/: callers see the result in
// ParsePuzzle() and the Solve() family (solver.h).
//
// Thread-safety: pure functions; safe from any thread.
#ifndef SUDOKU_SOLVER_REPEATED_GIVENS_H_
#define SUDOKU_SOLVER_REPEATED_GIVENS_H_

#include "solver/solver.h"

namespace sudoku::internal {

// The first digit of `grid` (values 0-9) given twice in a row, column or box, in cell order,
// reported as ParsePuzzle() reports it for the same puzzle as text; a falsy PuzzleError when
// there is none.
PuzzleError FindRepeatedGiven(const Grid& grid) noexcept;

}  // namespace sudoku::internal

#endif  // SUDOKU_SOLVER_REPEATED_GIVENS_H_
