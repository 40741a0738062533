#include "tests/client/held_input.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <stdexcept>
#include <utility>

namespace sudoku::testing {
namespace {

// How long a released feed waits for the client to read the rest of its puzzle: far above any
// run here, so that a client that stopped reading fails its test instead of stalling the suite.
constexpr std::chrono::seconds kFinishDeadline{120};

}  // namespace

HeldInput::HeldInput(MakePart make, std::string path, size_t most_puzzles)
    : make_(std::move(make)), path_(std::move(path)), most_puzzles_(most_puzzles) {
  // A client that exits mid-run (a test that kills its daemon may expect it to) turns the feed's
  // next write into EPIPE rather than a signal that ends the test.
  std::signal(SIGPIPE, SIG_IGN);
  ::unlink(path_.c_str());
  if (::mkfifo(path_.c_str(), 0600) != 0) {
    throw std::runtime_error("mkfifo " + path_ + " failed: errno " + std::to_string(errno));
  }
  feeder_ = std::thread([this] { Feed(); });
}

HeldInput::HeldInput(size_t part_puzzles, uint64_t seed, std::string path)
    : HeldInput(
          [=](size_t part, uint64_t first_line) {
            return MakeMixedInput(part_puzzles, seed + part, false, first_line);
          },
          std::move(path)) {}

HeldInput::~HeldInput() {
  given_up_ = true;
  released_ = true;
  if (feeder_.joinable()) feeder_.join();
  ::unlink(path_.c_str());
}

MixedInput HeldInput::Release() {
  released_ = true;
  if (feeder_.joinable()) feeder_.join();
  // The puzzles whose lines were written whole.
  const auto fed = std::upper_bound(input_.ends.begin(), input_.ends.end(), written_);
  return MixedInputPrefix(input_, static_cast<size_t>(fed - input_.ends.begin()));
}

void HeldInput::Feed() {
  bool release_seen = false;
  auto deadline = std::chrono::steady_clock::time_point::max();
  const auto see_release = [&] {
    if (!released_ || release_seen) return false;
    release_seen = true;
    deadline = std::chrono::steady_clock::now() + kFinishDeadline;
    return true;
  };
  // Opened without blocking, so that a client that never starts cannot hold the test: ENXIO
  // until the client has the pipe open for reading. Released first, the feed writes nothing.
  int fd = -1;
  while (fd < 0 && !released_) {
    fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (fd < 0) return;
  const std::string& text = input_.text;
  size_t parts = 0;
  uint64_t lines = 0;
  // Where the feed stops: the text's end until released, then the end of the puzzle being
  // written.
  size_t end = 0;
  while (!given_up_) {
    if (see_release()) {
      // The end of the puzzle being written (or the text's, past the last puzzle).
      const auto next = std::lower_bound(input_.ends.begin(), input_.ends.end(), written_);
      end = next == input_.ends.end() ? text.size() : *next;
    }
    if (written_ == end) {
      if (release_seen) break;
      if (input_.expected.size() < most_puzzles_) {
        const MixedInput part = make_(parts++, lines + 1);
        lines += static_cast<uint64_t>(std::count(part.text.begin(), part.text.end(), '\n'));
        AppendMixedInput(&input_, part);
        end = text.size();
      } else {
        // As many as a test may take: the pipe is held open, fed no more, until it lets go.
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
      continue;
    }
    if (std::chrono::steady_clock::now() > deadline) break;
    pollfd writable{fd, POLLOUT, 0};
    if (::poll(&writable, 1, 20) <= 0) continue;
    if (writable.revents & (POLLERR | POLLHUP)) break;  // the client is gone
    const ssize_t n = ::write(fd, text.data() + written_, std::min<size_t>(end - written_, 65536));
    if (n > 0) {
      written_ += static_cast<size_t>(n);
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
      break;  // EPIPE: the client is gone
    }
  }
  ::close(fd);
}

}  // namespace sudoku::testing
