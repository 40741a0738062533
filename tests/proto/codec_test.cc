// The codec against protobuf's generated code: the hand encoder writes the bytes
// SerializeToString() writes, field by field; DecodeRequest() finds each kind as protobuf's
// oneof does; CheckRequest() refuses with the exact messages the daemon sends.
#include "proto/codec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "proto/framing.h"
#include "proto/sudoku.pb.h"
#include "tests/support/puzzles.h"

namespace sudoku::wire {
namespace {

using ::sudoku::testing::kSeventeenClues;
using ::sudoku::testing::kUnsolvable;

std::string Serialize(const Request& request) {
  std::string body;
  request.SerializeToString(&body);
  return body;
}

std::string Framed(const Request& request) {
  std::string frame = "prefix";
  AppendFrame(request, &frame);
  return frame;
}

Request SolveOf(const SolveFields& fields) {
  Request request;
  SolveRequest* solve = request.mutable_solve();
  solve->set_batch_id(fields.batch_id);
  solve->set_solution_limit(fields.solution_limit);
  solve->set_rate(fields.rate);
  solve->set_pack_solutions(fields.pack_solutions);
  solve->set_rating_scope(static_cast<RatingScope>(fields.rating_scope));
  return request;
}

// Stand-ins for packed puzzles: the encoder copies bytes, whatever they mean.
std::string PackedStandIn(size_t i) {
  std::string packed(kPackedPuzzleBytes, '\0');
  for (size_t k = 0; k < packed.size(); ++k) packed[k] = static_cast<char>(i * 7 + k * 13);
  return packed;
}

std::vector<SolveFields> EveryFieldCombination() {
  std::vector<SolveFields> all;
  for (const uint64_t batch_id : {uint64_t{0}, uint64_t{1}, uint64_t{300}, uint64_t{1} << 40,
                                  UINT64_MAX}) {
    for (const uint32_t limit : {0u, 1u, 2u, 200u, kMaxSolutionLimit, UINT32_MAX}) {
      for (const bool rate : {false, true}) {
        for (const bool pack_solutions : {false, true}) {
          // The scopes there are, and values a request may carry that name none (refused by
          // CheckRequest, but written as protobuf writes them: a negative one in ten bytes).
          for (const int32_t scope : {0, 1, 2, 3, 200, -1, INT32_MIN}) {
            all.push_back({batch_id, limit, rate, pack_solutions, scope});
          }
        }
      }
    }
  }
  return all;
}

// Text puzzles of every length the daemon takes (81 and 729 characters) and some it refuses
// per puzzle, in batches of 0, 1, 3 and 200 (a length prefix of two bytes).
TEST(AppendSolveFrame, WritesWhatProtobufWritesForTextPuzzles) {
  const std::vector<std::string> kinds = {kSeventeenClues, std::string(729, '.'), "short", ""};
  for (const SolveFields& fields : EveryFieldCombination()) {
    for (const size_t count : {size_t{0}, size_t{1}, size_t{3}, size_t{200}}) {
      std::vector<std::string> puzzles;
      for (size_t i = 0; i < count; ++i) puzzles.push_back(kinds[i % kinds.size()]);
      Request request = SolveOf(fields);
      for (const std::string& puzzle : puzzles) request.mutable_solve()->add_puzzles(puzzle);
      std::string frame = "prefix";
      AppendSolveFrame(
          fields, puzzles, [](const std::string& puzzle) { return std::string_view(puzzle); },
          &frame);
      ASSERT_EQ(frame, Framed(request)) << request.ShortDebugString();
    }
  }
}

TEST(AppendPackedSolveFrame, WritesWhatProtobufWritesForPackedPuzzles) {
  for (const SolveFields& fields : EveryFieldCombination()) {
    for (const size_t count : {size_t{0}, size_t{1}, size_t{3}, size_t{500}}) {
      Request request = SolveOf(fields);
      for (size_t i = 0; i < count; ++i) {
        request.mutable_solve()->mutable_packed_puzzles()->append(PackedStandIn(i));
      }
      std::string frame = "prefix";
      AppendPackedSolveFrame(fields, request.solve().packed_puzzles(), &frame);
      ASSERT_EQ(frame, Framed(request)) << count << " " << request.solve().batch_id();
    }
  }
}

// The encoder's frame decodes back to the same fields.
TEST(AppendSolveFrame, DecodesBackToItsFields) {
  const std::vector<std::string> puzzles = {kSeventeenClues, kUnsolvable};
  std::string frame;
  AppendSolveFrame(
      SolveFields{.batch_id = 77, .solution_limit = 2, .rate = true, .rating_scope = SE_PATH},
      puzzles, [](const std::string& puzzle) { return std::string_view(puzzle); }, &frame);
  const FrameHeader header = DecodeFrameHeader(frame, kDefaultMaxFrameBytes);
  ASSERT_EQ(header.status, FrameHeader::Status::kComplete);
  ASSERT_EQ(header.prefix_bytes + header.body_bytes, frame.size());
  Request request;
  ASSERT_EQ(DecodeRequest(std::string_view(frame).substr(header.prefix_bytes), &request),
            RequestKind::kSolve);
  EXPECT_EQ(request.solve().batch_id(), 77u);
  EXPECT_EQ(request.solve().solution_limit(), 2u);
  EXPECT_TRUE(request.solve().rate());
  EXPECT_FALSE(request.solve().pack_solutions());
  EXPECT_EQ(request.solve().rating_scope(), SE_PATH);
  ASSERT_EQ(request.solve().puzzles_size(), 2);
  EXPECT_EQ(request.solve().puzzles(1), kUnsolvable);
}

TEST(DecodeRequest, ReadsASolveRequestAndReusesItsStrings) {
  Request sent;
  sent.mutable_solve()->set_batch_id(7);
  sent.mutable_solve()->set_solution_limit(2);
  for (const std::string& puzzle : {kSeventeenClues, kUnsolvable, std::string("short")}) {
    sent.mutable_solve()->add_puzzles(puzzle);
  }
  Request request;
  ASSERT_EQ(DecodeRequest(Serialize(sent), &request), RequestKind::kSolve);
  EXPECT_EQ(request.solve().ShortDebugString(), sent.solve().ShortDebugString());
  const std::string* first = &request.solve().puzzles(0);

  // The next parse replaces everything and reuses the same string objects.
  Request next;
  next.mutable_solve()->set_batch_id(8);
  next.mutable_solve()->add_puzzles(kUnsolvable);
  ASSERT_EQ(DecodeRequest(Serialize(next), &request), RequestKind::kSolve);
  EXPECT_EQ(request.solve().ShortDebugString(), next.solve().ShortDebugString());
  EXPECT_EQ(&request.solve().puzzles(0), first);
}

// Each kind, encoded by protobuf, decodes to its kind with its fields, into one reused Request.
TEST(DecodeRequest, ReadsEachKindWithItsFields) {
  Request request;

  Request stats;
  stats.mutable_stats();
  ASSERT_EQ(DecodeRequest(Serialize(stats), &request), RequestKind::kStats);
  EXPECT_TRUE(request.has_stats());

  Request explain;
  explain.mutable_explain()->set_request_id(9);
  explain.mutable_explain()->set_puzzle(kSeventeenClues);
  ASSERT_EQ(DecodeRequest(Serialize(explain), &request), RequestKind::kExplain);
  EXPECT_EQ(request.explain().request_id(), 9u);
  EXPECT_EQ(request.explain().puzzle(), kSeventeenClues);

  Request generate;
  GenerateRequest* wanted = generate.mutable_generate();
  wanted->set_request_id(12);
  wanted->set_count(7);
  wanted->set_seed(99);
  wanted->set_first_index(1000);
  wanted->set_clues(24);
  wanted->set_symmetric(true);
  wanted->set_minimal(true);
  wanted->set_difficulty(EXPERT);
  ASSERT_EQ(DecodeRequest(Serialize(generate), &request), RequestKind::kGenerate);
  EXPECT_EQ(request.generate().ShortDebugString(), wanted->ShortDebugString());
  EXPECT_TRUE(request.generate().has_difficulty());

  // The same Request object then takes a solve request again, with nothing left of the others.
  Request solve;
  solve.mutable_solve()->set_packed_puzzles(PackedStandIn(3));
  solve.mutable_solve()->set_pack_solutions(true);
  ASSERT_EQ(DecodeRequest(Serialize(solve), &request), RequestKind::kSolve);
  EXPECT_EQ(request.solve().ShortDebugString(), solve.solve().ShortDebugString());
  EXPECT_EQ(PuzzleCount(request.solve()), 1);
}

TEST(DecodeRequest, TellsAMissingKindFromAnEmptyBatch) {
  Request request;
  EXPECT_EQ(DecodeRequest("", &request), RequestKind::kNone);
  // Field 9 (varint 1): a kind this build does not know.
  EXPECT_EQ(DecodeRequest(std::string("\x48\x01", 2), &request), RequestKind::kNone);
  // Field 1 present but empty: a SolveRequest with no puzzles.
  EXPECT_EQ(DecodeRequest(std::string("\x0a\x00", 2), &request), RequestKind::kSolve);
  EXPECT_EQ(request.solve().puzzles_size(), 0);
  // An unknown field beside the solve request is ignored.
  EXPECT_EQ(DecodeRequest(std::string("\x48\x01\x0a\x02\x08\x05", 6), &request),
            RequestKind::kSolve);
  EXPECT_EQ(request.solve().batch_id(), 5u);
}

TEST(DecodeRequest, RejectsBytesThatAreNotARequest) {
  Request request;
  EXPECT_EQ(DecodeRequest(std::string("\xff\xff\xff\xff\xff", 5), &request),
            RequestKind::kMalformed);
  // A solve field whose length runs past the end.
  EXPECT_EQ(DecodeRequest(std::string("\x0a\x05\x08", 3), &request), RequestKind::kMalformed);
  // An end-group tag after a whole solve field: protobuf stops there without an error, and the
  // bytes after it would be ignored (found by fuzz_request).
  EXPECT_EQ(DecodeRequest(std::string("\x0a\x02\x08\x05\x0c\x01\x02", 7), &request),
            RequestKind::kMalformed);
  // An end-group tag alone.
  EXPECT_EQ(DecodeRequest(std::string("\x0c", 1), &request), RequestKind::kMalformed);
}

TEST(DecodeRequest, AKindsNumberWithAnotherWireTypeIsAnUnknownField) {
  Request request;
  // Fields 1 to 4 as varints: unknown fields to protobuf, so no kind is set.
  EXPECT_EQ(DecodeRequest(std::string("\x08\x01", 2), &request), RequestKind::kNone);
  EXPECT_EQ(DecodeRequest(std::string("\x10\x01", 2), &request), RequestKind::kNone);
  EXPECT_EQ(DecodeRequest(std::string("\x18\x01", 2), &request), RequestKind::kNone);
  EXPECT_EQ(DecodeRequest(std::string("\x20\x01", 2), &request), RequestKind::kNone);
  // Field 2 as a fixed32 after a solve field: the solve field stands.
  EXPECT_EQ(DecodeRequest(std::string("\x0a\x00\x15\x01\x02\x03\x04", 7), &request),
            RequestKind::kSolve);
}

TEST(DecodeRequest, TellsEachKindByItsFieldAndTheLastWins) {
  Request request;
  // Fields 2, 3 and 4 as empty messages: stats, explain, generate.
  EXPECT_EQ(DecodeRequest(std::string("\x12\x00", 2), &request), RequestKind::kStats);
  EXPECT_EQ(DecodeRequest(std::string("\x1a\x00", 2), &request), RequestKind::kExplain);
  EXPECT_EQ(DecodeRequest(std::string("\x22\x00", 2), &request), RequestKind::kGenerate);
  // Two kinds in one body: the last wins, as protobuf's oneof has it.
  EXPECT_EQ(DecodeRequest(std::string("\x12\x00\x0a\x00", 4), &request), RequestKind::kSolve);
  EXPECT_TRUE(request.has_solve());
  EXPECT_EQ(DecodeRequest(std::string("\x0a\x00\x12\x00", 4), &request), RequestKind::kStats);
  EXPECT_TRUE(request.has_stats());
}

Request SolveRequestOf(uint64_t id, size_t puzzles, uint32_t limit = 0) {
  Request request;
  request.mutable_solve()->set_batch_id(id);
  request.mutable_solve()->set_solution_limit(limit);
  for (size_t i = 0; i < puzzles; ++i) request.mutable_solve()->add_puzzles(kSeventeenClues);
  return request;
}

Request PackedRequestOf(uint64_t id, size_t puzzles) {
  Request request;
  request.mutable_solve()->set_batch_id(id);
  request.mutable_solve()->set_pack_solutions(true);
  for (size_t i = 0; i < puzzles; ++i) {
    request.mutable_solve()->mutable_packed_puzzles()->append(PackedStandIn(i));
  }
  return request;
}

TEST(CheckRequest, NamesTheFaultOfEachRefusedFrame) {
  Request request;
  RequestKind kind;
  auto fault = CheckRequest(std::string("\xff\xff", 2), 3, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(kind, RequestKind::kMalformed);
  EXPECT_EQ(fault->kind(), ProtocolFault::MALFORMED);
  EXPECT_EQ(fault->message(), "frame 3 of 2 bytes does not decode as a Request");

  fault = CheckRequest("", 4, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(kind, RequestKind::kNone);
  EXPECT_EQ(fault->kind(), ProtocolFault::EMPTY_REQUEST);
  EXPECT_EQ(fault->message(),
            "frame 4 is a Request with no kind set (expected solve, stats, explain or generate)");

  fault = CheckRequest(Serialize(SolveRequestOf(9, 11)), 5, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(kind, RequestKind::kSolve);
  EXPECT_EQ(fault->kind(), ProtocolFault::BATCH_TOO_LARGE);
  EXPECT_EQ(fault->message(), "frame 5: batch 9 has 11 puzzles, more than --max-batch 10");

  // At the limit, and empty: both accepted.
  EXPECT_FALSE(CheckRequest(Serialize(SolveRequestOf(9, 10)), 6, 10, &request, &kind));
  EXPECT_EQ(kind, RequestKind::kSolve);
  EXPECT_EQ(request.solve().puzzles_size(), 10);
  EXPECT_FALSE(CheckRequest(std::string("\x0a\x00", 2), 7, 10, &request, &kind));
  EXPECT_EQ(request.solve().puzzles_size(), 0);

  // The other kinds pass through to their handlers.
  Request explain;
  explain.mutable_explain()->set_request_id(3);
  EXPECT_FALSE(CheckRequest(Serialize(explain), 8, 10, &request, &kind));
  EXPECT_EQ(kind, RequestKind::kExplain);
}

TEST(CheckRequest, RefusesASolutionLimitAboveTheCap) {
  Request request;
  RequestKind kind;
  auto fault =
      CheckRequest(Serialize(SolveRequestOf(6, 1, kMaxSolutionLimit + 1)), 2, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(fault->message(),
            "frame 2: batch 6 asks for up to 1000001 solutions a puzzle, more than the cap of "
            "1000000");
  fault = CheckRequest(Serialize(SolveRequestOf(6, 1, UINT32_MAX)), 3, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->message(),
            "frame 3: batch 6 asks for up to 4294967295 solutions a puzzle, more than the cap of "
            "1000000");
  EXPECT_FALSE(
      CheckRequest(Serialize(SolveRequestOf(6, 1, kMaxSolutionLimit)), 4, 10, &request, &kind));
}

TEST(CheckRequest, RefusesARatingScopeItDoesNotKnowOrWithoutRate) {
  Request request;
  RequestKind kind;
  Request unknown = SolveRequestOf(6, 1, 0);
  unknown.mutable_solve()->set_rate(true);
  unknown.mutable_solve()->set_rating_scope(static_cast<RatingScope>(3));
  auto fault = CheckRequest(Serialize(unknown), 2, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(fault->message(),
            "frame 2: batch 6 asks for rating_scope 3, which names no scope (0 ALL_RATINGS, 1 "
            "HODOKU_PATH, 2 SE_PATH)");
  unknown.mutable_solve()->set_rating_scope(static_cast<RatingScope>(-1));
  fault = CheckRequest(Serialize(unknown), 3, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->message(),
            "frame 3: batch 6 asks for rating_scope -1, which names no scope (0 ALL_RATINGS, 1 "
            "HODOKU_PATH, 2 SE_PATH)");

  Request unrated = SolveRequestOf(7, 1, 0);
  unrated.mutable_solve()->set_rating_scope(SE_PATH);
  fault = CheckRequest(Serialize(unrated), 4, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(fault->message(), "frame 4: batch 7 asks for rating_scope SE_PATH without rate");

  for (const RatingScope scope : {ALL_RATINGS, HODOKU_PATH, SE_PATH}) {
    Request rated = SolveRequestOf(8, 1, 0);
    rated.mutable_solve()->set_rate(true);
    rated.mutable_solve()->set_rating_scope(scope);
    EXPECT_FALSE(CheckRequest(Serialize(rated), 5, 10, &request, &kind)) << scope;
  }
}

TEST(CheckRequest, RefusesPackedPuzzlesThatCannotBeRead) {
  Request request;
  RequestKind kind;
  Request both = PackedRequestOf(3, 1);
  both.mutable_solve()->add_puzzles(kSeventeenClues);
  auto fault = CheckRequest(Serialize(both), 2, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(fault->message(),
            "frame 2: batch 3 has both puzzles (1) and packed_puzzles (41 bytes); a batch uses "
            "one or the other");

  Request ragged = PackedRequestOf(4, 2);
  ragged.mutable_solve()->mutable_packed_puzzles()->pop_back();
  fault = CheckRequest(Serialize(ragged), 3, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(fault->message(),
            "frame 3: batch 4 has 81 bytes of packed_puzzles, not a multiple of 41 (the bytes of "
            "one packed puzzle)");

  fault = CheckRequest(Serialize(PackedRequestOf(5, 11)), 4, 10, &request, &kind);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind(), ProtocolFault::BATCH_TOO_LARGE);
  EXPECT_EQ(fault->message(), "frame 4: batch 5 has 11 puzzles, more than --max-batch 10");

  EXPECT_FALSE(CheckRequest(Serialize(PackedRequestOf(5, 10)), 5, 10, &request, &kind));
  EXPECT_EQ(PuzzleCount(request.solve()), 10);
}

}  // namespace
}  // namespace sudoku::wire
