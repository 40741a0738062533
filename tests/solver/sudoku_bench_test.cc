// sudoku-bench, run as a process: its table, its JSON, its kernel line and its errors. Timings
// are never asserted; the puzzle counts and guess figures are, against the solver in-process.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "solver/solver.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/paths.h"

namespace sudoku {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct BenchRun {
  int status = -1;
  std::string out, err;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs sudoku-bench with `args` (shell words) and environment assignments `env`.
BenchRun Bench(const std::string& args, const std::string& env = "SUDOKU_FORCE_ISA=portable") {
  const std::string bin = testing::TestPath("SUDOKU_BENCH_BIN");
  const std::string dir = ::testing::TempDir();
  // Named per process: ctest runs the tests of this file in parallel processes.
  const std::string stem = dir + "/bench_" + std::to_string(getpid());
  const std::string out = stem + "_out.txt", err = stem + "_err.txt";
  const std::string command = "env -u SUDOKU_FORCE_ISA " + env + " '" +
                              bin + "' " + args + " >'" +
                              out + "' 2>'" + err + "'";
  BenchRun run;
  const int raw = std::system(command.c_str());
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  run.out = Slurp(out);
  run.err = Slurp(err);
  return run;
}

// A path as one shell word. (Appending rather than "'" + path: g++ 12 warns falsely on that.)
std::string Quoted(const std::string& path) {
  std::string word = "'";
  word += path;
  word += "'";
  return word;
}

std::string DataFile(const std::string& name) {
  return testing::TestPath("SUDOKU_TEST_DATA_DIR") + "/" + name;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The figures sudoku-bench should print for bench_puzzles.txt, from the solver in-process.
struct Expected {
  int puzzles = 0;
  double no_guess_pct = 0, guesses_per_puzzle = 0;
};

Expected Figures(uint32_t max_solutions) {
  Expected e;
  int no_guess = 0;
  long guesses = 0;
  for (const auto& line : testing::ReadLines(DataFile("bench_puzzles.txt"))) {
    if (line.empty() || line[0] == '#') continue;
    const Result r = Solve(line, Limits{max_solutions});
    ++e.puzzles;
    guesses += r.guesses;
    no_guess += r.guesses == 0;
  }
  e.no_guess_pct = 100.0 * no_guess / e.puzzles;
  e.guesses_per_puzzle = double(guesses) / e.puzzles;
  return e;
}

std::string Fixed(double value, int decimals) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

TEST(SudokuBench, PrintsTheKernelAndATableRowPerFile) {
  const std::string file = DataFile("bench_puzzles.txt");
  const BenchRun run = Bench("'" + file + "' '" + file + "' --min-seconds 0");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err, "");
  const auto lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 5u) << run.out;
  EXPECT_EQ(lines[0], "kernel: portable");
  EXPECT_EQ(lines[1], "threads: 1, solutions counted to: 1, min seconds per file: 0");
  EXPECT_THAT(lines[2], StartsWith("file"));
  EXPECT_THAT(lines[2],
              HasSubstr("puzzles   puzzles/sec   usec/puzzle   %no_guess   guesses/puzzle"));
  const Expected e = Figures(1);
  for (int row : {3, 4}) {
    std::istringstream fields(lines[row]);
    std::string name, puzzles, rate, usec, no_guess, guesses;
    fields >> name >> puzzles >> rate >> usec >> no_guess >> guesses;
    EXPECT_EQ(name, file);
    EXPECT_EQ(puzzles, std::to_string(e.puzzles));
    EXPECT_GT(std::stod(rate), 0);
    EXPECT_GT(std::stod(usec), 0);
    EXPECT_EQ(no_guess, Fixed(e.no_guess_pct, 1));
    EXPECT_EQ(guesses, Fixed(e.guesses_per_puzzle, 3));
  }
}

TEST(SudokuBench, CountsToTwoWithUnique) {
  const BenchRun run = Bench(Quoted(DataFile("bench_puzzles.txt")) + " --unique --min-seconds 0");
  ASSERT_EQ(run.status, 0) << run.err;
  const auto lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1], "threads: 1, solutions counted to: 2, min seconds per file: 0");
  EXPECT_THAT(lines[3], HasSubstr(Fixed(Figures(2).guesses_per_puzzle, 3)));
}

