#include "client/flags.h"

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
