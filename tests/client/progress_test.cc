#include "client/progress.h"

#include <sstream>

#include <gtest/gtest.h>

namespace sudoku::client {
namespace {

TEST(WantProgress, FlagsOverrideTheTerminalCheck) {
  EXPECT_TRUE(WantProgress(ProgressMode::kAuto, true));
  EXPECT_FALSE(WantProgress(ProgressMode::kAuto, false));
  EXPECT_TRUE(WantProgress(ProgressMode::kOn, false));
  EXPECT_FALSE(WantProgress(ProgressMode::kOff, true));
}

TEST(RenderProgress, KnownTotalShowsBarPercentRateAndEta) {
  EXPECT_EQ(RenderProgress({5200000, 10000000, 13.0}),
            "[##########..........]  52%  5200000/10000000 puzzles  400000 puzzles/s  ETA 0:12");
}

TEST(RenderProgress, StartAndEnd) {
  EXPECT_EQ(RenderProgress({0, 1000, 0.0}), "[....................]   0%  0/1000 puzzles  0 puzzles/s");
  EXPECT_EQ(RenderProgress({1000, 1000, 2.0}),
            "[####################] 100%  1000/1000 puzzles  500 puzzles/s  ETA 0:00");
}

TEST(RenderProgress, LongEtaHasHours) {
  EXPECT_EQ(RenderProgress({100, 10000000, 1.0}),
            "[....................]   0%  100/10000000 puzzles  100 puzzles/s  ETA 27:46:39");
}

TEST(RenderProgress, UnknownTotalShowsCountAndRate) {
  EXPECT_EQ(RenderProgress({1500, 0, 3.0}), "1500 puzzles  500 puzzles/s");
  // An estimate that fell behind the count is no total.
  EXPECT_EQ(RenderProgress({1500, 1400, 3.0}), "1500 puzzles  500 puzzles/s");
}

TEST(ProgressMeter, RedrawsInPlaceAtMostEveryIntervalThenWipes) {
  std::ostringstream err;
  const auto start = ProgressMeter::Clock::time_point{};
  ProgressMeter meter(&err, start, std::chrono::seconds(1));
  meter.Update(10, 0, start + std::chrono::seconds(1));
  meter.Update(20, 0, start + std::chrono::milliseconds(1500));  // too soon: not drawn
  meter.Update(9, 0, start + std::chrono::seconds(3));
  meter.Finish();
  EXPECT_EQ(err.str(),
            "\r10 puzzles  10 puzzles/s"
            "\r9 puzzles  3 puzzles/s  "  // padded over the longer line before
            "\r                      \r");
  const std::string once = err.str();
  meter.Finish();  // nothing more to wipe
  EXPECT_EQ(err.str(), once);
}

}  // namespace
}  // namespace sudoku::client
