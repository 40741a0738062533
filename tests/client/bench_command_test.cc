#include "client/bench_command.h"

#include <utility>  // before Asio: asio issue 944

#include <regex>
#include <sstream>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <gtest/gtest.h>

#include "client/client_error.h"
#include "solver/solver.h"
#include "tests/client/client_error_of.h"
#include "tests/client/fake_daemon.h"
#include "tests/support/ports.h"
#include "tests/support/puzzles.h"

namespace sudoku::client {
namespace {

using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::kWikipediaSolution;
using ::sudoku::testing::Pencilmarks;

using sudoku::testing::FakeDaemon;
using sudoku::testing::FreePort;


// --- options ---

BenchOptions Parse(const std::vector<std::string>& args) {
  BenchOptions options;
  std::ostringstream out;
  EXPECT_TRUE(ParseBenchOptions(args, &options, out));
  return options;
}

std::string UsageError(const std::vector<std::string>& args) {
  return ClientErrorOf([&args] {
    BenchOptions options;
    std::ostringstream out;
    ParseBenchOptions(args, &options, out);
  });
}

TEST(BenchOptions, Defaults) {
  const BenchOptions options = Parse({"a.txt"});
  EXPECT_EQ(options.endpoints[0].ToString(), "127.0.0.1:9810");
  EXPECT_EQ(options.connections, 1u);
  EXPECT_EQ(options.duration_seconds, 10);
  EXPECT_EQ(options.count, 0u);
  EXPECT_EQ(options.batch_size, 100u);
  EXPECT_EQ(options.in_flight, 1u);
  EXPECT_EQ(options.rate, 0);
  EXPECT_FALSE(options.verify || options.json || options.echo);
}

TEST(BenchOptions, EveryFlag) {
  const BenchOptions options =
      Parse({"--connect", "10.0.0.1:1,10.0.0.2:2", "--connections", "64", "--requests", "1000",
             "--batch", "1", "--in-flight", "8", "--batches-per-second", "2500.5", "--unique",
             "--verify", "--json", "a.txt", "b.txt"});
  EXPECT_EQ(options.endpoints.size(), 2u);
  EXPECT_EQ(options.connections, 64u);
  EXPECT_EQ(options.count, 1000u);
  EXPECT_EQ(options.batch_size, 1u);
  EXPECT_EQ(options.in_flight, 8u);
  EXPECT_EQ(options.rate, 2500.5);
  EXPECT_EQ(options.solution_limit, 2u);
  EXPECT_TRUE(options.verify && options.json);
  EXPECT_EQ(options.inputs, (std::vector<std::string>{"a.txt", "b.txt"}));
  EXPECT_EQ(Parse({"--duration", "0.5", "--echo", "-"}).duration_seconds, 0.5);
  // Durations take units, as wrk's and ghz's do; a plain number is seconds.
  EXPECT_EQ(Parse({"--duration", "1s", "-"}).duration_seconds, 1);
  EXPECT_EQ(Parse({"--duration", "250ms", "-"}).duration_seconds, 0.25);
  EXPECT_EQ(Parse({"--duration", "2m", "-"}).duration_seconds, 120);
  EXPECT_EQ(Parse({"--duration", "1h", "-"}).duration_seconds, 3600);
}

TEST(BenchOptions, UsageErrors) {
  EXPECT_EQ(UsageError({}), "bench needs a FILE of puzzles to replay ('-' for standard input)");
  EXPECT_EQ(UsageError({"--duration", "5", "--requests", "9", "a"}),
            "--duration and --requests cannot be used together");
  EXPECT_EQ(UsageError({"--duration", "0", "a"}),
            "--duration expects a duration such as 10s, 2m or 500ms (a plain number is seconds), "
            "above 0 and at most 86400s, got '0'");
  EXPECT_EQ(UsageError({"--duration", "1e9", "a"}),
            "--duration expects a duration such as 10s, 2m or 500ms (a plain number is seconds), "
            "above 0 and at most 86400s, got '1e9'");
  EXPECT_EQ(UsageError({"--duration", "10 s", "a"}),
            "--duration expects a duration such as 10s, 2m or 500ms (a plain number is seconds), "
            "above 0 and at most 86400s, got '10 s'");
  EXPECT_EQ(UsageError({"--duration", "3d", "a"}),
            "--duration expects a duration such as 10s, 2m or 500ms (a plain number is seconds), "
            "above 0 and at most 86400s, got '3d'");
  EXPECT_EQ(UsageError({"--batches-per-second", "fast", "a"}),
            "--batches-per-second expects a number of batches per second above 0 (at most "
            "10000000), got 'fast'");
  // --rate is solve's (append the rating), not a bench flag.
  EXPECT_EQ(UsageError({"--rate", "5", "a"}),
            "unrecognised option '--rate' (see: sudoku-client bench --help)");
  EXPECT_EQ(UsageError({"--requests", "-3", "a"}),
            "--requests expects a whole number from 1 to 1099511627776, got '-3'");
  EXPECT_EQ(UsageError({"--connections", "0", "a"}),
            "--connections expects a whole number from 1 to 1024, got '0'");
  EXPECT_EQ(UsageError({"--in-flight", "2000", "a"}),
            "--in-flight expects a whole number from 1 to 1024, got '2000'");
  EXPECT_EQ(UsageError({"--batch", "", "a"}),
            "--batch expects a whole number from 1 to 65536, got ''");
  EXPECT_EQ(UsageError({"--echo", "--verify", "a"}),
            "--echo and --verify cannot be used together (an echo server solves nothing)");
  EXPECT_EQ(UsageError({"--frob", "a"}),
            "unrecognised option '--frob' (see: sudoku-client bench --help)");
}

TEST(BenchOptions, Help) {
  BenchOptions options;
  std::ostringstream out;
  EXPECT_FALSE(ParseBenchOptions({"--help"}, &options, out));
  EXPECT_EQ(out.str().rfind("usage: sudoku-client bench [options] FILE...\n", 0), 0u) << out.str();
  EXPECT_NE(out.str().find("--batches-per-second R"), std::string::npos);
  EXPECT_NE(out.str().find("--duration DURATION"), std::string::npos);
  EXPECT_NE(out.str().find("--version"), std::string::npos);
}

TEST(BenchOptions, Version) {
  BenchOptions options;
  std::ostringstream out;
  EXPECT_FALSE(ParseBenchOptions({"--version"}, &options, out));
  EXPECT_TRUE(std::regex_match(
      out.str(), std::regex("sudoku-client [0-9]+\\.[0-9]+\\.[0-9]+( \\(git [0-9a-f]{7}\\))?\n")))
      << out.str();
}

// --- CheckSolution ---

TEST(CheckSolution, AcceptsTheSolution) {
  EXPECT_EQ(CheckSolution(kWikipediaPuzzle, kWikipediaSolution), "");
}

TEST(CheckSolution, NamesWhatIsWrong) {
  EXPECT_EQ(CheckSolution(kWikipediaPuzzle, kWikipediaSolution.substr(1)),
            "the solution has 80 cells, not 81");
  std::string blank = kWikipediaSolution;
  blank[2] = '0';
  EXPECT_EQ(CheckSolution(kWikipediaPuzzle, blank), "cell r1c3 is '0', not a digit");
  std::string changed = kWikipediaSolution;
  changed[0] = '1';  // the given 5
  EXPECT_EQ(CheckSolution(kWikipediaPuzzle, changed), "given 5 at r1c1 changed to 1");
  std::string twice = kWikipediaSolution;
  twice[2] = '3';  // r1c3 was 4, not given; row 1 has a 3 at c2
  EXPECT_EQ(CheckSolution(kWikipediaPuzzle, twice), "digit 3 twice in row 1");
  // Swapping two cells of a row keeps the rows right and breaks the columns.
  std::string swapped = kWikipediaSolution;
  std::swap(swapped[2], swapped[3]);
  EXPECT_EQ(CheckSolution(std::string(81, '.'), swapped), "digit 6 twice in column 3");
  // Swapping two rows of different bands keeps rows and columns right and breaks the boxes.
  std::string rows = kWikipediaSolution;
  std::swap_ranges(rows.begin(), rows.begin() + 9, rows.begin() + 27);
  EXPECT_EQ(CheckSolution(std::string(81, '.'), rows), "digit 9 twice in box 1");
}

TEST(CheckSolution, HoldsPencilmarksToTheirCandidates) {
  const std::string pencilmarks = Pencilmarks(kWikipediaPuzzle);
  EXPECT_EQ(CheckSolution(pencilmarks, kWikipediaSolution), "");
  std::string changed = kWikipediaSolution;
  std::swap(changed[0], changed[1]);  // the given 5 and the 3 of r1c2
  EXPECT_EQ(CheckSolution(pencilmarks, changed),
            "digit 3 at r1c1 is not among its candidates ....5....");
}

// --- runs ---

struct BenchRun {
  int status = -1;
  std::string out, err;
  BenchReport report;
};

BenchRun RunOn(BenchOptions options, const std::string& input) {
  options.inputs = {"-"};
  std::istringstream in(input);
  std::ostringstream out, err;
  BenchRun run;
  run.status = RunBench(options, in, out, err, &run.report);
  run.out = out.str();
  run.err = err.str();
  return run;
}

std::string Puzzles(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += kWikipediaPuzzle + "\n";
  return text;
}

BenchOptions Against(const std::string& address) {
  BenchOptions options;
  options.endpoints = ParseEndpoints({address});
  options.batch_size = 3;
  options.count = 40;
  return options;
}

TEST(BenchRun, CountsVerifiesAndReports) {
  FakeDaemon daemon;
  BenchOptions options = Against(daemon.address());
  options.connections = 2;
  options.in_flight = 3;
  options.verify = true;
  const BenchRun run = RunOn(options, Puzzles(10));  // batches of 3, 3, 3, 1 replayed
  EXPECT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_EQ(run.report.batches, 40u);
  EXPECT_EQ(run.report.puzzles, 10u * 3 + 10u * 3 + 10u * 3 + 10u * 1);
  EXPECT_EQ(run.report.verified, run.report.puzzles);
  EXPECT_EQ(run.report.wrong, 0u);
  EXPECT_EQ(run.report.latency.count(), 40u);
  EXPECT_EQ(daemon.requests(), 40u);
  // Packed both ways: more than 41 bytes a puzzle, less than the 81 of the text.
  EXPECT_GT(run.report.bytes_sent, run.report.puzzles * kPackedBytes);
  EXPECT_LT(run.report.bytes_sent, run.report.puzzles * kCells);
  EXPECT_GT(run.report.bytes_received, run.report.puzzles * kPackedBytes);
  EXPECT_LT(run.report.bytes_received, run.report.puzzles * kCells);
  EXPECT_TRUE(std::regex_match(
      run.out,
      std::regex("sudokud at " + daemon.address() +
                 ": 2 connections, batch 3, in-flight 3, [0-9.]+ s\n"
                 "  batches   40 \\([0-9.]+/s\\)\n"
                 "  puzzles   100 \\([0-9.]+/s\\)\n"
                 "  latency   p50 [0-9.]+ us, p90 [0-9.]+ us, p99 [0-9.]+ us, p99.9 [0-9.]+ us, "
                 "max [0-9.]+ us \\(per batch\\)\n"
                 "  bytes     sent [0-9.]+ MB \\([0-9.]+ MB/s\\), received [0-9.]+ MB "
                 "\\([0-9.]+ MB/s\\)\n"
                 "  verified  100 solutions right, 0 wrong\n"
                 "  errors    none\n")))
      << run.out;
  EXPECT_EQ(run.err, "");
}

// Every puzzle of a batch is held to its own givens: kWikipediaPuzzle with its digits relabelled, a
// different puzzle in each place of a 12-puzzle batch.
TEST(BenchRun, VerifiesEachPuzzleOfABatchAgainstItself) {
  std::string input;
  for (int shift = 0; shift < 12; ++shift) {
    std::string puzzle = kWikipediaPuzzle;
    for (char& c : puzzle) {
      if (c != '.') c = static_cast<char>('1' + (c - '1' + shift) % 9);
    }
    input += puzzle + "\n";
  }
  FakeDaemon daemon;
  BenchOptions options = Against(daemon.address());
  options.batch_size = 12;
  options.count = 3;
  options.verify = true;
  const BenchRun run = RunOn(options, input);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.report.verified, 36u);
  EXPECT_EQ(run.report.wrong, 0u) << run.report.first_wrong;
}

TEST(BenchRun, Json) {
  FakeDaemon daemon;
  BenchOptions options = Against(daemon.address());
  options.json = true;
  options.count = 5;
  const BenchRun run = RunOn(options, Puzzles(3));
  EXPECT_TRUE(std::regex_match(
      run.out,
      std::regex("\\{\"target\":\"sudokud\",\"endpoints\":\\[\"" + daemon.address() +
                 "\"\\],\"connections\":1,\"batch\":3,\"in_flight\":1,\"seconds\":[0-9.]+,"
                 "\"batches\":5,\"puzzles\":15,\"batches_per_second\":[0-9.]+,"
                 "\"puzzles_per_second\":[0-9.]+,\"latency_us\":\\{\"p50\":[0-9.]+,"
                 "\"p90\":[0-9.]+,\"p99\":[0-9.]+,\"p99_9\":[0-9.]+,\"max\":[0-9.]+\\},"
                 "\"bytes_sent\":[0-9]+,\"bytes_received\":[0-9]+,\"errors\":\\{\\}\\}\n")))
      << run.out;
}

TEST(BenchRun, DurationAndRate) {
  FakeDaemon daemon;
  BenchOptions options = Against(daemon.address());
  options.count = 0;
  options.duration_seconds = 0.3;
  options.rate = 100;  // about 30 batches
  const BenchRun run = RunOn(options, Puzzles(3));
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_GE(run.report.batches, 5u);
  EXPECT_LE(run.report.batches, 40u);
}

TEST(BenchRun, WrongAnswersAreCounted) {
  FakeDaemon::Script script;
  script.tamper = [](wire::SolveResponse* response) {
    // The given 5 at r1c1 becomes a 1 (the low nibble of the first byte).
    char& first = (*response->mutable_packed_solutions())[0];
    first = static_cast<char>((first & 0xf0) | 1);
  };
  FakeDaemon daemon(script);
  BenchOptions options = Against(daemon.address());
  options.verify = true;
  options.count = 4;
  const BenchRun run = RunOn(options, Puzzles(3));
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.report.wrong, 4u);
  EXPECT_EQ(run.report.verified, 8u);
  EXPECT_NE(run.out.find("  verified  8 solutions right, 4 wrong (first: batch 0, puzzle 1: given "
                         "5 at r1c1 changed to 1)\n"),
            std::string::npos)
      << run.out;
}

