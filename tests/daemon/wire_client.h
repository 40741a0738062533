// Test helpers for talking to a real sudokud: a blocking wire client and systemd's side of
// sd_notify, beside the daemon process of tests/support/daemon_process.h. Any suite may use them
// (link sudokud_test_support).
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
#include "tests/support/daemon_process.h"
#include "tests/support/puzzles.h"       // GeneratePuzzles() for what a test sends
#include "tests/support/sudoku_check.h"  // IsSolutionOf() for what it gets back

namespace sudoku::testing {

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

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_DAEMON_WIRE_CLIENT_H_
