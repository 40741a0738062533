// Fuzz target: the codec and the daemon's request handler without the network. A frame body goes
// through wire::CheckRequest (proto/codec.h: decoding, the kind, --max-batch) and, when accepted,
// SolveBatch to a framed SolveResponse, exactly as daemon/connection.cc does with each frame.
//
// Input: one frame body. Checked: a refusal is one of the documented faults with a message, for
// the reason it names; a body takes the solve path exactly when protobuf itself decodes it to a
// Request with a solve set; the codec's hand encoder, given the accepted batch's fields and
// puzzles, writes the frame protobuf writes; the response has one verdict, count and guess count
// per puzzle
// (text or packed), one solution per SOLVED or MULTIPLE puzzle (81 digits, or 41 bytes packed
// when asked; each a valid grid keeping the givens), one error per INVALID puzzle, in order; the
// batch's counts are the tally of its verdicts; it frames and decodes back.
//
// Bounds, so that one input costs milliseconds: at most kMaxBatch puzzles (also the batch limit
// under test) and a solution limit of at most 8. Puzzles with fewer than 17 givens are dropped
// before solving: arbitrary sparse grids can hide search trees of hours (unsolvable ones), and
// the solver has its own fuzz target (fuzz_kernels) under the same rule.
#include <algorithm>
#include <atomic>
#include <string>
#include <string_view>

#include "daemon/request_work.h"
#include "proto/codec.h"
#include "proto/framing.h"
#include "proto/sudoku.pb.h"
#include "proto/verdicts.h"
#include "solver/solver.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/support/sudoku_check.h"

