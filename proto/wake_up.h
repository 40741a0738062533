// A wake-up call between coroutines on one io_context: waiters re-check their condition after
// each Notify(). Asio 1.74 has no channels or condition variables for coroutines; a timer that
// never expires on its own, cancelled to wake its waiters, is the usual stand-in. The client's
// sessions and the daemon's connections both wait on it.
//
// Thread-safety: none; waiters and notifiers run on the same single-threaded io_context.
#ifndef SUDOKU_PROTO_WAKE_UP_H_
#define SUDOKU_PROTO_WAKE_UP_H_

#include <utility>  // before Asio: asio issue 944

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace sudoku {

class WakeUp {
 public:
  // The expiry is set once, here: setting it again would cancel the waiters.
  explicit WakeUp(const boost::asio::any_io_executor& executor)
      : timer_(executor, boost::asio::steady_timer::time_point::max()) {}

  // Returns after the next Notify(). Use in a loop: `while (!ready) co_await wake.Wait();`.
  boost::asio::awaitable<void> Wait() {
    boost::system::error_code ignored;  // operation_aborted: Notify() was called
    co_await timer_.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ignored));
  }

  // Wakes every waiter.
  void Notify() { timer_.cancel(); }

 private:
  boost::asio::steady_timer timer_;
};

}  // namespace sudoku

#endif  // SUDOKU_PROTO_WAKE_UP_H_
