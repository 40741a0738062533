// Puzzles for the solver tests: the fixture file, the public sets beside the checkout, and
// generated edge cases (0, 1, 2 and many solutions).
//
// Thread-safety: stateless functions; safe from any thread.
#ifndef SUDOKU_TESTS_SOLVER_TEST_PUZZLES_H_
#define SUDOKU_TESTS_SOLVER_TEST_PUZZLES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/solver.h"

namespace sudoku::testing {

// A valid complete grid.
inline constexpr std::string_view kFullGrid =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

// The environment variable `name` (SUDOKU_TEST_DATA_DIR, SUDOKU_SHARED_DATA_DIR,
// SUDOKU_BENCH_BIN), or else the path the build recorded for it: ctest does not always pass the
// environment on (a property list given to gtest_discover_tests can lose all but its first entry).
std::string TestEnv(const char* name);

// One line of tests/data/*.txt fixtures: "puzzle:count:solution" (see the file's header).
struct Fixture {
  std::string puzzle;
  std::string count;     // "0", "1", "2" or "invalid"
  std::string solution;  // or the error message for "invalid"
  int line = 0;
};
std::vector<Fixture> LoadFixtures(const std::string& file_name);

// Every line of a puzzle file (81 characters each).
std::vector<std::string> ReadLines(const std::string& path);

// The *.txt files of SUDOKU_SHARED_DATA_DIR, sorted; empty when it is absent.
std::vector<std::string> SharedDataFiles();

// The *.txt files of its multi_solution/ folder (every puzzle in them has two solutions or
// more), sorted; empty when it is absent.
std::vector<std::string> SharedMultiSolutionFiles();

// Tests over those sets check every puzzle whose index is a multiple of this:
// SUDOKU_TEST_PUBLIC_STRIDE, else 1 (every puzzle). The sanitizer builds of tests/run_all.sh set
// 10: they look for memory and threading errors along the code's paths, which a tenth of 112,000
// puzzles covers as well as all of them, at a tenth of the time.
size_t PublicSetStride();

// `grid` (81 characters) under the sudoku symmetry chosen by `seed`: digits relabelled, rows
// permuted within bands and bands permuted, the same for columns, maybe transposed.
std::string Transform(std::string_view grid, uint64_t seed);

// A full grid with `blanks` cells (chosen by `seed`) turned into '.'.
std::string WithBlanks(std::string_view grid, int blanks, uint64_t seed);

// `grid` with the four cells of a "deadly rectangle" blanked (r1/r2 in one band, c1/c2 in two
// boxes, holding a b / b a): exactly two completions. Empty if `grid` has no such rectangle.
std::string DeadlyRectangle(std::string_view grid);

// The text form of a kernel result's solution.
inline std::string SolutionText(const Result& r) { return std::string(r.solution.data(), kCells); }

// "sse4.1" -> "sse4_1": a kernel's name as a test name.
std::string TestName(const char* kernel_name);

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_SOLVER_TEST_PUZZLES_H_
