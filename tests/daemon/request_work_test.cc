// The work of a request without the network: what each kind costs and whether it is long work
// (the rules both listeners apply), and SolveBatch's answers, order, errors and cancellation.
// Explanations and generation have their own files (explain_test.cc, generate_test.cc).
#include "daemon/request_work.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "proto/codec.h"
#include "proto/framing.h"
#include "solver/solver.h"
#include "tests/daemon/solve_checks.h"
#include "tests/daemon/wire_client.h"
#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"

namespace sudoku::daemon {
namespace {

using ::sudoku::testing::kSeventeenClues;
using ::sudoku::testing::kUnsolvable;

using testing::ExpectLimitTwoAnswers;
using testing::GeneratePuzzles;
using testing::IsSolutionOf;

wire::SolveRequest MakeRequest(uint64_t id, const std::vector<std::string>& puzzles,
                               uint32_t limit = 0) {
  wire::SolveRequest request;
  request.set_batch_id(id);
  request.set_solution_limit(limit);
  for (const auto& puzzle : puzzles) request.add_puzzles(puzzle);
  return request;
}

// The same batch with its puzzles packed (each must be 81 digits and blanks) and, with
// `pack_solutions`, asking for packed solutions.
wire::SolveRequest MakePackedRequest(uint64_t id, const std::vector<std::string>& puzzles,
                                     bool pack_solutions, uint32_t limit = 0) {
  wire::SolveRequest request = MakeRequest(id, {}, limit);
  request.set_pack_solutions(pack_solutions);
  for (const auto& puzzle : puzzles) {
    PackedGrid packed;
    EXPECT_TRUE(PackPuzzle(puzzle, packed)) << puzzle;
    request.mutable_packed_puzzles()->append(packed.begin(), packed.end());
  }
  return request;
}

// Packed solution `k` of `response`, unpacked.
std::string PackedSolution(const wire::SolveResponse& response, size_t k) {
  std::string text(kCells, ' ');
  UnpackDigits(PackedAt(response.packed_solutions(), k), text.data());
  return text;
}

TEST(RequestWork, CostsThePuzzlesOfABatchOrAGenerationAndOneForAnythingElse) {
  wire::Request request;
  request.mutable_solve()->add_puzzles(kSeventeenClues);
  request.mutable_solve()->add_puzzles(kSeventeenClues);
  EXPECT_EQ(CostOf(request, wire::RequestKind::kSolve), 2u);
  request.mutable_solve()->set_packed_puzzles(std::string(3 * wire::kPackedPuzzleBytes, '\0'));
  request.mutable_solve()->clear_puzzles();
  EXPECT_EQ(CostOf(request, wire::RequestKind::kSolve), 3u);
  request.mutable_solve()->clear_packed_puzzles();
  EXPECT_EQ(CostOf(request, wire::RequestKind::kSolve), 1u);  // an empty batch still costs one

  request.mutable_generate()->set_count(1000);
  EXPECT_EQ(CostOf(request, wire::RequestKind::kGenerate), 1000u);
  request.mutable_explain()->set_puzzle(kSeventeenClues);
  EXPECT_EQ(CostOf(request, wire::RequestKind::kExplain), 1u);
  request.mutable_stats();
  EXPECT_EQ(CostOf(request, wire::RequestKind::kStats), 1u);
}

TEST(RequestWork, LongWorkIsACountPastTwoAnExplanationOrAGeneration) {
  wire::Request request;
  for (const uint32_t limit : {0u, 1u, 2u}) {
    request.mutable_solve()->set_solution_limit(limit);
    EXPECT_FALSE(IsLongWork(request, wire::RequestKind::kSolve)) << limit;
  }
  request.mutable_solve()->set_solution_limit(3);
  EXPECT_TRUE(IsLongWork(request, wire::RequestKind::kSolve));
  request.mutable_explain()->set_puzzle(kSeventeenClues);
  EXPECT_TRUE(IsLongWork(request, wire::RequestKind::kExplain));
  request.mutable_generate()->set_count(1);
  EXPECT_TRUE(IsLongWork(request, wire::RequestKind::kGenerate));
  request.mutable_stats();
  EXPECT_FALSE(IsLongWork(request, wire::RequestKind::kStats));
}

// The JSON API builds its requests in memory and takes their kind from the oneof: the kind that
// DecodeRequest() finds in the same request's frame.
TEST(RequestWork, TheKindOfARequestBuiltInMemoryIsItsOneof) {
  wire::Request request;
  EXPECT_EQ(KindOf(request), wire::RequestKind::kNone);
  request.mutable_solve();
  EXPECT_EQ(KindOf(request), wire::RequestKind::kSolve);
  request.mutable_stats();
  EXPECT_EQ(KindOf(request), wire::RequestKind::kStats);
  request.mutable_explain();
  EXPECT_EQ(KindOf(request), wire::RequestKind::kExplain);
  request.mutable_generate();
  EXPECT_EQ(KindOf(request), wire::RequestKind::kGenerate);

  // The same kind DecodeRequest() finds in the request's frame.
  for (const wire::RequestKind kind : {wire::RequestKind::kSolve, wire::RequestKind::kStats,
                                       wire::RequestKind::kExplain,
                                       wire::RequestKind::kGenerate}) {
    wire::Request sent;
    switch (kind) {
      case wire::RequestKind::kSolve: sent.mutable_solve()->set_batch_id(1); break;
      case wire::RequestKind::kStats: sent.mutable_stats(); break;
      case wire::RequestKind::kExplain: sent.mutable_explain()->set_request_id(1); break;
      case wire::RequestKind::kGenerate: sent.mutable_generate()->set_count(1); break;
      case wire::RequestKind::kMalformed:
      case wire::RequestKind::kNone: break;
    }
    wire::Request decoded;
    EXPECT_EQ(wire::DecodeRequest(sent.SerializeAsString(), &decoded), KindOf(sent));
    EXPECT_EQ(KindOf(decoded), KindOf(sent));
  }
}

TEST(SolveBatch, SolvesEveryPuzzleInOrderAcrossThreads) {
  // Large enough to be split across threads (kParallelGrain).
  const auto puzzles = GeneratePuzzles(1000, 30, 7);
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(MakeRequest(42, puzzles), cancel, &response, &counts));
  EXPECT_EQ(response.batch_id(), 42u);
  ASSERT_EQ(response.verdicts_size(), 1000);
  ASSERT_EQ(response.solution_counts_size(), 1000);
  ASSERT_EQ(response.guesses_size(), 1000);
  ASSERT_EQ(response.solutions().size(), 1000u * 81);
  EXPECT_EQ(response.errors_size(), 0);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(response.verdicts(i), wire::SOLVED) << i;
    EXPECT_EQ(response.solution_counts(i), 1u) << i;
    EXPECT_TRUE(IsSolutionOf(puzzles[i], response.solutions().substr(i * 81, 81))) << i;
  }
  EXPECT_EQ(counts.solved, 1000u);
  EXPECT_EQ(counts.total(), 1000u);
}

