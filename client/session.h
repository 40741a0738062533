// The client's session core: the connections to sudokud that every command (solve, bench,
// generate, explain) runs its requests over.
//
// A session keeps --connections lanes spread over the addresses of --connect: a name counts as
// every address it resolves to (A and AAAA), resolved at the start, every --resolve-every and
// soon after a connection breaks; an address that appears gets its share of the lanes (a lane
// elsewhere moves once its requests are answered), one that leaves gets no new connection and its
// lanes move the same way. Each lane opens a connection to the address with the fewest lanes
// (after a break, another one than the one that failed, if any), runs a writer (keeps up to --in-flight requests out), a reader (hands each response to
// the command) and a watch (--timeout: a connection with requests out that answers nothing for
// that long counts as broken). When a connection breaks, the command takes back its unanswered
// requests (to send again on whichever lane is free first, or to count as lost) and the lane
// connects again after an exponential backoff with jitter. A daemon that drains (SIGTERM) says
// so first (wire::Draining: the last frame it read): the lane sends nothing more there, the
// command takes back at once what was sent after that frame (to send again on whichever lane is
// free first), the rest is answered there, and then the lane moves on to the next address with
// no wait. How long a lane keeps trying without
// one answer depends on the break: a daemon that refuses or resets connections, or turns them
// away (TOO_MANY_CONNECTIONS), is restarting or full, and is waited out for --retry-for; one that
// accepts and then fails (closes early) is given kMaxBreaksInARow attempts. Two limits keep the
// defaults short where waiting cannot help: before the first answer, a refused connect is waited
// out for kDefaultFirstConnectFor only, unless the user gave --retry-for (no daemon is running);
// and an address whose connection fell silent for --timeout gets one more connection, then is
// given up until an answer comes from any address (a stopped or wedged daemon). When every lane
// has given up, the run fails with the last error of each address.
//
// Waits are never silent (SessionOptions::status): on a terminal a status line says at once what
// the session waits for (connecting, retrying in N s, answers written); elsewhere a line is
// written when a wait passes kQuietWait, and again every kQuietRepeat while it lasts.
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
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "client/connection.h"
#include "client/endpoint.h"
#include "client/flags.h"
#include "client/progress.h"
#include "proto/flag_values.h"
#include "proto/sudoku.pb.h"
#include "proto/wake_up.h"

