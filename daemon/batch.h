// Solving one batch: a decoded SolveRequest in, a SolveResponse out, without the network. The
// daemon runs this on its task arena; tests and fuzz targets call it directly.
//
// Thread-safety: SolveBatch() is reentrant. It reads `request` and writes `response` only, so
// concurrent calls on different messages are safe; `cancel` may be set from any thread.
#ifndef SUDOKU_DAEMON_BATCH_H_
#define SUDOKU_DAEMON_BATCH_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "proto/sudoku.pb.h"

namespace sudoku::daemon {

// How many puzzles of a batch ended in each verdict.
struct BatchCounts {
  uint64_t solved = 0;
  uint64_t multiple = 0;
  uint64_t unsolvable = 0;
  uint64_t invalid = 0;

  uint64_t total() const { return solved + multiple + unsolvable + invalid; }
  void Add(const BatchCounts& other) {
    solved += other.solved;
    multiple += other.multiple;
    unsolvable += other.unsolvable;
    invalid += other.invalid;
  }
};

// Explains the one puzzle of `request` into `response` (cleared first): the steps of
// sudoku::logic::Explain() and the rating, or the verdict and error of a puzzle that cannot be
// explained. Reentrant.
void ExplainPuzzle(const wire::ExplainRequest& request, wire::ExplainResponse* response);

// Batches at least this large are split across the calling arena's threads.
inline constexpr int kParallelGrain = 64;

// Parses and solves every puzzle of `request` (text or packed) and fills `response` as
// proto/sudoku.proto describes (verdicts, solutions column-wise, as text or packed as asked,
// counts, guesses, one PuzzleError per INVALID puzzle, and with request.rate() the rating
// columns). `request` is one wire::CheckRequest() (proto/codec.h) accepted. `response` is
// cleared first but keeps its capacity, so a reused message costs no allocation per puzzle. A
// bad puzzle never fails the batch. Returns false, with `response` and `counts` unspecified,
// when `cancel` became true before the batch was done.
bool SolveBatch(const wire::SolveRequest& request, const std::atomic<bool>& cancel,
                wire::SolveResponse* response, BatchCounts* counts);

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_BATCH_H_
