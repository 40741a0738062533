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

std::string DaemonBinary() {
  const char* path = std::getenv("SUDOKUD_BIN");
  if (path != nullptr && *path != '\0') return path;
  return SUDOKUD_BUILT_BIN;
}

namespace {

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::max<int64_t>(left.count(), 0));
}

// Starts `argv[0]` with stdout/stderr going to the given descriptors (-1 leaves them alone).
pid_t Spawn(const std::vector<std::string>& args, const std::vector<std::string>& extra_env,
            int out_fd, int err_fd) {
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  for (const auto& entry : extra_env) env_strings.push_back(entry);
  std::vector<char*> envp;
  for (auto& entry : env_strings) envp.push_back(entry.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (out_fd >= 0) posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  if (err_fd >= 0) posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(error));
  }
  return pid;
}

int ExitCode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
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

// ---- DaemonProcess ----

DaemonProcess::DaemonProcess(const std::vector<std::string>& args,
                             const std::vector<std::string>& env) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  std::vector<std::string> argv{DaemonBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  try {
    pid_ = Spawn(argv, env, -1, fds[1]);
  } catch (...) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw;
  }
  ::close(fds[1]);
  reader_ = std::thread([this, fd = fds[0]] { Drain(fd); });
  const std::string line = WaitForLog("listening on ");
  const size_t colon = line.find(' ', line.find("listening on ") + 13);
  const size_t port_start = line.rfind(':', colon) + 1;
  port_ = static_cast<uint16_t>(std::stoi(line.substr(port_start, colon - port_start)));
}

DaemonProcess::~DaemonProcess() {
  bool exited;
  {
    std::lock_guard lock(mutex_);
    exited = exited_;
  }
  if (!exited) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  if (reader_.joinable()) reader_.join();
}

void DaemonProcess::Drain(int fd) {
  std::array<char, 4096> chunk;
  for (;;) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    std::lock_guard lock(mutex_);
    if (n <= 0) {
      log_closed_ = true;
      changed_.notify_all();
      break;
    }
    log_.append(chunk.data(), static_cast<size_t>(n));
    changed_.notify_all();
  }
  ::close(fd);
}

void DaemonProcess::Signal(int signal) { ::kill(pid_, signal); }

int DaemonProcess::Wait(std::chrono::milliseconds timeout) {
  {
    std::lock_guard lock(mutex_);
    if (exited_) return status_;
  }
  const auto deadline = Clock::now() + timeout;
  int status = 0;
  pid_t done = 0;
  while ((done = ::waitpid(pid_, &status, WNOHANG)) == 0 && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  int code = -1;
  if (done == pid_) {
    code = ExitCode(status);
  } else {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
  }
  // The daemon's stderr ends with it: wait for the last bytes before reporting.
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return log_closed_; });
  exited_ = true;
  status_ = code;
  return code;
}

std::string DaemonProcess::Log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

std::string DaemonProcess::WaitForLog(std::string_view text,
                                      std::chrono::milliseconds timeout) const {
  const auto deadline = Clock::now() + timeout;
  std::unique_lock lock(mutex_);
  for (;;) {
    const size_t at = log_.find(text);
    if (at != std::string::npos) {
      const size_t start = log_.rfind('\n', at);
      const size_t begin = start == std::string::npos ? 0 : start + 1;
      const size_t end = log_.find('\n', at);
      if (end != std::string::npos) return log_.substr(begin, end - begin);
    }
    if (log_closed_) {
      throw std::runtime_error("sudokud ended without logging '" + std::string(text) +
                               "'; its log:\n" + log_);
    }
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout) {
      throw std::runtime_error("sudokud did not log '" + std::string(text) + "' in time; its log:\n" +
                               log_);
    }
  }
}

ProcessResult RunDaemonToExit(const std::vector<std::string>& args) {
  char out_path[] = "/tmp/sudokud-test-out-XXXXXX";
  char err_path[] = "/tmp/sudokud-test-err-XXXXXX";
  const int out_fd = ::mkostemp(out_path, O_CLOEXEC);
  const int err_fd = ::mkostemp(err_path, O_CLOEXEC);
  std::vector<std::string> argv{DaemonBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessResult result;
  const pid_t pid = Spawn(argv, {}, out_fd, err_fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = ExitCode(status);
  auto slurp = [](int fd) {
    std::string text;
    std::array<char, 4096> chunk;
    ::lseek(fd, 0, SEEK_SET);
    ssize_t n;
    while ((n = ::read(fd, chunk.data(), chunk.size())) > 0) text.append(chunk.data(), n);
    ::close(fd);
    return text;
  };
  result.out = slurp(out_fd);
  result.err = slurp(err_fd);
  ::unlink(out_path);
  ::unlink(err_path);
  return result;
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

// ---- Checks and generated puzzles ----

bool IsSolutionOf(std::string_view puzzle, std::string_view solution) {
  if (puzzle.size() != 81 || solution.size() != 81) return false;
  for (int i = 0; i < 81; ++i) {
    const char given = puzzle[i];
    if (solution[i] < '1' || solution[i] > '9') return false;
    if (given >= '1' && given <= '9' && given != solution[i]) return false;
  }
  for (int unit = 0; unit < 9; ++unit) {
    unsigned row = 0, column = 0, box = 0;
    for (int k = 0; k < 9; ++k) {
      const int box_cell = (unit / 3 * 3 + k / 3) * 9 + unit % 3 * 3 + k % 3;
      row |= 1u << (solution[unit * 9 + k] - '1');
      column |= 1u << (solution[k * 9 + unit] - '1');
      box |= 1u << (solution[box_cell] - '1');
    }
    if (row != 0x1ff || column != 0x1ff || box != 0x1ff) return false;
  }
  return true;
}

std::vector<std::string> GeneratePuzzles(int count, int givens, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<std::string> out;
  out.reserve(count);
  for (int p = 0; p < count; ++p) {
    // A solved grid from the classic pattern, then symmetries that keep it solved: relabel the
    // digits, permute rows inside bands and the bands, the same for columns.
    std::array<int, 9> digits;
    std::iota(digits.begin(), digits.end(), 1);
    std::shuffle(digits.begin(), digits.end(), random);
    auto order = [&random] {
      std::array<int, 3> bands{0, 1, 2};
      std::shuffle(bands.begin(), bands.end(), random);
      std::array<int, 9> lines;
      for (int b = 0; b < 3; ++b) {
        std::array<int, 3> inner{0, 1, 2};
        std::shuffle(inner.begin(), inner.end(), random);
        for (int i = 0; i < 3; ++i) lines[b * 3 + i] = bands[b] * 3 + inner[i];
      }
      return lines;
    };
    const auto rows = order();
    const auto columns = order();
    std::string grid(81, '.');
    for (int r = 0; r < 9; ++r) {
      for (int c = 0; c < 9; ++c) {
        const int row = rows[r], column = columns[c];
        const int value = (row * 3 + row / 3 + column) % 9;
        grid[r * 9 + c] = static_cast<char>('0' + digits[value]);
      }
    }
    std::array<int, 81> cells;
    std::iota(cells.begin(), cells.end(), 0);
    std::shuffle(cells.begin(), cells.end(), random);
    for (int i = givens; i < 81; ++i) grid[cells[i]] = '.';
    out.push_back(std::move(grid));
  }
  return out;
}

long ProcStatusKiB(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(field.size()));
  }
  return -1;
}

}  // namespace sudoku::testing
