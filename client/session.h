// The client's session core: the connections to sudokud that every command (solve, bench,
// generate, explain) runs its requests over.
//
// A session keeps --connections lanes. Each lane opens a connection to the next --connect address
// in turn, runs a writer (keeps up to --in-flight requests out), a reader (hands each response to
// the command) and a watch (--timeout: a connection with requests out that answers nothing for
// that long counts as broken). When a connection breaks, the command takes back its unanswered
// requests (to send again on whichever lane is free first, or to count as lost) and the lane
// connects again after an exponential backoff with jitter. How long a lane keeps trying without
// one answer depends on the break: a daemon that refuses or resets connections, or turns them
// away (TOO_MANY_CONNECTIONS), is restarting or full, and is waited out for --retry-for; one that
// accepts and then fails (closes early, falls silent) is given kMaxBreaksInARow attempts. When
// every lane has given up, the run fails with the last error of each address.
//
// What a command sends, what it does with an answer and what becomes of the requests of a broken
// connection is its own: it implements SessionWork. The transport lives in one place: the session
// opens every connection in Session::Open(), the only place that constructs a Connection, through
// SessionOptions::open when a command sets it (TLS).
//
// Thread-safety: none; a session and its work run on one single-threaded io_context.
#ifndef SUDOKU_CLIENT_SESSION_H_
#define SUDOKU_CLIENT_SESSION_H_

#include <utility>  // before Asio: asio issue 944

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include "client/async_signal.h"
#include "client/connection.h"
#include "client/endpoint.h"
#include "proto/sudoku.pb.h"

namespace sudoku::client {

inline constexpr std::chrono::milliseconds kDefaultTimeout{30000};
inline constexpr std::chrono::milliseconds kDefaultRetryFor{60000};
// The largest --timeout and --retry-for.
inline constexpr std::chrono::milliseconds kMaxSessionDuration = std::chrono::hours(24);

struct SessionOptions {
  std::vector<Endpoint> endpoints;  // lanes start at index % size and move on in turn
  size_t connections = 1;
  size_t in_flight = 1;  // requests out per connection
  // A connection with requests out that answers nothing for this long is broken (--timeout).
  std::chrono::milliseconds timeout = kDefaultTimeout;
  // How long a lane goes on reconnecting without one answer before it gives up (--retry-for).
  std::chrono::milliseconds retry_for = kDefaultRetryFor;
  // What the requests are called in messages: "batches", "requests".
  std::string requests_noun = "batches";
  // How a connection is made: a plain TCP Connection when empty. A secured transport (TLS) is a
  // Connection subclass returned from here (see Connection's protected members).
  std::function<std::unique_ptr<Connection>(const boost::asio::any_io_executor&, const Endpoint&)>
      open;
  // Whether the run fails once every lane has given up (solve, generate, explain); bench only
  // reports it (Session::gave_up()).
  bool fail_when_every_lane_gives_up = true;
};

// The session settings a command's options carry: --timeout, --retry-for and how to connect
// (--tls) in every command, and --connect, --connections and --in-flight in those that take
// them. A command without one of those keeps the SessionOptions default, and sets what is its
// own (generate's single endpoint, explain's "requests") on the result.
template <typename CommandOptions>
SessionOptions SessionOptionsFrom(const CommandOptions& options) {
  SessionOptions session;
  if constexpr (requires { options.endpoints; }) session.endpoints = options.endpoints;
  if constexpr (requires { options.connections; }) session.connections = options.connections;
  if constexpr (requires { options.in_flight; }) session.in_flight = options.in_flight;
  session.timeout = options.timeout;
  session.retry_for = options.retry_for;
  session.open = options.open;
  return session;
}

// One connection slot: a connection, replaced when it breaks, and what the session knows of it.
// A command keeps its own per-lane state by `index`.
struct Lane {
  Lane(const boost::asio::any_io_executor& executor, size_t index)
      : index(index), slot_freed(executor), stopped(executor), backoff(executor),
        deadline(executor) {}

  const size_t index;
  std::unique_ptr<Connection> connection;
  size_t outstanding = 0;  // requests sent on `connection` and not yet wholly answered
  AsyncSignal slot_freed;  // a request was answered, or the connection broke
  AsyncSignal stopped;     // the writer or the reader of `connection` returned
  boost::asio::steady_timer backoff;
  boost::asio::steady_timer deadline;  // --timeout: when `connection` counts as broken
  // The last answer, or the moment `outstanding` stopped being 0, whichever is later.
  std::chrono::steady_clock::time_point last_progress;
  uint64_t generation = 0;  // which `connection` a watch belongs to
  int running = 0;          // writer and reader coroutines on `connection`
  bool broken = false;      // `connection` failed: its writer and reader wind down
  bool writer_done = false;
  bool answered = false;        // `connection` answered at least one request
  bool connect_failed = false;  // `connection` never opened
  bool timed_out = false;       // `connection` broke on --timeout
  // The daemon turned `connection` away (TOO_MANY_CONNECTIONS): its requests were not at fault.
  bool turned_away = false;
  // The daemon closed `connection` for sending nothing (IDLE_TIMEOUT, REQUEST_TIMEOUT) while it
  // had no request out: the input was slow, not the daemon, so it is no break.
  bool closed_idle = false;
  std::exception_ptr error;  // why `connection` broke
};

// What a command plugs into a session.
class SessionWork {
 public:
  virtual ~SessionWork() = default;

