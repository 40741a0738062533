// One TCP connection to sudokud carrying length-prefixed frames (proto/sudoku.proto, top
// comment): requests out, responses in, one Send and one Receive outstanding at a time, so that
// a connection can keep several batches in flight.
//
// Errors come out as ClientError (ConnectionLost when the connection broke) with the daemon's
// address and what to do, e.g.
// "cannot connect to 127.0.0.1:9810: Connection refused (is sudokud running? start it with:
// sudokud --listen 127.0.0.1:9810)".
//
// Thread-safety: none; use from the coroutines of one single-threaded io_context.
#ifndef SUDOKU_CLIENT_CONNECTION_H_
#define SUDOKU_CLIENT_CONNECTION_H_

#include <utility>  // before Asio: asio issue 944

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "client/endpoint.h"
#include "proto/framing.h"
#include "proto/sudoku.pb.h"

namespace sudoku::client {

// How long a connection attempt may go unanswered (an address that drops packets, a full listen
// queue) before it fails, so that the batches can go to another address.
inline constexpr std::chrono::milliseconds kDefaultConnectTimeout{10000};

class Connection {
 public:
  Connection(const boost::asio::any_io_executor& executor, Endpoint endpoint,
             size_t max_frame_bytes = wire::kDefaultMaxFrameBytes,
             std::chrono::milliseconds connect_timeout = kDefaultConnectTimeout);
  virtual ~Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Throws ConnectionLost: "cannot connect to 10.0.0.9:9810: no answer within 10 s (...)".
  boost::asio::awaitable<void> Connect();

  // Writes one whole frame. Returns without error once Close() has been called.
  boost::asio::awaitable<void> Send(std::string_view frame);

  // Reads the next response. False when the daemon closed the connection between two responses,
  // or after Close(). Throws on a broken connection or a frame that does not decode.
  boost::asio::awaitable<bool> Receive(wire::Response* response);

  // Reads and drops exactly `bytes` bytes (what an echo server sends back). False as Receive.
  boost::asio::awaitable<bool> ReceiveBytes(size_t bytes);

  // Bytes written and read so far (whole frames and reads, framing included).
  uint64_t bytes_sent() const { return bytes_sent_; }
  uint64_t bytes_received() const { return bytes_received_; }

  // Closes the socket; outstanding Send and Receive calls return as described above.
  void Close();

  // The error of the last failed connect, read or write (none after a clean end): whether the
  // daemon refused or reset the connection.
  const boost::system::error_code& last_error() const { return last_error_; }

  const Endpoint& endpoint() const { return endpoint_; }
  // "sudokud at 127.0.0.1:9810", for messages.
  std::string PeerName() const;

 protected:
  // The transport: plain TCP here. A secured stream (TLS) derives from Connection and overrides
  // these three around socket() (TlsConnection: a TlsStream over it); the framing,
  // time-outs and messages above them stay as they are. Errors come back in `error`, as Asio's.
  //
  // Runs once the TCP connection is made (a TLS handshake); throws ConnectionLost.
  virtual boost::asio::awaitable<void> Secure() { co_return; }
  // Writes all of `data`; returns the bytes written.
  virtual boost::asio::awaitable<size_t> WriteAll(boost::asio::const_buffer data,
                                                  boost::system::error_code& error);
  // Reads at least one byte into `buffer`; returns the bytes read.
  virtual boost::asio::awaitable<size_t> ReadSomeInto(boost::asio::mutable_buffer buffer,
                                                      boost::system::error_code& error);
  boost::asio::ip::tcp::socket& socket() { return socket_; }
  std::chrono::milliseconds connect_timeout() const { return connect_timeout_; }
  // The connect time-out in seconds, for messages: "10", "0.3".
  std::string ConnectTimeoutText() const;

 private:
  // One read into the buffer, after making room for `wanted` bytes from the first unread one.
  // False on a clean end of input or after Close(); throws ConnectionLost when the peer closes
  // in the middle of a `what` ("response") or the read fails.
  boost::asio::awaitable<bool> ReadSome(size_t wanted, const char* what);
  [[noreturn]] void Lost(const boost::system::error_code& error);

  boost::asio::ip::tcp::socket socket_;
  Endpoint endpoint_;
  size_t max_frame_bytes_;
  std::chrono::milliseconds connect_timeout_;
  bool closed_ = false;
  boost::system::error_code last_error_;
  uint64_t bytes_sent_ = 0;
  uint64_t bytes_received_ = 0;
  // Received bytes not yet parsed: in_[begin_, end_).
  std::vector<char> in_;
  size_t begin_ = 0;
  size_t end_ = 0;
};

// Whether a fault is about the daemon's state (busy, idle time-out, an internal error) rather
// than about the request, so that the batches can be sent again elsewhere. Kinds this client does
// not know are taken as the request's fault.
bool IsRetryable(const wire::ProtocolFault& fault);
// Whether the daemon closed the connection for sending nothing in time (IDLE_TIMEOUT,
// REQUEST_TIMEOUT): harmless on a connection with no batch out, as when the input is slow.
bool ClosedForIdling(const wire::ProtocolFault& fault);

// "sudokud at 127.0.0.1:9810 reported a protocol fault: BATCH_TOO_LARGE: <message> (try a
// smaller --batch)".
std::string DescribeFault(const std::string& peer, const wire::ProtocolFault& fault);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_CONNECTION_H_
