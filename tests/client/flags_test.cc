#include "client/flags.h"

#include <chrono>

#include <functional>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "client/client_error.h"
#include "tests/client/client_error_of.h"

namespace sudoku::client {
namespace {

std::string UsageError(const std::function<void()>& parse) { return ClientErrorOf(parse); }

TEST(Flags, Quoted) { EXPECT_EQ(Quoted("x y"), "'x y'"); }

TEST(Flags, ParseCountTakesWholeNumbersInRange) {
  EXPECT_EQ(ParseCount("--batch", "1", 100), 1u);
  EXPECT_EQ(ParseCount("--batch", "100", 100), 100u);
  for (const char* bad : {"0", "101", "-1", "1.5", "x", ""}) {
    EXPECT_EQ(UsageError([bad] { ParseCount("--batch", bad, 100); }),
              std::string("--batch expects a whole number from 1 to 100, got '") + bad + "'");
  }
}

TEST(Flags, ParsePositiveTakesNumbersAboveZero) {
  EXPECT_EQ(ParsePositive("--duration", "0.5", "a number of seconds", 86400), 0.5);
  EXPECT_EQ(UsageError([] { ParsePositive("--duration", "0", "a number of seconds", 86400); }),
            "--duration expects a number of seconds above 0 (at most 86400), got '0'");
}

// What the commands print when a run fails: the message of a ClientError as it is, anything else
// as an internal error.
TEST(Flags, ParseDurationTakesAUnit) {
  using std::chrono::milliseconds;
  const milliseconds max = std::chrono::hours(24);
  EXPECT_EQ(ParseDuration("--timeout", "30s", max), milliseconds(30000));
  EXPECT_EQ(ParseDuration("--timeout", "2m", max), milliseconds(120000));
  EXPECT_EQ(ParseDuration("--timeout", "500ms", max), milliseconds(500));
  EXPECT_EQ(ParseDuration("--timeout", "1.5s", max), milliseconds(1500));
  EXPECT_EQ(ParseDuration("--timeout", "1h", max), milliseconds(3600000));
  EXPECT_EQ(ParseDuration("--timeout", "10", max), milliseconds(10000));  // seconds
  const std::string expected = "--timeout expects a duration such as 30s, 2m or 500ms, from 1ms to 86400s, got ";
  for (const std::string bad : {"10x", "", "s", "0s", "-5s", "0.1ms", "25h", "1e400s", "5 s"}) {
    EXPECT_EQ(UsageError([&bad, max] { ParseDuration("--timeout", bad, max); }),
              expected + "'" + bad + "'");
  }
}

TEST(Flags, ReportErrorSaysWhatFailed) {
  auto report = [](const std::function<void()>& fail) {
    std::ostringstream err;
    try {
      fail();
    } catch (...) {
      ReportError(err);
    }
    return err.str();
  };
  EXPECT_EQ(report([] { throw ClientError("cannot open 'x.txt'"); }),
            "sudoku-client: cannot open 'x.txt'\n");
  EXPECT_EQ(report([] { throw ConnectionLost("lost the connection"); }),
            "sudoku-client: lost the connection\n");
  EXPECT_EQ(report([] { throw std::logic_error("results of 2 batches were not written"); }),
            "sudoku-client: internal error: results of 2 batches were not written\n");
  EXPECT_EQ(report([] { throw 42; }),
            "sudoku-client: internal error: an exception of unknown type\n");
}

}  // namespace
}  // namespace sudoku::client
