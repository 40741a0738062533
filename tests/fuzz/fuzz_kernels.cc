// Differential fuzz target: every SIMD kernel this CPU supports gives the same verdict, solution
// count, guess count and first solution as the portable kernel, and that solution is valid. A
// grid whose givens clash is kInvalid with the error ParsePuzzle() gives.
//
// Input: the first byte picks the solution limit (1 to 4); each further byte is a cell: '1'-'9'
// or the bytes 1-9 are that digit, anything else a blank (so puzzle text works as a seed), and
// missing cells are blank. Grids with fewer than 17 givens are left out: arbitrary sparse grids
// can hide search trees that take hours (a sparse unsolvable grid), while 17 givens or more keep
// every search short.
#include <cstdio>
#include <span>
#include <string>

#include "solver/solver.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/support/sudoku_check.h"

namespace {

constexpr int kMinGivens = 17;

bool SameResult(const sudoku::Result& a, const sudoku::Result& b) {
  return a.verdict == b.verdict && a.solutions == b.solutions && a.guesses == b.guesses &&
         (a.solutions == 0 || a.solution == b.solution) &&
         sudoku::Describe(a.error) == sudoku::Describe(b.error);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const sudoku::Limits limits{.max_solutions = 1u + data[0] % 4};
  std::string text(sudoku::kCells, '.');
  int givens = 0;
  for (size_t i = 1; i < size && i <= sudoku::kCells; ++i) {
    const uint8_t byte = data[i];
    const int digit = byte >= '1' && byte <= '9' ? byte - '0' : byte >= 1 && byte <= 9 ? byte : 0;
    if (digit != 0) {
      text[i - 1] = static_cast<char>('0' + digit);
      ++givens;
    }
  }
  if (givens < kMinGivens) return 0;
  sudoku::Grid grid;
  const sudoku::PuzzleError clash = sudoku::ParsePuzzle(text, &grid);
  for (int i = 0; i < sudoku::kCells; ++i) grid[i] = text[i] == '.' ? 0 : text[i] - '0';

  const std::span<const sudoku::Kernel* const> kernels = sudoku::AllKernels();
  const sudoku::Kernel* portable = kernels.back();
  FUZZ_CHECK(std::string(portable->name) == "portable" && portable->supported());
  sudoku::Result expected;
  portable->solve(grid, limits, &expected);
  FUZZ_CHECK(expected.solutions <= limits.max_solutions);
  FUZZ_CHECK((expected.verdict == sudoku::Verdict::kInvalid) == static_cast<bool>(clash));
  FUZZ_CHECK(sudoku::Describe(expected.error) == sudoku::Describe(clash));
  if (expected.solutions > 0) {
    FUZZ_CHECK(sudoku::testing::IsSolutionOf(text, {expected.solution.data(), sudoku::kCells}));
  }
  for (const sudoku::Kernel* kernel : kernels) {
    if (kernel == portable || !kernel->supported()) continue;
    sudoku::Result result;
    kernel->solve(grid, limits, &result);
    if (!SameResult(result, expected)) {
      std::fprintf(stderr, "%s differs from portable on %s (limit %u): solutions %u vs %u, "
                   "guesses %u vs %u\n", kernel->name, text.c_str(), limits.max_solutions,
                   result.solutions, expected.solutions, result.guesses, expected.guesses);
      FUZZ_CHECK(false);
    }
  }
  // The dispatched entry point agrees too.
  FUZZ_CHECK(SameResult(sudoku::Solve(text, limits), expected));
  return 0;
}
