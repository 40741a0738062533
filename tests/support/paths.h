// Where the build put what the tests use: the one way a test finds a file or a binary.
//
// Thread-safety: a pure function (reads the environment, which the tests do not change).
#ifndef SUDOKU_TESTS_SUPPORT_PATHS_H_
#define SUDOKU_TESTS_SUPPORT_PATHS_H_

#include <string>
#include <string_view>

namespace sudoku::testing {

// The path named `name`: SUDOKU_SOURCE_DIR, SUDOKU_BUILD_DIR, SUDOKU_TEST_DATA_DIR,
// SUDOKU_SHARED_DATA_DIR (the public puzzle sets; it may not exist), SUDOKU_WEB_DIR, SUDOKUD_BIN,
// SUDOKU_CLIENT_BIN, SUDOKU_BENCH_BIN or TCP_ECHO_BIN. An environment variable of that name wins
// (to test installed binaries); otherwise the path this build recorded. An unknown name throws
// std::invalid_argument.
std::string TestPath(std::string_view name);

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_SUPPORT_PATHS_H_
