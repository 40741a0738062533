// A progress bar for long runs, drawn on standard error when it is a terminal:
//
//   [##########..........]  52%  5200000/10000000 puzzles  412345 puzzles/s  ETA 0:11
//
// The total is estimated from the input files' sizes while they are read (exact once the input
// ends); without it (standard input, a pipe) the bar shows the count and the rate only.
//
// Thread-safety: RenderProgress and WantProgress are pure functions; a ProgressMeter is used by
// one thread at a time.
#ifndef SUDOKU_CLIENT_PROGRESS_H_
#define SUDOKU_CLIENT_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace sudoku::client {

// --progress, --no-progress, or neither (then: only on a terminal).
enum class ProgressMode { kAuto, kOn, kOff };

bool WantProgress(ProgressMode mode, bool stderr_is_tty);

struct ProgressSnapshot {
  uint64_t done = 0;      // puzzles answered and written
  uint64_t expected = 0;  // the total, or an estimate of it; 0 when unknown
  double seconds = 0;     // since the start
};

// One line without its leading '\r' (see the top of this file). The ETA is left out until the
// rate is known; a total below `done` is taken as unknown.
std::string RenderProgress(const ProgressSnapshot& snapshot);

// Redraws the bar in place at most every `interval`, and wipes it at the end so that the summary
// line takes its place.
class ProgressMeter {
 public:
  using Clock = std::chrono::steady_clock;

  ProgressMeter(std::ostream* err, Clock::time_point start,
                Clock::duration interval = std::chrono::milliseconds(200))
      : err_(err), start_(start), interval_(interval) {}

  void Update(uint64_t done, uint64_t expected, Clock::time_point now);
  void Finish();

 private:
  std::ostream* err_;
  Clock::time_point start_;
  Clock::duration interval_;
  Clock::time_point last_{};
  size_t drawn_ = 0;  // characters of the bar on screen
};

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_PROGRESS_H_