TEST(BenchRun, MissingVerdictsAreWrong) {
  FakeDaemon::Script script;
  script.tamper = [](wire::SolveResponse* response) { response->mutable_verdicts()->RemoveLast(); };
  FakeDaemon daemon(script);
  BenchOptions options = Against(daemon.address());
  options.verify = true;
  options.count = 1;
  const BenchRun run = RunOn(options, Puzzles(3));
  EXPECT_EQ(run.report.wrong, 3u);
  EXPECT_EQ(run.report.first_wrong, "batch 0: 2 verdicts for 3 puzzles");
}

TEST(BenchRun, ErrorsByKind) {
  FakeDaemon::Script script;
  script.close_after = 2;  // hangs up without answering, on every connection
  FakeDaemon daemon(script);
  BenchOptions options = Against(daemon.address());
  options.in_flight = 2;
  const BenchRun run = RunOn(options, Puzzles(3));
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.report.batches, 0u);
  EXPECT_EQ(run.report.errors.at("connection lost"), 5u);  // then the connection slot gives up
  EXPECT_EQ(run.report.errors.at("unanswered batches"), 10u);
  // Nothing answered: the errors by kind are said instead of a report.
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("sudoku-client: bench measured nothing: no batch was answered (errors: "
                         "connection lost 5, unanswered batches 10); no report is printed\n"),
            std::string::npos)
      << run.err;
}