TEST(SudokuBench, PrintsOneJsonObjectPerFile) {
  const std::string file = DataFile("bench_puzzles.txt");
  const BenchRun run =
      Bench("'" + file + "' '" + file + "' --json --unique --threads 2 --min-seconds 0");
  ASSERT_EQ(run.status, 0) << run.err;
  const auto lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 2u) << run.out;
  const Expected e = Figures(2);
  for (const auto& line : lines) {
    EXPECT_THAT(line, StartsWith("{\"file\":\"" + file + "\",\"kernel\":\"portable\","
                                 "\"threads\":2,\"max_solutions\":2,\"puzzles\":" +
                                 std::to_string(e.puzzles) + ",\"puzzles_per_sec\":"));
    ASSERT_TRUE(nlohmann::ordered_json::accept(line)) << line;
    const auto json = nlohmann::ordered_json::parse(line);
    std::vector<std::string> keys;
    for (const auto& item : json.items()) keys.push_back(item.key());
    EXPECT_THAT(keys, ElementsAre("file", "kernel", "threads", "max_solutions", "puzzles",
                                  "puzzles_per_sec", "usec_per_puzzle", "no_guess_pct",
                                  "guesses_per_puzzle", "solved", "multiple", "unsolvable",
                                  "seconds", "passes", "cpu_seconds"));
    // The figures to the decimals of the table, written as the shortest number that reads back.
    EXPECT_EQ(json["no_guess_pct"].get<double>(), std::round(e.no_guess_pct * 100) / 100);
    EXPECT_EQ(json["guesses_per_puzzle"].get<double>(),
              std::round(e.guesses_per_puzzle * 1000) / 1000);
    EXPECT_EQ(json["solved"].get<int>(), e.puzzles);
    EXPECT_EQ(json["multiple"].get<int>(), 0);
    EXPECT_EQ(json["unsolvable"].get<int>(), 0);
    EXPECT_GE(json["passes"].get<int>(), 1);
    EXPECT_GE(json["cpu_seconds"].get<double>(), 0);
    EXPECT_EQ(line.back(), '}');
  }
}

// A file name is bytes: one in Latin-1 is not UTF-8, and its byte becomes U+FFFD so that the
// line is still JSON.
TEST(SudokuBench, JsonOfAFileNameThatIsNotUtf8IsStillJson) {
  const std::string file = ::testing::TempDir() + "/caf\xe9_" + std::to_string(::getpid());
  std::filesystem::copy_file(DataFile("bench_puzzles.txt"), file,
                             std::filesystem::copy_options::overwrite_existing);
  const BenchRun run = Bench(Quoted(file) + " --json --min-seconds 0");
  std::filesystem::remove(file);
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string escaped = ::testing::TempDir() + "/caf\\ufffd_" + std::to_string(::getpid());
  EXPECT_THAT(run.out, StartsWith("{\"file\":\"" + escaped + "\",\"kernel\":"));
}

// The number after "key": in a JSON line.
double JsonNumber(const std::string& line, const std::string& key) {
  const size_t at = line.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::stod(line.substr(at + key.size() + 3));
}

TEST(SudokuBench, TimesForAtLeastTheMinimumAndSolvesEveryPuzzle) {
  // The timed run lasts at least --min-seconds, on any number of threads, and solves the whole
  // file at least once even when the minimum is zero.
  for (const char* threads : {"1", "2", "3"}) {
    SCOPED_TRACE(std::string("--threads ") + threads);
    const BenchRun timed = Bench(Quoted(DataFile("bench_puzzles.txt")) +
                                 " --json --min-seconds 0.2 --threads " + threads);
    ASSERT_EQ(timed.status, 0) << timed.err;
    EXPECT_GE(JsonNumber(timed.out, "seconds"), 0.2) << timed.out;
    EXPECT_GE(JsonNumber(timed.out, "passes"), 1) << timed.out;
    EXPECT_GE(JsonNumber(timed.out, "cpu_seconds"), 0) << timed.out;
    const BenchRun once = Bench(Quoted(DataFile("bench_puzzles.txt")) +
                                " --json --min-seconds 0 --threads " + threads);
    ASSERT_EQ(once.status, 0) << once.err;
    EXPECT_GE(JsonNumber(once.out, "passes"), 1) << once.out;
  }
}

