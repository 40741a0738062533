// Logging for sudokud: one line per event on stderr, with a level.
//
// On a terminal or a pipe each line reads "sudokud: TEXT". When stderr is systemd's journal
// stream (JOURNAL_STREAM names the descriptor stderr is), each line reads "<N>TEXT" instead, N
// being the syslog priority (sd-daemon.h's SD_ERR, SD_WARNING, SD_NOTICE, SD_INFO): journald
// strips the prefix and files the line at that priority (`journalctl -p warning` finds the
// trouble), and adds the program name itself.
//
// Thread-safety: Log() may be called from any thread; each line is written with one fwrite,
// which stdio locks, so lines never interleave.
#ifndef SUDOKU_DAEMON_LOG_H_
#define SUDOKU_DAEMON_LOG_H_

#include <sys/stat.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace sudoku::daemon {

// syslog priorities, as sd-daemon.h's SD_* prefixes use them.
enum class LogLevel {
  kError = 3,    // the daemon cannot do what it was asked (cannot listen, bad flag)
  kWarning = 4,  // work was lost or refused (batches cancelled, accept failing)
  kNotice = 5,   // a client's mistake (protocol faults): normal but worth a look
  kInfo = 6,     // start, stop, drain
};

// Whether stderr is the journal stream systemd gave this process.
inline bool StderrIsJournal() {
  static const bool journal = [] {
    const char* stream = std::getenv("JOURNAL_STREAM");
    if (stream == nullptr) return false;
    uintmax_t device = 0;
    uintmax_t inode = 0;
    if (std::sscanf(stream, "%" SCNuMAX ":%" SCNuMAX, &device, &inode) != 2) return false;
    struct stat status {};
    if (::fstat(2, &status) != 0) return false;
    return static_cast<uintmax_t>(status.st_dev) == device &&
           static_cast<uintmax_t>(status.st_ino) == inode;
  }();
  return journal;
}

inline void Log(LogLevel level, std::string_view text) {
  std::string line;
  line.reserve(text.size() + 10);
  if (StderrIsJournal()) {
    line.append("<").append(std::to_string(static_cast<int>(level))).append(">");
  } else {
    line.append("sudokud: ");
  }
  line.append(text).push_back('\n');
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

inline void LogLine(std::string_view text) { Log(LogLevel::kInfo, text); }

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_LOG_H_
