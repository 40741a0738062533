#include "client/connection.h"

#include <cstring>
#include <limits>
#include <memory>

#include <boost/asio/connect.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <fmt/format.h>

#include "client/client_error.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// A response to a batch of 2000 puzzles is about 90 KB packed (170 KB as text); start with room
// for a few.
constexpr size_t kInitialReadBytes = 256 << 10;

}  // namespace

Connection::Connection(const asio::any_io_executor& executor, Endpoint endpoint,
                       size_t max_frame_bytes, std::chrono::milliseconds connect_timeout)
    : socket_(executor),
      endpoint_(std::move(endpoint)),
      max_frame_bytes_(max_frame_bytes),
      connect_timeout_(connect_timeout),
      in_(kInitialReadBytes) {}

std::string Connection::ConnectTimeoutText() const {
  return fmt::format("{:g}", static_cast<double>(connect_timeout_.count()) / 1000);
}

std::string Connection::PeerName() const { return "sudokud at " + endpoint_.ToString(); }

asio::awaitable<void> Connection::Connect() {
  const std::string address = endpoint_.ToString();
  boost::system::error_code error;
  tcp::resolver resolver(socket_.get_executor());
  const auto results = co_await resolver.async_resolve(
      endpoint_.address.empty() ? endpoint_.host : endpoint_.address, endpoint_.port,
      asio::redirect_error(asio::use_awaitable, error));
  if (error) {
    throw ConnectionLost("cannot resolve '" + endpoint_.host + "' in " + address + ": " +
                      error.message());
  }
  // Past the time-out the socket is closed, which ends the attempt with operation_aborted.
  asio::steady_timer timer(socket_.get_executor());
  struct Attempt {
    bool over = false;  // the connect finished first: a timer that fired meanwhile does nothing
    bool timed_out = false;
  };
  auto attempt = std::make_shared<Attempt>();
  timer.expires_after(connect_timeout_);
  timer.async_wait([this, attempt](const boost::system::error_code& cancelled) {
    if (cancelled || attempt->over) return;
    attempt->timed_out = true;
    boost::system::error_code ignored;
    socket_.close(ignored);
  });
  co_await asio::async_connect(socket_, results, asio::redirect_error(asio::use_awaitable, error));
  attempt->over = true;
  timer.cancel();
  if (attempt->timed_out) {
    throw ConnectionLost("cannot connect to " + address + ": no answer within " +
                         ConnectTimeoutText() +
                         " s (is the address right? is sudokud running there?)");
  }
  if (error) {
    last_error_ = error;
    throw ConnectionLost("cannot connect to " + address + ": " + error.message() +
                      " (is sudokud running? start it with: sudokud --listen " +
                      endpoint_.HostPort() + ")");
  }
  // Batches are written whole; a lone small batch should not wait for Nagle.
  socket_.set_option(tcp::no_delay(true), error);
  co_await Secure();
}

void Connection::Lost(const boost::system::error_code& error) {
  last_error_ = error;
  throw ConnectionLost("lost the connection to " + PeerName() + ": " + error.message());
}

asio::awaitable<size_t> Connection::WriteAll(asio::const_buffer data,
                                             boost::system::error_code& error) {
  // All of it, each write offering everything left: Asio's own completion conditions cap a
  // write at 64 KB, so a larger frame took two system calls and woke the daemon twice.
  auto everything_left = [](const boost::system::error_code& failed, size_t) -> size_t {
    return failed ? 0 : std::numeric_limits<size_t>::max();
  };
  co_return co_await asio::async_write(socket_, data, everything_left,
                                       asio::redirect_error(asio::use_awaitable, error));
}

asio::awaitable<size_t> Connection::ReadSomeInto(asio::mutable_buffer buffer,
                                                 boost::system::error_code& error) {
  co_return co_await socket_.async_read_some(buffer,
                                             asio::redirect_error(asio::use_awaitable, error));
}

asio::awaitable<void> Connection::Send(std::string_view frame) {
  boost::system::error_code error;
  bytes_sent_ += co_await WriteAll(asio::buffer(frame.data(), frame.size()), error);
  if (error && !closed_) Lost(error);
}

