// Test helpers for talking to a real sudokud: a blocking wire client, a handle on a daemon
// process started from $SUDOKUD_BIN, systemd's side of sd_notify, and an independent check of
// solutions. Any suite may use them (link sudokud_test_support).
//
// Thread-safety: each object is meant for one thread, except that one thread may Send() on a
// WireClient while another Read()s from it, and DaemonProcess::Log()/WaitForLog() may be called
// from any thread.
#ifndef SUDOKU_TESTS_DAEMON_WIRE_CLIENT_H_
#define SUDOKU_TESTS_DAEMON_WIRE_CLIENT_H_

#include <sys/types.h>

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "proto/sudoku.pb.h"

namespace sudoku::testing {

// Long enough for any answer a test waits for; a daemon that says nothing for this long has hung.
inline constexpr std::chrono::seconds kReplyTimeout{60};

// A blocking connection to sudokud. Failures (refused, reset, timeout, a frame that does not
// decode) throw std::runtime_error saying what happened.
class WireClient {
 public:
  explicit WireClient(uint16_t port, const std::string& host = "127.0.0.1");

  // Raw bytes, for faults.
  void SendBytes(std::string_view bytes);
  // One framed Request.
  void Send(const wire::Request& request);
  void SendSolve(uint64_t batch_id, const std::vector<std::string>& puzzles,
                 uint32_t solution_limit = 0);

  // The next Response, or std::nullopt once the daemon has closed the connection between two
  // frames. Bytes that end inside a frame, or a reset, throw.
  std::optional<wire::Response> Read(std::chrono::milliseconds timeout = kReplyTimeout);
  // Every Response until the daemon closes the connection.
  std::vector<wire::Response> ReadUntilClosed(std::chrono::milliseconds timeout = kReplyTimeout);

  // Bytes the kernel has received on this connection and Read() has not taken yet: without
  // reading, whether the daemon has begun to write.
  size_t Unread();

  // Ends our sending side (the daemon sees end of input) and keeps reading possible.
  void ShutdownSend();
  void Close();
  // Closes with a reset (SO_LINGER 0), as a crashed or killed peer's kernel does when data is
  // pending: the daemon's next read fails instead of seeing end of input.
  void Reset();

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  std::string buffer_;  // bytes read, not yet parsed
};

// $SUDOKUD_BIN, else the daemon built beside these helpers (so the tests run by hand too).
std::string DaemonBinary();

// $SUDOKUD_BIN (else the sudokud of this build) run as a child process, its stderr captured. The constructor waits for the
// "listening on HOST:PORT" line and reads the port from it (so tests listen on port 0).
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
  pid_t pid() const { return pid_; }

  void Signal(int signal);
  // The exit status, or 128 + the signal that killed it; -1 (after SIGKILL) on timeout.
  int Wait(std::chrono::milliseconds timeout = kReplyTimeout);

  // All of stderr so far (all of it once Wait() has returned).
  std::string Log() const;
  // Waits for a stderr line that contains `text` and returns it; throws on timeout or exit.
  std::string WaitForLog(std::string_view text,
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

// Runs $SUDOKUD_BIN with `args` to its end (for flag checks).
struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
ProcessResult RunDaemonToExit(const std::vector<std::string>& args);

// Sanitizers keep freed memory in quarantine and shadow it: memory figures mean nothing there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// A "VmRSS:"-like field of /proc/PID/status, in KiB (-1 when absent).
long ProcStatusKiB(pid_t pid, const std::string& field);

// systemd's side of sd_notify: a datagram socket whose path goes into NOTIFY_SOCKET. A thread
// reads it all the time, as systemd does (sd_notify blocks when nobody reads).
class NotifySocket {
 public:
  NotifySocket();
  ~NotifySocket();

  NotifySocket(const NotifySocket&) = delete;
  NotifySocket& operator=(const NotifySocket&) = delete;

  // "NOTIFY_SOCKET=/path", for DaemonProcess's env.
  std::string EnvEntry() const { return "NOTIFY_SOCKET=" + path_; }
  // The next datagram not yet taken, or std::nullopt on timeout.
  std::optional<std::string> Receive(std::chrono::milliseconds timeout = kReplyTimeout);
  // Takes datagrams until one contains `text` (returned); throws on timeout.
  std::string WaitFor(std::string_view text, std::chrono::milliseconds timeout = kReplyTimeout);

 private:
  void ReadAll();

  std::string dir_;
  std::string path_;
  int fd_ = -1;
  std::thread reader_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<std::string> datagrams_;
  bool stop_ = false;
};

// True when `solution` is 81 digits forming a valid grid that keeps every given of `puzzle`
// (blanks: . 0 _ -). Written without the solver, to check it.
bool IsSolutionOf(std::string_view puzzle, std::string_view solution);

// `count` puzzles with `givens` clues each (they may have several solutions),
// each blanked from a shuffled solved grid (so each has a solution); the same seed gives the
// same puzzles.
std::vector<std::string> GeneratePuzzles(int count, int givens, uint32_t seed);

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_DAEMON_WIRE_CLIENT_H_
