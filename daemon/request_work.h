// The work of each kind of request, without the network, for every listener that takes
// requests: the protocol's connections (daemon/connection.h) and the JSON API
// (daemon/web_requests.h) both decode into a wire::Request and hand it here. What a request
// costs against the daemon's budgets, whether it runs as long work, and the work itself
// (solving a batch, explaining a puzzle, generating puzzles) are each written once, so that the
// two listeners cannot drift apart. Tests and fuzz targets call it directly; it has no Asio
// coroutines, so that clang builds it for the fuzz targets.
//
// Thread-safety: every function is reentrant. The work functions read their request and write
// their response only, so concurrent calls on different messages are safe; `cancel` may be set
// from any thread.
#ifndef SUDOKU_DAEMON_REQUEST_WORK_H_
#define SUDOKU_DAEMON_REQUEST_WORK_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "proto/codec.h"
#include "proto/sudoku.pb.h"
#include "proto/verdicts.h"

namespace sudoku::daemon {

// The kind of a request built in memory (the JSON API's), by its oneof. A request decoded from
// a frame has the kind wire::DecodeRequest() found instead: decoding leaves the oneof set
// whatever the body held.
wire::RequestKind KindOf(const wire::Request& request);

// Puzzles `request` (of `kind`, as wire::CheckRequest() found it) is charged against the
// in-flight budgets (--max-in-flight and each connection's share): a batch its puzzles, a
// generation the puzzles it asks for, anything else one (an empty batch too), so that a flood of
// small requests stays bounded as well.
size_t CostOf(const wire::Request& request, wire::RequestKind kind);

// Whether `request`'s work has no useful bound on its time, and so runs as long work
// (Pool::Cost::kLong: threads of its own, nice 19, each requester taking turns) and is
// cancelled when its requester leaves: a count past two solutions (a solution or uniqueness
// ends soon after the search starts; more can take seconds a puzzle), a rated batch (the
// logical solver takes milliseconds on a hard puzzle, a thousand times its solving), an
// explanation (chains, trials), a generation.
bool IsLongWork(const wire::Request& request, wire::RequestKind kind);

// Batches at least this large are split across the calling arena's threads.
inline constexpr int kParallelGrain = 64;

// Parses and solves every puzzle of `request` (text or packed) and fills `response` as
// proto/sudoku.proto describes (verdicts, solutions column-wise, as text or packed as asked,
// counts, guesses, one PuzzleError per INVALID puzzle, and with request.rate() the rating
// columns). `request` is one wire::CheckRequest() (proto/codec.h) accepted. `response` is
// cleared first but keeps its capacity, so a reused message costs no allocation per puzzle. A
// bad puzzle never fails the batch. `counts` becomes the tally of its verdicts. Returns false,
// with `response` and `counts` unspecified, when `cancel` became true before the batch was done.
bool SolveBatch(const wire::SolveRequest& request, const std::atomic<bool>& cancel,
                wire::SolveResponse* response, wire::VerdictTally* counts);

// SolveBatch in pieces, for batches that take their turns a piece at a time: StartBatch()
// sizes `response` for `request` (cleared first), SolveBatchRange() solves puzzles [begin, end)
// into it (false when `cancel` came first), FinishBatch() completes it once every puzzle is
// solved and tallies its verdicts into `counts`. Pieces may run on different threads one after
// another.
void StartBatch(const wire::SolveRequest& request, wire::SolveResponse* response);
bool SolveBatchRange(const wire::SolveRequest& request, int begin, int end,
                     const std::atomic<bool>& cancel, wire::SolveResponse* response);
void FinishBatch(const wire::SolveRequest& request, wire::SolveResponse* response,
                 wire::VerdictTally* counts);

// Puzzles a long batch (rated, or counting far) is solved in at a time, each piece a turn of
// its own among the long work: a rated piece of hard puzzles takes about a third of a second, so
// a batch of thousands does not hold a thread for minutes while others wait.
inline constexpr int kLongBatchPiece = 64;

// Puzzles a larger bounded batch is solved in at a time, each piece a turn of its own among the
// bounded work: a piece of easy puzzles is a few milliseconds of one thread, so a client's small
// batch waits behind at most one piece of a 65,536-puzzle batch, not all of it, and a thread
// count of one serves it as well as many.
inline constexpr int kBoundedBatchPiece = 4096;

// Explains the one puzzle of `request` into `response` (cleared first): the steps of
// sudoku::logic::Explain() and the rating, or the verdict and error of a puzzle that cannot be
// explained. The logical solver cannot be stopped once started, so it is not started for
// nobody: returns false, with `response` untouched, when `cancel` was already true.
bool ExplainPuzzle(const wire::ExplainRequest& request, const std::atomic<bool>& cancel,
                   wire::ExplainResponse* response);

// Puzzles per GenerateResponse: small enough that the first ones arrive soon, large enough that
// a run keeps every thread of the arena busy.
inline constexpr uint32_t kGenerateChunk = 64;

// Why the daemon refuses `request` (the ProtocolFault message, e.g. "generate request 3 asks for
// 0 puzzles (expected 1 to --max-batch 65536)"), or std::nullopt when it serves it.
std::optional<std::string> CheckGenerateRequest(const wire::GenerateRequest& request,
                                                size_t max_count);

// Generates puzzles [begin, end) of `request` (a checked one) in parallel on the calling arena
// and fills `response` for them (`last` when end is the count). Returns false, with `response`
// unspecified, when `cancel` became true first.
bool GenerateChunk(const wire::GenerateRequest& request, uint32_t begin, uint32_t end,
                   const std::atomic<bool>& cancel, wire::GenerateResponse* response);

// The work of a request of `kind` (a batch, an explanation, or a generation in one piece), as
// the functions above do it, into `response`; `counts` becomes a batch's tally of verdicts.
// False when `cancel` came first. Throws std::logic_error for a kind without work (Stats).
bool DoRequest(const wire::Request& request, wire::RequestKind kind,
               const std::atomic<bool>& cancel, wire::Response* response,
               wire::VerdictTally* counts);

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_REQUEST_WORK_H_
