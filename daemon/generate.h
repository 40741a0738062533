// Generating puzzles for a GenerateRequest, without the network: the daemon runs GenerateChunk()
// on its task arena, one run of puzzles at a time, and sends each run as it is done.
//
// Thread-safety: both functions are reentrant; GenerateChunk() reads `request` and writes
// `response` only, and `cancel` may be set from any thread.
#ifndef SUDOKU_DAEMON_GENERATE_H_
#define SUDOKU_DAEMON_GENERATE_H_

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "proto/sudoku.pb.h"

namespace sudoku::daemon {

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

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_GENERATE_H_
