// systemd's service notifications (sd_notify): READY=1 once listening, STATUS= with live counts,
// WATCHDOG=1 at half the watchdog interval, STOPPING=1 when the drain starts. Without
// NOTIFY_SOCKET in the environment every call is a no-op and no timer runs.
//
// The watchdog is fed from a timer on the event loop, so a stuck loop stops feeding it and
// systemd restarts the daemon; and only while `trouble` says nothing (Health::PoolTrouble: the
// solver pool answers), so that a wedged pool gets the daemon restarted too.
//
// Thread-safety: use from the io_context's thread only.
#ifndef SUDOKU_DAEMON_NOTIFY_H_
#define SUDOKU_DAEMON_NOTIFY_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <chrono>
#include <functional>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace sudoku::daemon {

class Notifier {
 public:
  // STATUS= is sent this often when there is no watchdog (or a slower one).
  static constexpr std::chrono::seconds kStatusInterval{10};

  // `status` renders the text of STATUS=; `trouble`, when given, says why the watchdog must not be
  // fed now (empty: it may be), and goes into STATUS= instead. Both are called on the event loop.
  Notifier(boost::asio::io_context& io, std::function<std::string()> status,
           std::function<std::string()> trouble = {});

  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  // READY=1 with a first status; starts the status and watchdog timer.
  void Ready();
  // STOPPING=1.
  void Stopping();
  // Stops the timer, so that the io_context can run out of work.
  void Stop();

  // Whether systemd listens (NOTIFY_SOCKET is set), and the watchdog interval (zero when off).
  bool enabled() const { return enabled_; }
  std::chrono::microseconds watchdog() const { return watchdog_; }

 private:
  boost::asio::awaitable<void> Tick();
  void Send(const std::string& state) const;

  boost::asio::steady_timer timer_;
  std::function<std::string()> status_;
  std::function<std::string()> trouble_;
  bool enabled_ = false;
  bool stopped_ = false;
  std::chrono::microseconds watchdog_{0};
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_NOTIFY_H_
