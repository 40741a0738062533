#include "daemon/batch.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "proto/framing.h"
#include "solver/solver.h"
#include "tests/daemon/wire_client.h"
#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"

namespace sudoku::daemon {
namespace {

using ::sudoku::testing::kSeventeenClues;
using ::sudoku::testing::kUnsolvable;

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

std::string Serialize(const wire::Request& request) {
  std::string body;
  request.SerializeToString(&body);
  return body;
}

TEST(ParseRequest, ReadsASolveRequestAndReusesItsStrings) {
  wire::Request sent;
  *sent.mutable_solve() = MakeRequest(7, {kSeventeenClues, kUnsolvable, "short"}, 2);
  wire::Request request;
  ASSERT_EQ(ParseRequest(Serialize(sent), &request), RequestKind::kSolve);
  EXPECT_EQ(request.solve().ShortDebugString(), sent.solve().ShortDebugString());
  const std::string* first = &request.solve().puzzles(0);

  // The next parse replaces everything and reuses the same string objects.
  wire::Request next;
  *next.mutable_solve() = MakeRequest(8, {kUnsolvable});
  ASSERT_EQ(ParseRequest(Serialize(next), &request), RequestKind::kSolve);
  EXPECT_EQ(request.solve().ShortDebugString(), next.solve().ShortDebugString());
  EXPECT_EQ(&request.solve().puzzles(0), first);
}

TEST(ParseRequest, TellsAMissingKindFromAnEmptyBatch) {
  wire::Request request;
  EXPECT_EQ(ParseRequest("", &request), RequestKind::kNone);
  // Field 9 (varint 1): a kind this daemon does not know.
  EXPECT_EQ(ParseRequest(std::string("\x48\x01", 2), &request), RequestKind::kNone);
  // Field 1 present but empty: a SolveRequest with no puzzles.
  EXPECT_EQ(ParseRequest(std::string("\x0a\x00", 2), &request), RequestKind::kSolve);
  EXPECT_EQ(request.solve().puzzles_size(), 0);
  // An unknown field beside the solve request is ignored.
  EXPECT_EQ(ParseRequest(std::string("\x48\x01\x0a\x02\x08\x05", 6), &request),
            RequestKind::kSolve);
  EXPECT_EQ(request.solve().batch_id(), 5u);
}

TEST(ParseRequest, RejectsBytesThatAreNotARequest) {
  wire::Request request;
  EXPECT_EQ(ParseRequest(std::string("\xff\xff\xff\xff\xff", 5), &request),
            RequestKind::kMalformed);
  // A solve field whose length runs past the end.
  EXPECT_EQ(ParseRequest(std::string("\x0a\x05\x08", 3), &request), RequestKind::kMalformed);
  // An end-group tag after a whole solve field: protobuf stops there without an error, and the
  // bytes after it would be ignored (found by fuzz_request).
  EXPECT_EQ(ParseRequest(std::string("\x0a\x02\x08\x05\x0c\x01\x02", 7), &request),
            RequestKind::kMalformed);
}

TEST(ParseRequest, FieldOneWithAnotherWireTypeIsNotASolveRequest) {
  wire::Request request;
  // Field 1 as a varint: an unknown field to protobuf, so no kind is set.
  EXPECT_EQ(ParseRequest(std::string("\x08\x01", 2), &request), RequestKind::kNone);
}

TEST(ParseRequest, TellsEachKindByItsFieldAndWireType) {
  wire::Request request;
  // Fields 2, 3 and 4 as empty messages: stats, explain, generate.
  EXPECT_EQ(ParseRequest(std::string("\x12\x00", 2), &request), RequestKind::kStats);
  EXPECT_EQ(ParseRequest(std::string("\x1a\x00", 2), &request), RequestKind::kExplain);
  EXPECT_EQ(ParseRequest(std::string("\x22\x00", 2), &request), RequestKind::kGenerate);
  // The same numbers as varints are unknown fields.
  EXPECT_EQ(ParseRequest(std::string("\x10\x01", 2), &request), RequestKind::kNone);
  EXPECT_EQ(ParseRequest(std::string("\x18\x01", 2), &request), RequestKind::kNone);
  EXPECT_EQ(ParseRequest(std::string("\x20\x01", 2), &request), RequestKind::kNone);
  // Two kinds in one body: the last wins, as protobuf's oneof has it.
  EXPECT_EQ(ParseRequest(std::string("\x12\x00\x0a\x00", 4), &request), RequestKind::kSolve);
  EXPECT_TRUE(request.has_solve());
  EXPECT_EQ(ParseRequest(std::string("\x0a\x00\x12\x00", 4), &request), RequestKind::kStats);
  EXPECT_TRUE(request.has_stats());
}

TEST(CheckRequest, NamesTheFaultOfEachRefusedFrame) {
  wire::Request request;
  RequestKind kind;
  auto fault = CheckRequest(std::string("\xff\xff", 2), 3, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(kind, RequestKind::kMalformed);
  EXPECT_EQ(fault->kind(), wire::ProtocolFault::MALFORMED);
  EXPECT_EQ(fault->message(), "frame 3 of 2 bytes does not decode as a Request");

  fault = CheckRequest("", 4, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), wire::ProtocolFault::EMPTY_REQUEST);
  EXPECT_EQ(fault->message(),
            "frame 4 is a Request with no kind set (expected solve, stats, explain or generate)");

  wire::Request big;
  *big.mutable_solve() = MakeRequest(9, std::vector<std::string>(11, kSeventeenClues));
  fault = CheckRequest(Serialize(big), 5, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(kind, RequestKind::kSolve);
  EXPECT_EQ(fault->kind(), wire::ProtocolFault::BATCH_TOO_LARGE);
  EXPECT_EQ(fault->message(), "frame 5: batch 9 has 11 puzzles, more than --max-batch 10");

  // At the limit, and empty: both accepted.
  *big.mutable_solve() = MakeRequest(9, std::vector<std::string>(10, kSeventeenClues));
  EXPECT_FALSE(CheckRequest(Serialize(big), 6, 10, &request, &kind));
  EXPECT_EQ(kind, RequestKind::kSolve);
  EXPECT_EQ(request.solve().puzzles_size(), 10);
  EXPECT_FALSE(CheckRequest(std::string("\x0a\x00", 2), 7, 10, &request, &kind));
  EXPECT_EQ(request.solve().puzzles_size(), 0);
}

TEST(CheckRequest, RefusesASolutionLimitAboveTheCap) {
  wire::Request request;
  RequestKind kind;
  wire::Request greedy;
  *greedy.mutable_solve() = MakeRequest(6, {std::string(81, '.')}, wire::kMaxSolutionLimit + 1);
  auto fault = CheckRequest(Serialize(greedy), 2, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), wire::ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(fault->message(),
            "frame 2: batch 6 asks for up to 1000001 solutions a puzzle, more than the cap of "
            "1000000");
  greedy.mutable_solve()->set_solution_limit(UINT32_MAX);
  fault = CheckRequest(Serialize(greedy), 3, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->message(),
            "frame 3: batch 6 asks for up to 4294967295 solutions a puzzle, more than the cap of "
            "1000000");

  greedy.mutable_solve()->set_solution_limit(wire::kMaxSolutionLimit);
  EXPECT_FALSE(CheckRequest(Serialize(greedy), 4, 10, &request, &kind));
}

TEST(CheckRequest, RefusesPackedPuzzlesThatCannotBeRead) {
  wire::Request request;
  RequestKind kind;
  wire::Request both;
  *both.mutable_solve() = MakePackedRequest(3, {kSeventeenClues}, true);
  both.mutable_solve()->add_puzzles(kSeventeenClues);
  auto fault = CheckRequest(Serialize(both), 2, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), wire::ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(fault->message(),
            "frame 2: batch 3 has both puzzles (1) and packed_puzzles (41 bytes); a batch uses "
            "one or the other");

  wire::Request ragged;
  *ragged.mutable_solve() = MakePackedRequest(4, {kSeventeenClues, kSeventeenClues}, true);
  ragged.mutable_solve()->mutable_packed_puzzles()->pop_back();
  fault = CheckRequest(Serialize(ragged), 3, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), wire::ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(fault->message(),
            "frame 3: batch 4 has 81 bytes of packed_puzzles, not a multiple of 41 (the bytes of "
            "one packed puzzle)");

  wire::Request big;
  *big.mutable_solve() = MakePackedRequest(5, std::vector<std::string>(11, kSeventeenClues), true);
  fault = CheckRequest(Serialize(big), 4, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), wire::ProtocolFault::BATCH_TOO_LARGE);
  EXPECT_EQ(fault->message(), "frame 4: batch 5 has 11 puzzles, more than --max-batch 10");

  *big.mutable_solve() = MakePackedRequest(5, std::vector<std::string>(10, kSeventeenClues), true);
  EXPECT_FALSE(CheckRequest(Serialize(big), 5, 10, &request, &kind));
  EXPECT_EQ(PuzzleCount(request.solve()), 10);
}

TEST(SolveBatch, SolvesEveryPuzzleInOrderAcrossThreads) {
  // Large enough to be split across threads (kParallelGrain).
  const auto puzzles = GeneratePuzzles(1000, 30, 7);
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  BatchCounts counts;
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
  BatchCounts counts;
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
      {2, 6, "bad character 'x' (expected 1-9, or . 0 _ - for a blank)"},
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
  BatchCounts counts;
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
  wire::SolveRequest request = MakePackedRequest(2, {kSeventeenClues, row_repeat, kSeventeenClues, kSeventeenClues}, true);
  std::string& packed = *request.mutable_packed_puzzles();
  packed[2 * kPackedBytes + 20] = static_cast<char>(0xc0);      // r5c5 (cell 41) = 12
  packed[3 * kPackedBytes + 40] = static_cast<char>(packed[3 * kPackedBytes + 40] | 0x30);
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  BatchCounts counts;
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
  BatchCounts counts;
  ASSERT_TRUE(SolveBatch(MakeRequest(5, {kSeventeenClues, empty, kUnsolvable}, 2), cancel, &response,
                         &counts));
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
  EXPECT_EQ(counts.multiple, 1u);

  // Limit 0 means "the first solution": the empty grid is then simply solved.
  ASSERT_TRUE(SolveBatch(MakeRequest(6, {empty}, 0), cancel, &response, &counts));
  EXPECT_EQ(response.verdicts(0), wire::SOLVED);
  EXPECT_EQ(response.solution_counts(0), 1u);
}

TEST(SolveBatch, ReusedResponseCarriesNothingOver) {
  std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  BatchCounts counts;
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
  BatchCounts counts;
  ASSERT_TRUE(SolveBatch(MakeRequest(99, {}), cancel, &response, &counts));
  EXPECT_EQ(response.batch_id(), 99u);
  EXPECT_EQ(response.verdicts_size(), 0);
  EXPECT_EQ(response.solutions(), "");
  EXPECT_EQ(counts.total(), 0u);
}

TEST(SolveBatch, StopsWhenCancelled) {
  std::atomic<bool> cancel{true};
  wire::SolveResponse response;
  BatchCounts counts;
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
  BatchCounts counts;
  EXPECT_FALSE(SolveBatch(
      MakeRequest(1, std::vector<std::string>(100, std::string(81, '.')), wire::kMaxSolutionLimit),
      cancel, &response, &counts));
  canceller.join();
}

}  // namespace
}  // namespace sudoku::daemon
