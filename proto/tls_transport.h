// The TCP socket under an OpenSSL stream, as both ends use it. Asio's SSL stream moves one TLS
// record (16 KiB at most) per system call each way: a read asks the socket for one record, a
// write sends each record as it is made. TlsTransport reads what the socket has, up to
// kReadBytes, in one call and hands the records out from memory; and between Gather() and
// Flush() it keeps the records made instead of sending them, so that one answer of many records
// leaves in one call. Everything else the SSL stream writes (the handshake, an alert, a key
// update answered while reading) goes straight to the socket.
//
//   stream.next_layer().Gather();
//   co_await asio::async_write(stream, answer, ...);   // encrypted into memory
//   co_await stream.next_layer().Flush(error);          // sent, in one call when the socket takes it
//
// `Socket` is tcp::socket (taken over) or tcp::socket& (the caller's, which must outlive this).
//
// Thread-safety: none; one connection's, on its io_context thread. One read and one
// Gather()...Flush() may be in progress at once, as the SSL stream allows one read and one write.
#ifndef SUDOKU_PROTO_TLS_TRANSPORT_H_
#define SUDOKU_PROTO_TLS_TRANSPORT_H_

#include <utility>  // before Asio: asio issue 944

#include <cstddef>
#include <string>
#include <type_traits>

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/buffered_read_stream.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace sudoku {

template <typename Socket>
class TlsTransport {
  using Reader = boost::asio::buffered_read_stream<Socket>;
  using Tcp = std::remove_reference_t<Socket>;

 public:
  using executor_type = typename Reader::executor_type;
  using lowest_layer_type = typename Reader::lowest_layer_type;
  static constexpr size_t kReadBytes = 64 << 10;

  // Over the caller's socket (Socket = tcp::socket&).
  explicit TlsTransport(Tcp& socket)
    requires std::is_reference_v<Socket>
      : reader_(socket, kReadBytes) {}
  // Takes `socket` over (Socket = tcp::socket).
  explicit TlsTransport(Tcp&& socket)
    requires(!std::is_reference_v<Socket>)
      : TlsTransport(socket.get_executor(), std::move(socket)) {}

  TlsTransport(const TlsTransport&) = delete;
  TlsTransport& operator=(const TlsTransport&) = delete;

  executor_type get_executor() { return reader_.get_executor(); }
  lowest_layer_type& lowest_layer() { return reader_.lowest_layer(); }
  Tcp& socket() { return reader_.next_layer(); }

  // Bytes received and not yet handed to the SSL stream.
  size_t buffered() { return reader_.in_avail(); }

  // From now until Flush() returns, what the SSL stream writes is kept, not sent.
  void Gather() { gathering_ = true; }

  // Sends what was kept since Gather(), including what is kept while this runs, then lets
  // writes through again. On error, what was kept is dropped (the connection is broken).
  boost::asio::awaitable<void> Flush(boost::system::error_code& error) {
    error.clear();
    while (!gathered_.empty() && !error) {
      // Both buffers keep their capacity: an answer's records are gathered without allocating.
      sending_.swap(gathered_);
      co_await boost::asio::async_write(
          reader_.next_layer(), boost::asio::buffer(sending_),
          boost::asio::redirect_error(boost::asio::use_awaitable, error));
      sending_.clear();
    }
    gathered_.clear();
    gathering_ = false;
  }

  template <typename Buffers, typename Token>
  auto async_read_some(const Buffers& buffers, Token&& token) {
    return reader_.async_read_some(buffers, std::forward<Token>(token));
  }

  template <typename Buffers, typename Token>
  auto async_write_some(const Buffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::system::error_code, size_t)>(
        [this](auto handler, const Buffers& buffers) {
          if (!gathering_) {
            reader_.next_layer().async_write_some(buffers, std::move(handler));
            return;
          }
          size_t kept = 0;
          for (auto it = boost::asio::buffer_sequence_begin(buffers);
               it != boost::asio::buffer_sequence_end(buffers); ++it) {
            const boost::asio::const_buffer buffer(*it);
            gathered_.append(static_cast<const char*>(buffer.data()), buffer.size());
            kept += buffer.size();
          }
          // Completed on the handler's executor, never from within the call that started it.
          auto executor = boost::asio::get_associated_executor(handler, reader_.get_executor());
          boost::asio::post(executor, [handler = std::move(handler), kept]() mutable {
            std::move(handler)(boost::system::error_code(), kept);
          });
        },
        token, buffers);
  }

 private:
  TlsTransport(executor_type executor, Tcp&& socket) : reader_(executor, kReadBytes) {
    reader_.next_layer() = std::move(socket);
  }

  Reader reader_;
  bool gathering_ = false;
  std::string gathered_;  // kept since Gather()
  std::string sending_;   // being sent by Flush()
};

// Writes all of `data` through `stream`, an SSL stream over a TlsTransport, its records sent
// together once encrypted. Returns the bytes written; on error, `error` says why (the SSL
// stream's, else the socket's).
template <typename SslStream>
boost::asio::awaitable<size_t> WriteGathered(SslStream& stream, boost::asio::const_buffer data,
                                             boost::system::error_code& error) {
  stream.next_layer().Gather();
  const size_t written = co_await boost::asio::async_write(
      stream, data, boost::asio::redirect_error(boost::asio::use_awaitable, error));
  boost::system::error_code flushed;
  co_await stream.next_layer().Flush(flushed);
  if (!error) error = flushed;
  co_return written;
}

}  // namespace sudoku

#endif  // SUDOKU_PROTO_TLS_TRANSPORT_H_
