#include "tests/daemon/wire_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <random>
#include <stdexcept>

#include <boost/asio/connect.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include "proto/framing.h"

extern char** environ;

namespace sudoku::testing {

namespace asio = boost::asio;
using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::max<int64_t>(left.count(), 0));
}

}  // namespace

// ---- WireClient ----

WireClient::WireClient(uint16_t port, const std::string& host) : socket_(io_) {
  boost::system::error_code error;
  socket_.connect(tcp::endpoint(asio::ip::make_address(host), port), error);
  if (error) {
    throw std::runtime_error("cannot connect to " + host + ":" + std::to_string(port) + ": " +
                             error.message());
  }
  socket_.set_option(tcp::no_delay(true));
}

void WireClient::SendBytes(std::string_view bytes) {
  boost::system::error_code error;
  asio::write(socket_, asio::buffer(bytes.data(), bytes.size()), error);
  if (error) throw std::runtime_error("cannot send to the daemon: " + error.message());
}

void WireClient::Send(const wire::Request& request) {
  std::string frame;
  wire::AppendFrame(request, &frame);
  SendBytes(frame);
}

void WireClient::SendSolve(uint64_t batch_id, const std::vector<std::string>& puzzles,
                           uint32_t solution_limit) {
  wire::Request request;
  auto* solve = request.mutable_solve();
  solve->set_batch_id(batch_id);
  solve->set_solution_limit(solution_limit);
  for (const auto& puzzle : puzzles) solve->add_puzzles(puzzle);
  Send(request);
}

std::optional<wire::Response> WireClient::Read(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    const wire::FrameHeader header = wire::DecodeFrameHeader(buffer_, 1 << 30);
    if (header.status == wire::FrameHeader::Status::kMalformed ||
        header.status == wire::FrameHeader::Status::kTooLarge) {
      throw std::runtime_error("the daemon sent a bad length prefix");
    }
    if (header.status == wire::FrameHeader::Status::kComplete &&
        buffer_.size() >= header.prefix_bytes + header.body_bytes) {
      wire::Response response;
      const std::string_view body =
          std::string_view(buffer_).substr(header.prefix_bytes, header.body_bytes);
      if (!wire::ParseFrameBody(body, &response)) {
        throw std::runtime_error("the daemon sent a frame that does not decode as a Response");
      }
      buffer_.erase(0, header.prefix_bytes + header.body_bytes);
      return response;
    }
    // Sync reads on an Asio socket cannot time out, so poll() first.
    pollfd fd{.fd = socket_.native_handle(), .events = POLLIN, .revents = 0};
    const int ready = ::poll(&fd, 1, RemainingMs(deadline));
    if (ready == 0) {
      throw std::runtime_error("no response from the daemon within " +
                               std::to_string(timeout.count()) + " ms");
    }
    std::array<char, 64 << 10> chunk;
    boost::system::error_code error;
    const size_t n = socket_.read_some(asio::buffer(chunk), error);
    if (error == asio::error::eof) {
      if (!buffer_.empty()) {
        throw std::runtime_error("the daemon closed the connection inside a frame");
      }
      return std::nullopt;
    }
    if (error) throw std::runtime_error("cannot read from the daemon: " + error.message());
    buffer_.append(chunk.data(), n);
  }
}

std::vector<wire::Response> WireClient::ReadUntilClosed(std::chrono::milliseconds timeout) {
  std::vector<wire::Response> out;
  while (auto response = Read(timeout)) out.push_back(std::move(*response));
  return out;
}

size_t WireClient::Unread() { return buffer_.size() + socket_.available(); }

void WireClient::ShutdownSend() {
  boost::system::error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_send, ignored);
}

void WireClient::Close() {
  boost::system::error_code ignored;
  socket_.close(ignored);
}

void WireClient::Reset() {
  boost::system::error_code ignored;
  socket_.set_option(asio::socket_base::linger(true, 0), ignored);
  socket_.close(ignored);
}

// ---- NotifySocket ----

NotifySocket::NotifySocket() {
  char dir[] = "/tmp/sudokud-notify-XXXXXX";
  if (::mkdtemp(dir) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = dir;
  path_ = dir_ + "/notify";
  fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path_.c_str(), sizeof(address.sun_path) - 1);
  if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    throw std::runtime_error("cannot bind " + path_ + ": " + std::strerror(errno));
  }
  reader_ = std::thread([this] { ReadAll(); });
}

NotifySocket::~NotifySocket() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  reader_.join();
  ::close(fd_);
  ::unlink(path_.c_str());
  ::rmdir(dir_.c_str());
}

void NotifySocket::ReadAll() {
  std::array<char, 4096> datagram;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stop_) return;
    }
    pollfd fd{.fd = fd_, .events = POLLIN, .revents = 0};
    if (::poll(&fd, 1, 50) <= 0) continue;
    const ssize_t n = ::recv(fd_, datagram.data(), datagram.size(), 0);
    if (n < 0) continue;
    std::lock_guard lock(mutex_);
    datagrams_.emplace_back(datagram.data(), static_cast<size_t>(n));
    arrived_.notify_all();
  }
}

std::optional<std::string> NotifySocket::Receive(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!arrived_.wait_for(lock, timeout, [this] { return !datagrams_.empty(); })) {
    return std::nullopt;
  }
  std::string datagram = std::move(datagrams_.front());
  datagrams_.pop_front();
  return datagram;
}

std::string NotifySocket::WaitFor(std::string_view text, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::string seen;
  while (Clock::now() < deadline) {
    auto message = Receive(std::chrono::milliseconds(RemainingMs(deadline)));
    if (!message) break;
    if (message->find(text) != std::string::npos) return *message;
    seen += *message + "\n";
  }
  throw std::runtime_error("no sd_notify message with '" + std::string(text) + "'; got:\n" + seen);
}

}  // namespace sudoku::testing
