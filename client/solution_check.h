// The independent check of an answer that `sudoku-client bench --verify` applies: a full valid
// grid that keeps the puzzle's givens (or its candidates).
//
// Thread-safety: a stateless function.
#ifndef SUDOKU_CLIENT_SOLUTION_CHECK_H_
#define SUDOKU_CLIENT_SOLUTION_CHECK_H_

#include <string>
#include <string_view>

namespace sudoku::client {

// What is wrong with `solution` (81 cells) as an answer to `puzzle` (81 cells, '1'-'9' or a
// blank; or 729 pencilmark characters): empty when it is a full valid grid that keeps every
// given, or every cell within its candidates. "cell r1c3 is '0', not a digit", "digit 5 twice in
// row 2", "given 7 at r4c4 changed to 1", "digit 2 at r1c1 is not among its candidates 1.3......".
std::string CheckSolution(std::string_view puzzle, std::string_view solution);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_SOLUTION_CHECK_H_
