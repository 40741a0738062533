// sudoku-bench: solves puzzle files in-process and prints the figures solver people compare
// (puzzles/sec, usec/puzzle, %no_guess, guesses/puzzle), in the manner of tdoku's
// run_benchmark: the puzzles are shuffled with a fixed seed, solved once to warm up (that pass
// also gives the guess counts), then solved again and again until a target time has passed.
// With --threads N the timed solving is one parallel run for the whole target time (see
// SolveFor()), so that N threads are compared with one on equal terms.
//
//   sudoku-bench FILE... [--threads N] [--unique] [--json] [--min-seconds S]
//
// Exit status: 0 on success, 1 on an unreadable file or a malformed puzzle, 2 on a usage error.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "client/json_output.h"
#include "proto/command_line.h"
#include "proto/flag_values.h"
#include "proto/tsan_fork_join.h"
#include "proto/version.h"
#include "solver/puzzle_reader.h"
#include "solver/solver.h"

namespace sudoku {
namespace {

namespace po = boost::program_options;

// An error the user can fix: printed as "sudoku-bench: <what>", exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file that cannot be read or holds a malformed puzzle: printed as "sudoku-bench: <what>",
// exit status 1.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::vector<std::string> files;
  unsigned threads = 1;
  bool unique = false;
  bool json = false;
  double min_seconds = 1.0;
};

struct FileResult {
  std::string file;
  size_t puzzles = 0;
  uint64_t guesses = 0;
  size_t no_guess = 0;
  size_t solved = 0, multiple = 0, unsolvable = 0;
  uint64_t solved_in_timing = 0;  // puzzles solved during the timed run
  double seconds = 0;             // its wall-clock time
  double cpu_seconds = 0;         // the CPU time the process used meanwhile, all threads
  uint64_t passes = 0;            // whole passes over the file in the timed run
};

constexpr uint64_t kShuffleSeed = 20241122;
// Puzzles per parallel_for chunk in the warm-up pass: big enough to hide the scheduling, small
// enough to balance.
constexpr size_t kGrain = 64;
// Puzzles a thread takes at a time in the timed run. Taking them costs one atomic add on a
// shared cache line, nothing beside the 20 us or more that 16 puzzles take to solve; the threads
// end within one chunk of each other.
constexpr uint64_t kChunk = 16;

// Every puzzle of the file, in any layout sudoku-client reads (81-character lines, 9-line grids,
// .sdm, .sdk, CSV); pencilmark puzzles, which start from candidates, are not measured.
std::vector<Grid> ReadPuzzles(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
  PuzzleReader reader(&in, FormatOfFileName(path));
  std::vector<Grid> grids;
  PuzzleRecord record;
  while (reader.Next(&record)) {
    if (record.error) {
      throw InputError(path + " " + Locate(record.error) + ": " + Describe(record.error));
    }
    if (record.size != kCells) {
      throw InputError(path + " " + LocateRecord(record) +
                       ": a pencilmark puzzle (sudoku-bench measures puzzles of 81 cells)");
    }
    Grid grid;
    if (const PuzzleError error = ParsePuzzle(record.text(), &grid)) {
      throw InputError(path + " " + Locate(record, error) + ": " + Describe(error));
    }
    grids.push_back(grid);
  }
  if (in.bad()) throw InputError("cannot read '" + path + "': " + std::strerror(errno));
  if (grids.empty()) throw InputError("no puzzles in '" + path + "'");
  return grids;
}

// Solves every puzzle once on `arena` and fills the verdict and guess counts of `result`.
void SolveAll(tbb::task_arena& arena, const std::vector<Grid>& grids, Limits limits,
              FileResult* result) {
  std::atomic<uint64_t> guesses{0};
  std::atomic<size_t> no_guess{0}, solved{0}, multiple{0}, unsolvable{0};
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, grids.size(), kGrain),
                      [&](const tbb::blocked_range<size_t>& range) {
                        uint64_t g = 0;
                        size_t none = 0, ok = 0, many = 0, bad = 0;
                        for (size_t i = range.begin(); i != range.end(); ++i) {
                          Result r;
                          ActiveKernel().solve(grids[i], limits, &r);
                          g += r.guesses;
                          none += r.guesses == 0;
                          ok += r.verdict == Verdict::kSolved;
                          many += r.verdict == Verdict::kMultiple;
                          bad += r.verdict == Verdict::kUnsolvable;
                        }
                        guesses += g;
                        no_guess += none;
                        solved += ok;
                        multiple += many;
                        unsolvable += bad;
                        RangeDone(&guesses);
                      });
  });
  Joined(&guesses);  // the counters are on this stack, which the caller reuses
  result->guesses = guesses;
  result->no_guess = no_guess;
  result->solved = solved;
  result->multiple = multiple;
  result->unsolvable = unsolvable;
}

double ProcessCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// The timed run: solves the puzzles pass after pass on every thread of `arena` until at least
// `min_seconds` have passed and every puzzle has been solved at least once. Fills the timing
// fields of `result`.
//
// The threads share nothing but a cursor (on its own cache line) from which they take chunks of
// puzzles, wrapping around the file (the last, partial pass is a prefix of the shuffled file);
// each counts its puzzles in a local and adds them once at the end. There is no join per pass:
// a parallel_for per pass made both threads wait for the slower one's last chunk and then for
// the pool's worker to wake again, on every pass (1465 hard puzzles take about 5 ms on two
// threads). With both cores to itself that cost little; but whenever anything else took one
// core for a moment, the other thread sat idle at the end of the pass, so background activity
// cost the two-thread figure twice over.
void SolveFor(tbb::task_arena& arena, const std::vector<Grid>& grids, Limits limits,
              double min_seconds, FileResult* result) {
  struct alignas(64) Cursor {
    std::atomic<uint64_t> next{0};  // puzzle index counted over all passes
  };
  Cursor cursor;
  std::atomic<uint64_t> solved{0};
  const uint64_t n = grids.size();
  const unsigned lanes = static_cast<unsigned>(arena.max_concurrency());
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(std::min(min_seconds, 1e9)));
  const double cpu_start = ProcessCpuSeconds();
  arena.execute([&] {
    // One task per arena thread, each solving until the end; a lane that starts late (its
    // thread was asleep) simply takes fewer chunks.
    tbb::parallel_for(
        tbb::blocked_range<unsigned>(0, lanes, 1),
        [&](const tbb::blocked_range<unsigned>&) {
          const Kernel& kernel = ActiveKernel();
          uint64_t mine = 0;
          for (;;) {
            const uint64_t begin = cursor.next.fetch_add(kChunk, std::memory_order_relaxed);
            if (begin >= n && std::chrono::steady_clock::now() >= deadline) break;
            uint64_t i = begin % n;
            for (uint64_t k = 0; k < kChunk; ++k) {
              Result r;
              kernel.solve(grids[i], limits, &r);
              if (++i == n) i = 0;
            }
            mine += kChunk;
          }
          solved.fetch_add(mine, std::memory_order_relaxed);
          RangeDone(&cursor);
        },
        tbb::simple_partitioner());
  });
  Joined(&cursor);  // the cursor and counter are on this stack, which the caller reuses
  result->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result->cpu_seconds = ProcessCpuSeconds() - cpu_start;
  result->solved_in_timing = solved;
  result->passes = solved / n;
}

FileResult Bench(const std::string& path, std::vector<Grid> grids, const Options& options,
                 tbb::task_arena& arena) {
  FileResult result;
  result.file = path;
  result.puzzles = grids.size();
  std::mt19937_64 rng(kShuffleSeed);
  std::shuffle(grids.begin(), grids.end(), rng);
  // A cancellation flag that is never set, as the daemon passes one: the search's poll of it is
  // part of what is timed.
  static const std::atomic<bool> never_cancelled{false};
  const Limits limits{.max_solutions = options.unique ? 2u : 1u, .cancel = &never_cancelled};

  SolveAll(arena, grids, limits, &result);  // warm-up, and the per-puzzle figures
  SolveFor(arena, grids, limits, options.min_seconds, &result);
  return result;
}

double PuzzlesPerSecond(const FileResult& r) { return r.solved_in_timing / r.seconds; }
double MicrosPerPuzzle(const FileResult& r) { return 1e6 * r.seconds / r.solved_in_timing; }
double NoGuessPercent(const FileResult& r) { return 100.0 * r.no_guess / r.puzzles; }
double GuessesPerPuzzle(const FileResult& r) { return double(r.guesses) / r.puzzles; }

void PrintJson(const FileResult& r, const Options& options) {
  using client::Rounded;
  // The figures to the decimals of the table. The file name is bytes, not necessarily UTF-8 (a
  // Latin-1 name): JsonLine writes such a byte as U+FFFD, so that the line stays JSON.
  const client::Json json = {
      {"file", r.file},
      {"kernel", ActiveKernel().name},
      {"threads", options.threads},
      {"max_solutions", options.unique ? 2u : 1u},
      {"puzzles", r.puzzles},
      {"puzzles_per_sec", Rounded(PuzzlesPerSecond(r), 1)},
      {"usec_per_puzzle", Rounded(MicrosPerPuzzle(r), 3)},
      {"no_guess_pct", Rounded(NoGuessPercent(r), 2)},
      {"guesses_per_puzzle", Rounded(GuessesPerPuzzle(r), 3)},
      {"solved", r.solved},
      {"multiple", r.multiple},
      {"unsolvable", r.unsolvable},
      {"seconds", Rounded(r.seconds, 3)},
      {"passes", r.passes},
      {"cpu_seconds", Rounded(r.cpu_seconds, 3)},
  };
  std::fputs(client::JsonLine(json).c_str(), stdout);
}