TEST(BenchRun, FaultsByKind) {
  FakeDaemon::Script script;
  script.fault_at = 1;
  script.fault.set_kind(wire::ProtocolFault::TOO_MANY_CONNECTIONS);
  script.misbehaving_connections = 1;
  FakeDaemon daemon(script);
  BenchOptions options = Against(daemon.address());
  options.count = 10;
  const BenchRun run = RunOn(options, Puzzles(3));
  EXPECT_EQ(run.report.errors.at("fault TOO_MANY_CONNECTIONS"), 1u);
  EXPECT_EQ(run.report.batches, 9u);  // the one that met the fault is lost
  EXPECT_EQ(run.report.errors.at("unanswered batches"), 1u);
}

// Against a dead port there is nothing to report: a report of zeros would read as a result.
TEST(BenchRun, NoDaemonFailsWithoutAReport) {
  const std::string address = "127.0.0.1:" + std::to_string(FreePort());
  BenchOptions options = Against(address);
  options.retry_for = std::chrono::milliseconds(1);  // one attempt: the first wait is longer
  const BenchRun run = RunOn(options, Puzzles(3));
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.report.errors.at("connect"), 1u);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "sudoku-client: cannot connect to " + address +
                         ": Connection refused (is sudokud running? start it with: sudokud "
                         "--listen " + address + ") (still failing after --retry-for 1ms)\n"
                         "sudoku-client: bench measured nothing: no batch was answered (errors: "
                         "connect 1); no report is printed\n");
}

