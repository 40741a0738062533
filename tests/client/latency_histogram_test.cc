#include "client/latency_histogram.h"

#include <gtest/gtest.h>

namespace sudoku::client {
namespace {

TEST(LatencyHistogram, EmptyIsZero) {
  const LatencyHistogram histogram;
  EXPECT_EQ(histogram.count(), 0u);
  EXPECT_EQ(histogram.max(), 0u);
  EXPECT_EQ(histogram.Percentile(0.5), 0u);
}

TEST(LatencyHistogram, ExactBelow128) {
  LatencyHistogram histogram;
  for (uint64_t v = 1; v <= 100; ++v) histogram.Record(v);
  EXPECT_EQ(histogram.Percentile(0.5), 50u);
  EXPECT_EQ(histogram.Percentile(0.9), 90u);
  EXPECT_EQ(histogram.Percentile(0.99), 99u);
  EXPECT_EQ(histogram.Percentile(1.0), 100u);
  EXPECT_EQ(histogram.Percentile(0.0), 1u);
  EXPECT_EQ(histogram.max(), 100u);
}

TEST(LatencyHistogram, WithinOneSixtyFourthAboveAndNeverBelow) {
  LatencyHistogram histogram;
  for (uint64_t v = 1000; v <= 1000000; v += 1000) histogram.Record(v);  // 1000 samples
  for (const auto& [fraction, exact] :
       std::vector<std::pair<double, uint64_t>>{{0.5, 500000}, {0.9, 900000}, {0.99, 990000},
                                                {0.999, 999000}}) {
    const uint64_t got = histogram.Percentile(fraction);
    EXPECT_GE(got, exact) << fraction;
    EXPECT_LE(got, exact + exact / 64) << fraction;
  }
  EXPECT_EQ(histogram.Percentile(1.0), 1000000u);  // capped by the exact maximum
}

TEST(LatencyHistogram, HugeValuesAndMerge) {
  LatencyHistogram a, b;
  a.Record(UINT64_MAX);
  b.Record(5);
  b.Record(7);
  a.Merge(b);
  EXPECT_EQ(a.count(), 3u);
  EXPECT_EQ(a.max(), UINT64_MAX);
  EXPECT_EQ(a.Percentile(0.5), 7u);
  EXPECT_EQ(a.Percentile(1.0), UINT64_MAX);
}

}  // namespace
}  // namespace sudoku::client