TEST(SolveBatch, ReportsInvalidPuzzlesWithoutFailingTheBatch) {
  std::string row_repeat(81, '.');
  row_repeat[19] = '5';  // r3c2
  row_repeat[24] = '5';  // r3c7
  std::string column_repeat(81, '.');
  column_repeat[3] = '7';   // r1c4
  column_repeat[48] = '7';  // r6c4
  std::string box_repeat(81, '.');
  box_repeat[30] = '2';  // r4c4
  box_repeat[40] = '2';  // r5c5
  std::string bad_character(kSeventeenClues);
  bad_character[5] = 'x';
  const std::vector<std::string> puzzles = {
      kSeventeenClues,       std::string(80, '.'), bad_character, row_repeat,  kSeventeenClues,
      column_repeat, box_repeat,           "",            kUnsolvable, std::string(82, '1')};
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(MakeRequest(1, puzzles), cancel, &response, &counts));

  const std::vector<int> verdicts(response.verdicts().begin(), response.verdicts().end());
  EXPECT_EQ(verdicts, (std::vector<int>{wire::SOLVED, wire::INVALID, wire::INVALID, wire::INVALID,
                                        wire::SOLVED, wire::INVALID, wire::INVALID, wire::INVALID,
                                        wire::UNSOLVABLE, wire::INVALID}));
  const std::vector<uint32_t> solution_counts(response.solution_counts().begin(),
                                              response.solution_counts().end());
  EXPECT_EQ(solution_counts, (std::vector<uint32_t>{1, 0, 0, 0, 1, 0, 0, 0, 0, 0}));
  // Solutions only for the two solved puzzles, packed.
  ASSERT_EQ(response.solutions().size(), 2u * 81);
  EXPECT_TRUE(IsSolutionOf(kSeventeenClues, response.solutions().substr(0, 81)));
  EXPECT_EQ(response.solutions().substr(0, 81), response.solutions().substr(81, 81));

  struct Expected {
    uint32_t index;
    uint32_t position;
    std::string message;
  };
  const std::vector<Expected> expected = {
      {1, 0, "expected 81 cells, found 80"},
      {2, 6, "bad character 'x' (expected 1-9, or . 0 _ - * for a blank)"},
      {3, 25, "digit 5 repeated in row 3 (r3c2 and r3c7)"},
      {5, 49, "digit 7 repeated in column 4 (r1c4 and r6c4)"},
      {6, 41, "digit 2 repeated in box 5 (r4c4 and r5c5)"},
      {7, 0, "expected 81 cells, found 0"},
      {9, 0, "expected 81 cells, found 82"},
  };
  ASSERT_EQ(response.errors_size(), static_cast<int>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& error = response.errors(static_cast<int>(i));
    EXPECT_EQ(error.index(), expected[i].index) << i;
    EXPECT_EQ(error.position(), expected[i].position) << i;
    EXPECT_EQ(error.message(), expected[i].message) << i;
  }
  EXPECT_EQ(counts.solved, 2u);
  EXPECT_EQ(counts.invalid, 7u);
  EXPECT_EQ(counts.unsolvable, 1u);
  EXPECT_EQ(counts.multiple, 0u);
}