// The header shows the batches as sent: a file of 3 puzzles makes batches of 3, whatever --batch.
TEST(BenchRun, TheHeaderShowsTheBatchAsSent) {
  FakeDaemon daemon;
  BenchOptions options = Against(daemon.address());
  options.batch_size = 100;
  options.count = 2;
  const BenchRun run = RunOn(options, Puzzles(3));
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.rfind("sudokud at " + daemon.address() + ": 1 connections, batch 3, ", 0), 0u)
      << run.out;
}

TEST(BenchRun, NothingToReplay) {
  FakeDaemon daemon;
  const BenchRun run = RunOn(Against(daemon.address()), "# nothing\n\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "sudoku-client: no puzzles to replay in 'stdin'\n");
  EXPECT_EQ(daemon.connections(), 0u);
}

TEST(BenchRun, MissingFile) {
  BenchOptions options = Against("127.0.0.1:1");
  options.inputs = {"/nonexistent/p.txt"};
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(RunBench(options, in, out, err), 2);
  EXPECT_EQ(err.str(),
            "sudoku-client: cannot open '/nonexistent/p.txt': No such file or directory\n");
}

// A blocking echo server on a thread: what `--echo` is measured against.
class EchoServer {
 public:
  EchoServer() : acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this] {
      boost::asio::ip::tcp::socket socket(io_);
      acceptor_.accept(socket);
      char data[4096];
      boost::system::error_code error;
      while (true) {
        const size_t n = socket.read_some(boost::asio::buffer(data), error);
        if (error) return;
        boost::asio::write(socket, boost::asio::buffer(data, n), error);
        if (error) return;
      }
    });
  }
  ~EchoServer() { thread_.join(); }
  std::string address() const {
    return "127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
  }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::thread thread_;
};

TEST(BenchRun, EchoMeasuresTheBareRoundTrip) {
  EchoServer echo;
  BenchOptions options = Against(echo.address());
  options.echo = true;
  options.in_flight = 4;
  options.count = 30;
  const BenchRun run = RunOn(options, Puzzles(7));
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.report.batches, 30u);
  EXPECT_EQ(run.report.bytes_sent, run.report.bytes_received);
  EXPECT_EQ(run.out.rfind("echo server at " + echo.address() + ": 1 connections", 0), 0u)
      << run.out;
}

}  // namespace
}  // namespace sudoku::client