namespace sudoku::client {

inline constexpr std::chrono::milliseconds kDefaultTimeout{30000};
inline constexpr std::chrono::milliseconds kDefaultRetryFor{60000};
// Before the first answer, how long refused connects are retried when --retry-for is not given.
inline constexpr std::chrono::milliseconds kDefaultFirstConnectFor{5000};
// Off a terminal, a wait this long without an answer gets one line saying what it waits for, and
// another every kQuietRepeat while it lasts.
inline constexpr std::chrono::milliseconds kQuietWait{2000};
inline constexpr std::chrono::milliseconds kQuietRepeat{5000};
// On a terminal, the status line shows a wait this long (at once, to a person).
inline constexpr std::chrono::milliseconds kTerminalWait{200};
// An address a connect failed to is passed over for this long while another is left.
inline constexpr std::chrono::milliseconds kPassOverFailedFor{5000};
// The largest --timeout and --retry-for.
inline constexpr std::chrono::milliseconds kMaxSessionDuration = std::chrono::hours(24);

struct SessionOptions {
  // As given (--connect); a name stands for every address it resolves to.
  std::vector<Endpoint> endpoints;
  size_t connections = 1;
  size_t in_flight = 1;  // requests out per connection
  // A connection with requests out that answers nothing for this long is broken (--timeout).
  std::chrono::milliseconds timeout = kDefaultTimeout;
  // How long a lane goes on reconnecting without one answer before it gives up (--retry-for).
  std::chrono::milliseconds retry_for = kDefaultRetryFor;
  // Before the first answer from any address, how long refused connects are retried: the
  // lesser of this and retry_for. Commands set it to retry_for when the user gave --retry-for.
  std::chrono::milliseconds first_connect_for = kDefaultFirstConnectFor;
  // Where the session says what it waits for: null for nowhere. With `status_line` (a terminal)
  // the status is drawn in place from kTerminalWait on; else one line goes to `status` once a
  // wait passes kQuietWait.
  std::ostream* status = nullptr;
  StatusLine* status_line = nullptr;
  // How often the names of `endpoints` are resolved again (--resolve-every).
  std::chrono::milliseconds resolve_every = kDefaultResolveEvery;
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

// What every command's options hold for its session (each command's options derive from it):
// --timeout, --retry-for and how to connect (--tls), parsed by ParseSessionFlags(), and where
// the session says what it waits for.
struct CommandSessionOptions {
  // A connection with requests out that answers nothing for this long is taken as broken: its
  // requests go to another connection (--timeout).
  std::chrono::milliseconds timeout = kDefaultTimeout;
  // How long a connection slot goes on reconnecting, with growing waits, without one answer
  // before it gives up (--retry-for).
  std::chrono::milliseconds retry_for = kDefaultRetryFor;
  bool retry_for_given = false;  // --retry-for was given: it bounds the first connect too
  // How often each --connect name is resolved again (--resolve-every).
  std::chrono::milliseconds resolve_every = kDefaultResolveEvery;
  // Where the session says what it waits for (SessionOptions::status, status_line); set by the
  // Run function from its `err` (ReportWaitsTo()).
  std::ostream* status = nullptr;
  StatusLine* status_line = nullptr;
  ConnectionOpener open;  // TLS (--tls), or empty for plain TCP
};

// The session settings a command's options carry: CommandSessionOptions in every command, and
// --connect, --connections and --in-flight in those that take them. A command without one of
// those keeps the SessionOptions default, and sets what is its own (generate's single endpoint,
// explain's "requests") on the result.
template <typename CommandOptions>
SessionOptions SessionOptionsFrom(const CommandOptions& options) {
  const CommandSessionOptions& common = options;
  SessionOptions session;
  if constexpr (requires { options.endpoints; }) session.endpoints = options.endpoints;
  if constexpr (requires { options.connections; }) session.connections = options.connections;
  if constexpr (requires { options.in_flight; }) session.in_flight = options.in_flight;
  session.timeout = common.timeout;
  session.retry_for = common.retry_for;
  session.resolve_every = common.resolve_every;
  if (common.retry_for_given) session.first_connect_for = common.retry_for;
  session.open = common.open;
  session.status = common.status;
  session.status_line = common.status_line;
  return session;
}

// Whether `err` is the process's standard error and a terminal: where the status is drawn in
// place.
bool IsTerminal(const std::ostream& err);

// Points a command's options at `err` for the session's status, drawn in place on `line` (made
// here) when `terminal`.
inline void ReportWaitsTo(std::ostream& err, bool terminal, CommandSessionOptions* options,
                          std::optional<StatusLine>* line) {
  options->status = &err;
  if (terminal) {
    line->emplace(&err, TerminalWidth(2));
    options->status_line = &**line;
  }
}

// One connection slot: a connection, replaced when it breaks, and what the session knows of it.
// A command keeps its own per-lane state by `index`.
struct Lane {
  // What the lane is doing, for the status (Session::DescribeWait()).
  enum class Phase { kConnecting, kOpen, kBackingOff, kStopped };

  Lane(const boost::asio::any_io_executor& executor, size_t index)
      : index(index), slot_freed(executor), stopped(executor), backoff(executor),
        deadline(executor) {}

  const size_t index;
  std::unique_ptr<Connection> connection;
  size_t outstanding = 0;  // requests sent on `connection` and not yet wholly answered
  // Frames sent on `connection`, counted from 1 as the daemon counts them: the request Next()
  // returns goes out as frame frames_sent + 1.
  uint64_t frames_sent = 0;
  bool sending_frame = false;  // the writer is in the middle of sending frame `frames_sent`
  // The daemon is draining (it sent wire::Draining): it reads no frame after last_frame_read,
  // answers the others, then closes. Nothing more is sent on `connection`.
  bool draining = false;
  uint64_t last_frame_read = 0;
  // Leaving its address for one with fewer lanes, or because the address left its name
  // (Session::Rebalance): as draining, with nothing taken back and nothing said.
  bool moving = false;
  WakeUp slot_freed;  // a request was answered, or the connection broke
  WakeUp stopped;     // the writer or the reader of `connection` returned
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
  Phase phase = Phase::kConnecting;
  // Whether requests may be sent on `connection`: not once it broke or its daemon drains.
  bool sending() const { return !broken && !draining; }
  size_t endpoint = 0;  // the index of `connection`'s address among the session's addresses
  std::chrono::steady_clock::time_point opened;    // when `connection` began connecting
  std::chrono::steady_clock::time_point retry_at;  // kBackingOff: when the lane connects again
  // kBackingOff: when it gives up if it is still refused (or turned away); unset when it gives
  // up after a number of attempts instead.
  std::optional<std::chrono::steady_clock::time_point> give_up_at;
};

// What a command plugs into a session.
class SessionWork {
 public:
  virtual ~SessionWork() = default;

