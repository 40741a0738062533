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

// One line of a terminal kept up to date in place ('\r'): the progress bar, or what the session
// waits for. Whoever draws last owns it; Clear(owner) wipes it only when `owner` drew it, so that
// the session's status does not wipe a progress bar drawn since.
class StatusLine {
 public:
  // `width`: the terminal's columns (a longer line is cut to width - 1, so that it never wraps
  // and '\r' still reaches its start); 0 for no limit.
  explicit StatusLine(std::ostream* err, size_t width = 0) : err_(err), width_(width) {}

  void Draw(std::string line, const void* owner);
  void Clear(const void* owner);
  // Wipes the line whoever drew it.
  void Clear();
  size_t drawn() const { return drawn_; }
  const void* owner() const { return owner_; }

 private:
  std::ostream* err_;
  size_t width_;
  size_t drawn_ = 0;  // characters on screen
  const void* owner_ = nullptr;
};

// The columns of the terminal on `fd`, or 0 when it is not one or does not say.
size_t TerminalWidth(int fd);

// Redraws the bar in place at most every `interval`, and wipes it at the end so that the summary
// line takes its place. The bar is drawn on `line` when given (shared with the session's status),
// else on a line of its own on `err`.
class ProgressMeter {
 public:
  using Clock = std::chrono::steady_clock;

  ProgressMeter(std::ostream* err, Clock::time_point start,
                Clock::duration interval = std::chrono::milliseconds(200),
                StatusLine* line = nullptr)
      : own_line_(err), line_(line != nullptr ? line : &own_line_), start_(start),
        interval_(interval) {}
  ProgressMeter(const ProgressMeter&) = delete;  // line_ may point into it
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  void Update(uint64_t done, uint64_t expected, Clock::time_point now);
  void Finish();

 private:
  StatusLine own_line_;
  StatusLine* line_;
  Clock::time_point start_;
  Clock::duration interval_;
  Clock::time_point last_{};
};

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_PROGRESS_H_
