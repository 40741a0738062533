#include "daemon/health.h"

#include <exception>
#include <filesystem>
#include <string_view>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>
#include <fmt/format.h>

#include "daemon/log.h"
#include "solver/solver.h"

namespace sudoku::daemon {

namespace asio = boost::asio;
namespace http = boost::beast::http;

namespace {

// Wikipedia's example puzzle: solved by propagation in microseconds, so the canary adds nothing
// measurable to the pool's load.
constexpr std::string_view kCanaryPuzzle =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

std::string Seconds(double seconds) { return fmt::format("{:.1f}", seconds); }

HttpResponse Text(http::status status, std::string body) {
  HttpResponse response = MakeResponse(status, "text/plain; charset=utf-8", std::move(body));
  // A probe must see the state now, never a cached answer.
  response.set(http::field::cache_control, "no-store");
  return response;
}

}  // namespace

using Clock = std::chrono::steady_clock;

Health::Health(asio::io_context& io, Pool& pool, const HealthOptions& options)
    : pool_(pool),
      options_(options),
      timer_(io),
      loop_turned_(Clock::now().time_since_epoch().count()) {}

void Health::Start() {
  loop_turned_.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed);
  SendCanary();
  asio::co_spawn(timer_.get_executor(), Tick(), LogEscape("health canary timer"));
}

void Health::Stop() {
  stopped_ = true;
  timer_.cancel();
}

asio::awaitable<void> Health::Tick() {
  boost::system::error_code ignored;
  while (!stopped_) {
    timer_.expires_after(options_.canary_interval);
    co_await timer_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    if (stopped_) break;
    loop_turned_.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed);
    ApplyWedgeFile();
    SendCanary();
    // One line when the pool stops answering and one when it answers again, not one a second.
    const std::string trouble = PoolTrouble();
    if (!trouble.empty() && !reported_trouble_) {
      Log(LogLevel::kWarning, "not ready: " + trouble);
    } else if (trouble.empty() && reported_trouble_) {
      LogLine("ready again: the solver pool answers");
    }
    reported_trouble_ = !trouble.empty();
  }
}

void Health::SendCanary() {
  if (canary_out_->exchange(true)) return;  // the last one has not come back
  pool_.Post([out = canary_out_] {
    // The canary proves that the pool runs jobs, so only its coming back counts; a wrong answer
    // would be a broken kernel, which the solver's own tests catch.
    [[maybe_unused]] const Result result = Solve(kCanaryPuzzle);
    out->store(false);
  });
}

void Health::ApplyWedgeFile() {
  if (options_.wedge_file.empty()) return;
  std::error_code error;
  const bool wedge = std::filesystem::exists(options_.wedge_file, error);
  if (wedge == pool_.held()) return;
  pool_.Hold(wedge);
  Log(LogLevel::kWarning, wedge ? "test hook: " + options_.wedge_file +
                                      " exists, so the solver pool holds every job"
                                : "test hook: " + options_.wedge_file +
                                      " is gone, so the solver pool runs jobs again");
}

double Health::CanaryAgeSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - pool_.last_finished())
      .count();
}

std::string Health::PoolTrouble() const {
  const double age = CanaryAgeSeconds();
  if (age <= std::chrono::duration<double>(options_.canary_deadline).count()) return "";
  return "solver pool has not answered a canary for " + Seconds(age) + " s";
}

std::string Health::LoopTrouble() const {
  const Clock::time_point turned{Clock::duration(loop_turned_.load(std::memory_order_relaxed))};
  const auto silence = Clock::now() - turned;
  // A tick is due every canary_interval; the deadline allows for a loop that is merely busy.
  if (silence <= options_.canary_interval + options_.canary_deadline) return "";
  return "the event loop has not turned for " +
         Seconds(std::chrono::duration<double>(silence).count()) + " s";
}

std::string Health::NotReady() const {
  if (draining_) return "draining";
  if (std::string trouble = LoopTrouble(); !trouble.empty()) return trouble;
  return PoolTrouble();
}

std::optional<HttpResponse> Health::Answer(std::string_view path,
                                           const HttpRequest& request) const {
  if (path != "/healthz" && path != "/readyz") return std::nullopt;
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    HttpResponse response =
        Text(http::status::method_not_allowed, "method not allowed: use GET or HEAD\n");
    response.set(http::field::allow, "GET, HEAD");
    return response;
  }
  if (path == "/healthz") {
    const std::string trouble = LoopTrouble();
    if (trouble.empty()) return Text(http::status::ok, "alive\n");
    return Text(http::status::service_unavailable, "not alive: " + trouble + "\n");
  }
  const std::string why = NotReady();
  if (why.empty()) return Text(http::status::ok, "ready\n");
  return Text(http::status::service_unavailable, "not ready: " + why + "\n");
}

}  // namespace sudoku::daemon