  // The next request for `lane` to send, waiting until there is one; null when the lane should
  // stop sending (every request answered, or the run over, or !lane.sending()). It goes out as
  // frame lane.frames_sent + 1. The frame must stay
  // valid until its request is answered or given back by ConnectionEnded().
  virtual boost::asio::awaitable<const std::string*> Next(Lane& lane) = 0;

  // Reads the next response on `lane` (by default a frame, skipping those of a kind this client
  // does not know); false on a clean end of input.
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

  // The daemon of `lane` drains and reads no frame after `last_read`: take back every request
  // sent on `lane` as a later frame (send it again elsewhere, or count it unanswered). The others
  // are still answered on `lane`.
  virtual void TakeBackUnread(Lane& lane, uint64_t last_read) = 0;

  // Wake whatever the command's coroutines on `lane` (or on any lane, for a null lane) wait for:
  // the lane broke or the run is over.
  virtual void Wake(Lane* lane) = 0;

  // For the status: what has been written so far ("78000 answers written"), or empty.
  virtual std::string Written() const { return {}; }
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
  // The addresses lanes connect to, each once: an --connect address, or one a name resolved to.
  size_t addresses() const { return targets_.size(); }
  const Endpoint& address(size_t index) const { return targets_[index].endpoint; }
  // The last error of each address tried, in the order of --connect, joined by "; ".
  std::string EveryEndpointFailed() const;
  // What the session waits for at `now`, in words without "sudoku-client: " ("connecting to
  // 127.0.0.1:9810"); empty when it waits for nothing (see the .cc for every wording).
  std::string DescribeWait(std::chrono::steady_clock::time_point now) const;

 private:
  std::unique_ptr<Connection> Open(const Endpoint& endpoint);
  boost::asio::awaitable<void> Drive(Lane& lane);
  boost::asio::awaitable<void> Write(Lane& lane);
  boost::asio::awaitable<void> Read(Lane& lane);
  boost::asio::awaitable<void> Watch(Lane& lane, uint64_t generation);
  boost::asio::awaitable<void> Narrate();
  // Resolves every --connect name (the others stand as given) and brings targets_ up to date,
  // then Rebalance(). A name that fails to resolve keeps the addresses it had.
  boost::asio::awaitable<void> Resolve();
  // Resolves again every resolve_every, and soon (at most once a second) after ResolveSoon().
  boost::asio::awaitable<void> KeepResolving();
  void ResolveSoon();
  // Moves lanes (Lane::moving) off addresses that left their name, and off the most crowded
  // addresses while another (one no connect failed to lately) has two fewer lanes.
  void Rebalance();
  void Move(Lane& lane);
  // The address for a lane to connect to: of those not given up or gone, the one with the fewest
  // lanes, ties going to the first after `*endpoint` in turn, those a connect failed to lately
  // only when there is no other; with `elsewhere`, another one than `*endpoint` when there is
  // any. False when none is left.
  bool PickEndpoint(size_t* endpoint, bool elsewhere) const;
  std::function<void(std::exception_ptr)> LaneGuard(Lane& lane);
  void Break(Lane& lane, std::exception_ptr error);
  // The daemon of `lane` drains (wire::Draining): nothing more is sent there, and what it will
  // not read goes back to the command.
  void Drained(Lane& lane, const wire::Draining& draining);
  // Once no frame is being sent: gives back to the command the requests sent on a draining lane
  // after the last frame its daemon read.
  void TakeBackUnread(Lane& lane);
  // Says `text` on the session's status stream, as a line of its own (above the status line).
  void Say(const std::string& text);
  // How `lane`'s connection broke, in words ("cannot connect to ADDRESS (Connection refused)").
  std::string BreakText(const Lane& lane) const;
  // While other addresses answer, names an address whose connection broke, once until it
  // answers again: a dead address among several is never silent, nor said at every retry.
  void SayBrokenOnce(const Lane& lane);
  // The wait before attempt `breaks` + 1: exponential, capped, with jitter.
  std::chrono::milliseconds Backoff(unsigned breaks);

