// An independent check of solver output for the client tests: deliberately simple code that
// shares nothing with solver/, so that the tests do not trust what they test.
//
// Thread-safety: stateless functions.
#ifndef SUDOKU_TESTS_CLIENT_SUDOKU_CHECK_H_
#define SUDOKU_TESTS_CLIENT_SUDOKU_CHECK_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace sudoku::testing {

// True when `solution` is a complete valid grid that keeps every given of `puzzle` (81
// characters, '1'-'9' givens, anything else blank).
bool IsSolutionOf(std::string_view puzzle, std::string_view solution);

// Solutions of `puzzle`, counted up to `limit`; the first one found goes to `first` when given.
// Givens that clash give 0.
int CountSolutions(std::string_view puzzle, int limit, std::string* first = nullptr);

// A puzzle equivalent to `puzzle` under a symmetry of sudoku chosen by `seed`: digits relabelled,
// rows permuted within bands, bands permuted, the same for columns, maybe transposed. Applying
// the same seed to a solution gives the transformed puzzle's solution. Blanks become '.'.
std::string Transform(std::string_view puzzle, uint64_t seed);

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_CLIENT_SUDOKU_CHECK_H_
