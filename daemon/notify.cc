#include "daemon/notify.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <systemd/sd-daemon.h>

#include "daemon/log.h"

namespace sudoku::daemon {

namespace asio = boost::asio;

Notifier::Notifier(asio::io_context& io, std::function<std::string()> status,
                   std::function<std::string()> trouble)
    : timer_(io), status_(std::move(status)), trouble_(std::move(trouble)) {
  const char* socket = std::getenv("NOTIFY_SOCKET");
  enabled_ = socket != nullptr && *socket != '\0';
  uint64_t usec = 0;
  // 0 for "unset_environment": a child we start would see the same variables, but we start none.
  if (enabled_ && sd_watchdog_enabled(0, &usec) > 0) watchdog_ = std::chrono::microseconds(usec);
}

void Notifier::Ready() {
  if (!enabled_) return;
  Send("READY=1\nSTATUS=" + status_());
  asio::co_spawn(timer_.get_executor(), Tick(), LogEscape("sd_notify timer"));
}

void Notifier::Stopping() {
  if (enabled_) Send("STOPPING=1\nSTATUS=draining: " + status_());
}

void Notifier::Stop() {
  stopped_ = true;
  timer_.cancel();
}

asio::awaitable<void> Notifier::Tick() {
  const std::chrono::microseconds period =
      watchdog_.count() > 0 ? std::min<std::chrono::microseconds>(watchdog_ / 2, kStatusInterval)
                            : std::chrono::microseconds(kStatusInterval);
  boost::system::error_code ignored;
  while (!stopped_) {
    timer_.expires_after(period);
    co_await timer_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    if (stopped_) break;
    const std::string trouble = trouble_ ? trouble_() : std::string();
    if (!trouble.empty()) {
      // No WATCHDOG=1: past WatchdogSec systemd restarts the daemon.
      Send("STATUS=not feeding the watchdog: " + trouble + "; " + status_());
      continue;
    }
    Send((watchdog_.count() > 0 ? "WATCHDOG=1\nSTATUS=" : "STATUS=") + status_());
  }
}

void Notifier::Send(const std::string& state) const {
  // A failure to notify is not worth stopping for; systemd notices a missing READY or WATCHDOG.
  const int result = sd_notify(0, state.c_str());
  if (result < 0) {
    Log(LogLevel::kWarning, std::string("sd_notify failed: ") + std::strerror(-result));
  }
}

}  // namespace sudoku::daemon