TEST(SudokuBench, RunsTheKernelTheEnvironmentForces) {
  const BenchRun run = Bench(Quoted(DataFile("bench_puzzles.txt")) + " --min-seconds 0",
                        "SUDOKU_FORCE_ISA=no-such-isa");
  ASSERT_EQ(run.status, 0) << run.err;
  const Kernel* best = nullptr;
  for (const Kernel* k : AllKernels()) {
    if (best == nullptr && k->supported()) best = k;
  }
  EXPECT_EQ(Lines(run.out)[0], std::string("kernel: ") + best->name);
  EXPECT_EQ(run.err, std::string("sudoku-bench: SUDOKU_FORCE_ISA=no-such-isa: unknown kernel "
                                 "(known: avx512, avx2, sse4.1, portable); using ") +
                         best->name + "\n");
}

TEST(SudokuBench, RejectsAMissingFile) {
  const BenchRun run = Bench("/no/such/puzzles.txt");
  EXPECT_EQ(run.status, 1);  // a file that cannot be read: 1, as a usage error is 2
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "sudoku-bench: cannot open '/no/such/puzzles.txt': No such file or directory\n");
}

TEST(SudokuBench, RejectsAMalformedPuzzleWithItsLocation) {
  const std::string path = ::testing::TempDir() + "/bench_bad_" + std::to_string(getpid()) + ".txt";
  std::string malformed = testing::kWikipediaSolution;
  malformed[4] = 'x';
  std::ofstream(path) << "# comment\n\n"
                      << testing::kWikipediaSolution << "\n"
                      << malformed << "\n";
  const BenchRun run = Bench("'" + path + "'");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "sudoku-bench: " + path +
                         " line 4, column 5: bad character 'x' (expected 1-9, or . 0 _ - * for a "
                         "blank)\n");
  std::ofstream(path) << std::string(80, '.') << "\n";
  EXPECT_EQ(Bench("'" + path + "'").err,
            "sudoku-bench: " + path + " line 1: expected 81 cells, found 80\n");
  std::ofstream(path) << "hello world\n";
  EXPECT_EQ(Bench("'" + path + "'").err,
            "sudoku-bench: " + path +
                " line 1, column 1: bad character 'h' (expected 1-9, or . 0 _ - * for a blank)\n");
  std::ofstream(path) << std::string(729, '1') << "\n";
  EXPECT_EQ(Bench("'" + path + "'").err,
            "sudoku-bench: " + path +
                " line 1: a pencilmark puzzle (sudoku-bench measures puzzles of 81 cells)\n");
  std::ofstream(path) << "# nothing but a comment\n";
  EXPECT_EQ(Bench("'" + path + "'").err, "sudoku-bench: no puzzles in '" + path + "'\n");
  std::remove(path.c_str());
}

// The project's own sample file, in every layout it holds (lines, '0' '_' '-' blanks, a 9-line
// grid with rulers), is measured.
TEST(SudokuBench, MeasuresTheSampleFile) {
  const BenchRun run = Bench(Quoted(DataFile("samples.txt")) + " --min-seconds 10ms");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err, "");
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_EQ(lines.size(), 4u) << run.out;
  EXPECT_THAT(lines[3], HasSubstr("samples.txt"));
}

TEST(SudokuBench, RejectsBadFlags) {
  const std::string file = Quoted(DataFile("bench_puzzles.txt"));
  struct Case {
    std::string args, err;
  };
  const Case cases[] = {
      {"", "sudoku-bench: no puzzle files given (see --help)\n"},
      {file + " --bogus", "sudoku-bench: unrecognised option '--bogus' (see --help)\n"},
      {file + " --threads 0", "sudoku-bench: --threads must be at least 1\n"},
      {file + " --threads many",
       "sudoku-bench: the argument ('many') for option '--threads' is invalid (see --help)\n"},
      {file + " --min-seconds -1",
       "sudoku-bench: --min-seconds expects a duration such as 10s, 2m or 500ms (a plain number "
       "is seconds), got '-1'\n"},
      {file + " --min-seconds 2x",
       "sudoku-bench: --min-seconds expects a duration such as 10s, 2m or 500ms (a plain number "
       "is seconds), got '2x'\n"},
  };
  for (const auto& c : cases) {
    const BenchRun run = Bench(c.args);
    EXPECT_EQ(run.status, 2) << c.args;
    EXPECT_EQ(run.err, c.err) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
  }
}

TEST(SudokuBench, PrintsHelp) {
  const BenchRun run = Bench("--help");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("Usage: sudoku-bench [--threads N] [--unique] [--json] "
                                  "[--min-seconds DURATION] FILE...\n"));
  EXPECT_THAT(run.out, HasSubstr("--threads"));
}

}  // namespace
}  // namespace sudoku
