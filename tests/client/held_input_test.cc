// HeldInput (tests/client/held_input.h): the pipe is fed as long as it is read, in parts whose
// lines number on from the last, and ends at the end of a puzzle when the test lets go, with
// exactly the text it fed; MixedInputPrefix and AppendMixedInput, which it is made of.
#include "tests/client/held_input.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "tests/client/mixed_input.h"

namespace sudoku::testing {
namespace {

std::string PipePath(const std::string& name) {
  return ::testing::TempDir() + "/held_input_" + std::to_string(::getpid()) + "_" + name;
}

TEST(MixedInput, APrefixIsItsFirstPuzzlesWithTheirAnswersAndCounts) {
  const MixedInput input = MakeMixedInput(300, 7, false);
  ASSERT_EQ(input.ends.size(), input.expected.size());
  const MixedInput prefix = MixedInputPrefix(input, 120);
  EXPECT_EQ(prefix.text, input.text.substr(0, input.ends[119]));
  EXPECT_EQ(prefix.expected.size(), 120u);
  EXPECT_EQ(prefix.solved + prefix.multiple + prefix.unsolvable + prefix.invalid, 120u);
  // The first hundred hold one unsolvable puzzle (the 21st) and five invalid ones (the 41st,
  // 51st, ..., 81st); the next twenty, none.
  EXPECT_EQ(prefix.unsolvable, 1u);
  EXPECT_EQ(prefix.invalid, 5u);
  const MixedInput whole = MixedInputPrefix(input, 300);
  EXPECT_EQ(whole.text, input.text);
  EXPECT_EQ(whole.solved, input.solved);
  EXPECT_EQ(whole.invalid, input.invalid);
  EXPECT_EQ(MixedInputPrefix(input, 0).text, "");
}

TEST(MixedInput, APartMadeToFollowNumbersItsLinesOn) {
  MixedInput input = MakeMixedInput(100, 7, false);
  const auto lines =
      static_cast<uint64_t>(std::count(input.text.begin(), input.text.end(), '\n'));
  const MixedInput more = MakeMixedInput(100, 7, false, lines + 1);
  const MixedInput alone = MakeMixedInput(100, 7, false);
  AppendMixedInput(&input, more);
  EXPECT_EQ(input.expected.size(), 200u);
  EXPECT_EQ(input.ends.back(), input.text.size());
  // The same puzzles, their errors said at lines further on: puzzle 40's bad character.
  EXPECT_EQ(alone.expected[40].text.substr(0, 14), "invalid: line ");
  const uint64_t line_alone = std::stoull(alone.expected[40].text.substr(14));
  EXPECT_EQ(std::stoull(input.expected[140].text.substr(14)), line_alone + lines);
}

// Reads the pipe to its end on a thread of its own, as a client would: slowly past its first
// `fast_bytes`, so that a test can let go while it still reads.
class PipeReader {
 public:
  explicit PipeReader(const std::string& path, size_t fast_bytes = SIZE_MAX)
      : thread_([this, path, fast_bytes] {
          const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
          if (fd < 0) return;
          char buffer[4096];
          for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) {
            read_.append(buffer, static_cast<size_t>(n));
            bytes_ += static_cast<size_t>(n);
            if (read_.size() > fast_bytes) {
              std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
          }
          ended_ = true;
          ::close(fd);
        }) {}

  size_t bytes() const { return bytes_; }
  bool ended() const { return ended_; }
  // What was read, the end reached.
  const std::string& Join() {
    thread_.join();
    return read_;
  }

 private:
  std::string read_;  // the reader's until it is joined
  std::atomic<size_t> bytes_ = 0;
  std::atomic<bool> ended_ = false;
  std::thread thread_;  // last: it starts once the rest is made
};

// Parts of `part_puzzles` puzzles.
HeldInput::MakePart Parts(size_t part_puzzles) {
  return [=](size_t part, uint64_t first_line) {
    return MakeMixedInput(part_puzzles, 11 + part, false, first_line);
  };
}

TEST(HeldInput, FeedsPartAfterPartWhileReadThenEndsAtAPuzzleWhenReleased) {
  // Parts of 1,000 puzzles, 20,000 at most: then held open, fed no more.
  HeldInput held(Parts(1000), PipePath("feed"), 20000);
  PipeReader reader(held.path(), 200000);
  // Three parts' worth read (some 85 bytes a puzzle), then let go.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (reader.bytes() < 3 * 85000 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const MixedInput fed = held.Release();
  EXPECT_EQ(reader.Join(), fed.text);
  EXPECT_GT(fed.expected.size(), 2000u);
  EXPECT_LT(fed.expected.size(), 20000u);
  EXPECT_EQ(fed.ends.back(), fed.text.size());
  EXPECT_EQ(fed.text.back(), '\n');
}

TEST(HeldInput, HeldOpenPastItsLastPuzzleUntilReleased) {
  HeldInput held(Parts(100), PipePath("all"), 200);
  PipeReader reader(held.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(reader.ended());  // all 200 read long ago; the end of the input not yet
  const MixedInput fed = held.Release();
  const std::string& read = reader.Join();
  EXPECT_TRUE(reader.ended());
  EXPECT_EQ(fed.expected.size(), 200u);
  EXPECT_EQ(read, fed.text);
}

TEST(HeldInput, ReleasedBeforeAnyReaderFeedsNothing) {
  HeldInput held(1000, 11, PipePath("unread"));
  const MixedInput fed = held.Release();
  EXPECT_EQ(fed.text, "");
  EXPECT_TRUE(fed.expected.empty());
}

}  // namespace
}  // namespace sudoku::testing
