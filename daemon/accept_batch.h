// Taking the connections that wait in a listener's queue, for the accept loops of Server and
// HttpServer.
//
// Thread-safety: call from the thread of the acceptor's io_context.
#ifndef SUDOKU_DAEMON_ACCEPT_BATCH_H_
#define SUDOKU_DAEMON_ACCEPT_BATCH_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <cstddef>

#include <boost/asio/ip/tcp.hpp>

namespace sudoku::daemon {

// The most connections taken from the queue at once after an accept completes.
inline constexpr size_t kAcceptBatch = 128;

// After an asynchronous accept completed, takes up to kAcceptBatch more connections already in
// the listen queue without waiting (the acceptor is non-blocking) and hands each to `admit`.
// One accept per turn of the event loop is not enough: with thousands of connections ready to
// read, a turn takes long, the kernel's queue fills while newcomers wait a turn each, and past
// its size (somaxconn) new connections are dropped and retried seconds later. An error (the
// queue is empty, or out of descriptors) ends the batch; the asynchronous accept that follows
// sees a lasting one.
template <typename Admit>
void AcceptWaiting(boost::asio::ip::tcp::acceptor& acceptor, Admit&& admit) {
  boost::system::error_code error;
  for (size_t i = 0; i < kAcceptBatch && acceptor.is_open(); ++i) {
    boost::asio::ip::tcp::socket socket(acceptor.get_executor());
    acceptor.accept(socket, error);
    if (error) return;
    admit(std::move(socket));
  }
}

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_ACCEPT_BATCH_H_
