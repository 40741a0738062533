// Fuzz target: the daemon's request handler without the network. A frame body goes through
// CheckRequest (decoding, the kind, --max-batch) and, when accepted, SolveBatch to a framed
// SolveResponse, exactly as daemon/server.cc does with each frame.
//
// Input: one frame body. Checked: a refusal is one of the documented faults with a message; a
// body takes the solve path exactly when protobuf itself decodes it to a Request with a solve
// set; the response has one verdict, count and guess count per puzzle, one 81-digit solution per
// SOLVED or MULTIPLE puzzle (each a valid grid keeping the givens), one error per INVALID
// puzzle, in order; it frames and decodes back.
//
// Bounds, so that one input costs milliseconds: at most kMaxBatch puzzles (also the batch limit
// under test) and a solution limit of at most 8. Puzzles with fewer than 17 givens are dropped
// before solving: arbitrary sparse grids can hide search trees of hours (unsolvable ones), and
// the solver has its own fuzz target (fuzz_kernels) under the same rule.
#include <algorithm>
#include <atomic>
#include <string>
#include <string_view>

#include "daemon/batch.h"
#include "proto/framing.h"
#include "proto/sudoku.pb.h"
#include "solver/solver.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/solution_check.h"

namespace {

using sudoku::daemon::RequestKind;
namespace wire = sudoku::wire;

constexpr size_t kMaxBatch = 32;
constexpr uint32_t kMaxSolutionLimit = 8;
constexpr int kMinGivens = 17;

bool TooSparse(const std::string& puzzle) {
  sudoku::Grid grid;
  if (sudoku::ParsePuzzle(puzzle, &grid)) return false;  // invalid: answered without a search
  int givens = 0;
  for (uint8_t cell : grid) givens += cell != 0;
  return givens < kMinGivens;
}

void CheckResponse(const wire::SolveRequest& request, const wire::SolveResponse& response) {
  const int n = request.puzzles_size();
  FUZZ_CHECK(response.batch_id() == request.batch_id());
  FUZZ_CHECK(response.verdicts_size() == n);
  FUZZ_CHECK(response.solution_counts_size() == n);
  FUZZ_CHECK(response.guesses_size() == n);
  const uint32_t limit = std::max<uint32_t>(request.solution_limit(), 1);
  size_t solution = 0;
  int error = 0;
  for (int i = 0; i < n; ++i) {
    const std::string& puzzle = request.puzzles(i);
    const uint32_t count = response.solution_counts(i);
    switch (response.verdicts(i)) {
      case wire::SOLVED:
      case wire::MULTIPLE:
        FUZZ_CHECK(count >= 1 && count <= limit);
        FUZZ_CHECK((response.verdicts(i) == wire::MULTIPLE) == (count >= 2));
        FUZZ_CHECK(response.solutions().size() >= solution + 81);
        FUZZ_CHECK(sudoku::fuzz::IsSolutionOf(puzzle, response.solutions().substr(solution, 81)));
        solution += 81;
        break;
      case wire::UNSOLVABLE:
        FUZZ_CHECK(count == 0);
        break;
      case wire::INVALID: {
        FUZZ_CHECK(count == 0);
        FUZZ_CHECK(error < response.errors_size());
        const wire::PuzzleError& e = response.errors(error++);
        FUZZ_CHECK(e.index() == static_cast<uint32_t>(i));
        FUZZ_CHECK(e.position() <= puzzle.size());
        FUZZ_CHECK(!e.message().empty());
        break;
      }
      default:
        FUZZ_CHECK(false);
    }
  }
  FUZZ_CHECK(solution == response.solutions().size());
  FUZZ_CHECK(error == response.errors_size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  // Reused across inputs, as the daemon reuses its messages: stale content must never leak into
  // the next request.
  static wire::Request request;
  static wire::Response response;
  RequestKind kind;
  const auto fault = sudoku::daemon::CheckRequest(body, 1, kMaxBatch, &request, &kind);

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
        FUZZ_CHECK(static_cast<size_t>(request.solve().puzzles_size()) > kMaxBatch);
        break;
      default: FUZZ_CHECK(false);
    }
    return 0;
  }
  // Stats, explain and generate requests take other paths; the batch path is checked here.
  if (kind != RequestKind::kSolve) {
    FUZZ_CHECK(kind == RequestKind::kStats || kind == RequestKind::kExplain ||
               kind == RequestKind::kGenerate);
    return 0;
  }
  FUZZ_CHECK(request.solve().SerializeAsString() == reference.solve().SerializeAsString());

  wire::SolveRequest* solve = request.mutable_solve();
  solve->set_solution_limit(std::min(solve->solution_limit(), kMaxSolutionLimit));
  auto* puzzles = solve->mutable_puzzles();
  int kept = 0;
  for (int i = 0; i < puzzles->size(); ++i) {
    if (!TooSparse(puzzles->Get(i))) puzzles->SwapElements(kept++, i);
  }
  puzzles->DeleteSubrange(kept, puzzles->size() - kept);

  const std::atomic<bool> cancel{false};
  sudoku::daemon::BatchCounts counts;
  FUZZ_CHECK(sudoku::daemon::SolveBatch(*solve, cancel, response.mutable_solve(), &counts));
  CheckResponse(*solve, response.solve());
  FUZZ_CHECK(counts.total() == static_cast<uint64_t>(solve->puzzles_size()));

  std::string framed;
  wire::AppendFrame(response, &framed);
  const auto header = wire::DecodeFrameHeader(framed, SIZE_MAX);
  FUZZ_CHECK(header.status == wire::FrameHeader::Status::kComplete);
  wire::Response decoded;
  FUZZ_CHECK(wire::ParseFrameBody(std::string_view(framed).substr(header.prefix_bytes), &decoded));
  FUZZ_CHECK(decoded.solve().SerializeAsString() == response.solve().SerializeAsString());
  return 0;
}