void PrintRow(const FileResult& r, int file_width) {
  std::printf("%-*s %9zu %13.0f %13.3f %11.1f %16.3f\n", file_width, r.file.c_str(), r.puzzles,
              PuzzlesPerSecond(r), MicrosPerPuzzle(r), NoGuessPercent(r), GuessesPerPuzzle(r));
}

const char kUsage[] =
    "Usage: sudoku-bench [--threads N] [--unique] [--json] [--min-seconds DURATION] FILE...\n"
    "Solves each file of puzzles (81 characters a line or 9-line grids, as sudoku-client reads\n"
    "them; blank and '#' lines skipped) in-process\n"
    "and prints puzzles/sec, usec/puzzle, %no_guess and guesses/puzzle. The puzzles are\n"
    "shuffled (fixed seed) and solved once to warm up, then repeatedly for --min-seconds.\n"
    "SUDOKU_FORCE_ISA=portable|sse4.1|avx2|avx512 forces a kernel.\n\nOptions";

Options ParseOptions(int argc, char** argv, bool* help) {
  Options options;
  std::string min_seconds;
  po::options_description visible(kUsage);
  visible.add_options()
      ("help,h", "print this help")
      ("version", "print the version and exit")
      ("threads", po::value<unsigned>(&options.threads)->default_value(1)->value_name("N"),
       "solve in a oneTBB arena of N threads")
      ("unique", po::bool_switch(&options.unique),
       "count solutions up to 2 (uniqueness check) instead of stopping at the first")
      ("json", po::bool_switch(&options.json), "print one JSON object per file")
      ("min-seconds",
       po::value<std::string>(&min_seconds)->default_value("1s")->value_name("DURATION"),
       "time each file for at least this long, e.g. 1s or 500ms");
  po::variables_map vm;
  try {
    vm = ReadCommandLine(po::command_line_parser(argc, argv), visible, &options.files);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see --help)");
  }
  if (vm.count("help")) {
    std::cout << visible << "\n";
    *help = true;
    return options;
  }
  if (vm.count("version")) {
    std::cout << VersionLine("sudoku-bench") << "\n";
    *help = true;
    return options;
  }
  if (options.files.empty()) throw UsageError("no puzzle files given (see --help)");
  if (options.threads == 0) throw UsageError("--threads must be at least 1");
  const auto min_duration = ParseDuration(min_seconds);
  if (!min_duration) {
    throw UsageError("--min-seconds expects " + std::string(kDurationHint) + ", got '" +
                     min_seconds + "'");
  }
  options.min_seconds = min_duration->count();
  return options;
}

int Main(int argc, char** argv) {
  bool help = false;
  const Options options = ParseOptions(argc, argv, &help);
  if (help) return 0;
  if (!KernelSelectionNote().empty()) {
    std::cerr << "sudoku-bench: " << KernelSelectionNote() << "\n";
  }
  // Read every file first, so that a bad one fails fast instead of after minutes of timing.
  std::vector<std::vector<Grid>> puzzles;
  for (const auto& file : options.files) puzzles.push_back(ReadPuzzles(file));

  tbb::task_arena arena(static_cast<int>(options.threads));
  int file_width = 4;
  for (const auto& file : options.files) file_width = std::max<int>(file_width, file.size());
  if (!options.json) {
    std::printf("kernel: %s\n", ActiveKernel().name);
    std::printf("threads: %u, solutions counted to: %u, min seconds per file: %g\n",
                options.threads, options.unique ? 2u : 1u, options.min_seconds);
    std::printf("%-*s %9s %13s %13s %11s %16s\n", file_width, "file", "puzzles", "puzzles/sec",
                "usec/puzzle", "%no_guess", "guesses/puzzle");
    std::fflush(stdout);
  }
  for (size_t i = 0; i < options.files.size(); ++i) {
    const FileResult r = Bench(options.files[i], std::move(puzzles[i]), options, arena);
    if (options.json) {
      PrintJson(r, options);
    } else {
      PrintRow(r, file_width);
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace sudoku

int main(int argc, char** argv) {
  try {
    return sudoku::Main(argc, argv);
  } catch (const sudoku::UsageError& e) {
    std::cerr << "sudoku-bench: " << e.what() << "\n";
    return 2;
  } catch (const sudoku::InputError& e) {
    std::cerr << "sudoku-bench: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "sudoku-bench: " << e.what() << "\n";
    return 1;
  }
}
