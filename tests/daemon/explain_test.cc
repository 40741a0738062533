// Explain and rate in the daemon: ExplainPuzzle() and SolveBatch()'s rating columns on their
// own, then both through a real sudokud on one connection, mixed with plain batches.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "daemon/request_work.h"
#include "proto/codec.h"
#include "solver/logic.h"
#include "solver/rating.h"
#include "tests/daemon/wire_client.h"
#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"

namespace sudoku::daemon {
namespace {

using ::sudoku::testing::kSimplePuzzle;
using ::sudoku::testing::kUnsolvable;

using testing::IsSolutionOf;

constexpr char kSimpleSolution[] =
    "613574982528619437479382156136925748792846315845731269384267591967153824251498673";
// From tests/data/logic_steps.txt: step 24 (0-based) is a pointing step.
constexpr char kPointing[] =
    "17.........9.....6..5......76.2.81..5...1..84...9......8...1...641.5...99..76...8";

std::string Serialize(const wire::Request& request) {
  std::string body;
  request.SerializeToString(&body);
  return body;
}

TEST(ExplainPuzzle, ParsesAsExplainAndAnswersWithTheSteps) {
  wire::Request sent;
  sent.mutable_explain()->set_request_id(9);
  sent.mutable_explain()->set_puzzle(kPointing);
  wire::Request request;
  ASSERT_EQ(wire::DecodeRequest(Serialize(sent), &request), wire::RequestKind::kExplain);

  const std::atomic<bool> cancel{false};
  wire::ExplainResponse response;
  ASSERT_TRUE(ExplainPuzzle(request.explain(), cancel, &response));
  EXPECT_EQ(response.request_id(), 9u);
  EXPECT_EQ(response.verdict(), wire::SOLVED);
  EXPECT_TRUE(IsSolutionOf(kPointing, response.solution()));
  ASSERT_GT(response.steps_size(), 24);
  // Step 24: 2 in box 8 lies in column 6 (r8c6, r9c6), so r2c6 loses 2.
  const wire::ExplainStep& step = response.steps(24);
  EXPECT_EQ(step.technique(), wire::POINTING);
  EXPECT_EQ(step.placements_size(), 0);
  ASSERT_EQ(step.eliminations_size(), 1);
  EXPECT_EQ(step.eliminations(0), (1u * 9 + 5) * 9 + 2 - 1);  // r2c6, digit 2
  ASSERT_EQ(step.units_size(), 2);
  EXPECT_EQ(step.units(0), 18u + 7);  // box 8
  EXPECT_EQ(step.units(1), 9u + 5);   // column 6
  EXPECT_EQ(std::vector<uint32_t>(step.cells().begin(), step.cells().end()),
            (std::vector<uint32_t>{7 * 9 + 5, 8 * 9 + 5}));
  EXPECT_EQ(std::vector<uint32_t>(step.digits().begin(), step.digits().end()),
            std::vector<uint32_t>{2});
  // Every placement of the response fills the puzzle's blanks once, with the solution's digit.
  std::string grid = kPointing;
  for (const wire::ExplainStep& s : response.steps()) {
    for (uint32_t candidate : s.placements()) {
      const uint32_t cell = candidate / 9;
      EXPECT_EQ(grid[cell], '.');
      grid[cell] = static_cast<char>('1' + candidate % 9);
    }
  }
  EXPECT_EQ(grid, response.solution());
  EXPECT_EQ(response.level(), wire::INTERMEDIATE);
}

TEST(ExplainPuzzle, InvalidAndUnsolvablePuzzles) {
  const std::atomic<bool> cancel{false};
  wire::ExplainRequest request;
  wire::ExplainResponse response;
  request.set_request_id(3);
  request.set_puzzle(std::string(80, '.') + "x");
  ASSERT_TRUE(ExplainPuzzle(request, cancel, &response));
  EXPECT_EQ(response.request_id(), 3u);
  EXPECT_EQ(response.verdict(), wire::INVALID);
  EXPECT_EQ(response.error().position(), 81u);
  EXPECT_EQ(response.error().message(),
            "bad character 'x' (expected 1-9, or . 0 _ - * for a blank)");
  EXPECT_EQ(response.steps_size(), 0);

  request.set_puzzle("123");
  ASSERT_TRUE(ExplainPuzzle(request, cancel, &response));
  EXPECT_EQ(response.verdict(), wire::INVALID);
  EXPECT_EQ(response.error().position(), 0u);
  EXPECT_EQ(response.error().message(), "expected 81 cells, found 3");

  request.set_puzzle(kUnsolvable);
  ASSERT_TRUE(ExplainPuzzle(request, cancel, &response));
  EXPECT_EQ(response.verdict(), wire::UNSOLVABLE);
  EXPECT_EQ(response.steps_size(), 0);
  EXPECT_EQ(response.solution(), "");
}

// Both listeners drop an explanation cancelled before it starts: it is not worked for nobody.
TEST(ExplainPuzzle, CancelledBeforeItStartsDoesNotRun) {
  const std::atomic<bool> cancel{true};
  wire::ExplainRequest request;
  request.set_request_id(4);
  request.set_puzzle(kPointing);
  wire::ExplainResponse response;
  response.set_request_id(77);  // untouched
  EXPECT_FALSE(ExplainPuzzle(request, cancel, &response));
  EXPECT_EQ(response.request_id(), 77u);
  EXPECT_EQ(response.steps_size(), 0);
}

// An explanation cancelled while SE's path rates it stops there and answers nothing: the
// requester has gone. Golden Nugget's explanation takes some 80 ms here and its rating (SE's
// nested chains) a second, so the cancel, 150 ms in, comes mid-rating; under a sanitizer it may
// come before, and the rating then ends before its first step. The time from the cancel to the
// return is printed, a figure and not a limit.
TEST(ExplainPuzzle, CancelledWhileRatedStopsAndAnswersNothing) {
  constexpr char kGoldenNugget[] =
      ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....";
  std::atomic<bool> cancel{false};
  wire::ExplainRequest request;
  request.set_request_id(5);
  request.set_puzzle(kGoldenNugget);
  wire::ExplainResponse response;
  using Clock = std::chrono::steady_clock;
  Clock::time_point cancelled;
  std::thread requester_leaves([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    cancelled = Clock::now();
    cancel = true;
  });
  const bool answered = ExplainPuzzle(request, cancel, &response);
  const Clock::time_point returned = Clock::now();
  requester_leaves.join();
  EXPECT_FALSE(answered);
  std::cout << "returned "
            << std::chrono::duration_cast<std::chrono::milliseconds>(returned - cancelled).count()
            << " ms after the cancel\n";
}

TEST(SolveBatch, RatesEverySolvedPuzzleWhenAsked) {
  wire::SolveRequest request;
  request.set_batch_id(5);
  request.set_solution_limit(2);
  for (const std::string& puzzle :
       {kSimplePuzzle, kUnsolvable, std::string("bad"), std::string(kPointing)}) {
    request.add_puzzles(puzzle);
  }
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(request, cancel, &response, &counts));
  EXPECT_EQ(response.hardest_techniques_size(), 0);  // not asked
  EXPECT_EQ(response.levels_size(), 0);

