#include "client/session.h"

#include <algorithm>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "client/client_error.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

// Reconnecting: the first wait after a break, doubled after each further break in a row up to
// kMaxBackoff; each wait is drawn between half and all of that, so that clients turned away
// together do not all come back together.
constexpr std::chrono::milliseconds kFirstBackoff{50};
constexpr std::chrono::milliseconds kMaxBackoff{2000};
// Other breaks (closed early, silent past --timeout, a connect that timed out) give up after this
// many in a row without an answer: those daemons are there but failing, and waiting longer
// rarely helps.
constexpr unsigned kMaxBreaksInARow = 5;

// Whether the daemon refused the connection, reset it or turned it away (TOO_MANY_CONNECTIONS):
// what a daemon restarting or full does, worth waiting out for --retry-for.
bool TurnedAway(const Lane& lane) {
  const boost::system::error_code& error = lane.connection->last_error();
  return lane.turned_away || error == asio::error::connection_refused ||
         error == asio::error::connection_reset || error == asio::error::broken_pipe;
}

}  // namespace

std::string DurationText(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
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
  co_return co_await lane.connection->Receive(response);
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
      endpoint_errors_(options_.endpoints.size()),
      jitter_(std::random_device{}()) {
  for (size_t i = 0; i < options_.connections; ++i) {
    lanes_.push_back(std::make_unique<Lane>(executor_, i));
  }
}

std::unique_ptr<Connection> Session::Open(const Endpoint& endpoint) {
  if (options_.open) return options_.open(executor_, endpoint);
  return std::make_unique<Connection>(executor_, endpoint);
}

asio::awaitable<void> Session::Run() {
  lanes_running_ = lanes_alive_ = lanes_.size();
  for (auto& lane : lanes_) asio::co_spawn(executor_, Drive(*lane), Guard());
  while (lanes_running_ > 0) co_await lane_ended_.Wait();
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
  size_t endpoint = lane.index % options_.endpoints.size();
  unsigned breaks = 0;        // in a row, without an answer
  unsigned other_breaks = 0;  // of those, the ones not TurnedAway()
  Clock::time_point failing_since;
  bool gave_up = false;
  bool gave_up_retrying = false;  // on a TurnedAway() break, after --retry-for
  while (!over_ && work_->WantsConnection()) {
    lane.connection = Open(options_.endpoints[endpoint]);
    lane.broken = lane.writer_done = lane.answered = false;
    lane.connect_failed = lane.timed_out = lane.turned_away = lane.closed_idle = false;
    lane.error = nullptr;
    try {
      co_await lane.connection->Connect();
    } catch (const ConnectionLost&) {
      lane.error = std::current_exception();
      lane.connect_failed = true;
    } catch (const ClientError&) {
      // A refusal no retry can mend (a certificate the daemon or we do not accept): the run
      // ends with it, and this lane still ends as lanes do, below.
      Fail(std::current_exception());
    }
    if (lane.error == nullptr && !over_) {
      lane.running = 2;
      asio::co_spawn(executor_, Write(lane), LaneGuard(lane));
      asio::co_spawn(executor_, Read(lane), LaneGuard(lane));
      asio::co_spawn(executor_, Watch(lane, ++lane.generation), Guard());
      while (lane.running > 0) co_await lane.stopped.Wait();
      lane.deadline.cancel();
    }
    lane.connection->Close();
    if (lane.error != nullptr) endpoint_errors_[endpoint] = What(lane.error);
    work_->ConnectionEnded(lane);
    lane.outstanding = 0;
    if (over_ || lane.error == nullptr) break;  // done, or the run is over
    if (lane.closed_idle) {
      breaks = 0;
      continue;  // connect again at once: the input may be about to go on
    }
    const Clock::time_point now = Clock::now();
    if (lane.answered || breaks == 0) {
      breaks = other_breaks = 0;
      failing_since = now;
    }
    const std::chrono::milliseconds wait = Backoff(++breaks);
    if (TurnedAway(lane)) {
      // Give up once this lane has been turned away, without one answer, for --retry-for.
      if (now + wait - failing_since > options_.retry_for) {
        gave_up = gave_up_retrying = true;
        break;
      }
    } else if (++other_breaks >= kMaxBreaksInARow) {
      gave_up = true;
      break;
    }
    endpoint = (endpoint + 1) % options_.endpoints.size();
    lane.backoff.expires_after(wait);
    boost::system::error_code ignored;
    co_await lane.backoff.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  }
  if (gave_up && --lanes_alive_ == 0) {
    gave_up_ = EveryEndpointFailed();
    if (gave_up_retrying) {
      gave_up_ += " (still failing after --retry-for " + DurationText(options_.retry_for) + ")";
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
      lane.timed_out = true;
      Break(lane, std::make_exception_ptr(ConnectionLost(
                      peer + " answered nothing for " + timeout + " with " +
                      std::to_string(lane.outstanding) + " " + options_.requests_noun +
                      " out (--timeout " + timeout + ")")));
      co_return;
    }
    lane.deadline.expires_at(lane.outstanding == 0 ? now + options_.timeout
                                                   : lane.last_progress + options_.timeout);
    co_await lane.deadline.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  }
}

asio::awaitable<void> Session::Write(Lane& lane) {
  while (true) {
    while (!over_ && !lane.broken && lane.outstanding >= options_.in_flight) {
      co_await lane.slot_freed.Wait();
    }
    if (over_ || lane.broken) co_return;
    const std::string* frame = co_await work_->Next(lane);
    if (frame == nullptr) break;
    if (lane.outstanding++ == 0) lane.last_progress = Clock::now();
    co_await lane.connection->Send(*frame);
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
  while (!over_ && !lane.broken && !(lane.writer_done && lane.outstanding == 0)) {
    if (!co_await work_->Receive(lane, &response)) {
      if (over_ || lane.broken || (lane.writer_done && lane.outstanding == 0)) break;
      throw ConnectionLost(peer + " closed the connection with " +
                           std::to_string(lane.outstanding) + " " + options_.requests_noun +
                           " unanswered (see its log)");
    }
    lane.last_progress = Clock::now();
    if (response.has_fault()) work_->Fault(lane, response.fault());
    if (work_->Take(lane, response)) {
      --lane.outstanding;
      lane.answered = true;
      lane.slot_freed.Notify();
    }
  }
  lane.connection->Close();
}

// The last error of each endpoint tried, in the order of --connect.
std::string Session::EveryEndpointFailed() const {
  std::string text;
  for (const std::string& error : endpoint_errors_) {
    if (error.empty()) continue;
    if (!text.empty()) text += "; ";
    text += error;
  }
  return text;
}

}  // namespace sudoku::client