  // The next request for `lane` to send, waiting until there is one; null when the lane should
  // stop sending (every request answered, or the run over, or `lane.broken`). The frame must stay
  // valid until its request is answered or given back by ConnectionEnded().
  virtual boost::asio::awaitable<const std::string*> Next(Lane& lane) = 0;

  // Reads the next response on `lane` (by default a frame); false on a clean end of input.
  virtual boost::asio::awaitable<bool> Receive(Lane& lane, wire::Response* response);

  // Takes one response that is not a fault; true when it completes a request (a generate
  // request may take several). Throws ClientError to end the run, ConnectionLost to break the
  // connection.
  virtual bool Take(Lane& lane, const wire::Response& response) = 0;

  // A fault from the daemon. By default: a fault about the daemon's state breaks the connection
  // (the requests go elsewhere), any other ends the run.
  virtual void Fault(Lane& lane, const wire::ProtocolFault& fault);

  // Whether a ClientError from Take() breaks only the connection (bench counts it) instead of
  // ending the run.
  virtual bool BadResponseBreaksOnlyTheConnection() const { return false; }

  // Whether a lane whose connection broke should connect again.
  virtual bool WantsConnection() const { return true; }

  // The connection of `lane` ended, broken (`lane.error`) or not, with `lane.outstanding`
  // requests unanswered: take them back (send them again, or count them lost). May end the run
  // with Session::Fail().
  virtual void ConnectionEnded(Lane& lane) = 0;

  // Wake whatever the command's coroutines on `lane` (or on any lane, for a null lane) wait for:
  // the lane broke or the run is over.
  virtual void Wake(Lane* lane) = 0;
};

class Session {
 public:
  Session(const boost::asio::any_io_executor& executor, SessionOptions options, SessionWork* work);

  // Runs every lane; returns once each has stopped (done, given up, or the run over).
  boost::asio::awaitable<void> Run();

  // The completion handler for the session's and the command's own coroutines: an exception
  // ends the run.
  auto Guard() {
    return [this](std::exception_ptr error) {
      if (error) Fail(error);
    };
  }

  // Ends the run with `error`: closes every connection and wakes every waiter.
  void Fail(std::exception_ptr error);
  // Ends the run without an error (bench's drain time-out): the same, minus the error.
  void Stop();

  bool failed() const { return error_ != nullptr; }
  bool over() const { return over_; }
  std::exception_ptr error() const { return error_; }
  const SessionOptions& options() const { return options_; }
  // Non-empty once a lane gave up: the last error of each address and how long was tried.
  const std::string& gave_up() const { return gave_up_; }
  std::vector<std::unique_ptr<Lane>>& lanes() { return lanes_; }
  // The last error of each address tried, in the order of --connect, joined by "; ".
  std::string EveryEndpointFailed() const;

 private:
  std::unique_ptr<Connection> Open(const Endpoint& endpoint);
  boost::asio::awaitable<void> Drive(Lane& lane);
  boost::asio::awaitable<void> Write(Lane& lane);
  boost::asio::awaitable<void> Read(Lane& lane);
  boost::asio::awaitable<void> Watch(Lane& lane, uint64_t generation);
  std::function<void(std::exception_ptr)> LaneGuard(Lane& lane);
  void Break(Lane& lane, std::exception_ptr error);
  // The wait before attempt `breaks` + 1: exponential, capped, with jitter.
  std::chrono::milliseconds Backoff(unsigned breaks);

  boost::asio::any_io_executor executor_;
  const SessionOptions options_;
  SessionWork* work_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  size_t lanes_running_ = 0;
  size_t lanes_alive_ = 0;  // lanes that have not given up
  AsyncSignal lane_ended_;
  std::vector<std::string> endpoint_errors_;  // by index in options_.endpoints
  std::minstd_rand jitter_;
  std::string gave_up_;
  bool over_ = false;
  std::exception_ptr error_;
};

// "30s", "1500ms": a duration as --timeout and --retry-for take it.
std::string DurationText(std::chrono::milliseconds duration);

// The message of an exception_ptr.
std::string What(std::exception_ptr error);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_SESSION_H_
