// Logging for sudokud: one line per event on stderr, with a level.
//
// On a terminal or a pipe each line reads "sudokud: TEXT". When stderr is systemd's journal
// stream (JOURNAL_STREAM names the descriptor stderr is), each line reads "<N>TEXT" instead, N
// being the syslog priority (sd-daemon.h's SD_ERR, SD_WARNING, SD_NOTICE, SD_INFO): journald
// strips the prefix and files the line at that priority (`journalctl -p warning` finds the
// trouble), and adds the program name itself.
//
// Thread-safety: Log() may be called from any thread; each line is written with one fwrite,
// which stdio locks, so lines never interleave. A RateLimitedLog may be used from any thread
// (it locks).
#ifndef SUDOKU_DAEMON_LOG_H_
#define SUDOKU_DAEMON_LOG_H_

#include <sys/stat.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

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

// Logs what escaped a coroutine, "WHERE: WHAT", at error level.
inline void LogException(std::string_view where, std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    Log(LogLevel::kError, std::string(where) + ": " + e.what());
  } catch (...) {
    Log(LogLevel::kError, std::string(where) + ": unknown exception");
  }
}

// The completion handler every coroutine of the daemon is spawned with (asio::co_spawn): what
// escaped the coroutine is logged as `where()`'s, which is called only then, so that it names
// the state at the failure (a peer with its verified certificate); then `then()` runs (a
// connection aborts). Nothing escapes the handler, so no coroutine's failure stops the event loop.
template <typename Where, typename Then>
auto LogEscape(Where where, Then then) {
  return [where = std::move(where), then = std::move(then)](std::exception_ptr error) mutable {
    if (!error) return;
    LogException(where(), error);
    then();
  };
}
inline auto LogEscape(std::string where) {
  return LogEscape([where = std::move(where)] { return where; }, [] {});
}

// Lines that a client can cause as often as it likes (protocol faults, a full accept queue)
// would otherwise let a storm of bad connections fill the disk and drown the lines that matter.
// Per kind of line, the first `burst` of each `interval` are logged; the rest are counted, and
// once the interval is over one line says how many: "protocol fault MALFORMED: 986 more like
// this suppressed in 10 s". (The daemon's metrics count every event regardless.) An interval
// starts at the first line of its kind after the last one ended; its count is reported at the
// next limited line of any kind after it ends, or by ReportSuppressed().
class RateLimitedLog {
 public:
  using Clock = std::chrono::steady_clock;
  using Sink = std::function<void(LogLevel, std::string_view)>;
  using Now = std::function<Clock::time_point()>;

  RateLimitedLog(size_t burst, Clock::duration interval, Sink sink = &::sudoku::daemon::Log,
                 Now now = Clock::now)
      : burst_(burst), interval_(interval), sink_(std::move(sink)), now_(std::move(now)) {}

  // Logs `text` at `level` unless `kind` has used up its lines for the current interval.
  void Log(std::string_view kind, LogLevel level, std::string_view text) {
    std::lock_guard lock(mutex_);
    const Clock::time_point now = now_();
    ReportEnded(now);
    auto it = kinds_.find(kind);
    if (it == kinds_.end()) it = kinds_.emplace(std::string(kind), Window{}).first;
    Window& window = it->second;
    if (window.logged == 0 && window.suppressed == 0) window.start = now;
    window.level = level;
    if (window.logged < burst_) {
      ++window.logged;
      sink_(level, text);
    } else {
      ++window.suppressed;
    }
  }

  // Reports every count of suppressed lines, whether or not its interval is over (at exit).
  void ReportSuppressed() {
    std::lock_guard lock(mutex_);
    for (auto& [kind, window] : kinds_) Report(kind, window);
  }

 private:
  struct Window {
    Clock::time_point start;
    size_t logged = 0;
    uint64_t suppressed = 0;
    LogLevel level = LogLevel::kNotice;
  };

  void ReportEnded(Clock::time_point now) {
    for (auto& [kind, window] : kinds_) {
      if (window.logged > 0 && now - window.start >= interval_) Report(kind, window);
    }
  }

  void Report(const std::string& kind, Window& window) {
    if (window.suppressed > 0) {
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(interval_).count();
      sink_(window.level, kind + ": " + std::to_string(window.suppressed) +
                              " more like this suppressed in " + std::to_string(seconds) + " s");
    }
    window = Window{};
  }

  const size_t burst_;
  const Clock::duration interval_;
  const Sink sink_;
  const Now now_;
  std::mutex mutex_;
  std::map<std::string, Window, std::less<>> kinds_;
};

// The daemon's limiter for lines clients can cause: ten of a kind every ten seconds.
inline RateLimitedLog& ClientCausedLog() {
  static RateLimitedLog log(10, std::chrono::seconds(10));
  return log;
}

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_LOG_H_
