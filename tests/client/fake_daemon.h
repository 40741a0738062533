// A stand-in for sudokud in the client's unit tests: it speaks the wire protocol on a loopback
// port, solves with the tests' own checker (sudoku_check.h), and can be told to misbehave (answer out of order, send a
// protocol fault, hang up, send a bad response) so that every path of the client can be driven.
//
// Thread-safety: the daemon runs its own threads (one to accept, one per connection); the
// accessors may be called from any thread.
#ifndef SUDOKU_TESTS_CLIENT_FAKE_DAEMON_H_
#define SUDOKU_TESTS_CLIENT_FAKE_DAEMON_H_

#include <utility>  // before Asio: asio issue 944

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "proto/sudoku.pb.h"

namespace sudoku::testing {

class FakeDaemon {
 public:
  struct Script {
    // Answer requests in groups of this many, the last one first (a group closes early when
    // the client sends nothing more for a moment).
    size_t hold = 1;
    // When >= 0: answer request number `fault_at` (0-based, per connection) with `fault`, then
    // hang up.
    int fault_at = -1;
    wire::ProtocolFault fault;
    // When >= 0: answer nothing, and hang up once this many requests have been read.
    int close_after = -1;
    // When >= 0: send the first half of response number `cut_at` (0-based, per connection),
    // then hang up.
    int cut_at = -1;
    // Reset each connection as soon as it is accepted (a daemon that crashed, or a firewall).
    bool reset = false;
    // With cut_at: the daemon dies at the cut and is not restarted; every later connection is
    // reset as soon as it is accepted.
    bool dies_at_cut = false;
    // When >= 0: only the first this many connections follow fault_at, close_after, cut_at and
    // reset;
    // the later ones answer everything (a daemon that restarts, or the next one behind a load
    // balancer).
    int misbehaving_connections = -1;
    // Applied to every response before it is sent.
    std::function<void(wire::SolveResponse*)> tamper;
    // Before each answer, a Response of a kind a later protocol might add (field 99, which this
    // client does not know).
    bool unknown_kind_first = false;
    // When >= 0: before its first answer on each connection, a Draining message that claims
    // this many frames were read (a daemon that lies, when more than the client sent).
    int draining_claim = -1;
  };

  FakeDaemon();
  explicit FakeDaemon(Script script);
  ~FakeDaemon();
  FakeDaemon(const FakeDaemon&) = delete;
  FakeDaemon& operator=(const FakeDaemon&) = delete;

  // "127.0.0.1:PORT".
  std::string address() const;
  size_t connections() const { return connections_; }
  size_t requests() const { return requests_; }
  // Puzzles answered, over all connections.
  size_t answered_puzzles() const { return answered_puzzles_; }
  // Puzzles per request, in the order the requests were read (across connections).
  std::vector<size_t> batch_sizes() const;
  uint32_t last_solution_limit() const { return last_limit_; }

  // The response the real daemon should give to `request`.
  static wire::SolveResponse Answer(const wire::SolveRequest& request);

 private:
  void Accept();
  void Serve(boost::asio::ip::tcp::socket socket, size_t number);

  Script script_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> dead_{false};  // Script::dies_at_cut happened
  std::atomic<size_t> connections_{0};
  std::atomic<size_t> requests_{0};
  std::atomic<size_t> answered_puzzles_{0};
  std::atomic<uint32_t> last_limit_{0};
  mutable std::mutex mutex_;
  std::vector<size_t> batch_sizes_;
  std::vector<std::thread> threads_;
  std::thread acceptor_thread_;
};

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_CLIENT_FAKE_DAEMON_H_