// Packed in, text out and packed out: the same verdicts, counts and solutions as the text batch.
TEST(SolveBatch, AnswersPackedPuzzlesAsTheirText) {
  std::vector<std::string> puzzles = GeneratePuzzles(300, 30, 11);
  puzzles.insert(puzzles.begin() + 7, kUnsolvable);
  puzzles.insert(puzzles.begin() + 100, std::string(81, '.'));
  std::atomic<bool> cancel{false};
  wire::SolveResponse text;
  wire::SolveResponse packed_text;
  wire::SolveResponse packed;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(MakeRequest(8, puzzles, 2), cancel, &text, &counts));
  ASSERT_TRUE(SolveBatch(MakePackedRequest(8, puzzles, false, 2), cancel, &packed_text, &counts));
  ASSERT_TRUE(SolveBatch(MakePackedRequest(8, puzzles, true, 2), cancel, &packed, &counts));
  EXPECT_EQ(packed_text.ShortDebugString(), text.ShortDebugString());

  EXPECT_EQ(packed.solutions(), "");
  ASSERT_EQ(packed.packed_solutions().size(), (puzzles.size() - 1) * kPackedBytes);
  for (size_t k = 0; k < puzzles.size() - 1; ++k) {
    EXPECT_EQ(PackedSolution(packed, k), text.solutions().substr(k * kCells, kCells)) << k;
  }
  packed.clear_packed_solutions();
  text.clear_solutions();
  EXPECT_EQ(packed.ShortDebugString(), text.ShortDebugString());
  EXPECT_EQ(counts.unsolvable, 1u);
  EXPECT_EQ(counts.total(), puzzles.size());
}

