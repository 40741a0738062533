// What `sudoku-client bench` measured, and its two layouts: wrk's text report and one JSON
// object.
//
// Thread-safety: plain data and stateless functions.
#ifndef SUDOKU_CLIENT_BENCH_REPORT_H_
#define SUDOKU_CLIENT_BENCH_REPORT_H_

#include <cstdint>
#include <map>
#include <string>

#include "client/latency_histogram.h"

namespace sudoku::client {

struct BenchOptions;

struct BenchReport {
  double seconds = 0;  // from the first request out to the last answer in
  uint64_t batches = 0;  // answered
  uint64_t puzzles = 0;  // in answered batches
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
  uint64_t verified = 0;  // puzzles whose answer was checked and right
  uint64_t wrong = 0;     // puzzles (or batches that did not add up) found wrong by --verify
  std::string first_wrong;  // what was wrong with the first of them
  std::map<std::string, uint64_t> errors;  // by kind: "connect", "connection lost", ...
  LatencyHistogram latency;                // per batch, in nanoseconds
};

// The report as text (wrk's layout) or as one JSON object.
std::string FormatBenchReport(const BenchOptions& options, const BenchReport& report);
std::string FormatBenchJson(const BenchOptions& options, const BenchReport& report);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_BENCH_REPORT_H_