namespace {

namespace wire = sudoku::wire;
using wire::RequestKind;

constexpr size_t kMaxBatch = 32;
constexpr uint32_t kMaxSolutionLimit = 8;
constexpr int kMinGivens = 17;

bool TooSparse(const sudoku::Grid& grid) {
  int givens = 0;
  for (uint8_t cell : grid) givens += cell != 0;
  return givens < kMinGivens;
}

bool TooSparse(const std::string& puzzle) {
  sudoku::Grid grid;
  if (sudoku::ParsePuzzle(puzzle, &grid)) return false;  // invalid: answered without a search
  return TooSparse(grid);
}

// Drops the packed puzzles too sparse to solve within the bounds, keeping the invalid ones.
void DropSparsePacked(std::string* packed) {
  std::string kept;
  for (size_t i = 0; i < packed->size() / sudoku::kPackedBytes; ++i) {
    sudoku::Grid grid;
    if (!sudoku::ParsePackedPuzzle(sudoku::PackedAt(*packed, i), &grid) && TooSparse(grid)) {
      continue;
    }
    kept.append(packed->data() + i * sudoku::kPackedBytes, sudoku::kPackedBytes);
  }
  *packed = kept;
}

void CheckResponse(const wire::SolveRequest& request, const wire::SolveResponse& response) {
  const bool packed_in = !request.packed_puzzles().empty();
  const int n = wire::PuzzleCount(request);
  // Solutions come packed when asked for, else as text; never both.
  const bool packed_out = request.pack_solutions();
  const std::string& solutions = packed_out ? response.packed_solutions() : response.solutions();
  FUZZ_CHECK((packed_out ? response.solutions() : response.packed_solutions()).empty());
  const size_t solution_bytes = packed_out ? sudoku::kPackedBytes : 81;
  FUZZ_CHECK(response.batch_id() == request.batch_id());
  FUZZ_CHECK(response.verdicts_size() == n);
  FUZZ_CHECK(response.solution_counts_size() == n);
  FUZZ_CHECK(response.guesses_size() == n);
  const uint32_t limit = std::max<uint32_t>(request.solution_limit(), 1);
  size_t solution = 0;
  int error = 0;
  for (int i = 0; i < n; ++i) {
    // A packed puzzle as digits ('0' blank; ':' to '?' for the values above 9 it may hold).
    std::string puzzle(81, ' ');
    if (packed_in) {
      sudoku::UnpackDigits(sudoku::PackedAt(request.packed_puzzles(), static_cast<size_t>(i)),
                           puzzle.data());
    } else {
      puzzle = request.puzzles(i);
    }
    const uint32_t count = response.solution_counts(i);
    switch (response.verdicts(i)) {
      case wire::SOLVED:
      case wire::MULTIPLE:
        FUZZ_CHECK(count >= 1 && count <= limit);
        FUZZ_CHECK((response.verdicts(i) == wire::MULTIPLE) == (count >= 2));
        FUZZ_CHECK(solutions.size() >= solution + solution_bytes);
        if (packed_out) {
          std::string text(81, ' ');
          sudoku::UnpackDigits(sudoku::PackedAt(solutions, solution / solution_bytes), text.data());
          FUZZ_CHECK(sudoku::testing::IsSolutionOf(puzzle, text));
        } else {
          FUZZ_CHECK(sudoku::testing::IsSolutionOf(puzzle, solutions.substr(solution, 81)));
        }
        solution += solution_bytes;
        break;
      case wire::UNSOLVABLE:
        FUZZ_CHECK(count == 0);
        break;
      case wire::INVALID: {
        FUZZ_CHECK(count == 0);
        FUZZ_CHECK(error < response.errors_size());
        const wire::PuzzleError& e = response.errors(error++);
        FUZZ_CHECK(e.index() == static_cast<uint32_t>(i));
        // A packed puzzle's padding is position 82.
        FUZZ_CHECK(e.position() <= puzzle.size() + (packed_in ? 1 : 0));
        FUZZ_CHECK(!e.message().empty());
        break;
      }
      default:
        FUZZ_CHECK(false);
    }
  }
  FUZZ_CHECK(solution == solutions.size());
  FUZZ_CHECK(error == response.errors_size());
}

// The hand encoder, given the fields and puzzles of an accepted batch, writes what protobuf writes
// for them (unknown fields aside: the encoder has none to write).
void CheckEncoder(const wire::SolveRequest& solve) {
  const wire::SolveFields fields{.batch_id = solve.batch_id(),
                                 .solution_limit = solve.solution_limit(),
                                 .rate = solve.rate(),
                                 .pack_solutions = solve.pack_solutions(),
                                 .rating_scope = solve.rating_scope()};
  wire::Request known;
  *known.mutable_solve() = solve;
  known.DiscardUnknownFields();
  std::string expected;
  wire::AppendFrame(known, &expected);
  std::string frame;
  if (solve.packed_puzzles().empty()) {
    wire::AppendSolveFrame(
        fields, solve.puzzles(), [](const std::string& text) { return std::string_view(text); },
        &frame);
  } else {
    wire::AppendPackedSolveFrame(fields, solve.packed_puzzles(), &frame);
  }
  FUZZ_CHECK(frame == expected);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  // Reused across inputs, as the daemon reuses its messages: stale content must never leak into
  // the next request.
  static wire::Request request;
  static wire::Response response;
  RequestKind kind;
  const auto fault = wire::CheckRequest(body, 1, kMaxBatch, &request, &kind);

  wire::Request reference;
  const bool decodes = wire::ParseFrameBody(body, &reference);
  FUZZ_CHECK((kind == RequestKind::kMalformed) == !decodes);
  FUZZ_CHECK((kind == RequestKind::kSolve) == (decodes && reference.has_solve()));
  if (fault) {
    FUZZ_CHECK(!fault->message().empty());
    FUZZ_CHECK(fault->message().rfind("frame 1", 0) == 0);
    switch (fault->kind()) {
      case wire::ProtocolFault::MALFORMED: FUZZ_CHECK(kind == RequestKind::kMalformed); break;
      case wire::ProtocolFault::EMPTY_REQUEST: FUZZ_CHECK(kind == RequestKind::kNone); break;
      case wire::ProtocolFault::BATCH_TOO_LARGE:
        FUZZ_CHECK(kind == RequestKind::kSolve);
        FUZZ_CHECK(static_cast<size_t>(wire::PuzzleCount(request.solve())) > kMaxBatch);
        break;
      case wire::ProtocolFault::BAD_SOLVE_REQUEST: {
        FUZZ_CHECK(kind == RequestKind::kSolve);
        const wire::SolveRequest& solve = request.solve();
        FUZZ_CHECK((solve.puzzles_size() > 0 && !solve.packed_puzzles().empty()) ||
                   solve.packed_puzzles().size() % wire::kPackedPuzzleBytes != 0 ||
                   solve.solution_limit() > wire::kMaxSolutionLimit ||
                   !wire::RatingScope_IsValid(solve.rating_scope()) ||
                   (solve.rating_scope() != wire::ALL_RATINGS && !solve.rate()));
        break;
      }
      default: FUZZ_CHECK(false);
    }
    return 0;
  }
  // The other kinds take their own paths; the batch path is checked here.
  if (kind != RequestKind::kSolve) return 0;
  FUZZ_CHECK(request.solve().SerializeAsString() == reference.solve().SerializeAsString());
  CheckEncoder(request.solve());

  wire::SolveRequest* solve = request.mutable_solve();
  solve->set_solution_limit(std::min(solve->solution_limit(), kMaxSolutionLimit));
  auto* puzzles = solve->mutable_puzzles();
  int kept = 0;
  for (int i = 0; i < puzzles->size(); ++i) {
    if (!TooSparse(puzzles->Get(i))) puzzles->SwapElements(kept++, i);
  }
  puzzles->DeleteSubrange(kept, puzzles->size() - kept);
  DropSparsePacked(solve->mutable_packed_puzzles());

  const std::atomic<bool> cancel{false};
  wire::VerdictTally counts;
  FUZZ_CHECK(sudoku::daemon::SolveBatch(*solve, cancel, response.mutable_solve(), &counts));
  CheckResponse(*solve, response.solve());
  FUZZ_CHECK(counts.total() == static_cast<uint64_t>(wire::PuzzleCount(*solve)));
  wire::VerdictTally answered;
  for (const int verdict : response.solve().verdicts()) answered.Count(verdict);
  FUZZ_CHECK(counts == answered);

  std::string framed;
  wire::AppendFrame(response, &framed);
  const auto header = wire::DecodeFrameHeader(framed, SIZE_MAX);
  FUZZ_CHECK(header.status == wire::FrameHeader::Status::kComplete);
  wire::Response decoded;
  FUZZ_CHECK(wire::ParseFrameBody(std::string_view(framed).substr(header.prefix_bytes), &decoded));
  FUZZ_CHECK(decoded.solve().SerializeAsString() == response.solve().SerializeAsString());
  return 0;
}
