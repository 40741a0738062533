#include "client/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace sudoku::client {

// Values from 2^e (e >= 7) share the top kSubBits bits after the leading one: bucket
// kExact + (e - 7) * 64 + those bits.
size_t LatencyHistogram::Index(uint64_t nanos) {
  if (nanos < kExact) return static_cast<size_t>(nanos);
  const int exponent = std::bit_width(nanos) - 1;  // >= 7
  const uint64_t sub = (nanos >> (exponent - kSubBits)) & ((1u << kSubBits) - 1);
  return static_cast<size_t>(kExact + static_cast<uint64_t>(exponent - kSubBits - 1) *
                                          (1u << kSubBits) +
                             sub);
}

uint64_t LatencyHistogram::HighestValue(size_t index) {
  if (index < kExact) return index;
  const size_t above = index - kExact;
  const int exponent = static_cast<int>(above >> kSubBits) + kSubBits + 1;
  const uint64_t sub = above & ((1u << kSubBits) - 1);
  const uint64_t lowest = ((uint64_t{1} << kSubBits) | sub) << (exponent - kSubBits);
  return lowest + (uint64_t{1} << (exponent - kSubBits)) - 1;
}

void LatencyHistogram::Record(uint64_t nanos) {
  ++counts_[Index(nanos)];
  ++count_;
  max_ = std::max(max_, nanos);
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  max_ = std::max(max_, other.max_);
}

uint64_t LatencyHistogram::Percentile(double fraction) const {
  if (count_ == 0) return 0;
  const double wanted = std::ceil(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(count_));
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(wanted));
  uint64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += counts_[i];
    if (seen >= rank) return std::min(HighestValue(i), max_);
  }
  return max_;
}

}  // namespace sudoku::client