  boost::asio::any_io_executor executor_;
  const SessionOptions options_;
  SessionWork* work_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  size_t lanes_running_ = 0;
  size_t lanes_alive_ = 0;  // lanes that have not given up
  WakeUp lane_ended_;
  // One address lanes connect to. Never removed (lanes refer to them by index): one that left
  // its name is marked gone, and back when the name resolves to it again.
  struct Target {
    Target(Endpoint endpoint, size_t given) : endpoint(std::move(endpoint)), given(given) {}
    Endpoint endpoint;
    size_t given = 0;   // the --connect address it comes from (index in options_.endpoints)
    bool gone = false;  // its name no longer resolves to it: no new connection goes there
    std::string error;  // the last error of a connection to it
    // When a connection to it last fell silent for --timeout (unset: not since the last answer
    // from any address), and whether it is given up (a connection opened after that fell
    // silent too).
    std::optional<std::chrono::steady_clock::time_point> silent_since;
    bool given_up = false;
    // A daemon there said it drains, and no connection has been made there since (the drain is
    // said once per address).
    bool draining = false;
    size_t lanes = 0;  // lanes connecting or connected to it
    // When a connect to it last failed, unless one has succeeded since: for a while such an
    // address is taken only when no other is left (a name's IPv6 address where the daemon
    // listens on IPv4 only, a pod gone).
    std::optional<std::chrono::steady_clock::time_point> failed_at;
    // Whether a connect to it failed within kPassOverFailedFor of `now`.
    bool FailedLately(std::chrono::steady_clock::time_point now) const {
      return failed_at && now - *failed_at < kPassOverFailedFor;
    }
    bool answered = false;  // a connection to it has had an answer
    // Its failure was said (SayBrokenOnce()) and no answer came from it since.
    bool named = false;
  };
  std::vector<Target> targets_;
  bool any_name_ = false;  // some --connect host is a name, not an address
  boost::asio::ip::tcp::resolver resolver_;
  boost::asio::steady_timer resolve_timer_;
  std::chrono::steady_clock::time_point last_resolve_;
  bool resolve_soon_ = false;
  bool resolving_ = false;       // KeepResolving() runs
  WakeUp resolver_stopped_;
  bool answered_ = false;  // any lane has had an answer
  // The last answer, or the start: how long the session has waited.
  std::chrono::steady_clock::time_point quiet_since_;
  boost::asio::steady_timer narrate_timer_;
  bool narrating_ = false;
  std::minstd_rand jitter_;
  std::string gave_up_;
  bool over_ = false;
  std::exception_ptr error_;
};

// A request with one answer, as explain sends it: over a session of its own (its io_context
// run here), sent again if its connection breaks, until a response answers it.
struct SingleAnswer {
  wire::Response response;
  std::string peer;  // who answered, for messages
};
// `is_answer` tells the answer's kind; a response of another kind ends the run with ClientError
// "bad response from PEER: not `what`" ("not an explanation"). Throws what the session failed
// with (nothing answered: every address refused, the time ran out, a fault).
SingleAnswer RequestOnce(const SessionOptions& options, const wire::Request& request,
                         bool (*is_answer)(const wire::Response&), const std::string& what);

// "30s", "1500ms": a duration as --timeout and --retry-for take it.
using ::sudoku::DurationText;

// A wait as the status counts it down: "0.4s", "2.0s", "12s" (tenths below 10 s).
std::string SecondsText(std::chrono::steady_clock::duration duration);

// The message of an exception_ptr.
std::string What(std::exception_ptr error);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_SESSION_H_
