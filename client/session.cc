#include "client/session.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "client/client_error.h"
#include "proto/framing.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

// Reconnecting: the first wait after a break, doubled after each further break in a row up to
// kMaxBackoff; each wait is drawn between half and all of that, so that clients turned away
// together do not all come back together.
constexpr std::chrono::milliseconds kFirstBackoff{50};
constexpr std::chrono::milliseconds kMaxBackoff{2000};
// Other breaks (closed early, a connect that timed out) give up after this many in a row without
// an answer: those daemons are there but failing, and waiting longer rarely helps. (Silent past
// --timeout is stricter still: see Session::Watch().)
constexpr unsigned kMaxBreaksInARow = 5;
// Names are resolved again after a break at most this often, however many connections break.
constexpr std::chrono::milliseconds kMinResolveGap{1000};

// "1 batch", "4 batches": `n` of what `plural` names ("batches", "requests").
std::string Count(size_t n, const std::string& plural) {
  if (n != 1) return std::to_string(n) + " " + plural;
  return "1 " + plural.substr(0, plural.size() - (plural.ends_with("ches") ? 2 : 1));
}

bool IsAddress(const std::string& host) {
  boost::system::error_code error;
  asio::ip::make_address(host, error);
  return !error;
}

// Whether the daemon refused the connection, reset it or turned it away (TOO_MANY_CONNECTIONS):
// what a daemon restarting or full does, worth waiting out for --retry-for.
bool TurnedAway(const Lane& lane) {
  const boost::system::error_code& error = lane.connection->last_error();
  return lane.turned_away || error == asio::error::connection_refused ||
         error == asio::error::connection_reset || error == asio::error::broken_pipe;
}

}  // namespace

bool IsTerminal(const std::ostream& err) {
  return &err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
}

std::string SecondsText(std::chrono::steady_clock::duration duration) {
  const double seconds = std::max(0.0, std::chrono::duration<double>(duration).count());
  if (seconds < 9.95) return fmt::format("{:.1f}s", seconds);
  return fmt::format("{:.0f}s", seconds);
}

