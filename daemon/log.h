// Logging for sudokud: one line per event on stderr, each prefixed with "sudokud: ", so that
// journald (or a test reading the pipe) sees whole lines.
//
// Thread-safety: LogLine() may be called from any thread; each line is written with one fwrite,
// which stdio locks, so lines never interleave.
#ifndef SUDOKU_DAEMON_LOG_H_
#define SUDOKU_DAEMON_LOG_H_

#include <cstdio>
#include <string>
#include <string_view>

namespace sudoku::daemon {

inline void LogLine(std::string_view text) {
  std::string line;
  line.reserve(text.size() + 10);
  line.append("sudokud: ").append(text).push_back('\n');
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_LOG_H_
