// The session core as every command meets it: --retry-for against a daemon that refuses, resets
// or turns connections away, and --timeout against one that accepts and falls silent, for solve,
// bench, generate and explain, each with the message the user sees.
#include "client/session.h"

#include <utility>  // before Asio: asio issue 944

#include <regex>
#include <sstream>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <gtest/gtest.h>

#include "client/bench_command.h"
#include "client/explain_command.h"
#include "client/generate_command.h"
#include "client/solve_command.h"
#include "tests/client/client_error_of.h"
#include "proto/framing.h"
#include "tests/client/fake_daemon.h"
#include "tests/support/ports.h"

namespace sudoku::client {
namespace {

using sudoku::testing::FakeDaemon;
using sudoku::testing::FreePort;
using std::chrono::milliseconds;

const std::string kPuzzle =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const std::string kSolution =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

// Long enough for a few attempts, short enough to keep the test quick; the outcome does not
// depend on how many attempts fit.
constexpr milliseconds kShortRetry{300};
// A daemon that reads the requests and answers none (stopped, wedged), without hanging up.
constexpr int kNeverAnswers = 1 << 30;

std::string Repeated(const std::string& line, int times) {
  std::string text;
  for (int i = 0; i < times; ++i) text += line + "\n";
  return text;
}

struct Outcome {
  int status = 0;
  std::string out;
  std::string err;
};

SolveOptions Solve(const std::string& address) {
  SolveOptions options;
  options.endpoints = ParseEndpoints({address});
  options.batch_size = 5;
  options.in_flight = 1;
  options.connections = 1;
  options.progress = ProgressMode::kOff;
  return options;
}

Outcome RunSolveWith(const SolveOptions& options, const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out, err;
  Outcome run;
  run.status = RunSolve(options, in, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

FakeDaemon::Script TurnsAway(int connections) {
  FakeDaemon::Script script;
  script.fault_at = 0;
  script.fault.set_kind(wire::ProtocolFault::TOO_MANY_CONNECTIONS);
  script.fault.set_message("busy");
  script.misbehaving_connections = connections;
  return script;
}

// --- --retry-for ---

TEST(RetryFor, RefusedConnectionsAreRetriedThenNamed) {
  const std::string address = "127.0.0.1:" + std::to_string(FreePort());
  SolveOptions options = Solve(address);
  options.retry_for = kShortRetry;
  const Outcome run = RunSolveWith(options, kPuzzle + "\n");
  EXPECT_EQ(run.err, "sudoku-client: cannot connect to " + address +
                         ": Connection refused (is sudokud running? start it with: sudokud "
                         "--listen " + address + ") (still failing after --retry-for 300ms)\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
}

// A daemon full of other connections (a lock-out) answers TOO_MANY_CONNECTIONS for longer than a
// batch may be lost; the client waits it out and every puzzle is answered once.
TEST(RetryFor, ADaemonTurningConnectionsAwayIsWaitedOut) {
  FakeDaemon daemon(TurnsAway(9));  // one more than a batch may be lost
  SolveOptions options = Solve(daemon.address());
  const Outcome run = RunSolveWith(options, Repeated(kPuzzle, 20));
  EXPECT_EQ(run.out, Repeated(kSolution, 20));
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(daemon.connections(), 10u);
  EXPECT_EQ(daemon.answered_puzzles(), 20u);
}

TEST(RetryFor, ADaemonThatStaysFullIsNamedWithItsFault) {
  FakeDaemon daemon(TurnsAway(-1));
  SolveOptions options = Solve(daemon.address());
  options.retry_for = kShortRetry;
  const Outcome run = RunSolveWith(options, Repeated(kPuzzle, 20));
  EXPECT_EQ(run.err, "sudoku-client: sudokud at " + daemon.address() +
                         " reported a protocol fault: TOO_MANY_CONNECTIONS: busy (try fewer "
                         "--connections) (still failing after --retry-for 300ms)\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_GE(daemon.connections(), 1u);
}

TEST(RetryFor, ResetConnectionsAreRetriedThenServed) {
  FakeDaemon::Script script;
  script.reset = true;
  script.misbehaving_connections = 6;  // more breaks in a row than a failing daemon is given
  FakeDaemon daemon(script);
  const Outcome run = RunSolveWith(Solve(daemon.address()), Repeated(kPuzzle, 20));
  EXPECT_EQ(run.out, Repeated(kSolution, 20));
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(daemon.connections(), 7u);
}

TEST(RetryFor, ADaemonThatKeepsResettingIsNamed) {
  FakeDaemon::Script script;
  script.reset = true;
  FakeDaemon daemon(script);
  SolveOptions options = Solve(daemon.address());
  options.retry_for = kShortRetry;
  const Outcome run = RunSolveWith(options, Repeated(kPuzzle, 20));
  // The reset can reach the client before it sees its connect complete, or after: either way
  // the message names the address and the reset.
  const std::string address = daemon.address();
  const std::string after_connect = "sudoku-client: lost the connection to sudokud at " +
                                    address +
                                    ": Connection reset by peer (still failing after --retry-for "
                                    "300ms)\n";
  const std::string during_connect =
      "sudoku-client: cannot connect to " + address +
      ": Connection reset by peer (is sudokud running? start it with: sudokud --listen " + address +
      ") (still failing after --retry-for 300ms)\n";
  EXPECT_TRUE(run.err == after_connect || run.err == during_connect) << run.err;
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
}

TEST(RetryFor, BenchReportsTheConnectionsItCouldNotMake) {
  const std::string address = "127.0.0.1:" + std::to_string(FreePort());
  BenchOptions options;
  options.endpoints = ParseEndpoints({address});
  options.count = 3;
  options.inputs = {"-"};
  options.retry_for = kShortRetry;
  std::istringstream in(kPuzzle + "\n");
  std::ostringstream out, err;
  BenchReport report;
  EXPECT_EQ(RunBench(options, in, out, err, &report), 2);
  EXPECT_GE(report.errors.at("connect"), 1u);
  EXPECT_EQ(err.str(), "sudoku-client: cannot connect to " + address +
                           ": Connection refused (is sudokud running? start it with: sudokud "
                           "--listen " + address + ") (still failing after --retry-for 300ms)\n"
                           "sudoku-client: bench measured nothing: no batch was answered "
                           "(errors: connect " + std::to_string(report.errors.at("connect")) +
                           "); no report is printed\n");
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(report.batches, 0u);
}

// --- --timeout ---

TEST(Timeout, BenchCountsASilentConnectionAndNamesIt) {
  FakeDaemon::Script script;
  script.close_after = kNeverAnswers;
  FakeDaemon daemon(script);
  BenchOptions options;
  options.endpoints = ParseEndpoints({daemon.address()});
  options.count = 100;
  options.inputs = {"-"};
  options.timeout = milliseconds(100);
  std::istringstream in(kPuzzle + "\n");
  std::ostringstream out, err;
  BenchReport report;
  EXPECT_EQ(RunBench(options, in, out, err, &report), 2);
  EXPECT_EQ(err.str(), "sudoku-client: sudokud at " + daemon.address() +
                           " answered nothing for 100ms with 1 batch out (--timeout 100ms)\n"
                           "sudoku-client: bench measured nothing: no batch was answered "
                           "(errors: timeout 2, unanswered batches 2); no report is printed\n");
  EXPECT_EQ(report.batches, 0u);
  // One more connection after the first fell silent, then the address is given up.
  EXPECT_EQ(report.errors.at("timeout"), 2u);
  EXPECT_EQ(out.str(), "");
}

TEST(Timeout, GenerateNamesASilentDaemon) {
  FakeDaemon::Script script;
  script.close_after = kNeverAnswers;
  FakeDaemon daemon(script);
  GenerateCommandOptions options;
  options.endpoint = ParseEndpoints({daemon.address()})[0];
  options.seed = 1;
  options.timeout = milliseconds(100);
  std::ostringstream out, err;
  EXPECT_EQ(RunGenerate(options, out, err), 2);
  EXPECT_EQ(err.str(), "sudoku-client: sudokud at " + daemon.address() +
                           " answered nothing for 100ms with 1 request out (--timeout 100ms)\n");
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(daemon.connections(), 2u);  // one more connection, then the address is given up
}

TEST(Timeout, ExplainNamesASilentDaemon) {
  FakeDaemon::Script script;
  script.close_after = kNeverAnswers;
  FakeDaemon daemon(script);
  ExplainOptions options;
  options.endpoints = ParseEndpoints({daemon.address()});
  options.input = kPuzzle;
  options.timeout = milliseconds(100);
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(RunExplain(options, in, out, err), 2);
  EXPECT_EQ(err.str(), "sudoku-client: sudokud at " + daemon.address() +
                           " answered nothing for 100ms with 1 request out (--timeout 100ms)\n");
  EXPECT_EQ(out.str(), "");
}

// A daemon that answers explain with something else (this fake answers every request as a
// solve) ends the run, naming it: RequestOnce's check of the answer's kind.
TEST(SingleRequest, AnAnswerOfAnotherKindIsABadResponse) {
  FakeDaemon daemon;
  ExplainOptions options;
  options.endpoints = ParseEndpoints({daemon.address()});
  options.input = kPuzzle;
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(RunExplain(options, in, out, err), 2);
  EXPECT_EQ(err.str(),
            "sudoku-client: bad response from sudokud at " + daemon.address() +
                ": not an explanation\n");
  EXPECT_EQ(out.str(), "");
}

TEST(Timeout, ExplainGoesToTheNextAddress) {
  FakeDaemon::Script script;
  script.close_after = kNeverAnswers;
  FakeDaemon silent(script);
  // The second address refuses: what explain reports is the last error of each.
  const std::string refusing = "127.0.0.1:" + std::to_string(FreePort());
  ExplainOptions options;
  options.endpoints = ParseEndpoints({silent.address() + "," + refusing});
  options.input = kPuzzle;
  options.timeout = milliseconds(100);
  options.retry_for = kShortRetry;
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(RunExplain(options, in, out, err), 2);
  EXPECT_EQ(err.str(), "sudoku-client: sudokud at " + silent.address() +
                           " answered nothing for 100ms with 1 request out (--timeout 100ms); "
                           "cannot connect to " + refusing +
                           ": Connection refused (is sudokud running? start it with: sudokud "
                           "--listen " + refusing + ")" +
                           " (still failing after --retry-for 300ms)\n");
}

// A frozen daemon (accepts, then answers nothing) with two connections at once: each address gets
// one more round after the first falls silent, then the run ends naming it, after about twice
// --timeout.
TEST(Timeout, AFrozenDaemonIsGivenUpAfterOneMoreRound) {
  FakeDaemon::Script script;
  script.close_after = kNeverAnswers;
  FakeDaemon daemon(script);
  SolveOptions options = Solve(daemon.address());
  options.connections = 2;
  options.timeout = milliseconds(200);
  const Outcome run = RunSolveWith(options, Repeated(kPuzzle, 20));
  EXPECT_EQ(run.err, "sudoku-client: sudokud at " + daemon.address() +
                         " answered nothing for 200ms with 1 batch out (--timeout 200ms)\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_GE(daemon.connections(), 3u);
  EXPECT_LE(daemon.connections(), 4u);  // the two first, and one more for each at most
}

// One batch out, two connections: the batch goes once more (to the idle connection, open since
// before the first silence) and when that falls silent too the address is given up: two
// --timeouts in all, not three.
TEST(Timeout, AFrozenDaemonWithOneBatchOutIsGivenUpAfterItsSecondSilence) {
  FakeDaemon::Script script;
  script.close_after = kNeverAnswers;
  FakeDaemon daemon(script);
  SolveOptions options = Solve(daemon.address());
  options.connections = 2;
  options.timeout = milliseconds(200);
  const Outcome run = RunSolveWith(options, kPuzzle + "\n");
  EXPECT_EQ(run.err, "sudoku-client: sudokud at " + daemon.address() +
                         " answered nothing for 200ms with 1 batch out (--timeout 200ms)\n");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(daemon.requests(), 2u);  // sent, then sent once more
}

// While another address answers, a silent one is not given up for good: it is tried again.
TEST(Timeout, ASilentAddressBesideAnAnsweringOneLosesNoPuzzle) {
  FakeDaemon::Script script;
  script.close_after = kNeverAnswers;
  FakeDaemon silent(script);
  FakeDaemon good;
  SolveOptions options = Solve(silent.address() + "," + good.address());
  options.connections = 2;
  options.timeout = milliseconds(100);
  const Outcome run = RunSolveWith(options, Repeated(kPuzzle, 40));
  EXPECT_EQ(run.out, Repeated(kSolution, 40));
  EXPECT_EQ(run.status, 0) << run.err;
}

// --- the first connect: no daemon ---

// Without --retry-for, a refused first connect gives up after kDefaultFirstConnectFor; off a
// terminal, one line says what it waits for once the wait passes kQuietWait.
TEST(FirstConnect, NoDaemonFailsWithinSecondsAndSaysWhatItWaitsFor) {
  const std::string address = "127.0.0.1:" + std::to_string(FreePort());
  const SolveOptions options = Solve(address);  // --retry-for not given: 60s
  const auto start = std::chrono::steady_clock::now();
  const Outcome run = RunSolveWith(options, kPuzzle + "\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  const std::string last = "sudoku-client: cannot connect to " + address +
                           ": Connection refused (is sudokud running? start it with: sudokud "
                           "--listen " + address +
                           ") (still failing after 5s; to wait longer, give --retry-for)\n";
  const std::string waiting = "sudoku-client: cannot connect to " + address +
                              " \\(Connection refused\\); retrying in [0-9]\\.[0-9]s, giving up in "
                              "[0-9]\\.[0-9]s\n";
  ASSERT_GT(run.err.size(), last.size());
  EXPECT_EQ(run.err.substr(run.err.size() - last.size()), last);
  EXPECT_TRUE(std::regex_match(run.err.substr(0, run.err.size() - last.size()),
                               std::regex(waiting)))
      << run.err;
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "");
}

// A longer wait off a terminal is said again every kQuietRepeat, with the time left: never a
// silent minute in a log. (Given up between 8 and 10 s: the next wait would pass --retry-for.)
TEST(FirstConnect, ALongWaitIsSaidAgainEveryFewSeconds) {
  const std::string address = "127.0.0.1:" + std::to_string(FreePort());
  SolveOptions options = Solve(address);
  options.retry_for = milliseconds(10000);
  options.retry_for_given = true;
  const Outcome run = RunSolveWith(options, kPuzzle + "\n");
  const std::string waiting = "sudoku-client: cannot connect to " + address +
                              " \\(Connection refused\\); retrying in [0-9]\\.[0-9]s, giving up in "
                              "[0-9]\\.[0-9]s\n";
  const std::string last = "sudoku-client: cannot connect to " + address +
                           ": Connection refused \\(is sudokud running\\? start it with: "
                           "sudokud --listen " + address +
                           "\\) \\(still failing after --retry-for 10s\\)\n";
  EXPECT_TRUE(std::regex_match(run.err, std::regex(waiting + waiting + last))) << run.err;
  EXPECT_EQ(run.status, 2);
}

TEST(FirstConnect, RetryForGivenBoundsTheFirstConnectToo) {
  std::ostringstream out;
  SolveOptions given;
  ASSERT_TRUE(ParseSolveOptions({"--retry-for", "90s"}, &given, out));
  EXPECT_TRUE(given.retry_for_given);
  EXPECT_EQ(SessionOptionsFrom(given).first_connect_for, milliseconds(90000));
  SolveOptions not_given;
  ASSERT_TRUE(ParseSolveOptions({}, &not_given, out));
  EXPECT_FALSE(not_given.retry_for_given);
  EXPECT_EQ(SessionOptionsFrom(not_given).first_connect_for, kDefaultFirstConnectFor);
  EXPECT_EQ(SessionOptionsFrom(not_given).retry_for, milliseconds(60000));
}

// --- a daemon that dies mid-run and is not restarted ---

TEST(Partial, ARunThatEndsEarlySaysWhatWasWrittenAndWhereItStops) {
  FakeDaemon::Script script;
  script.cut_at = 2;  // answers two batches, cuts the third, then dies
  script.dies_at_cut = true;
  FakeDaemon daemon(script);
  SolveOptions options = Solve(daemon.address());
  options.retry_for = kShortRetry;
  options.retry_for_given = true;
  const Outcome run = RunSolveWith(options, Repeated(kPuzzle, 20));
  EXPECT_EQ(run.out, Repeated(kSolution, 10));
  EXPECT_EQ(run.status, 3);
  const std::string last =
      "sudoku-client: the output is partial: 10 answers written, the last for line 10 of stdin; "
      "the puzzles after it have no answer\n";
  ASSERT_GT(run.err.size(), last.size()) << run.err;
  EXPECT_EQ(run.err.substr(run.err.size() - last.size()), last);
  const std::string before = run.err.substr(0, run.err.size() - last.size());
  EXPECT_NE(before.find(daemon.address()), std::string::npos) << before;
  EXPECT_NE(before.find("(still failing after --retry-for 300ms)\n"), std::string::npos) << before;
}

// Answers held back behind a batch that never came are not written, and not counted.
TEST(Partial, OnlyTheAnswersWrittenInOrderCount) {
  FakeDaemon::Script script;
  script.hold = 2;    // answers two batches at a time, the second first: 1, 0, then 3, 2
  script.cut_at = 3;  // the fourth response (batch 2) is cut: batch 3 is answered, not written
  script.dies_at_cut = true;
  FakeDaemon daemon(script);
  SolveOptions options = Solve(daemon.address());
  options.in_flight = 2;
  options.retry_for = kShortRetry;
  options.retry_for_given = true;
  const Outcome run = RunSolveWith(options, Repeated(kPuzzle, 30));
  EXPECT_EQ(run.out, Repeated(kSolution, 10));
  EXPECT_EQ(run.status, 3);
  const std::string last =
      "sudoku-client: the output is partial: 10 answers written, the last for line 10 of stdin; "
      "the puzzles after it have no answer\n";
  ASSERT_GT(run.err.size(), last.size()) << run.err;
  EXPECT_EQ(run.err.substr(run.err.size() - last.size()), last);

  // Nothing written in order (batch 1 answered, batch 0 cut): a plain failure, exit status 2.
  script.cut_at = 1;
  FakeDaemon early(script);
  options.endpoints = ParseEndpoints({early.address()});
  const Outcome none = RunSolveWith(options, Repeated(kPuzzle, 30));
  EXPECT_EQ(none.out, "");
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err.find("partial"), std::string::npos) << none.err;
}

TEST(Partial, Words) {
  EXPECT_EQ(AnswersWritten(1), "1 answer written");
  EXPECT_EQ(AnswersWritten(78000), "78000 answers written");
  EXPECT_EQ(PartialOutput(1, "big.txt", 3),
            "the output is partial: 1 answer written, the last for line 3 of big.txt; the "
            "puzzles after it have no answer");
}

// --- what a wait is called ---

class Idle : public SessionWork {
 public:
  boost::asio::awaitable<const std::string*> Next(Lane&) override { co_return nullptr; }
  bool Take(Lane&, const wire::Response&) override { return true; }
  void ConnectionEnded(Lane&) override {}
  void TakeBackUnread(Lane&, uint64_t) override {}
  void Wake(Lane*) override {}
  std::string Written() const override { return written; }
  std::string written;
};

TEST(Status, EveryWaitInWords) {
  boost::asio::io_context io(1);
  Idle work;
  SessionOptions options;
  options.endpoints = ParseEndpoints({"127.0.0.1:9811"});
  options.connections = 1;
  Session session(io.get_executor(), options, &work);
  Lane& lane = *session.lanes()[0];
  const auto now = std::chrono::steady_clock::now();
  EXPECT_EQ(session.DescribeWait(now), "connecting to 127.0.0.1:9811");

  lane.phase = Lane::Phase::kOpen;
  lane.outstanding = 4;
  lane.last_progress = now - milliseconds(2500);
  EXPECT_EQ(session.DescribeWait(now),
            "waiting for sudokud at 127.0.0.1:9811: 4 batches out, no answer for 2.5s, 28s left "
            "of --timeout 30s");
  lane.outstanding = 0;
  EXPECT_EQ(session.DescribeWait(now), "");  // waiting for input, not for the daemon

  lane.phase = Lane::Phase::kBackingOff;
  lane.retry_at = now + milliseconds(900);
  lane.give_up_at = now + milliseconds(58000);
  lane.turned_away = true;
  EXPECT_EQ(session.DescribeWait(now),
            "sudokud at 127.0.0.1:9811 is full (TOO_MANY_CONNECTIONS); retrying in 0.9s, "
            "giving up in 58s");
  lane.turned_away = false;
  lane.connect_failed = true;
  work.written = "78000 answers written";
  EXPECT_EQ(session.DescribeWait(now),
            "cannot connect to 127.0.0.1:9811 (failed); retrying in 0.9s, giving up in 58s; "
            "78000 answers written");
  lane.connect_failed = false;
  lane.timed_out = true;
  lane.give_up_at.reset();
  EXPECT_EQ(session.DescribeWait(now),
            "sudokud at 127.0.0.1:9811 answered nothing for 30s; retrying in 0.9s; 78000 answers "
            "written");
  lane.timed_out = false;
  EXPECT_EQ(session.DescribeWait(now),
            "lost the connection to sudokud at 127.0.0.1:9811; retrying in 0.9s; 78000 answers "
            "written");
}

TEST(Status, SecondsText) {
  EXPECT_EQ(SecondsText(milliseconds(0)), "0.0s");
  EXPECT_EQ(SecondsText(milliseconds(940)), "0.9s");
  EXPECT_EQ(SecondsText(milliseconds(9940)), "9.9s");
  EXPECT_EQ(SecondsText(milliseconds(57400)), "57s");
  EXPECT_EQ(SecondsText(milliseconds(-5)), "0.0s");
}

// On a terminal the status is drawn in place, and wiped before the run's last words.
TEST(Status, OnATerminalTheWaitIsDrawnInPlaceThenWiped) {
  const std::string address = "127.0.0.1:" + std::to_string(FreePort());
  SolveOptions options = Solve(address);
  options.retry_for = milliseconds(600);
  options.retry_for_given = true;
  options.stderr_is_tty = true;
  options.progress = ProgressMode::kOff;
  const Outcome run = RunSolveWith(options, kPuzzle + "\n");
  EXPECT_EQ(run.err.rfind("\r", 0), 0u) << run.err;
  EXPECT_NE(run.err.find("\rcannot connect to " + address + " (Connection refused); retrying in "),
            std::string::npos)
      << run.err;
  const std::string last = "sudoku-client: cannot connect to " + address +
                           ": Connection refused (is sudokud running? start it with: sudokud "
                           "--listen " + address + ") (still failing after --retry-for 600ms)\n";
  ASSERT_GT(run.err.size(), last.size());
  EXPECT_EQ(run.err.substr(run.err.size() - last.size()), last);
  // Wiped: spaces over the status, and back to the start of the line.
  EXPECT_TRUE(std::regex_search(run.err, std::regex(" +\r" + std::string("sudoku-client: "))))
      << run.err;
}

// --- the transport ---

// A transport that counts what passes through it, as a TLS stream would wrap the socket.
class CountingConnection : public Connection {
 public:
  CountingConnection(const boost::asio::any_io_executor& executor, const Endpoint& endpoint,
                     int* secured, uint64_t* written)
      : Connection(executor, endpoint), secured_(secured), written_(written) {}

 protected:
  boost::asio::awaitable<void> Secure() override {
    ++*secured_;
    co_return;
  }
  boost::asio::awaitable<size_t> WriteAll(boost::asio::const_buffer data,
                                          boost::system::error_code& error) override {
    const size_t n = co_await Connection::WriteAll(data, error);
    *written_ += n;
    co_return n;
  }

 private:
  int* secured_;
  uint64_t* written_;
};

// One solve request, its answer kept.
class OneRequest : public SessionWork {
 public:
  boost::asio::awaitable<const std::string*> Next(Lane& lane) override {
    if (!lane.sending() || answered_) co_return nullptr;
    co_return &frame;
  }
  bool Take(Lane&, const wire::Response& response) override {
    answer = response;
    answered_ = true;
    return true;
  }
  void ConnectionEnded(Lane&) override {}
  void TakeBackUnread(Lane&, uint64_t) override {}
  void Wake(Lane*) override {}

  std::string frame;
  wire::Response answer;

 private:
  bool answered_ = false;
};

TEST(Transport, EveryConnectionIsOpenedThroughTheSessionsFactory) {
  FakeDaemon daemon;
  OneRequest work;
  wire::Request request;
  request.mutable_solve()->set_batch_id(7);
  request.mutable_solve()->add_puzzles(kPuzzle);
  wire::AppendFrame(request, &work.frame);
  int secured = 0;
  uint64_t written = 0;
  SessionOptions options;
  options.endpoints = ParseEndpoints({daemon.address()});
  options.open = [&](const boost::asio::any_io_executor& executor, const Endpoint& endpoint) {
    return std::make_unique<CountingConnection>(executor, endpoint, &secured, &written);
  };
  boost::asio::io_context io(1);
  Session session(io.get_executor(), options, &work);
  boost::asio::co_spawn(io, session.Run(), session.Guard());
  io.run();
  EXPECT_FALSE(session.failed());
  EXPECT_EQ(secured, 1);
  EXPECT_EQ(written, work.frame.size());
  EXPECT_EQ(work.answer.solve().batch_id(), 7u);
  EXPECT_EQ(work.answer.solve().solutions(), kSolution);
}

// --- the flags, as each command takes them ---

TEST(SessionFlags, EveryCommandTakesThem) {
  const std::vector<std::string> flags = {"--timeout", "2m", "--retry-for", "500ms"};
  std::ostringstream out;
  SolveOptions solve;
  ASSERT_TRUE(ParseSolveOptions(flags, &solve, out));
  EXPECT_EQ(solve.timeout, milliseconds(120000));
  EXPECT_EQ(solve.retry_for, milliseconds(500));
  BenchOptions bench;
  std::vector<std::string> bench_args = flags;
  bench_args.push_back("-");
  ASSERT_TRUE(ParseBenchOptions(bench_args, &bench, out));
  EXPECT_EQ(bench.timeout, milliseconds(120000));
  EXPECT_EQ(bench.retry_for, milliseconds(500));
  GenerateCommandOptions generate;
  ASSERT_TRUE(ParseGenerateOptions(flags, &generate, out));
  EXPECT_EQ(generate.timeout, milliseconds(120000));
  EXPECT_EQ(generate.retry_for, milliseconds(500));
  ExplainOptions explain;
  std::vector<std::string> explain_args = flags;
  explain_args.push_back(kPuzzle);
  ASSERT_TRUE(ParseExplainOptions(explain_args, &explain, out));
  EXPECT_EQ(explain.timeout, milliseconds(120000));
  EXPECT_EQ(explain.retry_for, milliseconds(500));
  EXPECT_EQ(out.str(), "");
}

TEST(SessionFlags, Defaults) {
  std::ostringstream out;
  SolveOptions solve;
  ASSERT_TRUE(ParseSolveOptions({}, &solve, out));
  EXPECT_EQ(solve.timeout, milliseconds(30000));
  EXPECT_EQ(solve.retry_for, milliseconds(60000));
  GenerateCommandOptions generate;
  ASSERT_TRUE(ParseGenerateOptions({}, &generate, out));
  EXPECT_EQ(generate.timeout, milliseconds(30000));
  EXPECT_EQ(generate.retry_for, milliseconds(60000));
}

TEST(SessionFlags, BadValues) {
  const std::string hint = " expects a duration such as 30s, 2m or 500ms, from 1ms to 86400s, got ";
  EXPECT_EQ(ClientErrorOf([] {
              GenerateCommandOptions options;
              std::ostringstream out;
              ParseGenerateOptions({"--retry-for", "soon"}, &options, out);
            }),
            "--retry-for" + hint + "'soon'");
  EXPECT_EQ(ClientErrorOf([] {
              ExplainOptions options;
              std::ostringstream out;
              ParseExplainOptions({"--timeout", "0s", kPuzzle}, &options, out);
            }),
            "--timeout" + hint + "'0s'");
  EXPECT_EQ(ClientErrorOf([] {
              BenchOptions options;
              std::ostringstream out;
              ParseBenchOptions({"--retry-for", "25h", "-"}, &options, out);
            }),
            "--retry-for" + hint + "'25h'");
}

}  // namespace
}  // namespace sudoku::client
