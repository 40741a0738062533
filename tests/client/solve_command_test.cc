#include "client/solve_command.h"

#include <utility>  // before Asio: asio issue 944

#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "client/client_error.h"
#include "tests/client/client_error_of.h"
#include "tests/client/fake_daemon.h"
#include "tests/client/mixed_input.h"
#include "tests/support/ports.h"
#include "tests/support/puzzles.h"

namespace sudoku::client {
namespace {

using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::kWikipediaSolution;

using sudoku::testing::CheckOutput;
using sudoku::testing::FakeDaemon;
using sudoku::testing::FreePort;
using sudoku::testing::MakeMixedInput;
using sudoku::testing::MixedInput;
using sudoku::testing::kSummaryTimeAndRate;
using sudoku::testing::SummaryCounts;


std::string Repeated(const std::string& line, int times) {
  std::string text;
  for (int i = 0; i < times; ++i) text += line + "\n";
  return text;
}

// --- options ---

SolveOptions Parse(const std::vector<std::string>& args) {
  SolveOptions options;
  std::ostringstream out;
  EXPECT_TRUE(ParseSolveOptions(args, &options, out));
  EXPECT_EQ(out.str(), "");
  return options;
}

std::string UsageError(const std::vector<std::string>& args) {
  return ClientErrorOf([&args] {
    SolveOptions options;
    std::ostringstream out;
    ParseSolveOptions(args, &options, out);
  });
}

TEST(SolveOptions, Formats) {
  SolveOptions options;
  std::ostringstream out;
  ASSERT_TRUE(ParseSolveOptions({"--format", "json", "--input-format", "sdk"}, &options, out));
  EXPECT_EQ(options.format, OutputFormat::kJson);
  EXPECT_EQ(options.input_format, InputFormat::kSdk);
  EXPECT_EQ(UsageError({"--format", "xml"}), "--format expects line, grid, json or csv, got 'xml'");
  EXPECT_EQ(UsageError({"--input-format", "tsv"}),
            "--input-format expects auto, text, sdm, sdk or csv, got 'tsv'");
}

TEST(SolveOptions, Defaults) {
  const SolveOptions options = Parse({});
  ASSERT_EQ(options.endpoints.size(), 1u);
  EXPECT_EQ(options.endpoints[0].ToString(), "127.0.0.1:9810");
  EXPECT_EQ(options.solution_limit, 1u);
  EXPECT_EQ(options.batch_size, 2000u);
  EXPECT_EQ(options.in_flight, 4u);
  EXPECT_EQ(options.connections, 2u);
  EXPECT_TRUE(options.inputs.empty());
}

TEST(SolveOptions, EveryFlag) {
  const SolveOptions options =
      Parse({"--connect", "10.0.0.1:1,10.0.0.2:2", "--connect=[::1]:3", "--limit", "7", "--batch",
             "50", "--in-flight", "9", "--connections", "3", "--timeout", "2m", "a.txt", "-",
             "b.txt"});
  ASSERT_EQ(options.endpoints.size(), 3u);
  EXPECT_EQ(options.endpoints[2].ToString(), "[::1]:3");
  EXPECT_EQ(options.solution_limit, 7u);
  EXPECT_EQ(options.batch_size, 50u);
  EXPECT_EQ(options.in_flight, 9u);
  EXPECT_EQ(options.connections, 3u);
  EXPECT_EQ(options.timeout, std::chrono::minutes(2));
  EXPECT_EQ(options.inputs, (std::vector<std::string>{"a.txt", "-", "b.txt"}));
}

TEST(SolveOptions, ProgressFlags) {
  EXPECT_EQ(Parse({}).progress, ProgressMode::kAuto);
  EXPECT_EQ(Parse({"--progress"}).progress, ProgressMode::kOn);
  EXPECT_EQ(Parse({"--no-progress"}).progress, ProgressMode::kOff);
  EXPECT_EQ(UsageError({"--progress", "--no-progress"}),
            "--progress and --no-progress cannot be used together");
}

TEST(SolveOptions, RateOnlyNamesOnePathAndImpliesRate) {
  EXPECT_FALSE(Parse({}).rate);
  EXPECT_EQ(Parse({"--rate"}).rating_scope, wire::ALL_RATINGS);
  const SolveOptions se = Parse({"--rate-only", "se"});
  EXPECT_TRUE(se.rate);
  EXPECT_EQ(se.rating_scope, wire::SE_PATH);
  EXPECT_EQ(Parse({"--rate", "--rate-only=hodoku"}).rating_scope, wire::HODOKU_PATH);
  EXPECT_EQ(UsageError({"--rate-only", "SE"}), "--rate-only expects hodoku or se, got 'SE'");
  EXPECT_EQ(UsageError({"--rate-only", "qqwing"}),
            "--rate-only expects hodoku or se, got 'qqwing'");
}

TEST(SolveOptions, UniqueIsLimitTwo) { EXPECT_EQ(Parse({"--unique"}).solution_limit, 2u); }

TEST(SolveOptions, HelpPrintsUsage) {
  SolveOptions options;
  std::ostringstream out;
  EXPECT_FALSE(ParseSolveOptions({"--help"}, &options, out));
  // The first line is the usage line, not a blank one.
  EXPECT_EQ(out.str().rfind("usage: sudoku-client solve [options] [FILE...]\n", 0), 0u)
      << out.str();
  EXPECT_NE(out.str().find("--in-flight K"), std::string::npos);
}

TEST(SolveOptions, UsageErrors) {
  EXPECT_EQ(UsageError({"--unique", "--limit", "3"}),
            "--unique and --limit cannot be used together (--unique is --limit 2)");
  EXPECT_EQ(UsageError({"--batch", "0"}),
            "--batch expects a whole number from 1 to 65536, got '0'");
  EXPECT_EQ(UsageError({"--batch", "65537"}),
            "--batch expects a whole number from 1 to 65536, got '65537'");
  EXPECT_EQ(UsageError({"--in-flight", "-1"}),
            "--in-flight expects a whole number from 1 to 1024, got '-1'");
  EXPECT_EQ(UsageError({"--connections", "two"}),
            "--connections expects a whole number from 1 to 1024, got 'two'");
  EXPECT_EQ(UsageError({"--limit", "1.5"}),
            "--limit expects a whole number from 1 to 1000000, got '1.5'");
  EXPECT_EQ(UsageError({"--frob"}),
            "unrecognised option '--frob' (see: sudoku-client solve --help)");
  EXPECT_EQ(UsageError({"--batch"}),
            "the required argument for option '--batch' is missing "
            "(see: sudoku-client solve --help)");
  EXPECT_EQ(UsageError({"--connect", "nowhere"}),
            "bad address 'nowhere': expected HOST:PORT, e.g. 127.0.0.1:9810");
}

// --- runs against the fake daemon ---

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

RunResult RunWith(SolveOptions options, const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out, err;
  RunResult run;
  run.status = RunSolve(options, in, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

SolveOptions Options(const FakeDaemon& daemon, size_t batch, size_t in_flight, size_t connections) {
  SolveOptions options;
  options.endpoints = ParseEndpoints({daemon.address()});
  options.batch_size = batch;
  options.in_flight = in_flight;
  options.connections = connections;
  return options;
}

// "puzzles 3, ..., 0.002 s, 1500 puzzles/s\n" with the given counts.
void ExpectSummary(const std::string& err, const std::string& counts) {
  EXPECT_TRUE(std::regex_match(err, std::regex(counts + kSummaryTimeAndRate)))
      << err;
}

TEST(SolveCommand, SolvesInInputOrderDespiteReorderedReplies) {
  FakeDaemon::Script script;
  script.hold = 3;  // answers come back last first, three at a time
  FakeDaemon daemon(script);
  const MixedInput input = MakeMixedInput(700, 1, false);
  const RunResult run = RunWith(Options(daemon, 7, 3, 2), input.text);
  EXPECT_EQ(CheckOutput(input, run.out), "");
  ExpectSummary(run.err, SummaryCounts(input));
  EXPECT_EQ(run.status, 1);  // some are invalid or unsolvable
  EXPECT_EQ(daemon.connections(), 2u);
  for (size_t size : daemon.batch_sizes()) EXPECT_LE(size, 7u);
}

TEST(SolveCommand, ManyConnectionsSmallWindow) {
  FakeDaemon::Script script;
  script.hold = 2;
  FakeDaemon daemon(script);
  const MixedInput input = MakeMixedInput(3000, 2, false);
  const RunResult run = RunWith(Options(daemon, 5, 2, 5), input.text);
  EXPECT_EQ(CheckOutput(input, run.out), "");
  ExpectSummary(run.err, SummaryCounts(input));
  EXPECT_EQ(daemon.connections(), 5u);
}

TEST(SolveCommand, UniqueReportsMultiple) {
  FakeDaemon daemon;
  const MixedInput input = MakeMixedInput(200, 3, true);
  SolveOptions options = Options(daemon, 1000, 4, 2);
  options.solution_limit = 2;
  const RunResult run = RunWith(options, input.text);
  EXPECT_EQ(CheckOutput(input, run.out), "");
  ExpectSummary(run.err, SummaryCounts(input));
  EXPECT_EQ(daemon.last_solution_limit(), 2u);
  EXPECT_GE(input.multiple, 1u);
}

TEST(SolveCommand, AllSolvedExitsZero) {
  FakeDaemon daemon;
  const RunResult run =
      RunWith(Options(daemon, 1000, 4, 2), kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n");
  EXPECT_EQ(run.out, kWikipediaSolution + "\n" + kWikipediaSolution + "\n");
  ExpectSummary(run.err, "puzzles 2, solved 2, multiple 0, unsolvable 0, invalid 0, ");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(daemon.batch_sizes(), std::vector<size_t>{2});
}

TEST(SolveCommand, ProgressGoesToStderrAndIsWipedBeforeTheSummary) {
  FakeDaemon daemon;
  SolveOptions options = Options(daemon, 5, 1, 1);
  options.progress = ProgressMode::kOn;
  const RunResult run = RunWith(options, Repeated(kWikipediaPuzzle, 3));
  EXPECT_EQ(run.out, Repeated(std::string(kWikipediaSolution), 3));
  // The bar was drawn once (then rate-limited), and wiped with spaces.
  EXPECT_TRUE(std::regex_match(
      run.err, std::regex("\r[0-9]+ puzzles  [0-9]+ puzzles/s *\r *\r"
                          "puzzles 3, solved 3, multiple 0, unsolvable 0, invalid 0, " +
                          std::string(kSummaryTimeAndRate))))
      << run.err;
}

TEST(SolveCommand, EmptyInputExitsZero) {
  FakeDaemon daemon;
  const RunResult run = RunWith(Options(daemon, 1000, 4, 2), "# nothing\n\n");
  EXPECT_EQ(run.out, "");
  ExpectSummary(run.err, "puzzles 0, solved 0, multiple 0, unsolvable 0, invalid 0, ");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(daemon.requests(), 0u);
}

TEST(SolveCommand, LayoutErrorsNeverReachTheDaemon) {
  FakeDaemon daemon;
  const RunResult run = RunWith(Options(daemon, 2, 4, 1),
                                "12345\n1 2 3\n" + kWikipediaPuzzle + "\nx\nhello world\n");
  EXPECT_EQ(run.out,
            "invalid: line 1: expected 81 cells, found 5\n"
            "invalid: line 2: expected 9 cells in a grid row, found 3\n" +
                kWikipediaSolution + "\n" +
                // A line that is no puzzle and holds a character no puzzle has: that character.
                "invalid: line 4, column 1: bad character 'x' (expected 1-9, or . 0 _ - * for a "
                "blank)\n"
                "invalid: line 5, column 1: bad character 'h' (expected 1-9, or . 0 _ - * for a "
                "blank)\n");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(daemon.batch_sizes(), std::vector<size_t>{1});
}

TEST(SolveCommand, SeveralFilesAreNamedInErrors) {
  FakeDaemon daemon;
  const std::string a = ::testing::TempDir() + "/solve_command_test_a.txt";
  const std::string b = ::testing::TempDir() + "/solve_command_test_b.txt";
  std::ofstream(a) << kWikipediaPuzzle << "\n";
  std::ofstream(b) << "\n" << kWikipediaPuzzle.substr(1) << "\n";
  SolveOptions options = Options(daemon, 1000, 4, 2);
  options.inputs = {a, "-", b};
  const RunResult run = RunWith(
      options, "\n\n" + kWikipediaPuzzle.substr(0, 3) + "x" + kWikipediaPuzzle.substr(4) + "\n");
  EXPECT_EQ(run.out, kWikipediaSolution + "\n" +
                         "invalid: stdin, line 3, column 4: bad character 'x' (expected 1-9, or . "
                         "0 _ - * for a blank)\n"
                         "invalid: " + b + ", line 2: expected 81 cells, found 80\n");
  EXPECT_EQ(run.status, 1);
}

TEST(SolveCommand, SpreadsConnectionsOverEndpoints) {
  FakeDaemon first, second;
  SolveOptions options = Options(first, 10, 2, 4);
  options.endpoints = ParseEndpoints({first.address() + "," + second.address()});
  const MixedInput input = MakeMixedInput(500, 4, false);
  const RunResult run = RunWith(options, input.text);
  EXPECT_EQ(CheckOutput(input, run.out), "");
  EXPECT_EQ(first.connections(), 2u);
  EXPECT_EQ(second.connections(), 2u);
  EXPECT_GT(first.requests(), 0u);
  EXPECT_GT(second.requests(), 0u);
}

TEST(SolveCommand, ProtocolFaultStopsTheRun) {
  FakeDaemon::Script script;
  script.fault_at = 1;
  script.fault.set_kind(wire::ProtocolFault::BATCH_TOO_LARGE);
  script.fault.set_message("batch of 5 puzzles exceeds the limit of 4");
  FakeDaemon daemon(script);
  std::string input;
  for (int i = 0; i < 20; ++i) input += kWikipediaPuzzle + "\n";
  const RunResult run = RunWith(Options(daemon, 5, 1, 1), input);
  EXPECT_EQ(run.err, "sudoku-client: sudokud at " + daemon.address() +
                         " reported a protocol fault: BATCH_TOO_LARGE: batch of 5 puzzles exceeds "
                         "the limit of 4 (try a smaller --batch)\n"
                         "sudoku-client: the output is partial: 5 answers written, the last for "
                         "line 5 of stdin; the puzzles after it have no answer\n");
  EXPECT_EQ(run.status, 3);  // answers were written: not a run that failed outright
  // What was written is whole and in order: the first batch's results.
  std::string first;
  for (int i = 0; i < 5; ++i) first += kWikipediaSolution + "\n";
  EXPECT_EQ(run.out, first);
}

TEST(SolveCommand, OtherFaultKinds) {
  for (const auto& [kind, hint] :
       std::vector<std::pair<wire::ProtocolFault::Kind, std::string>>{
           // A daemon that stays full is retried for --retry-for, then named.
           {wire::ProtocolFault::TOO_MANY_CONNECTIONS,
            " (try fewer --connections) (still failing after --retry-for 1ms)"},
           {wire::ProtocolFault::MALFORMED, ""},
           {static_cast<wire::ProtocolFault::Kind>(42), ""}}) {
    FakeDaemon::Script script;
    script.fault_at = 0;
    script.fault.set_kind(kind);
    script.fault.set_message("details");
    FakeDaemon daemon(script);
    SolveOptions options = Options(daemon, 5, 1, 1);
    options.retry_for = std::chrono::milliseconds(1);
    const RunResult run = RunWith(options, kWikipediaPuzzle + "\n");
    const std::string name = kind == 42 ? "kind 42" : wire::ProtocolFault::Kind_Name(kind);
    EXPECT_EQ(run.err, "sudoku-client: sudokud at " + daemon.address() +
                           " reported a protocol fault: " + name + ": details" + hint + "\n");
    EXPECT_EQ(run.status, 2);
  }
}

TEST(SolveCommand, DaemonHangingUpIsAnError) {
  FakeDaemon::Script script;
  script.close_after = 2;
  FakeDaemon daemon(script);
  std::string input;
  for (int i = 0; i < 20; ++i) input += kWikipediaPuzzle + "\n";
  const RunResult run = RunWith(Options(daemon, 5, 2, 1), input);
  EXPECT_EQ(run.err, "sudoku-client: sudokud at " + daemon.address() +
                         " closed the connection with 2 batches unanswered (see its log)\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(daemon.connections(), 5u);  // four more attempts, then it gives up
}

// --- connections that break: the batches go again on another connection ---

// The summary, after the line that counts the batches sent again.
// The address whose connection broke may be named once while the other answers.
void ExpectResentThenSummary(const std::string& err, const std::string& counts) {
  EXPECT_TRUE(std::regex_match(
      err, std::regex("(sudoku-client: [^\n]*: the other addresses take its work meanwhile\n)?"
                      "sudoku-client: [0-9]+ batches were sent again after their connection "
                      "broke\n" +
                      counts + kSummaryTimeAndRate)))
      << err;
}

// A daemon that reads the batches and answers none (stopped, wedged), without hanging up.
constexpr int kNeverAnswers = 1 << 30;

TEST(SolveCommand, ResendsTheBatchesOfAConnectionThatFallsSilent) {
  FakeDaemon::Script script;
  script.close_after = kNeverAnswers;
  script.misbehaving_connections = 1;
  FakeDaemon daemon(script);
  SolveOptions options = Options(daemon, 5, 2, 2);
  options.timeout = std::chrono::milliseconds(200);
  const MixedInput input = MakeMixedInput(300, 4, false);
  const RunResult run = RunWith(options, input.text);
  EXPECT_EQ(CheckOutput(input, run.out), "");
  ExpectResentThenSummary(run.err, SummaryCounts(input));
}

TEST(SolveCommand, GivesUpOnADaemonThatAnswersNothing) {
  FakeDaemon::Script script;
  script.close_after = kNeverAnswers;
  FakeDaemon daemon(script);
  SolveOptions options = Options(daemon, 5, 2, 1);
  options.timeout = std::chrono::milliseconds(100);
  const RunResult run = RunWith(options, Repeated(kWikipediaPuzzle, 20));
  EXPECT_EQ(run.err, "sudoku-client: sudokud at " + daemon.address() +
                         " answered nothing for 100ms with 2 batches out (--timeout 100ms)\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(daemon.connections(), 2u);  // one more connection, then the address is given up
}

TEST(SolveCommand, ResendsTheBatchesOfAConnectionThatHangsUp) {
  FakeDaemon::Script script;
  script.close_after = 3;  // reads three requests, answers none, hangs up
  script.misbehaving_connections = 3;
  FakeDaemon daemon(script);
  const MixedInput input = MakeMixedInput(2000, 3, false);
  const RunResult run = RunWith(Options(daemon, 9, 4, 2), input.text);
  EXPECT_EQ(CheckOutput(input, run.out), "");
  ExpectResentThenSummary(run.err, SummaryCounts(input));
  EXPECT_EQ(run.status, 1);
  EXPECT_GE(daemon.connections(), 5u);  // two, and three more in place of the broken ones
}

TEST(SolveCommand, EveryPuzzleAnsweredOnceDespiteHangUps) {
  FakeDaemon::Script script;
  script.close_after = 2;
  script.misbehaving_connections = 4;
  FakeDaemon daemon(script);
  const RunResult run = RunWith(Options(daemon, 7, 3, 3), Repeated(kWikipediaPuzzle, 500));
  EXPECT_EQ(run.out, Repeated(kWikipediaSolution, 500));
  ExpectResentThenSummary(run.err,
                          "puzzles 500, solved 500, multiple 0, unsolvable 0, invalid 0, ");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(daemon.answered_puzzles(), 500u);  // nothing answered twice
}

TEST(SolveCommand, ResendsAfterAResponseCutInHalf) {
  FakeDaemon::Script script;
  script.cut_at = 1;  // answers one batch, then half of the next, then hangs up
  script.misbehaving_connections = 3;
  FakeDaemon daemon(script);
  const RunResult run = RunWith(Options(daemon, 5, 2, 1), Repeated(kWikipediaPuzzle, 100));
  EXPECT_EQ(run.out, Repeated(kWikipediaSolution, 100));
  ExpectResentThenSummary(run.err,
                          "puzzles 100, solved 100, multiple 0, unsolvable 0, invalid 0, ");
  EXPECT_EQ(daemon.answered_puzzles(), 100u);
}

TEST(SolveCommand, RetriesAFaultAboutTheDaemonsState) {
  FakeDaemon::Script script;
  script.fault_at = 0;
  script.fault.set_kind(wire::ProtocolFault::TOO_MANY_CONNECTIONS);
  script.fault.set_message("busy");
  script.misbehaving_connections = 2;
  FakeDaemon daemon(script);
  const RunResult run = RunWith(Options(daemon, 5, 1, 1), Repeated(kWikipediaPuzzle, 20));
  EXPECT_EQ(run.out, Repeated(kWikipediaSolution, 20));
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(daemon.connections(), 3u);
}

TEST(SolveCommand, MovesToTheOtherEndpointWhenOneKeepsHangingUp) {
  FakeDaemon::Script script;
  script.close_after = 1;
  FakeDaemon broken(script);
  FakeDaemon good;
  SolveOptions options = Options(good, 5, 2, 2);
  options.endpoints = ParseEndpoints({broken.address() + "," + good.address()});
  const MixedInput input = MakeMixedInput(600, 4, false);
  const RunResult run = RunWith(options, input.text);
  EXPECT_EQ(CheckOutput(input, run.out), "");
  ExpectResentThenSummary(run.err, SummaryCounts(input));
  EXPECT_EQ(broken.answered_puzzles(), 0u);
}

TEST(SolveCommand, EveryEndpointGoneNamesEach) {
  FakeDaemon::Script script;
  script.close_after = 1;
  FakeDaemon first(script);
  FakeDaemon second(script);
  SolveOptions options = Options(first, 5, 1, 1);
  options.endpoints = ParseEndpoints({first.address(), second.address()});
  const RunResult run = RunWith(options, Repeated(kWikipediaPuzzle, 20));
  EXPECT_EQ(run.err, "sudoku-client: sudokud at " + first.address() +
                         " closed the connection with 1 batch unanswered (see its log); "
                         "sudokud at " + second.address() +
                         " closed the connection with 1 batch unanswered (see its log)\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(first.connections() + second.connections(), 5u);  // the attempts are bounded
}

TEST(SolveCommand, BadResponseIsAnError) {
  FakeDaemon::Script script;
  script.tamper = [](wire::SolveResponse* response) {
    response->mutable_verdicts()->RemoveLast();
  };
  FakeDaemon daemon(script);
  const RunResult run =
      RunWith(Options(daemon, 5, 1, 1), kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n");
  EXPECT_EQ(run.err, "sudoku-client: bad response from sudokud at " + daemon.address() +
                         ": batch 0: 1 verdicts for 2 puzzles\n");
  EXPECT_EQ(run.status, 2);
}

// sudoku.proto: a Response of a kind the client does not know is ignored.
TEST(SolveCommand, AResponseOfAnUnknownKindIsIgnored) {
  FakeDaemon::Script script;
  script.unknown_kind_first = true;
  FakeDaemon daemon(script);
  const RunResult run = RunWith(Options(daemon, 5, 1, 1), Repeated(kWikipediaPuzzle, 3));
  EXPECT_EQ(run.out, Repeated(std::string(kWikipediaSolution), 3));
  EXPECT_EQ(run.status, 0) << run.err;
}

// A Draining message that claims more frames were read than were sent is a bad response.
TEST(SolveCommand, ADrainClaimingFramesNeverSentIsAnError) {
  FakeDaemon::Script script;
  script.draining_claim = 99;
  FakeDaemon daemon(script);
  const RunResult run = RunWith(Options(daemon, 5, 1, 1), kWikipediaPuzzle + "\n");
  EXPECT_EQ(run.err, "sudoku-client: bad response from sudokud at " + daemon.address() +
                         ": a Draining message names frame 99 as the last one read, past the 1 "
                         "sent\n");
  EXPECT_EQ(run.status, 2);
}

TEST(SolveCommand, UnknownBatchIdIsAnError) {
  FakeDaemon::Script script;
  script.tamper = [](wire::SolveResponse* response) { response->set_batch_id(77); };
  FakeDaemon daemon(script);
  const RunResult run = RunWith(Options(daemon, 5, 1, 1), kWikipediaPuzzle + "\n");
  EXPECT_EQ(run.err, "sudoku-client: bad response from sudokud at " + daemon.address() +
                         ": batch 77 was not sent\n");
  EXPECT_EQ(run.status, 2);
}

TEST(SolveCommand, NoDaemonSaysWhatToDo) {
  const std::string address = "127.0.0.1:" + std::to_string(FreePort());
  SolveOptions options;
  options.endpoints = ParseEndpoints({address});
  options.retry_for = std::chrono::milliseconds(200);
  const RunResult run = RunWith(options, kWikipediaPuzzle + "\n");
  EXPECT_EQ(run.err, "sudoku-client: cannot connect to " + address +
                         ": Connection refused (is sudokud running? start it with: sudokud "
                         "--listen " + address + ") (still failing after --retry-for 200ms)\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
}

TEST(SolveCommand, NoDaemonAtAnyEndpointNamesEach) {
  const std::string first = "127.0.0.1:" + std::to_string(FreePort());
  const std::string second = "127.0.0.1:" + std::to_string(FreePort());
  SolveOptions options;
  options.endpoints = ParseEndpoints({first + "," + second});
  options.connections = 1;
  options.retry_for = std::chrono::milliseconds(300);  // long enough to try both
  const RunResult run = RunWith(options, kWikipediaPuzzle + "\n");
  EXPECT_EQ(run.err, "sudoku-client: cannot connect to " + first +
                         ": Connection refused (is sudokud running? start it with: sudokud "
                         "--listen " + first + "); cannot connect to " + second +
                         ": Connection refused (is sudokud running? start it with: sudokud "
                         "--listen " + second + ") (still failing after --retry-for 300ms)\n");
  EXPECT_EQ(run.status, 2);
}

// Reading a terminal, solve says so before it waits for the first line.
TEST(SolveCommand, SaysItReadsAStandardInputThatIsATerminal) {
  FakeDaemon daemon;
  SolveOptions options = Options(daemon, 5, 1, 1);
  options.stdin_is_tty = true;
  const RunResult run = RunWith(options, kWikipediaPuzzle + "\n");
  EXPECT_EQ(run.err.rfind("sudoku-client: reading puzzles from standard input, one per line (end "
                          "with Ctrl-D)\npuzzles 1, solved 1, ",
                          0),
            0u)
      << run.err;
  EXPECT_EQ(run.status, 0);
  options.inputs = {"/dev/null"};  // a file: no prompt
  EXPECT_EQ(RunWith(options, "").err.rfind("puzzles 0, ", 0), 0u);
}

TEST(SolveCommand, MissingFileStopsBeforeConnecting) {
  FakeDaemon daemon;
  SolveOptions options = Options(daemon, 5, 1, 1);
  options.inputs = {"-", "/nonexistent/puzzles.txt"};
  const RunResult run = RunWith(options, kWikipediaPuzzle + "\n");
  EXPECT_EQ(run.err,
            "sudoku-client: cannot open '/nonexistent/puzzles.txt': No such file or directory\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(daemon.connections(), 0u);
}

TEST(SolveCommand, SolveMainReportsUsageErrors) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(SolveMain({"--batch", "x"}, in, out, err), 2);
  EXPECT_EQ(err.str(), "sudoku-client: --batch expects a whole number from 1 to 65536, got 'x'\n");
  std::ostringstream help_out, help_err;
  EXPECT_EQ(SolveMain({"--help"}, in, help_out, help_err), 0);
  EXPECT_EQ(help_err.str(), "");
}

}  // namespace
}  // namespace sudoku::client
