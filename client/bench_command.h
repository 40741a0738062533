// `sudoku-client bench`: a load test of sudokud, reported as wrk and ghz report theirs.
//
// The puzzles of the input files (the first kMaxReplayPuzzles) are cut into batches whose request
// frames are built once; each of --connections connections then replays them, keeping up to
// --in-flight batches outstanding, for --duration seconds or --requests batches in all, at most
// --rate batches per second over all connections. Every batch's round trip goes into a
// LatencyHistogram; with --rate it counts from when the batch was due, not when it went out, so a
// daemon that stalls cannot hide its backlog (what wrk2 calls coordinated omission). With
// --verify each answer is checked: as many verdicts as puzzles, every solution a full valid grid
// that keeps the puzzle's givens. --echo measures a bare TCP echo server instead, with the same
// frames: the floor any daemon's round trip is compared to.
//
// A broken connection is counted as an error of its kind (its batches as lost) and replaced, with
// bounded attempts, while time remains.
//
// Thread-safety: RunBench() runs its own single-threaded io_context; call it from one thread.
#ifndef SUDOKU_CLIENT_BENCH_COMMAND_H_
#define SUDOKU_CLIENT_BENCH_COMMAND_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "client/endpoint.h"
#include "client/bench_report.h"
#include "client/latency_histogram.h"
#include "client/flags.h"
#include "client/session.h"
#include "client/solution_check.h"

namespace sudoku::client {

inline constexpr size_t kMaxReplayPuzzles = 1000000;

struct BenchOptions : CommandSessionOptions {
  std::vector<Endpoint> endpoints;
  size_t connections = 1;
  double duration_seconds = 10;  // used when count == 0
  uint64_t count = 0;            // batches over all connections; 0: run for duration_seconds
  size_t batch_size = 100;
  size_t in_flight = 1;          // per connection
  double rate = 0;               // batches per second over all connections; 0: no limit
  uint32_t solution_limit = 1;
  bool verify = false;
  bool json = false;
  bool echo = false;
  std::vector<std::string> inputs;
};


// Parses the arguments after "bench". Returns false after printing help to `out` (--help);
// throws ClientError on a usage error.
bool ParseBenchOptions(const std::vector<std::string>& args, BenchOptions* options,
                       std::ostream& out);



// Why a run in which no batch was answered has no report: "bench measured nothing: no batch was
// answered (errors: connect 2); no report is printed".
std::string NothingMeasured(const BenchReport& report);

// Runs the load test; prints the report to `out`; returns 0 when there was no error and nothing
// wrong, 1 otherwise, 2 on a usage or input error (printed to `err`), or when no batch was
// answered at all (then no report is printed: NothingMeasured()).
int RunBench(const BenchOptions& options, std::istream& in, std::ostream& out, std::ostream& err,
             BenchReport* report = nullptr);

int BenchMain(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
              std::ostream& err);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_BENCH_COMMAND_H_
