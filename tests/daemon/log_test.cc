// RateLimitedLog, with an injected clock and sink: which lines are written, and the exact
// "N more like this suppressed" lines. LogEscape, the handler coroutines are spawned with: the
// exact line, what runs after it, and nothing escaping.
#include "daemon/log.h"

#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace sudoku::daemon {
namespace {

using Clock = RateLimitedLog::Clock;
using std::chrono::seconds;

class RateLimitedLogTest : public ::testing::Test {
 protected:
  RateLimitedLogTest()
      : log_(3, seconds(10),
             [this](LogLevel level, std::string_view text) {
               lines_.push_back(std::to_string(static_cast<int>(level)) + " " + std::string(text));
             },
             [this] { return now_; }) {}

  // Logs `count` lines of `kind`, numbered from 1.
  void Storm(const std::string& kind, int count) {
    for (int i = 1; i <= count; ++i) log_.Log(kind, LogLevel::kNotice, kind + " #" + std::to_string(i));
  }

  Clock::time_point now_{};
  std::vector<std::string> lines_;
  RateLimitedLog log_;
};

TEST_F(RateLimitedLogTest, LogsTheFirstFewOfAKindThenCountsTheRest) {
  Storm("fault A", 1000);
  EXPECT_EQ(lines_, (std::vector<std::string>{"5 fault A #1", "5 fault A #2", "5 fault A #3"}));
  now_ += seconds(9);
  Storm("fault A", 1);
  EXPECT_EQ(lines_.size(), 3u);  // still the same interval
  now_ += seconds(1);
  Storm("fault A", 5);
  EXPECT_EQ(lines_, (std::vector<std::string>{
                        "5 fault A #1", "5 fault A #2", "5 fault A #3",
                        "5 fault A: 998 more like this suppressed in 10 s",
                        "5 fault A #1", "5 fault A #2", "5 fault A #3"}));
}

TEST_F(RateLimitedLogTest, KindsHaveTheirOwnAllowance) {
  Storm("fault A", 4);
  Storm("fault B", 2);
  log_.Log("accept", LogLevel::kWarning, "cannot accept");
  EXPECT_EQ(lines_, (std::vector<std::string>{"5 fault A #1", "5 fault A #2", "5 fault A #3",
                                              "5 fault B #1", "5 fault B #2",
                                              "4 cannot accept"}));
}

// The count of an interval that is over comes out with the next limited line of any kind.
TEST_F(RateLimitedLogTest, ReportsAnEndedIntervalAtTheNextLineOfAnyKind) {
  Storm("fault A", 7);
  now_ += seconds(30);
  Storm("fault B", 1);
  EXPECT_EQ(lines_, (std::vector<std::string>{
                        "5 fault A #1", "5 fault A #2", "5 fault A #3",
                        "5 fault A: 4 more like this suppressed in 10 s", "5 fault B #1"}));
}

TEST_F(RateLimitedLogTest, ReportSuppressedSaysWhatIsLeftOnce) {
  Storm("fault A", 3);
  Storm("fault B", 5);
  log_.ReportSuppressed();
  log_.ReportSuppressed();
  EXPECT_EQ(lines_, (std::vector<std::string>{"5 fault A #1", "5 fault A #2", "5 fault A #3",
                                              "5 fault B #1", "5 fault B #2", "5 fault B #3",
                                              "5 fault B: 2 more like this suppressed in 10 s"}));
  // A new interval starts with the next line: three more are logged.
  Storm("fault B", 4);
  EXPECT_EQ(lines_.size(), 10u);
  EXPECT_EQ(lines_.back(), "5 fault B #3");
}

// A quiet kind never writes a summary line.
TEST_F(RateLimitedLogTest, NothingSuppressedNothingReported) {
  Storm("fault A", 2);
  now_ += seconds(60);
  Storm("fault A", 1);
  log_.ReportSuppressed();
  EXPECT_EQ(lines_, (std::vector<std::string>{"5 fault A #1", "5 fault A #2", "5 fault A #1"}));
}

TEST(LogEscape, LogsWhatEscapedAsWheresAtTheFailureThenRunsThen) {
  std::string where = "127.0.0.1:5000";
  int aborted = 0;
  auto handler = LogEscape([&where] { return where; }, [&aborted] { ++aborted; });
  where = "127.0.0.1:5000 (CN=client)";  // named as it is when the failure comes

  ::testing::internal::CaptureStderr();
  handler(nullptr);  // the coroutine returned: nothing logged, nothing run
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(aborted, 0);

  ::testing::internal::CaptureStderr();
  handler(std::make_exception_ptr(std::runtime_error("bad_alloc in the writer")));
  handler(std::make_exception_ptr(42));  // not a std::exception: still caught
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "sudokud: 127.0.0.1:5000 (CN=client): bad_alloc in the writer\n"
            "sudokud: 127.0.0.1:5000 (CN=client): unknown exception\n");
  EXPECT_EQ(aborted, 2);
}

TEST(LogEscape, AFixedNameAndNothingAfter) {
  auto handler = LogEscape("accept loop");
  ::testing::internal::CaptureStderr();
  handler(std::make_exception_ptr(std::logic_error("broken")));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "sudokud: accept loop: broken\n");
}

}  // namespace
}  // namespace sudoku::daemon