  request.set_rate(true);
  ASSERT_TRUE(SolveBatch(request, cancel, &response, &counts));
  const auto column = [](const auto& field) {
    return std::vector<int64_t>(field.begin(), field.end());
  };
  EXPECT_EQ(column(response.hardest_techniques()),
            (std::vector<int64_t>{wire::NAKED_SINGLE, 0, 0, wire::NAKED_PAIR}));  // later on
  EXPECT_EQ(column(response.levels()),
            (std::vector<int64_t>{wire::SIMPLE, 0, 0, wire::INTERMEDIATE}));
  EXPECT_EQ(response.steps(0), 56u);
  EXPECT_EQ(response.steps(1), 0u);
  EXPECT_EQ(response.steps(2), 0u);
  Grid grid;
  ASSERT_FALSE(ParsePuzzle(kPointing, &grid));
  EXPECT_EQ(response.steps(3), logic::Rate(grid).steps);
  EXPECT_EQ(column(response.logic_guesses()), (std::vector<int64_t>{0, 0, 0, 0}));
  // HoDoKu's and SE's scales, from the same steps; zero for the puzzles not rated.
  const rating::Scales scales = rating::RateGrid(grid).scales;
  EXPECT_EQ(column(response.hodoku_levels()),
            (std::vector<int64_t>{wire::HODOKU_EASY, 0, 0, static_cast<int>(scales.hodoku_level)}));
  EXPECT_EQ(column(response.hodoku_scores()),
            (std::vector<int64_t>{224, 0, 0, scales.hodoku_score}));  // 56 naked singles
  // SE 2.0, as serate rates it: a direct hidden pair where no hidden single is left.
  EXPECT_EQ(column(response.se_ratings()), (std::vector<int64_t>{20, 0, 0, scales.se_tenths}));
  EXPECT_EQ(response.solutions().substr(0, 81), kSimpleSolution);
}

// A rating scope fills its path's columns, the very numbers of both, and leaves the other's
// empty.
TEST(SolveBatch, RatesByTheOnePathTheScopeNames) {
  wire::SolveRequest request;
  request.set_batch_id(6);
  request.set_rate(true);
  for (const std::string& puzzle : {kSimplePuzzle, kUnsolvable, std::string(kPointing)}) {
    request.add_puzzles(puzzle);
  }
  std::atomic<bool> cancel{false};
  wire::SolveResponse both;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(request, cancel, &both, &counts));
  const auto column = [](const auto& field) {
    return std::vector<int64_t>(field.begin(), field.end());
  };