TEST(SolveBatch, ReportsInvalidPackedPuzzlesByCell) {
  std::string row_repeat(81, '.');
  row_repeat[19] = '5';  // r3c2
  row_repeat[24] = '5';  // r3c7
  wire::SolveRequest request =
      MakePackedRequest(2, {kSeventeenClues, row_repeat, kSeventeenClues, kSeventeenClues}, true);
  std::string& packed = *request.mutable_packed_puzzles();
  packed[2 * kPackedBytes + 20] = static_cast<char>(0xc0);      // r5c5 (cell 41) = 12
  packed[3 * kPackedBytes + 40] = static_cast<char>(packed[3 * kPackedBytes + 40] | 0x30);
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(request, cancel, &response, &counts));
  const std::vector<int> verdicts(response.verdicts().begin(), response.verdicts().end());
  EXPECT_EQ(verdicts,
            (std::vector<int>{wire::SOLVED, wire::INVALID, wire::INVALID, wire::INVALID}));
  ASSERT_EQ(response.packed_solutions().size(), 1u * kPackedBytes);
  EXPECT_TRUE(IsSolutionOf(kSeventeenClues, PackedSolution(response, 0)));
  ASSERT_EQ(response.errors_size(), 3);
  EXPECT_EQ(response.errors(0).ShortDebugString(),
            "index: 1 position: 25 message: \"digit 5 repeated in row 3 (r3c2 and r3c7)\"");
  EXPECT_EQ(response.errors(1).ShortDebugString(),
            "index: 2 position: 42 message: \"packed cell r5c6 is 12 (expected 1-9, or 0 for a "
            "blank)\"");
  EXPECT_EQ(response.errors(2).ShortDebugString(),
            "index: 3 position: 82 message: \"packed padding is 3 (expected 0)\"");
  EXPECT_EQ(counts.invalid, 3u);
}

TEST(SolveBatch, SolutionLimitTwoTellsUniqueFromMultiple) {
  const std::string empty(81, '.');
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(MakeRequest(5, {kSeventeenClues, empty, kUnsolvable}, 2), cancel,
                         &response, &counts));
  ExpectLimitTwoAnswers(response);
  EXPECT_EQ(counts.multiple, 1u);

  // Limit 0 means "the first solution": the empty grid is then simply solved.
  ASSERT_TRUE(SolveBatch(MakeRequest(6, {empty}, 0), cancel, &response, &counts));
  EXPECT_EQ(response.verdicts(0), wire::SOLVED);
  EXPECT_EQ(response.solution_counts(0), 1u);
}

TEST(SolveBatch, ReusedResponseCarriesNothingOver) {
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(MakeRequest(1, GeneratePuzzles(300, 30, 1)), cancel, &response, &counts));
  ASSERT_TRUE(SolveBatch(MakeRequest(2, {"bad"}), cancel, &response, &counts));
  EXPECT_EQ(response.batch_id(), 2u);
  EXPECT_EQ(response.verdicts_size(), 1);
  EXPECT_EQ(response.solutions(), "");
  ASSERT_EQ(response.errors_size(), 1);
  EXPECT_EQ(response.errors(0).message(), "expected 81 cells, found 3");
  EXPECT_EQ(counts.total(), 1u);
}

TEST(SolveBatch, EmptyBatchEchoesItsId) {
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(MakeRequest(99, {}), cancel, &response, &counts));
  EXPECT_EQ(response.batch_id(), 99u);
  EXPECT_EQ(response.verdicts_size(), 0);
  EXPECT_EQ(response.solutions(), "");
  EXPECT_EQ(counts.total(), 0u);
}

TEST(SolveBatch, StopsWhenCancelled) {
  std::atomic<bool> cancel{true};
  wire::SolveResponse response;
  wire::VerdictTally counts;
  EXPECT_FALSE(SolveBatch(MakeRequest(1, GeneratePuzzles(500, 30, 2)), cancel, &response, &counts));
}

// The search itself stops: counting the empty grid's solutions to the cap would take seconds
// per puzzle, and the batch has a hundred of them.
TEST(SolveBatch, StopsInsideASearchWhenCancelled) {
  std::atomic<bool> cancel{false};
  std::thread canceller([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel.store(true, std::memory_order_relaxed);
  });
  wire::SolveResponse response;
  wire::VerdictTally counts;
  EXPECT_FALSE(SolveBatch(
      MakeRequest(1, std::vector<std::string>(100, std::string(81, '.')), wire::kMaxSolutionLimit),
      cancel, &response, &counts));
  canceller.join();
}

}  // namespace
}  // namespace sudoku::daemon
