// GoogleTest checks on the daemon's answers to solve requests, for the suites that send them
// in-process (batch_test) or over a connection (daemon_test, bounded_test, tls_test). Header
// only, so that sudokud_test_support, which the soak client links too, does not need GoogleTest.
//
// Thread-safety: call from the test's thread, as GoogleTest's assertions are.
#ifndef SUDOKU_TESTS_DAEMON_SOLVE_CHECKS_H_
#define SUDOKU_TESTS_DAEMON_SOLVE_CHECKS_H_

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "proto/sudoku.pb.h"
#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"

namespace sudoku::testing {

// Every puzzle of `puzzles` (all solvable) answered SOLVED with a valid solution.
inline void ExpectAllSolved(const wire::SolveResponse& response,
                            const std::vector<std::string>& puzzles) {
  ASSERT_EQ(response.verdicts_size(), static_cast<int>(puzzles.size()));
  ASSERT_EQ(response.solution_counts_size(), static_cast<int>(puzzles.size()));
  ASSERT_EQ(response.guesses_size(), static_cast<int>(puzzles.size()));
  ASSERT_EQ(response.solutions().size(), puzzles.size() * 81);
  EXPECT_EQ(response.errors_size(), 0);
  for (size_t i = 0; i < puzzles.size(); ++i) {
    const int at = static_cast<int>(i);
    EXPECT_EQ(response.verdicts(at), wire::SOLVED) << "puzzle " << i;
    EXPECT_EQ(response.solution_counts(at), 1u) << "puzzle " << i;
    EXPECT_TRUE(IsSolutionOf(puzzles[i], response.solutions().substr(i * 81, 81)))
        << "puzzle " << i << ": " << puzzles[i];
  }
}

// Sends `count` generated puzzles as batch `batch_id` and checks every answer: the daemon serves
// this connection. `Client` is a WireClient or a TlsClient (tls_support.h). The default count is
// small, to fit the lowest --max-batch and --max-frame-bytes the tests set.
template <typename Client>
void ExpectServed(Client& client, uint64_t batch_id, int count = 5) {
  SCOPED_TRACE("batch " + std::to_string(batch_id));
  const auto puzzles = GeneratePuzzles(count, 28, static_cast<uint32_t>(batch_id));
  client.SendSolve(batch_id, puzzles);
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_solve())
      << (response ? response->ShortDebugString() : "closed");
  EXPECT_EQ(response->solve().batch_id(), batch_id);
  ExpectAllSolved(response->solve(), puzzles);
}

// The answer to {kSeventeenClues, an empty grid, kUnsolvable} at solution limit 2: solved with
// one solution, multiple with two counted and its first solution given, unsolvable with none.
inline void ExpectLimitTwoAnswers(const wire::SolveResponse& response) {
  const std::string empty(81, '.');
  ASSERT_EQ(response.verdicts_size(), 3);
  EXPECT_EQ(response.verdicts(0), wire::SOLVED);
  EXPECT_EQ(response.verdicts(1), wire::MULTIPLE);
  EXPECT_EQ(response.verdicts(2), wire::UNSOLVABLE);
  EXPECT_EQ(response.solution_counts(0), 1u);
  EXPECT_EQ(response.solution_counts(1), 2u);
  EXPECT_EQ(response.solution_counts(2), 0u);
  ASSERT_EQ(response.solutions().size(), 2u * 81);
  EXPECT_TRUE(IsSolutionOf(kSeventeenClues, response.solutions().substr(0, 81)));
  EXPECT_TRUE(IsSolutionOf(empty, response.solutions().substr(81, 81)));
}

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_DAEMON_SOLVE_CHECKS_H_