  request.set_rating_scope(wire::HODOKU_PATH);
  wire::SolveResponse hodoku;
  ASSERT_TRUE(SolveBatch(request, cancel, &hodoku, &counts));
  EXPECT_EQ(column(hodoku.hardest_techniques()), column(both.hardest_techniques()));
  EXPECT_EQ(column(hodoku.steps()), column(both.steps()));
  EXPECT_EQ(column(hodoku.levels()), column(both.levels()));
  EXPECT_EQ(column(hodoku.logic_guesses()), column(both.logic_guesses()));
  EXPECT_EQ(column(hodoku.hodoku_levels()), column(both.hodoku_levels()));
  EXPECT_EQ(column(hodoku.hodoku_scores()), (std::vector<int64_t>{224, 0, both.hodoku_scores(2)}));
  EXPECT_EQ(hodoku.se_ratings_size(), 0);
  EXPECT_EQ(hodoku.se_pearls_size(), 0);
  EXPECT_EQ(hodoku.se_diamonds_size(), 0);

  request.set_rating_scope(wire::SE_PATH);
  wire::SolveResponse se;
  ASSERT_TRUE(SolveBatch(request, cancel, &se, &counts));
  EXPECT_EQ(se.hardest_techniques_size(), 0);
  EXPECT_EQ(se.steps_size(), 0);
  EXPECT_EQ(se.levels_size(), 0);
  EXPECT_EQ(se.logic_guesses_size(), 0);
  EXPECT_EQ(se.hodoku_levels_size(), 0);
  EXPECT_EQ(se.hodoku_scores_size(), 0);
  EXPECT_EQ(column(se.se_ratings()), (std::vector<int64_t>{20, 0, both.se_ratings(2)}));
  EXPECT_EQ(column(se.se_pearls()), column(both.se_pearls()));
  EXPECT_EQ(column(se.se_diamonds()), column(both.se_diamonds()));
  // The solving columns are the same whatever the scope.
  EXPECT_EQ(se.solutions(), both.solutions());
  EXPECT_EQ(column(se.verdicts()), column(both.verdicts()));
}

// Through a real daemon: explain requests and rated batches on one connection.
TEST(SudokudExplain, ServesExplainAndRateOnOneConnection) {
  testing::DaemonProcess daemon({"--listen", "127.0.0.1:0"});
  testing::WireClient client(daemon.port());
  wire::Request explain;
  explain.mutable_explain()->set_request_id(77);
  explain.mutable_explain()->set_puzzle(kPointing);
  client.Send(explain);
  wire::Request solve;
  solve.mutable_solve()->set_batch_id(78);
  solve.mutable_solve()->set_rate(true);
  solve.mutable_solve()->add_puzzles(kSimplePuzzle);
  client.Send(solve);
  explain.mutable_explain()->set_request_id(79);
  explain.mutable_explain()->set_puzzle("1");
  client.Send(explain);

  int seen = 0;
  for (int i = 0; i < 3; ++i) {
    const auto response = client.Read();
    ASSERT_TRUE(response.has_value());
    if (response->has_explain() && response->explain().request_id() == 77) {
      EXPECT_EQ(response->explain().verdict(), wire::SOLVED);
      EXPECT_EQ(response->explain().steps(24).technique(), wire::POINTING);
      Grid grid;
      ASSERT_FALSE(ParsePuzzle(kPointing, &grid));
      const rating::Scales scales = rating::RateGrid(grid).scales;
      EXPECT_EQ(response->explain().hodoku_level(), static_cast<int>(scales.hodoku_level));
      EXPECT_EQ(response->explain().hodoku_score(), scales.hodoku_score);
      EXPECT_EQ(response->explain().se_rating(), scales.se_tenths);
      EXPECT_EQ(scales.hodoku_level, rating::HodokuLevel::kMedium);  // pointing and pairs
      seen |= 1;
    } else if (response->has_solve()) {
      EXPECT_EQ(response->solve().batch_id(), 78u);
      ASSERT_EQ(response->solve().levels_size(), 1);
      EXPECT_EQ(response->solve().levels(0), wire::SIMPLE);
      EXPECT_EQ(response->solve().steps(0), 56u);
      EXPECT_EQ(response->solve().hodoku_levels(0), wire::HODOKU_EASY);
      EXPECT_EQ(response->solve().hodoku_scores(0), 224u);
      EXPECT_EQ(response->solve().se_ratings(0), 20u);
      seen |= 2;
    } else {
      ASSERT_TRUE(response->has_explain()) << response->ShortDebugString();
      EXPECT_EQ(response->explain().request_id(), 79u);
      EXPECT_EQ(response->explain().verdict(), wire::INVALID);
      EXPECT_EQ(response->explain().error().message(), "expected 81 cells, found 1");
      seen |= 4;
    }
  }
  EXPECT_EQ(seen, 7);
}

}  // namespace
}  // namespace sudoku::daemon
