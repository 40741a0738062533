// sudokud as a child process for any suite: started from TestPath("SUDOKUD_BIN") on the port
// it reports, its stderr captured, stopped as systemd stops it; and sudokud run to its end for
// flag checks.
//
// Thread-safety: each object is meant for one thread, except that DaemonProcess::Log() and
// WaitForLog() may be called from any thread.
#ifndef SUDOKU_TESTS_SUPPORT_DAEMON_PROCESS_H_
#define SUDOKU_TESTS_SUPPORT_DAEMON_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace sudoku::testing {

// Long enough for any answer a test waits for; a daemon that says nothing for this long has hung.
inline constexpr std::chrono::seconds kReplyTimeout{60};

// TestPath("SUDOKUD_BIN"): $SUDOKUD_BIN, else the sudokud of this build.
std::string DaemonBinary();

// DaemonBinary() run as a child process, its stderr and stdout captured (Log()). The constructor
// waits for the "listening on HOST:PORT" line and reads the port from it (so tests listen on port
// 0); it throws when the daemon ends or stays silent instead.
class DaemonProcess {
 public:
  // `args` follow the binary; `env` ("NAME=value") is added to this process's environment.
  explicit DaemonProcess(const std::vector<std::string>& args,
                         const std::vector<std::string>& env = {});
  // Kills the daemon if it still runs.
  ~DaemonProcess();

  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  uint16_t port() const { return port_; }
  // "127.0.0.1:PORT", for a daemon told to listen on 127.0.0.1:0.
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  pid_t pid() const { return pid_; }

  void Signal(int signal);
  // The exit status, or 128 + the signal that killed it; -1 (after SIGKILL) on timeout.
  int Wait(std::chrono::milliseconds timeout = kReplyTimeout);
  // As systemd stops it: SIGTERM (and SIGCONT, so that a stopped daemon takes it), then Wait().
  int Stop(std::chrono::milliseconds timeout = kReplyTimeout);

  // All of stderr so far (all of it once Wait() has returned).
  std::string Log() const;
  // Waits for a stderr line that contains `text` and returns it; throws on timeout or exit.
  std::string WaitForLog(std::string_view text,
                         std::chrono::milliseconds timeout = kReplyTimeout) const;
  // Waits until the daemon's threads named `thread` (as top -H shows them: "sudokud-long") have
  // used CPU time between them, which they do only once a job has started on one of them: a job
  // queued is not yet one started, and a nice-19 thread on a busy machine can wait long before
  // it runs. Throws on timeout.
  void WaitForThreadToRun(std::string_view thread,
                          std::chrono::milliseconds timeout = kReplyTimeout) const;

 private:
  void Drain(int fd);

  pid_t pid_ = -1;
  uint16_t port_ = 0;
  std::thread reader_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::string log_;
  bool log_closed_ = false;
  bool exited_ = false;
  int status_ = -1;
};

// What a program run to its end printed, and how it ended (128 + the signal if one ended it).
struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs `argv` (argv[0] a path) with stdin from /dev/null, to its end.
ProcessResult RunToExit(const std::vector<std::string>& argv);
// Runs $SUDOKUD_BIN with `args` to its end (for flag checks).
ProcessResult RunDaemonToExit(const std::vector<std::string>& args);

// Sanitizers keep freed memory in quarantine and shadow it: memory figures mean nothing there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// The size of a load that only has to be large, not long: a sanitized build does the same work
// some ten times slower, so a quarter of it still takes more than twice as long as the whole in
// a plain build. (A client run a test acts in the middle of holds its input open instead:
// tests/client/held_input.h.)
constexpr int RunLongEnough(int plain_count) {
  return kSanitized ? plain_count / 4 : plain_count;
}

// A "VmRSS:"-like field of /proc/PID/status, in KiB (-1 when absent).
long ProcStatusKiB(pid_t pid, const std::string& field);

// Raises this process's descriptor limit to its hard limit and returns it, for tests that open
// connections by the thousand.
unsigned long RaiseDescriptorLimit();

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_SUPPORT_DAEMON_PROCESS_H_