std::string What(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

asio::awaitable<bool> SessionWork::Receive(Lane& lane, wire::Response* response) {
  while (true) {
    // Awaited into a variable: g++ 12 miscompiles a co_await in a loop's condition.
    const bool got = co_await lane.connection->Receive(response);
    if (!got) co_return false;
    // A kind this client does not know (sudoku.proto: to be ignored).
    if (response->kind_case() != wire::Response::KIND_NOT_SET) co_return true;
  }
}

void SessionWork::Fault(Lane& lane, const wire::ProtocolFault& fault) {
  const std::string text = DescribeFault(lane.connection->PeerName(), fault);
  lane.closed_idle = lane.outstanding == 0 && ClosedForIdling(fault);
  lane.turned_away = fault.kind() == wire::ProtocolFault::TOO_MANY_CONNECTIONS;
  if (IsRetryable(fault)) throw ConnectionLost(text);
  throw ClientError(text);
}

Session::Session(const asio::any_io_executor& executor, SessionOptions options, SessionWork* work)
    : executor_(executor),
      options_(std::move(options)),
      work_(work),
      lane_ended_(executor),
      resolver_(executor),
      resolve_timer_(executor),
      resolver_stopped_(executor),
      quiet_since_(Clock::now()),
      narrate_timer_(executor),
      jitter_(std::random_device{}()) {
  for (size_t i = 0; i < options_.connections; ++i) {
    lanes_.push_back(std::make_unique<Lane>(executor_, i));
  }
  // Until names are resolved (Run()), each --connect address stands for itself.
  for (size_t i = 0; i < options_.endpoints.size(); ++i) {
    targets_.push_back(Target(options_.endpoints[i], i));
    any_name_ = any_name_ || !IsAddress(options_.endpoints[i].host);
  }
}

std::unique_ptr<Connection> Session::Open(const Endpoint& endpoint) {
  if (options_.open) return options_.open(executor_, endpoint);
  return std::make_unique<Connection>(executor_, endpoint);
}

asio::awaitable<void> Session::Run() {
  lanes_running_ = lanes_alive_ = lanes_.size();
  quiet_since_ = Clock::now();
  if (any_name_) {
    co_await Resolve();
    resolving_ = true;
    asio::co_spawn(executor_, KeepResolving(), Guard());
  }
  for (auto& lane : lanes_) asio::co_spawn(executor_, Drive(*lane), Guard());
  if (options_.status != nullptr || options_.status_line != nullptr) {
    narrating_ = true;
    asio::co_spawn(executor_, Narrate(), Guard());
  }
  while (lanes_running_ > 0) co_await lane_ended_.Wait();
  narrating_ = false;
  narrate_timer_.cancel();
  if (resolving_) {
    resolving_ = false;
    resolve_timer_.cancel();
    resolver_.cancel();
    co_await resolver_stopped_.Wait();
  }
}

asio::awaitable<void> Session::Resolve() {
  std::vector<Target> found;
  for (size_t given = 0; given < options_.endpoints.size(); ++given) {
    const Endpoint& endpoint = options_.endpoints[given];
    const size_t before = found.size();
    if (IsAddress(endpoint.host)) {
      found.push_back(Target(endpoint, given));
      continue;
    }
    boost::system::error_code error;
    const auto results = co_await resolver_.async_resolve(
        endpoint.host, endpoint.port, asio::redirect_error(asio::use_awaitable, error));
    if (!error) {
      for (const auto& entry : results) {
        Endpoint address = endpoint;
        address.address = entry.endpoint().address().to_string();
        const bool known = std::any_of(found.begin() + static_cast<ptrdiff_t>(before),
                                       found.end(), [&address](const Target& target) {
                                         return target.endpoint.address == address.address;
                                       });
        if (!known) found.push_back(Target(std::move(address), given));
      }
    }
    if (found.size() == before) {
      // Not resolved now: it keeps the addresses it had (a name server's hiccup takes none
      // away), or stands as given, so that connecting says why.
      for (const Target& target : targets_) {
        if (target.given == given && !target.gone) found.push_back(target);
      }
      if (found.size() == before) found.push_back(Target(endpoint, given));
    }
  }
  last_resolve_ = Clock::now();
  if (over_) co_return;
  for (Target& target : targets_) target.gone = true;
  for (Target& address : found) {
    const auto same = std::find_if(targets_.begin(), targets_.end(), [&address](const Target& t) {
      return t.given == address.given && t.endpoint.address == address.endpoint.address;
    });
    if (same != targets_.end()) {
      same->gone = false;
    } else {
      targets_.push_back(std::move(address));
    }
  }
  Rebalance();
}

asio::awaitable<void> Session::KeepResolving() {
  boost::system::error_code ignored;
  while (resolving_ && !over_) {
    resolve_timer_.expires_at(last_resolve_ + options_.resolve_every);
    co_await resolve_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    if (!resolving_ || over_) break;
    if (resolve_soon_ && Clock::now() < last_resolve_ + kMinResolveGap) {
      resolve_timer_.expires_at(last_resolve_ + kMinResolveGap);
      co_await resolve_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      if (!resolving_ || over_) break;
    }
    resolve_soon_ = false;
    co_await Resolve();
  }
  resolver_stopped_.Notify();
}

void Session::ResolveSoon() {
  if (!resolving_ || resolve_soon_) return;
  resolve_soon_ = true;
  resolve_timer_.cancel();
}

void Session::Move(Lane& lane) {
  lane.moving = lane.draining = true;
  lane.last_frame_read = lane.frames_sent;  // every request sent is answered there
  lane.slot_freed.Notify();
  work_->Wake(&lane);
}

void Session::Rebalance() {
  const auto movable = [this](const Lane& lane) {
    return lane.phase == Lane::Phase::kOpen && lane.running > 0 && lane.sending();
  };
  for (auto& lane : lanes_) {
    if (movable(*lane) && targets_[lane->endpoint].gone) Move(*lane);
  }
  // Lanes staying where they are, by address; addresses that may take more.
  std::vector<size_t> staying(targets_.size(), 0);
  for (const auto& lane : lanes_) {
    if (lane->phase != Lane::Phase::kStopped && !lane->moving) ++staying[lane->endpoint];
  }
  const Clock::time_point now = Clock::now();
  while (true) {
    size_t fewest = targets_.size(), most = targets_.size();
    for (size_t i = 0; i < targets_.size(); ++i) {
      if (targets_[i].gone || targets_[i].given_up) continue;
      if (!targets_[i].FailedLately(now) && (fewest == targets_.size() || staying[i] < staying[fewest])) fewest = i;
      if (most == targets_.size() || staying[i] > staying[most]) most = i;
    }
    if (fewest == targets_.size() || staying[most] < staying[fewest] + 2) return;
    const auto lane = std::find_if(lanes_.begin(), lanes_.end(), [&](const auto& lane) {
      return lane->endpoint == most && movable(*lane);
    });
    if (lane == lanes_.end()) return;
    Move(**lane);
    --staying[most];
    ++staying[fewest];
  }
}

bool Session::PickEndpoint(size_t* endpoint, bool elsewhere) const {
  const size_t count = targets_.size();
  const Clock::time_point now = Clock::now();
  const auto rank = [this, now](size_t index) {
    return std::pair(targets_[index].FailedLately(now), targets_[index].lanes);
  };
  std::optional<size_t> best;
  for (size_t step = 1; step <= count; ++step) {
    const size_t next = (*endpoint + step) % count;
    const Target& target = targets_[next];
    if (target.gone || target.given_up || (elsewhere && next == *endpoint && best)) continue;
    if (!best || rank(next) < rank(*best)) best = next;
  }
  if (!best) return false;
  *endpoint = *best;
  return true;
}

// The words of every wait (each then followed by "; K answers written" when the command has
// written some):
//   waiting for sudokud at ADDR: 4 batches out, no answer for 2.0s (--timeout 30s)
//   cannot connect to ADDR (Connection refused); retrying in 0.9s, giving up in 3.0s
//   sudokud at ADDR is full (TOO_MANY_CONNECTIONS); retrying in 0.9s, giving up in 58s
//   sudokud at ADDR answered nothing for 30s; retrying in 0.1s
//   lost the connection to sudokud at ADDR (Connection reset by peer); retrying in 0.1s
//   connecting to ADDR
std::string Session::DescribeWait(Clock::time_point now) const {
  const Lane* open = nullptr;
  const Lane* backing_off = nullptr;
  const Lane* connecting = nullptr;
  for (const auto& lane : lanes_) {
    switch (lane->phase) {
      case Lane::Phase::kOpen:
        if (lane->outstanding > 0 && !lane->broken &&
            (open == nullptr || lane->last_progress < open->last_progress)) {
          open = lane.get();
        }
        break;
      case Lane::Phase::kBackingOff:
        if (backing_off == nullptr || lane->retry_at < backing_off->retry_at) {
          backing_off = lane.get();
        }
        break;
      case Lane::Phase::kConnecting:
        if (connecting == nullptr) connecting = lane.get();
        break;
      case Lane::Phase::kStopped:
        break;
    }
  }
  std::string text;
  if (open != nullptr) {
    const auto silent = now - open->last_progress;
    text = "waiting for sudokud at " + targets_[open->endpoint].endpoint.ToString() +
           (open->draining && !open->moving ? " (draining)" : "") + ": " +
           Count(open->outstanding, options_.requests_noun) + " out, no answer for " +
           SecondsText(silent) + ", " + SecondsText(options_.timeout - silent) +
           " left of --timeout " + DurationText(options_.timeout);
  } else if (backing_off != nullptr) {
    const Lane& lane = *backing_off;
    text = BreakText(lane) + "; retrying in " + SecondsText(lane.retry_at - now);
    if (lane.give_up_at) text += ", giving up in " + SecondsText(*lane.give_up_at - now);
  } else if (connecting != nullptr) {
    text = "connecting to " + targets_[connecting->endpoint].endpoint.ToString();
  } else {
    return {};
  }
  const std::string written = work_->Written();
  if (!written.empty()) text += "; " + written;
  return text;
}

std::string Session::BreakText(const Lane& lane) const {
  const std::string address = targets_[lane.endpoint].endpoint.ToString();
  const boost::system::error_code error =
      lane.connection != nullptr ? lane.connection->last_error() : boost::system::error_code();
  if (lane.turned_away) return "sudokud at " + address + " is full (TOO_MANY_CONNECTIONS)";
  if (lane.connect_failed) {
    return "cannot connect to " + address + " (" + (error ? error.message() : "failed") + ")";
  }
  if (lane.timed_out) {
    return "sudokud at " + address + " answered nothing for " + DurationText(options_.timeout);
  }
  std::string text = "lost the connection to sudokud at " + address;
  if (error) text += " (" + error.message() + ")";
  return text;
}

// Says what the session waits for: on a terminal, in place, from kTerminalWait on, until an
// answer comes; elsewhere a line once a wait passes kQuietWait, and every kQuietRepeat after.
asio::awaitable<void> Session::Narrate() {
  const bool terminal = options_.status_line != nullptr;
  const auto tick = terminal ? std::chrono::milliseconds(100) : std::chrono::milliseconds(250);
  const auto threshold = terminal ? kTerminalWait : kQuietWait;
  // The quiet_since_ of the last line written, and when it was written.
  std::optional<Clock::time_point> told_since;
  Clock::time_point told_at;
  boost::system::error_code ignored;
  while (narrating_ && !over_) {
    narrate_timer_.expires_after(tick);
    co_await narrate_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    if (!narrating_ || over_) break;
    const Clock::time_point now = Clock::now();
    const std::string text = now - quiet_since_ >= threshold ? DescribeWait(now) : std::string();
    if (terminal) {
      if (text.empty()) {
        options_.status_line->Clear(this);
      } else {
        options_.status_line->Draw(text, this);
      }
    } else if (!text.empty() && (told_since != quiet_since_ || now - told_at >= kQuietRepeat)) {
      told_since = quiet_since_;
      told_at = now;
      *options_.status << "sudoku-client: " << text << "\n" << std::flush;
    }
  }
  if (terminal) options_.status_line->Clear(this);
}

void Session::Fail(std::exception_ptr error) {
  if (error_) return;
  error_ = error;
  over_ = false;  // Stop() below closes everything, even after an earlier Stop()
  Stop();
}

void Session::Stop() {
  if (over_) return;
  over_ = true;
  for (auto& lane : lanes_) {
    if (lane->connection != nullptr) lane->connection->Close();
    lane->slot_freed.Notify();
    lane->stopped.Notify();
    lane->backoff.cancel();
    lane->deadline.cancel();
    work_->Wake(lane.get());
  }
  work_->Wake(nullptr);
}

std::chrono::milliseconds Session::Backoff(unsigned breaks) {
  const auto ceiling = std::min(kFirstBackoff * (int64_t{1} << std::min(breaks - 1, 16u)),
                                std::chrono::milliseconds(kMaxBackoff));
  std::uniform_int_distribution<int64_t> draw(ceiling.count() / 2, ceiling.count());
  return std::chrono::milliseconds(draw(jitter_));
}

asio::awaitable<void> Session::Drive(Lane& lane) {
  // Lane i starts on address i when every one has as many lanes (PickEndpoint's turn).
  size_t endpoint = (lane.index + targets_.size() - 1) % targets_.size();
  bool picked = false;  // `endpoint` is the lane's next address already
  bool leave = false;   // the next address is another one than `endpoint` if any
  unsigned breaks = 0;        // in a row, without an answer
  unsigned other_breaks = 0;  // of those, the ones not TurnedAway()
  Clock::time_point failing_since;
  bool gave_up = false;
  // Why the lane gave up, when it did on a TurnedAway() break: after --retry-for, or (before
  // any answer, --retry-for not given) after first_connect_for.
  enum class Limit { kNone, kRetryFor, kFirstConnect } limit_reached = Limit::kNone;
  while (!over_ && work_->WantsConnection()) {
    // Picked before a backoff, it may have left its name or been given up meanwhile.
    const bool usable = picked && !targets_[endpoint].gone && !targets_[endpoint].given_up;
    if (!usable && !PickEndpoint(&endpoint, /*elsewhere=*/picked || leave)) {
      gave_up = true;
      break;
    }
    picked = leave = false;
    ++targets_[endpoint].lanes;
    lane.connection = Open(targets_[endpoint].endpoint);
    lane.broken = lane.writer_done = lane.answered = false;
    lane.connect_failed = lane.timed_out = lane.turned_away = lane.closed_idle = false;
    lane.draining = lane.moving = lane.sending_frame = false;
    lane.frames_sent = lane.last_frame_read = 0;
    lane.error = nullptr;
    lane.endpoint = endpoint;
    lane.opened = Clock::now();
    lane.phase = Lane::Phase::kConnecting;
    try {
      co_await lane.connection->Connect();
    } catch (const ConnectionLost&) {
      lane.error = std::current_exception();
      lane.connect_failed = true;
      targets_[endpoint].failed_at = Clock::now();
    } catch (const ClientError&) {
      // A refusal no retry can mend (a certificate the daemon or we do not accept): the run
      // ends with it, and this lane still ends as lanes do, below.
      Fail(std::current_exception());
    }
    if (lane.error == nullptr && !over_) {
      // A draining daemon accepts no connection: one that does is a daemon taking work there.
      targets_[endpoint].draining = false;
      targets_[endpoint].failed_at.reset();
      lane.phase = Lane::Phase::kOpen;
      lane.running = 2;
      asio::co_spawn(executor_, Write(lane), LaneGuard(lane));
      asio::co_spawn(executor_, Read(lane), LaneGuard(lane));
      asio::co_spawn(executor_, Watch(lane, ++lane.generation), Guard());
      while (lane.running > 0) co_await lane.stopped.Wait();
      lane.deadline.cancel();
    }
    lane.connection->Close();
    --targets_[endpoint].lanes;
    if (lane.error != nullptr) targets_[endpoint].error = What(lane.error);
    work_->ConnectionEnded(lane);
    lane.outstanding = 0;
    if (over_) break;
    if (lane.draining && lane.error == nullptr) {
      if (lane.answered || lane.moving) {
        // Its daemon answered what it read and stops (or the lane leaves it for a better
        // spread): straight on to another address (the same one when it is the only one, which
        // then refuses until a daemon is back there).
        breaks = 0;
        leave = true;
        continue;
      }
      // Drained before it answered anything here: a break like any other, so that a daemon that
      // only ever says it drains is not tried again without a pause.
      lane.error = std::make_exception_ptr(ConnectionLost(
          targets_[endpoint].endpoint.ToString() + " drained before answering"));
      targets_[endpoint].error = What(lane.error);
    }
    if (lane.error == nullptr) break;  // done
    SayBrokenOnce(lane);
    if (lane.moving) {
      breaks = 0;  // it broke while leaving: the requests go elsewhere, so does the lane
      leave = true;
      continue;
    }
    ResolveSoon();  // the name may stand for other addresses by now
    if (lane.closed_idle) {
      breaks = 0;
      picked = true;  // the same address again, at once: the input may be about to go on
      continue;
    }
    const Clock::time_point now = Clock::now();
    if (lane.answered || breaks == 0) {
      breaks = other_breaks = 0;
      failing_since = now;
    }
    const std::chrono::milliseconds wait = Backoff(++breaks);
    lane.give_up_at.reset();
    if (TurnedAway(lane)) {
      // Give up once this lane has been turned away, without one answer, for --retry-for; or,
      // refused before the first answer, for first_connect_for when that is shorter.
      std::chrono::milliseconds limit = options_.retry_for;
      Limit which = Limit::kRetryFor;
      if (!answered_ && lane.connect_failed && options_.first_connect_for < limit) {
        limit = options_.first_connect_for;
        which = Limit::kFirstConnect;
      }
      if (now + wait - failing_since > limit) {
        gave_up = true;
        limit_reached = which;
        break;
      }
      lane.give_up_at = failing_since + limit;
    } else if (++other_breaks >= kMaxBreaksInARow) {
      gave_up = true;
      break;
    }
    if (!PickEndpoint(&endpoint, /*elsewhere=*/true)) {  // every address fell silent twice
      gave_up = true;
      break;
    }
    picked = true;
    lane.phase = Lane::Phase::kBackingOff;
    lane.retry_at = now + wait;
    lane.backoff.expires_after(wait);
    boost::system::error_code ignored;
    co_await lane.backoff.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  }
  lane.phase = Lane::Phase::kStopped;
  if (gave_up && --lanes_alive_ == 0) {
    gave_up_ = EveryEndpointFailed();
    if (limit_reached == Limit::kRetryFor) {
      gave_up_ += " (still failing after --retry-for " + DurationText(options_.retry_for) + ")";
    } else if (limit_reached == Limit::kFirstConnect) {
      gave_up_ += " (still failing after " + DurationText(options_.first_connect_for) +
                  "; to wait longer, give --retry-for)";
    }
    if (options_.fail_when_every_lane_gives_up) {
      Fail(std::make_exception_ptr(ClientError(gave_up_)));
    }
  }
  --lanes_running_;
  lane_ended_.Notify();
}

std::function<void(std::exception_ptr)> Session::LaneGuard(Lane& lane) {
  return [this, &lane](std::exception_ptr error) {
    if (error) {
      try {
        std::rethrow_exception(error);
      } catch (const ConnectionLost&) {
        Break(lane, error);
      } catch (const ClientError&) {
        if (work_->BadResponseBreaksOnlyTheConnection()) {
          Break(lane, error);
        } else {
          Fail(error);
        }
      } catch (...) {
        Fail(error);
      }
    }
    --lane.running;
    lane.stopped.Notify();
  };
}

void Session::Break(Lane& lane, std::exception_ptr error) {
  if (lane.error == nullptr) lane.error = error;
  lane.broken = true;
  lane.connection->Close();
  lane.slot_freed.Notify();
  work_->Wake(&lane);
}

// The progress deadline: a daemon that accepted requests and went silent (stopped, wedged,
// behind a dead route) breaks the connection after --timeout, as a reset would, so that the
// requests go elsewhere or the run ends with a message instead of waiting for ever.
asio::awaitable<void> Session::Watch(Lane& lane, uint64_t generation) {
  const std::string peer = lane.connection->PeerName();
  boost::system::error_code ignored;
  while (!over_ && lane.generation == generation && lane.running > 0 && !lane.broken) {
    const auto now = Clock::now();
    if (lane.outstanding > 0 && now - lane.last_progress >= options_.timeout) {
      const std::string timeout = DurationText(options_.timeout);
      const auto error = std::make_exception_ptr(ConnectionLost(
          peer + " answered nothing for " + timeout + " with " +
          Count(lane.outstanding, options_.requests_noun) + " out (--timeout " +
          timeout + ")"));
      lane.timed_out = true;
      // An address gets one more round after one of its connections fell silent (others silent
      // since before then are the same silence); when a connection given a request since then
      // (a new one, or an open one the request went to) falls silent as well, the address is
      // given up, with every connection to it, until an answer comes from any address. So a
      // frozen daemon is given up after about twice --timeout, however many requests are out.
      auto& silent_since = targets_[lane.endpoint].silent_since;
      if (!silent_since) {
        silent_since = now;
      } else if (lane.last_progress > *silent_since) {
        targets_[lane.endpoint].given_up = true;
        for (auto& other : lanes_) {
          if (other.get() != &lane && other->phase == Lane::Phase::kOpen &&
              other->endpoint == lane.endpoint && !other->broken && other->running > 0) {
            other->timed_out = true;
            Break(*other, error);
          }
        }
      }
      Break(lane, error);
      co_return;
    }
    lane.deadline.expires_at(lane.outstanding == 0 ? now + options_.timeout
                                                   : lane.last_progress + options_.timeout);
    co_await lane.deadline.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  }
}

asio::awaitable<void> Session::Write(Lane& lane) {
  while (true) {
    while (!over_ && lane.sending() && lane.outstanding >= options_.in_flight) {
      co_await lane.slot_freed.Wait();
    }
    if (over_ || lane.broken) co_return;
    if (lane.draining) break;
    const std::string* frame = co_await work_->Next(lane);
    if (frame == nullptr) break;
    if (lane.outstanding++ == 0) lane.last_progress = Clock::now();
    ++lane.frames_sent;
    lane.sending_frame = true;
    try {
      co_await lane.connection->Send(*frame);
    } catch (const ConnectionLost&) {
      // A draining daemon (or this lane's reader, done with it) may close while a frame it
      // does not read is on its way: that frame is taken back below, no break.
      if (!lane.draining) throw;
    }
    lane.sending_frame = false;
    if (lane.draining) {
      TakeBackUnread(lane);
      break;
    }
  }
  if (over_ || lane.broken) co_return;
  lane.writer_done = true;
  // The reader may be waiting for a response that will never come: on the socket, or (--echo,
  // with nothing sent on this lane) for a request to be sent.
  if (lane.outstanding == 0) lane.connection->Close();
  lane.slot_freed.Notify();
}

asio::awaitable<void> Session::Read(Lane& lane) {
  wire::Response response;
  const std::string peer = lane.connection->PeerName();
  // Requests the daemon read and has not answered: once it drains, those sent after the last
  // frame it read are not owed (they go back to the command as soon as no frame is being sent).
  const auto owed = [&lane]() -> size_t {
    const uint64_t unread = lane.draining ? lane.frames_sent - lane.last_frame_read : 0;
    return lane.outstanding > unread ? lane.outstanding - static_cast<size_t>(unread) : 0;
  };
  while (!over_ && !lane.broken && !(lane.writer_done && lane.outstanding == 0) &&
         !(lane.draining && owed() == 0)) {
    if (!co_await work_->Receive(lane, &response)) {
      if (over_ || lane.broken || (lane.writer_done && lane.outstanding == 0)) break;
      if (lane.draining && owed() == 0) break;
      throw ConnectionLost(peer + " closed the connection " +
                           (lane.draining ? "while draining " : "") + "with " +
                           Count(owed(), options_.requests_noun) + " unanswered (see its log)");
    }
    lane.last_progress = Clock::now();
    if (response.has_draining()) {
      Drained(lane, response.draining());
      continue;
    }
    if (!response.has_fault()) {
      // An answer: the wait is over, and every address may be tried again.
      quiet_since_ = lane.last_progress;
      answered_ = true;
      for (Target& target : targets_) {
        target.silent_since.reset();
        target.given_up = false;
      }
      targets_[lane.endpoint].answered = true;
      targets_[lane.endpoint].named = false;
    }
    if (response.has_fault()) work_->Fault(lane, response.fault());
    if (work_->Take(lane, response)) {
      --lane.outstanding;
      lane.answered = true;
      lane.slot_freed.Notify();
    }
  }
  lane.connection->Close();
}

void Session::Drained(Lane& lane, const wire::Draining& draining) {
  if (lane.draining && !lane.moving) return;  // said once per connection
  if (draining.last_frame() > lane.frames_sent) {
    throw ClientError("bad response from " + lane.connection->PeerName() +
                      ": a Draining message names frame " +
                      std::to_string(draining.last_frame()) + " as the last one read, past the " +
                      std::to_string(lane.frames_sent) + " sent");
  }
  lane.draining = true;
  lane.moving = false;  // leaving anyway, and now as its daemon says
  lane.last_frame_read = draining.last_frame();
  TakeBackUnread(lane);
  lane.slot_freed.Notify();  // the writer stops
  work_->Wake(&lane);        // so does a Next() waiting for work
  if (targets_[lane.endpoint].draining) return;
  targets_[lane.endpoint].draining = true;
  const std::string address = targets_[lane.endpoint].endpoint.ToString();
  Say("sudokud at " + address + " is draining: what it has not read " +
      (std::count_if(targets_.begin(), targets_.end(),
                     [](const Target& target) { return !target.gone; }) > 1
           ? std::string("goes to the other addresses now")
           : "is sent again once a daemon there takes connections (--retry-for " +
                 DurationText(options_.retry_for) + ")"));
}

void Session::TakeBackUnread(Lane& lane) {
  if (lane.sending_frame || lane.frames_sent <= lane.last_frame_read) return;
  const uint64_t unread = lane.frames_sent - lane.last_frame_read;
  work_->TakeBackUnread(lane, lane.last_frame_read);
  lane.outstanding -= static_cast<size_t>(std::min<uint64_t>(unread, lane.outstanding));
  lane.frames_sent = lane.last_frame_read;
  lane.slot_freed.Notify();
}

void Session::SayBrokenOnce(const Lane& lane) {
  Target& target = targets_[lane.endpoint];
  // A drain was said already; a connection closed for idling is no failure.
  if (target.named || target.gone || lane.draining || lane.closed_idle) return;
  const bool others_answer = std::any_of(targets_.begin(), targets_.end(), [&](const Target& t) {
    return &t != &target && t.answered && !t.gone;
  });
  if (!others_answer) return;
  target.named = true;
  Say(BreakText(lane) + ": the other addresses take its work meanwhile");
}

void Session::Say(const std::string& text) {
  if (options_.status == nullptr) return;
  if (options_.status_line != nullptr) options_.status_line->Clear();
  *options_.status << "sudoku-client: " << text << "\n" << std::flush;
}

// The last error of each endpoint tried, in the order of --connect.
std::string Session::EveryEndpointFailed() const {
  std::string text;
  for (const Target& target : targets_) {
    if (target.error.empty()) continue;
    if (!text.empty()) text += "; ";
    text += target.error;
  }
  return text;
}

namespace {

// RequestOnce()'s work: the one frame, offered again to whichever lane connects until answered.
class SingleRequestWork : public SessionWork {
 public:
  SingleRequestWork(const asio::any_io_executor& executor, const SessionOptions& options,
                    std::string frame, bool (*is_answer)(const wire::Response&),
                    const std::string& what)
      : frame_(std::move(frame)),
        is_answer_(is_answer),
        what_(what),
        session_(executor, options, this) {}

  Session& session() { return session_; }
  SingleAnswer& answer() { return answer_; }

  asio::awaitable<const std::string*> Next(Lane& lane) override {
    if (session_.over() || !lane.sending() || answered_) co_return nullptr;
    co_return &frame_;
  }

  bool Take(Lane& lane, const wire::Response& response) override {
    answer_.peer = lane.connection->PeerName();
    if (!is_answer_(response)) {
      throw ClientError("bad response from " + answer_.peer + ": not " + what_);
    }
    answer_.response = response;
    answered_ = true;
    return true;
  }

  void ConnectionEnded(Lane&) override {}  // Next() offers the frame again
  void TakeBackUnread(Lane&, uint64_t) override {}  // so it does here
  void Wake(Lane*) override {}

 private:
  const std::string frame_;
  bool (*const is_answer_)(const wire::Response&);
  const std::string what_;
  SingleAnswer answer_;
  bool answered_ = false;
  Session session_;  // last: its lanes refer to the work above
};

}  // namespace

SingleAnswer RequestOnce(const SessionOptions& options, const wire::Request& request,
                         bool (*is_answer)(const wire::Response&), const std::string& what) {
  std::string frame;
  wire::AppendFrame(request, &frame);
  asio::io_context io(1);
  SingleRequestWork work(io.get_executor(), options, std::move(frame), is_answer, what);
  asio::co_spawn(io, work.session().Run(), work.session().Guard());
  io.run();
  if (work.session().failed()) std::rethrow_exception(work.session().error());
  return std::move(work.answer());
}

}  // namespace sudoku::client
