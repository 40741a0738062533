// Puzzles for the solver tests: the fixture files and the public sets beside the checkout (the
// named puzzles, generators and checker they share with the other suites are in tests/support/).
//
// Thread-safety: stateless functions; safe from any thread.
#ifndef SUDOKU_TESTS_SOLVER_TEST_PUZZLES_H_
#define SUDOKU_TESTS_SOLVER_TEST_PUZZLES_H_

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "solver/puzzle_reader.h"
#include "solver/solver.h"
#include "tests/support/paths.h"
#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"

namespace sudoku::testing {

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

// The text form of a kernel result's solution.
inline std::string SolutionText(const Result& r) { return std::string(r.solution.data(), kCells); }

// Every record PuzzleReader reads from `in` or `text` in `format`, errors included.
std::vector<PuzzleRecord> ReadAll(std::istream& in, InputFormat format = InputFormat::kAuto);
std::vector<PuzzleRecord> ReadAll(const std::string& text,
                                  InputFormat format = InputFormat::kAuto);

// "sse4.1" -> "sse4_1": a kernel's name as a test name.
std::string TestName(const char* kernel_name);

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_SOLVER_TEST_PUZZLES_H_