asio::awaitable<bool> Connection::Receive(wire::Response* response) {
  while (true) {
    const std::string_view buffered(in_.data() + begin_, end_ - begin_);
    const wire::FrameHeader header = wire::DecodeFrameHeader(buffered, max_frame_bytes_);
    size_t wanted = buffered.size() + 1;
    switch (header.status) {
      case wire::FrameHeader::Status::kTooLarge:
        throw ClientError(PeerName() + " sent a response frame of " +
                          std::to_string(header.body_bytes) + " bytes, over the limit of " +
                          std::to_string(max_frame_bytes_));
      case wire::FrameHeader::Status::kMalformed:
        throw ClientError(PeerName() + " sent a malformed frame length");
      case wire::FrameHeader::Status::kComplete:
        wanted = header.prefix_bytes + header.body_bytes;
        if (buffered.size() >= wanted) {
          if (!wire::ParseFrameBody(buffered.substr(header.prefix_bytes, header.body_bytes),
                                    response)) {
            throw ClientError(PeerName() + " sent a response that does not decode");
          }
          begin_ += wanted;
          co_return true;
        }
        break;
      case wire::FrameHeader::Status::kNeedMore:
        break;
    }
    const bool more = co_await ReadSome(wanted, "response");
    if (!more) co_return false;
  }
}

asio::awaitable<bool> Connection::ReadSome(size_t wanted, const char* what) {
  // Make room for the rest at the end of the buffer.
  if (begin_ > 0) {
    std::memmove(in_.data(), in_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (in_.size() < wanted) in_.resize(std::max(wanted, 2 * in_.size()));

  boost::system::error_code error;
  const size_t n =
      co_await ReadSomeInto(asio::buffer(in_.data() + end_, in_.size() - end_), error);
  end_ += n;
  bytes_received_ += n;
  if (closed_) co_return false;
  if (error == asio::error::eof) {
    if (begin_ == end_) co_return false;
    throw ConnectionLost(PeerName() + " closed the connection in the middle of a " + what);
  }
  if (error) Lost(error);
  co_return true;
}

asio::awaitable<bool> Connection::ReceiveBytes(size_t bytes) {
  while (end_ - begin_ < bytes) {
    // Awaited into a variable: g++ 12 miscompiles a co_await inside the if's condition here.
    const bool more = co_await ReadSome(bytes, "reply");
    if (!more) co_return false;
  }
  begin_ += bytes;
  co_return true;
}

void Connection::Close() {
  closed_ = true;
  boost::system::error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

bool IsRetryable(const wire::ProtocolFault& fault) {
  switch (fault.kind()) {
    case wire::ProtocolFault::UNKNOWN:
    case wire::ProtocolFault::TOO_MANY_CONNECTIONS:
    case wire::ProtocolFault::IDLE_TIMEOUT:
    case wire::ProtocolFault::REQUEST_TIMEOUT:
      return true;
    default:
      return false;
  }
}

bool ClosedForIdling(const wire::ProtocolFault& fault) {
  return fault.kind() == wire::ProtocolFault::IDLE_TIMEOUT ||
         fault.kind() == wire::ProtocolFault::REQUEST_TIMEOUT;
}

std::string DescribeFault(const std::string& peer, const wire::ProtocolFault& fault) {
  std::string kind = wire::ProtocolFault::Kind_Name(fault.kind());
  if (kind.empty()) kind = "kind " + std::to_string(fault.kind());  // from a newer daemon
  std::string text = peer + " reported a protocol fault: " + kind + ": " + fault.message();
  switch (fault.kind()) {
    case wire::ProtocolFault::FRAME_TOO_LARGE:
    case wire::ProtocolFault::BATCH_TOO_LARGE:
      text += " (try a smaller --batch)";
      break;
    case wire::ProtocolFault::TOO_MANY_CONNECTIONS:
      text += " (try fewer --connections)";
      break;
    default:
      break;
  }
  return text;
}

}  // namespace sudoku::client
