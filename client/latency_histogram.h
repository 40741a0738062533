// Round-trip times in a fixed-size log-linear histogram, as HdrHistogram keeps them: exact below
// 128 ns, then 64 buckets per power of two (each within 1/64, about 1.6%, of its values), up to
// 2^64 ns. Memory is 30 KB whatever the number of samples; percentiles come out as the highest
// value of their bucket (never below the true value, at most 1.6% above), the maximum exactly.
// (Debian ships no C or C++ HdrHistogram.)
//
// Thread-safety: none; one thread records and reads.
#ifndef SUDOKU_CLIENT_LATENCY_HISTOGRAM_H_
#define SUDOKU_CLIENT_LATENCY_HISTOGRAM_H_

#include <array>
#include <cstddef>
#include <cstdint>

namespace sudoku::client {

class LatencyHistogram {
 public:
  void Record(uint64_t nanos);
  // Adds another histogram's samples.
  void Merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  uint64_t max() const { return max_; }
  // The smallest recorded bucket value v such that at least `fraction` (0 to 1) of the samples
  // are <= v; 0 without samples.
  uint64_t Percentile(double fraction) const;

 private:
  static constexpr int kSubBits = 6;                    // 64 buckets per power of two
  static constexpr uint64_t kExact = 2u << kSubBits;    // below 128: one bucket per value
  static constexpr size_t kBuckets = kExact + (64 - kSubBits - 1) * (1u << kSubBits);

  static size_t Index(uint64_t nanos);
  static uint64_t HighestValue(size_t index);

  std::array<uint64_t, kBuckets> counts_{};
  uint64_t count_ = 0;
  uint64_t max_ = 0;
};

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_LATENCY_HISTOGRAM_H_
