// End to end: the real sudokud on an ephemeral loopback port and the real sudoku-client binary,
// every output line checked against answers known independently of the solver.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // before Asio: asio issue 944

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "solver/puzzle_reader.h"
#include "tests/client/held_input.h"
#include "tests/client/mixed_input.h"
#include "tests/support/daemon_process.h"
#include "tests/support/paths.h"
#include "tests/support/ports.h"
#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"

extern char** environ;

namespace sudoku::testing {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/client_e2e_" + std::to_string(::getpid()) + "_" + name;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = TempPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Starts `argv` with stdin, stdout and stderr redirected to files ("" = /dev/null for stdin).
pid_t Spawn(const std::vector<std::string>& argv, const std::string& in, const std::string& out,
            const std::string& err) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in.empty() ? "/dev/null" : in.c_str(), O_RDONLY,
                                   0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return error == 0 ? pid : -1;
}

// The puzzles a HeldInput makes at a time, for the runs a test acts in the middle of.
constexpr size_t kHeldPart = 10000;

// Far above any run here; a hang fails the test instead of stalling the suite.
constexpr std::chrono::seconds kRunDeadline{120};

// Waits for `pid`; past `deadline`, kills it (and still reaps it). False when it had to kill.
bool WaitWithDeadline(pid_t pid, int* status, std::chrono::seconds deadline) {
  const auto end = std::chrono::steady_clock::now() + deadline;
  while (std::chrono::steady_clock::now() < end) {
    if (waitpid(pid, status, WNOHANG) == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  waitpid(pid, status, 0);
  return false;
}

struct Exit {
  int status = -1;
  std::string out;
  std::string err;
};

Exit RunToEnd(const std::vector<std::string>& argv, const std::string& stdin_path = "") {
  const std::string out = TempPath("stdout"), err = TempPath("stderr");
  Exit exit;
  const pid_t pid = Spawn(argv, stdin_path, out, err);
  if (pid < 0) return exit;
  int status = 0;
  if (!WaitWithDeadline(pid, &status, kRunDeadline)) {
    ADD_FAILURE() << argv[0] << " still running after " << kRunDeadline.count() << " s: killed";
  }
  exit.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  exit.out = ReadFile(out);
  exit.err = ReadFile(err);
  return exit;
}

Exit RunClient(std::vector<std::string> args, const std::string& stdin_path = "") {
  args.insert(args.begin(), {TestPath("SUDOKU_CLIENT_BIN"), "solve"});
  return RunToEnd(args, stdin_path);
}

// sudokud on 127.0.0.1:0 with `flags`; the port comes from its "listening on" line.
std::unique_ptr<DaemonProcess> StartDaemon(std::vector<std::string> flags = {}) {
  flags.insert(flags.begin(), {"--listen", "127.0.0.1:0"});
  return std::make_unique<DaemonProcess>(flags);
}

// Stops `daemon` as systemd does and expects it gone in time (a frozen one takes the SIGTERM once
// it runs again); generous, as a sanitized daemon on a busy machine has taken over 10 s to drain.
// When it does not, the failure says where each of its threads waits and what it logged.
void ExpectStopsOnSigterm(DaemonProcess& daemon) {
  if (daemon.Stop(std::chrono::seconds(60)) != -1) return;
  std::string threads;
  const std::filesystem::path tasks = "/proc/" + std::to_string(daemon.pid()) + "/task";
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
    std::string stat = ReadFile((task.path() / "stat").string());
    if (!stat.empty() && stat.back() == '\n') stat.pop_back();
    threads += "  " + stat + " wchan=" + ReadFile((task.path() / "wchan").string()) + "\n";
  }
  ADD_FAILURE() << "sudokud did not stop on SIGTERM; its threads:\n"
                << threads << "its log:\n" << daemon.Log();
}

class ClientEndToEnd : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = StartDaemon().release(); }
  static void TearDownTestSuite() {
    if (daemon_ != nullptr) ExpectStopsOnSigterm(*daemon_);
    delete daemon_;
    daemon_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(daemon_, nullptr) << "sudokud did not start"; }
  static std::string address() { return daemon_->address(); }

  static DaemonProcess* daemon_;
};

DaemonProcess* ClientEndToEnd::daemon_ = nullptr;

void ExpectSummary(const std::string& err, const std::string& counts) {
  EXPECT_TRUE(std::regex_match(err, std::regex(counts + kSummaryTimeAndRate)))
      << err;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_F(ClientEndToEnd, SolvesTheBundledSamples) {
  const std::string samples = TestPath("SUDOKU_TEST_DATA_DIR") + "/samples.txt";
  std::ifstream in(samples);
  PuzzleReader reader(&in);
  std::vector<std::string> puzzles;
  PuzzleRecord record;
  while (reader.Next(&record)) {
    ASSERT_FALSE(record.error) << Describe(record.error);
    puzzles.emplace_back(record.text());
  }
  ASSERT_EQ(puzzles.size(), 20u);

  const Exit exit = RunClient({"--connect", address(), samples});
  const std::vector<std::string> lines = Lines(exit.out);
  ASSERT_EQ(lines.size(), puzzles.size()) << exit.err;
  for (size_t i = 0; i < puzzles.size(); ++i) {
    std::string solution;
    ASSERT_EQ(CountSolutions(puzzles[i], 2, &solution), 1) << puzzles[i];
    EXPECT_EQ(lines[i], solution) << "puzzle " << i + 1 << ": " << puzzles[i];
    EXPECT_TRUE(IsSolutionOf(puzzles[i], lines[i]));
  }
  ExpectSummary(exit.err, "puzzles 20, solved 20, multiple 0, unsolvable 0, invalid 0, ");
  EXPECT_EQ(exit.status, 0);
}

// Results over a megabyte go to a file whose blocks the client allocates ahead of its writes
// (client/output_preallocation.h): what it did not write into is given back by the end.
TEST_F(ClientEndToEnd, AResultsFileKeepsNoBlocksPastItsEnd) {
  const std::string samples = ReadFile(TestPath("SUDOKU_TEST_DATA_DIR") + "/samples.txt");
  std::string many;
  for (int i = 0; i < 700; ++i) many += samples;
  const Exit exit = RunClient({"--connect", address(), WriteTemp("many.txt", many)});
  ASSERT_EQ(exit.status, 0) << exit.err;
  const std::vector<std::string> lines = Lines(exit.out);
  ASSERT_EQ(lines.size(), 14000u);
  for (size_t i = 20; i < lines.size(); ++i) ASSERT_EQ(lines[i], lines[i % 20]) << "line " << i + 1;
  struct stat results {};
  ASSERT_EQ(::stat(TempPath("stdout").c_str(), &results), 0);
  EXPECT_EQ(static_cast<size_t>(results.st_size), exit.out.size());
  EXPECT_LT(results.st_blocks * 512, results.st_size + 64 * 1024);
}

TEST_F(ClientEndToEnd, MixedInputWithDefaults) {
  const MixedInput input = MakeMixedInput(3000, 11, false);
  const std::string file = WriteTemp("mixed.txt", input.text);
  const Exit exit = RunClient({"--connect", address(), file});
  EXPECT_EQ(CheckOutput(input, exit.out), "") << exit.err;
  ExpectSummary(exit.err, SummaryCounts(input));
  EXPECT_EQ(exit.status, 1);
}

TEST_F(ClientEndToEnd, MixedInputSmallBatchesManyConnections) {
  const MixedInput input = MakeMixedInput(3000, 12, false);
  const std::string file = WriteTemp("mixed_small.txt", input.text);
  const Exit exit = RunClient({"--connect", address(), "--batch", "37", "--in-flight", "3",
                               "--connections", "3", file});
  EXPECT_EQ(CheckOutput(input, exit.out), "") << exit.err;
  ExpectSummary(exit.err, SummaryCounts(input));
  EXPECT_EQ(exit.status, 1);
}

TEST_F(ClientEndToEnd, UniqueReportsMultiple) {
  const MixedInput input = MakeMixedInput(1000, 13, true);
  ASSERT_GT(input.multiple, 0u);
  const std::string file = WriteTemp("unique.txt", input.text);
  const Exit exit = RunClient({"--connect", address(), "--unique", file});
  EXPECT_EQ(CheckOutput(input, exit.out), "") << exit.err;
  ExpectSummary(exit.err, SummaryCounts(input));
  EXPECT_EQ(exit.status, 1);
}

TEST_F(ClientEndToEnd, ReadsStandardInput) {
  const MixedInput input = MakeMixedInput(500, 14, false);
  const std::string file = WriteTemp("stdin.txt", input.text);
  const Exit implicit = RunClient({"--connect", address()}, file);
  EXPECT_EQ(CheckOutput(input, implicit.out), "") << implicit.err;
  const Exit dash = RunClient({"--connect", address(), "-"}, file);
  EXPECT_EQ(CheckOutput(input, dash.out), "") << dash.err;
}

TEST_F(ClientEndToEnd, SeveralFilesInOrderWithTheirNames) {
  const std::string puzzle =
      kWikipediaPuzzle;
  const std::string solution =
      kWikipediaSolution;
  const std::string a = WriteTemp("a.txt", puzzle + "\n");
  const std::string b =
      WriteTemp("b.txt", "# b\n" + puzzle.substr(0, 40) + "0" + puzzle.substr(41) + "\n" +
                             puzzle.substr(0, 80) + "\n");
  const Exit exit = RunClient({"--connect", address(), a, b, a});
  EXPECT_EQ(exit.out, solution + "\n" + solution + "\n" + "invalid: " + b +
                          ", line 3: expected 81 cells, found 80\n" + solution + "\n");
  ExpectSummary(exit.err, "puzzles 4, solved 3, multiple 0, unsolvable 0, invalid 1, ");
  EXPECT_EQ(exit.status, 1);
}

TEST_F(ClientEndToEnd, DaemonErrorsPointIntoGrids) {
  std::string puzzle =
      kWikipediaPuzzle;
  puzzle[6 * 9 + 2] = '6';  // r7c3: a second 6 in row 7
  std::string grid = "+-------+-------+-------+\n";
  for (int r = 0; r < 9; ++r) {
    grid += "| " + puzzle.substr(r * 9, 3) + " | " + puzzle.substr(r * 9 + 3, 3) + " | " +
            puzzle.substr(r * 9 + 6, 3) + " |\n";
    if (r % 3 == 2) grid += "+-------+-------+-------+\n";
  }
  const std::string file = WriteTemp("grid_error.txt", "# grid\n" + grid);
  const Exit exit = RunClient({"--connect", address(), file});
  EXPECT_EQ(exit.out, "invalid: line 11, column 5: digit 6 repeated in row 7 (r7c2 and r7c3)\n")
      << exit.err;
  ExpectSummary(exit.err, "puzzles 1, solved 0, multiple 0, unsolvable 0, invalid 1, ");
  EXPECT_EQ(exit.status, 1);
}


// A candidate grid and a puzzle with '*' for its blanks are solved as any other; a mistake in
// the candidate grid is named where it is.
TEST_F(ClientEndToEnd, SolvesACandidateGridAndStarBlanks) {
  std::string stars = kWikipediaPuzzle;
  std::replace(stars.begin(), stars.end(), '.', '*');
  std::string repeated = kCandidateGrid;
  repeated.replace(repeated.find("| 6   247  247 "), 15, "| 6   247  2477");
  const std::string file = WriteTemp("candidates.txt", std::string("# from HoDoKu\n") +
                                                           kCandidateGrid + stars + "\n" +
                                                           repeated);  // lines 2, 15, 16
  const Exit exit = RunClient({"--connect", address(), file});
  EXPECT_EQ(exit.out, kWikipediaSolution + "\n" + kWikipediaSolution + "\n" +
                          "invalid: line 18, column 15: digit 7 repeated in the candidates of "
                          "r2c3\n")
      << exit.err;
  ExpectSummary(exit.err, "puzzles 3, solved 2, multiple 0, unsolvable 0, invalid 1, ");
  EXPECT_EQ(exit.status, 1);
}

// After a run in which a daemon died: every answer is there, in order, and stderr says that
// batches were sent again before the summary; the exit status says some puzzles were not solved
// (the input mixes in unsolvable and invalid ones).
// How long a daemon is frozen before it is killed: time enough for the client to have a batch in
// flight on each of its connections to it.
constexpr auto kFrozenBeforeKill = std::chrono::milliseconds(200);

// `err` without the lines that name an address whose connection broke while others answered
// ("sudoku-client: cannot connect to ADDRESS (Connection refused): the other addresses take its
// work meanwhile"), each checked for its form: where they fall depends on timing.
std::string WithoutBrokenAddresses(const std::string& err) {
  static const std::regex named(
      "sudoku-client: (cannot connect to|lost the connection to sudokud at|sudokud at) "
      "[^\n]*: the other addresses take its work meanwhile");
  std::string kept;
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    if (!std::regex_match(line, named)) kept += line + "\n";
  }
  return kept;
}

void ExpectCompleteDespiteResends(const MixedInput& input, const std::string& out,
                                  const std::string& err, int status) {
  const std::string errors = WithoutBrokenAddresses(ReadFile(err));
  EXPECT_EQ(CheckOutput(input, ReadFile(out)), "") << errors;
  EXPECT_TRUE(std::regex_match(errors,
                               std::regex("sudoku-client: [0-9]+ batches were sent again after "
                                          "their connection broke\n" +
                                          SummaryCounts(input) +
                                          kSummaryTimeAndRate)))
      << errors;
  EXPECT_EQ(WEXITSTATUS(status), 1);
}

// Waits (for kRunDeadline at most) until the file at `path` holds a byte: a client's first
// results are out. The file appears when the client starts.
void WaitUntilWritten(const std::string& path) {
  const auto give_up = std::chrono::steady_clock::now() + kRunDeadline;
  std::error_code not_yet;
  while ((std::filesystem::file_size(path, not_yet) == 0 || not_yet) &&
         std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Two daemons, one killed in the middle of the run: its batches go to the other one, and the
// output is still every answer, in order, none twice.
TEST(ClientEndToEndFaults, OneOfTwoDaemonsKilledMidRun) {
  const auto first = StartDaemon(), second = StartDaemon();
  // Small batches one at a time: a run long enough to be loaded when a daemon dies in its
  // middle, and held open until then.
  HeldInput held(kHeldPart, 21, TempPath("two_daemons_in"));
  const std::string out = TempPath("two_daemons_out"), err = TempPath("two_daemons_err");
  const pid_t client = Spawn({TestPath("SUDOKU_CLIENT_BIN"), "solve", "--connect",
                              first->address() + "," + second->address(), "--connections", "4",
                              "--batch", "20", "--in-flight", "1"},
                             held.path(), out, err);
  ASSERT_GT(client, 0);
  // Once the first results are out, the first daemon dies.
  WaitUntilWritten(out);
  int status = 0;
  ASSERT_EQ(waitpid(client, &status, WNOHANG), 0) << "the run ended before the kill";
  // Frozen first, so that it dies holding batches: killed between two answers, it could leave
  // nothing to send again (and the run stalls meanwhile, waiting for those answers).
  first->Signal(SIGSTOP);
  std::this_thread::sleep_for(kFrozenBeforeKill);
  first->Signal(SIGKILL);
  first->Wait();
  const MixedInput input = held.Release();
  ASSERT_TRUE(WaitWithDeadline(client, &status, kRunDeadline));
  ExpectCompleteDespiteResends(input, out, err, status);
  // The dead address is named once (its connections broke, then refused, many times), with what
  // the run did instead.
  const std::string errors = ReadFile(err);
  const std::regex named("sudoku-client: (lost the connection to sudokud at|cannot connect to) " +
                         first->address() + "( \\([^\n]*\\))?: the other addresses take its work "
                         "meanwhile\n");
  EXPECT_EQ(std::distance(std::sregex_iterator(errors.begin(), errors.end(), named),
                          std::sregex_iterator()),
            1)
      << errors;
  ExpectStopsOnSigterm(*second);
}

// Three daemons restarted one after another in the middle of a run, as in a rolling upgrade:
// each is sent SIGTERM, tells each connection which of its frames it answers (wire::Draining),
// answers them and exits; it is started again on its port before the next one goes. The client
// sends what a draining daemon did not read to the others at once: the output is every answer,
// in order, with no broken connection, and each drain is named once. The stall each drain
// causes in the output is printed (a figure, not a limit).
TEST(ClientEndToEndFaults, EachOfThreeDaemonsDrainedInTurnLosesNothing) {
  std::vector<std::unique_ptr<DaemonProcess>> daemons;
  for (int i = 0; i < 3; ++i) daemons.push_back(StartDaemon());
  std::vector<std::string> addresses;
  for (const auto& daemon : daemons) addresses.push_back(daemon->address());
  HeldInput held(kHeldPart, 23, TempPath("drained_in"));
  const std::string out = TempPath("drained_out"), err = TempPath("drained_err");
  const pid_t client = Spawn({TestPath("SUDOKU_CLIENT_BIN"), "solve", "--connect",
                              addresses[0] + "," + addresses[1] + "," + addresses[2],
                              "--connections", "6", "--batch", "20", "--in-flight", "2"},
                             held.path(), out, err);
  ASSERT_GT(client, 0);
  WaitUntilWritten(out);
  // When the output last grew, sampled throughout: a drain's cost is the longest the output
  // then stood still. (A std::jthread: a failed assertion that returns early joins it.)
  using Clock = std::chrono::steady_clock;
  std::vector<Clock::time_point> growths;  // the sampler's until it is joined
  std::jthread sampler([&](std::stop_token stop) {
    uintmax_t size = 0;
    while (!stop.stop_requested()) {
      std::error_code not_yet;
      if (const auto now = std::filesystem::file_size(out, not_yet); !not_yet && now != size) {
        size = now;
        growths.push_back(Clock::now());
      }
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
  });
  std::vector<std::pair<Clock::time_point, Clock::time_point>> drains;  // signal, exit
  for (size_t i = 0; i < daemons.size(); ++i) {
    int status = 0;
    ASSERT_EQ(waitpid(client, &status, WNOHANG), 0) << "the run ended before drain " << i + 1;
    const auto sent = Clock::now();
    daemons[i]->Signal(SIGTERM);
    EXPECT_EQ(daemons[i]->Wait(), 0) << daemons[i]->Log();
    drains.emplace_back(sent, Clock::now());
    const std::string log = daemons[i]->Log();
    EXPECT_THAT(log, ::testing::ContainsRegex("stopped: [0-9]+ connections, [0-9]+ batches "
                                              "answered, 0 cancelled"))
        << log;
    // Back on its port after a moment of the run without it.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    daemons[i] = std::make_unique<DaemonProcess>(
        std::vector<std::string>{"--listen", addresses[i]});
  }
  const MixedInput input = held.Release();
  int status = 0;
  const bool ended = WaitWithDeadline(client, &status, kRunDeadline);
  sampler.request_stop();
  sampler.join();
  ASSERT_TRUE(ended);
  const auto ms = [](Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  };
  for (size_t i = 0; i < drains.size(); ++i) {
    const auto [sent, exited] = drains[i];
    Clock::duration stall{};
    Clock::time_point last = sent;
    for (const Clock::time_point growth : growths) {
      if (growth <= sent) continue;
      stall = std::max(stall, growth - last);
      last = growth;
      if (growth > exited) break;
    }
    std::cout << "drain " << i + 1 << " of " << addresses[i] << ": sudokud exited "
              << ms(exited - sent) << " ms after SIGTERM; the output stood still for at most "
              << ms(stall) << " ms meanwhile\n";
  }
  // A restarted daemon's address refused connects while it was down: it may be named.
  const std::string errors = WithoutBrokenAddresses(ReadFile(err));
  EXPECT_EQ(CheckOutput(input, ReadFile(out)), "") << errors;
  // Each drain said once, no connection broken (so nothing "sent again after their connection
  // broke"); the batches moved, if any, counted.
  std::string said;
  for (const std::string& address : addresses) {
    said += "sudoku-client: sudokud at " + address +
            " is draining: what it has not read goes to the other addresses now\n";
  }
  EXPECT_TRUE(std::regex_match(
      errors, std::regex(said + "(sudoku-client: [0-9]+ batches not read by a draining daemon "
                                "were sent again\n)?" +
                         SummaryCounts(input) + kSummaryTimeAndRate)))
      << errors;
  std::cout << errors;
  EXPECT_EQ(WEXITSTATUS(status), 1);  // the mixed input holds invalid puzzles
  for (auto& daemon : daemons) ExpectStopsOnSigterm(*daemon);
}

// One address, its daemon restarted mid-run: what it did not read waits for the daemon started
// again there (--retry-for), and nothing is lost.
TEST(ClientEndToEndFaults, OneAddressDrainedAndRestartedLosesNothing) {
  auto daemon = StartDaemon();
  const std::string address = daemon->address();
  HeldInput held(kHeldPart, 29, TempPath("restarted_in"));
  const std::string out = TempPath("restarted_out"), err = TempPath("restarted_err");
  const pid_t client = Spawn({TestPath("SUDOKU_CLIENT_BIN"), "solve", "--connect", address,
                              "--batch", "20", "--in-flight", "2", "--retry-for", "30s"},
                             held.path(), out, err);
  ASSERT_GT(client, 0);
  WaitUntilWritten(out);
  int status = 0;
  ASSERT_EQ(waitpid(client, &status, WNOHANG), 0) << "the run ended before the drain";
  daemon->Signal(SIGTERM);
  EXPECT_EQ(daemon->Wait(), 0) << daemon->Log();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  daemon = std::make_unique<DaemonProcess>(std::vector<std::string>{"--listen", address});
  const MixedInput input = held.Release();
  ASSERT_TRUE(WaitWithDeadline(client, &status, kRunDeadline));
  const std::string errors = ReadFile(err);
  EXPECT_EQ(CheckOutput(input, ReadFile(out)), "") << errors;
  // A daemon slow to start again (a sanitized one) makes a wait that is said, every few seconds.
  EXPECT_TRUE(std::regex_match(
      errors, std::regex("sudoku-client: sudokud at " + address +
                         " is draining: what it has not read is sent again once a daemon there "
                         "takes connections \\(--retry-for 30s\\)\n"
                         "(sudoku-client: cannot connect to " + address +
                         " \\(Connection refused\\); retrying in [^\n]*\n)*"
                         "(sudoku-client: [0-9]+ batches not read by a draining daemon "
                         "were sent again\n)?" +
                         SummaryCounts(input) + kSummaryTimeAndRate)))
      << errors;
  EXPECT_EQ(WEXITSTATUS(status), 1);  // the mixed input holds invalid puzzles
  ExpectStopsOnSigterm(*daemon);
}

// The puzzles a daemon answered, from the last line it logs when it stops.
uint64_t PuzzlesAnswered(DaemonProcess& daemon) {
  daemon.Stop();
  std::smatch match;
  const std::string log = daemon.Log();
  if (!std::regex_search(log, match, std::regex("stopped: [0-9]+ connections, [0-9]+ batches "
                                                "answered, [0-9]+ cancelled, ([0-9]+) puzzles"))) {
    ADD_FAILURE() << "no summary line in " << log;
    return 0;
  }
  return std::stoull(match[1]);
}

// One name for several daemons, as a headless Service's name is: in a mount namespace of its
// own, the client sees a hosts file that gives sudokud.test three loopback addresses, each with
// a daemon on the same port. Its connections spread over all three; mid-run the name moves from
// the third address to a fourth, and the client, resolving every 200 ms, leaves the third (stopped
// a second later: no connection of the client's is left there to be told it drains) and uses the
// fourth.
TEST(ClientEndToEndNames, ConnectionsSpreadOverEveryAddressOfANameAndFollowIt) {
  if (::geteuid() != 0 || ::access("/usr/bin/unshare", X_OK) != 0) {
    GTEST_SKIP() << "needs root and unshare(1) for a hosts file of its own";
  }
  const uint16_t port = FreePort();
  std::vector<std::unique_ptr<DaemonProcess>> daemons;
  for (const char* address : {"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"}) {
    daemons.push_back(std::make_unique<DaemonProcess>(std::vector<std::string>{
        "--listen", std::string(address) + ":" + std::to_string(port)}));
  }
  const std::string hosts = WriteTemp("hosts", "127.0.0.2 sudokud.test\n127.0.0.3 sudokud.test\n"
                                               "127.0.0.4 sudokud.test\n");
  HeldInput held(kHeldPart, 31, TempPath("named_in"));
  const std::string out = TempPath("named_out"), err = TempPath("named_err");
  const std::string command =
      "mount --bind " + hosts + " /etc/hosts && exec " + TestPath("SUDOKU_CLIENT_BIN") +
      " solve --connect sudokud.test:" + std::to_string(port) +
      " --connections 6 --batch 10 --in-flight 1 --resolve-every 200ms";
  const pid_t client = Spawn({"/usr/bin/unshare", "-m", "--propagation", "private", "sh", "-c",
                              command},
                             held.path(), out, err);
  ASSERT_GT(client, 0);
  WaitUntilWritten(out);
  int status = 0;
  ASSERT_EQ(waitpid(client, &status, WNOHANG), 0) << "the run ended before the name moved";
  // Rewritten in place: the bind mount shows the same file.
  std::ofstream(hosts, std::ios::binary | std::ios::trunc)
      << "127.0.0.2 sudokud.test\n127.0.0.3 sudokud.test\n127.0.0.5 sudokud.test\n";
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ASSERT_EQ(waitpid(client, &status, WNOHANG), 0) << "the run ended too soon after the move";
  const uint64_t third = PuzzlesAnswered(*daemons[2]);
  const MixedInput input = held.Release();
  ASSERT_TRUE(WaitWithDeadline(client, &status, kRunDeadline));
  const std::string errors = ReadFile(err);
  EXPECT_EQ(CheckOutput(input, ReadFile(out)), "") << errors;
  // No connection broke: nothing was sent again.
  EXPECT_TRUE(std::regex_match(errors, std::regex(SummaryCounts(input) + kSummaryTimeAndRate)))
      << errors;
  std::vector<uint64_t> answered;
  for (size_t i = 0; i < daemons.size(); ++i) {
    answered.push_back(i == 2 ? third : PuzzlesAnswered(*daemons[i]));
  }
  std::cout << "puzzles per daemon: 127.0.0.2 " << answered[0] << ", 127.0.0.3 " << answered[1]
            << ", 127.0.0.4 " << answered[2] << " (left the name mid-run), 127.0.0.5 "
            << answered[3] << " (joined it)\n";
  for (const uint64_t count : answered) EXPECT_GT(count, 0u);
  // Each puzzle sent was answered once (those the client finds malformed are not sent).
  const uint64_t total = answered[0] + answered[1] + answered[2] + answered[3];
  EXPECT_LE(total, input.expected.size());
  EXPECT_GE(total, input.expected.size() - input.invalid);
}

// A name with an address where no daemon listens (as localhost's ::1 beside a daemon on
// 127.0.0.1 only): the connections refused there go to the address that answers, and the run
// completes there.
TEST(ClientEndToEndNames, AnAddressOfTheNameThatRefusesIsPassedOver) {
  if (::geteuid() != 0 || ::access("/usr/bin/unshare", X_OK) != 0) {
    GTEST_SKIP() << "needs root and unshare(1) for a hosts file of its own";
  }
  const uint16_t port = FreePort();
  DaemonProcess daemon({"--listen", "127.0.0.2:" + std::to_string(port)});
  const std::string hosts =
      WriteTemp("hosts_refusing", "127.0.0.6 sudokud.test\n127.0.0.2 sudokud.test\n");
  const MixedInput input = MakeMixedInput(20000, 37, false);
  const std::string file = WriteTemp("refusing.txt", input.text);
  const Exit exit = RunToEnd({"/usr/bin/unshare", "-m", "--propagation", "private", "sh", "-c",
                              "mount --bind " + hosts + " /etc/hosts && exec " +
                                  TestPath("SUDOKU_CLIENT_BIN") + " solve --connect sudokud.test:" +
                                  std::to_string(port) + " --connections 4 --batch 100 " + file});
  EXPECT_EQ(CheckOutput(input, exit.out), "") << exit.err;
  EXPECT_TRUE(std::regex_match(WithoutBrokenAddresses(exit.err),
                               std::regex(SummaryCounts(input) + kSummaryTimeAndRate)))
      << exit.err;
  EXPECT_EQ(exit.status, 1);  // the mixed input holds invalid puzzles
}

// A daemon killed in the middle of a run and not restarted: the answers written are whole and in
// order, the last line says how many and where they stop, and the exit status is 3.
TEST(ClientEndToEndFaults, ADaemonKilledMidRunLeavesAPartialOutputSaidSo) {
  const auto daemon = StartDaemon();
  // Line i: puzzle i.
  HeldInput held(
      [](size_t, uint64_t) {
        MixedInput same;
        for (size_t i = 0; i < kHeldPart; ++i) {
          same.text += std::string(kSimplePuzzle) + "\n";
          same.expected.push_back({ExpectedLine::Kind::kSolutionOf, kSimplePuzzle});
          same.ends.push_back(same.text.size());
        }
        return same;
      },
      TempPath("killed_in"));
  const std::string out = TempPath("killed_out"), err = TempPath("killed_err");
  const pid_t client = Spawn({TestPath("SUDOKU_CLIENT_BIN"), "solve", "--connect",
                              daemon->address(), "--batch", "20", "--in-flight", "1",
                              "--retry-for", "500ms"},
                             held.path(), out, err);
  ASSERT_GT(client, 0);
  WaitUntilWritten(out);
  int status = 0;
  ASSERT_EQ(waitpid(client, &status, WNOHANG), 0) << "the run ended before the kill";
  daemon->Signal(SIGKILL);
  daemon->Wait();
  // The client ends without waiting for the end of its input: its daemon is gone for good.
  ASSERT_TRUE(WaitWithDeadline(client, &status, kRunDeadline));
  held.Release();
  EXPECT_EQ(WEXITSTATUS(status), 3);
  const std::string written = ReadFile(out);
  const size_t lines = static_cast<size_t>(std::count(written.begin(), written.end(), '\n'));
  ASSERT_GT(lines, 0u);
  // What was written is whole: an answer to each of the first puzzles, one a line.
  const std::string first = written.substr(0, written.find('\n') + 1);
  EXPECT_EQ(first.size(), 82u) << first;
  std::string expected;
  for (size_t i = 0; i < lines; ++i) expected += first;
  EXPECT_TRUE(written == expected) << "the output is not " << lines << " whole answers";
  const std::string errors = ReadFile(err);
  const std::string last = "sudoku-client: the output is partial: " + std::to_string(lines) +
                           " answers written, the last for line " + std::to_string(lines) +
                           " of stdin; the puzzles after it have no answer\n";
  ASSERT_GT(errors.size(), last.size()) << errors;
  EXPECT_EQ(errors.substr(errors.size() - last.size()), last) << errors;
}

// A daemon that accepted the connection and went silent (SIGSTOP: the kernel still completes
// the handshake and takes the bytes): --timeout ends the wait with a message naming it.
TEST(ClientEndToEndFaults, ADaemonThatStoppedAnsweringTimesOut) {
  const auto daemon = StartDaemon();
  std::string puzzles;
  for (int i = 0; i < 4; ++i) {
    puzzles +=
        "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9\n";
  }
  const std::string file = WriteTemp("frozen.txt", puzzles + puzzles + puzzles + puzzles + puzzles);
  daemon->Signal(SIGSTOP);
  const Exit exit = RunClient({"--connect", daemon->address(), "--connections", "1", "--batch",
                               "5", "--timeout", "300ms", file});
  EXPECT_EQ(exit.err, "sudoku-client: sudokud at " + daemon->address() +
                          " answered nothing for 300ms with 4 batches out (--timeout 300ms)\n");
  EXPECT_EQ(exit.status, 2);
  EXPECT_EQ(exit.out, "");
  ExpectStopsOnSigterm(*daemon);
}

// Input that comes more slowly than the daemon's deadlines: the daemon closes the connections
// that sent nothing in time (REQUEST_TIMEOUT before a first request, IDLE_TIMEOUT after an
// answer), and the client connects again instead of giving up, however often that happens.
// Both deadlines are 1 s and every gap in the input is 1.5 s, so whichever lane takes a line,
// the other one, or the same one a gap later, misses one of them.
TEST(ClientEndToEndFaults, SlowInputOutlastsTheDaemonsDeadlines) {
  const auto daemon = StartDaemon({"--first-frame-timeout", "1s", "--idle-timeout", "1s"});
  const std::vector<std::string> puzzles = {
      kSimplePuzzle,
      "....2.9.......6...8.1.........6.9...69..572..7...1...6..8..5....7....4.24..9.165.",
      "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
      kSimplePuzzle,
      "....2.9.......6...8.1.........6.9...69..572..7...1...6..8..5....7....4.24..9.165.",
      "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
      kSimplePuzzle};
  std::string all;
  std::string script = "sleep 1.5; for p in";
  for (const std::string& puzzle : puzzles) {
    all += puzzle + "\n";
    script += " '" + puzzle + "'";
  }
  const Exit at_once = RunClient({"--connect", daemon->address(), WriteTemp("slow.txt", all)});
  ASSERT_EQ(at_once.status, 0) << at_once.err;
  // Eight gaps of 1.5 s: more breaks in a row than the client allows a connection that fails.
  script += "; do echo \"$p\"; sleep 1.5; done | '" + TestPath("SUDOKU_CLIENT_BIN") +
            "' solve --no-progress --connections 2 --batch 1 --connect " + daemon->address();
  const Exit slow = RunToEnd({"/bin/sh", "-c", script});
  EXPECT_EQ(slow.status, 0) << slow.err;
  EXPECT_EQ(slow.out, at_once.out);
  const std::string log = daemon->Log();
  const bool first_frame_missed =
      log.find("protocol fault REQUEST_TIMEOUT: no whole request within 1 s of connecting "
               "(--first-frame-timeout 1)") != std::string::npos;
  const bool idle_closed =
      log.find("protocol fault IDLE_TIMEOUT: nothing received for 1 s (--idle-timeout 1)") !=
      std::string::npos;
  EXPECT_TRUE(first_frame_missed || idle_closed) << log;
  ExpectStopsOnSigterm(*daemon);
}

// One address, a load balancer behind it: when a daemon dies, the client reconnects to the same
// address and lands on the other daemon.
TEST(ClientEndToEndFaults, OneAddressBeforeALoadBalancerLosingADaemon) {
  if (::access("/usr/sbin/haproxy", X_OK) != 0) GTEST_SKIP() << "no /usr/sbin/haproxy";
  const auto first = StartDaemon(), second = StartDaemon();
  uint16_t port = 0;
  {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    port = acceptor.local_endpoint().port();
  }
  const std::string front = "127.0.0.1:" + std::to_string(port);
  const std::string config = WriteTemp(
      "haproxy.cfg",
      "global\n  maxconn 256\n"
      "defaults\n  mode tcp\n  timeout connect 2s\n  timeout client 120s\n"
      "  timeout server 120s\n  retries 3\n  option redispatch\n"
      "frontend sudoku\n  bind " + front + "\n  default_backend daemons\n"
      "backend daemons\n  balance roundrobin\n"
      "  server first " + first->address() + " check inter 100ms fall 1\n"
      "  server second " + second->address() + " check inter 100ms fall 1\n");
  const std::string haproxy_log = TempPath("haproxy_log");
  const pid_t haproxy = Spawn({"/usr/sbin/haproxy", "-db", "-f", config}, "", haproxy_log,
                              haproxy_log);
  ASSERT_GT(haproxy, 0);
  // Ready once it accepts.
  bool ready = false;
  for (int i = 0; i < 200 && !ready; ++i) {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    boost::system::error_code error;
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), port}, error);
    ready = !error;
    if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  HeldInput held(kHeldPart, 41, TempPath("haproxy_in"));
  const std::string out = TempPath("haproxy_out"), err = TempPath("haproxy_err");
  // Four connections, two to each daemon.
  const pid_t client = Spawn({TestPath("SUDOKU_CLIENT_BIN"), "solve", "--connect", front,
                              "--connections", "4", "--batch", "20", "--in-flight", "1"},
                             held.path(), out, err);
  ASSERT_GT(client, 0);
  WaitUntilWritten(out);
  int status = 0;
  const bool running = waitpid(client, &status, WNOHANG) == 0;
  first->Signal(SIGSTOP);  // as above
  std::this_thread::sleep_for(kFrozenBeforeKill);
  first->Signal(SIGKILL);
  first->Wait();
  const MixedInput input = held.Release();
  const bool finished = running && WaitWithDeadline(client, &status, kRunDeadline);
  kill(haproxy, SIGTERM);
  int haproxy_status = 0;
  waitpid(haproxy, &haproxy_status, 0);
  ASSERT_TRUE(ready) << ReadFile(haproxy_log);
  ASSERT_TRUE(running) << "the run ended before the kill";
  ASSERT_TRUE(finished);
  ExpectCompleteDespiteResends(input, out, err, status);
  ExpectStopsOnSigterm(*second);
}

TEST_F(ClientEndToEnd, BenchVerifiesEveryAnswer) {
  const MixedInput input = MakeMixedInput(500, 31, false);
  const std::string file = WriteTemp("bench.txt", input.text);
  // Batches of 25, so that each puzzle is checked against its own place in a long batch.
  const Exit exit = RunToEnd({TestPath("SUDOKU_CLIENT_BIN"), "bench", "--connect", address(),
                              "--connections", "3", "--in-flight", "2", "--batch", "25",
                              "--requests", "300", "--verify", "--json", file});
  EXPECT_EQ(exit.status, 0) << exit.out << exit.err;
  EXPECT_NE(exit.out.find("\"batches\":300,"), std::string::npos) << exit.out;
  EXPECT_NE(exit.out.find("\"wrong\":0,\"errors\":{}}"), std::string::npos) << exit.out;
  EXPECT_EQ(exit.err, "");
}

// One batch to replay and room for four on each connection: its copies out at once on a
// connection go under batch_ids of their own, as the daemon refuses a batch_id in flight there.
TEST_F(ClientEndToEnd, BenchNeverHasOneBatchOutTwiceOnAConnection) {
  const MixedInput input = MakeMixedInput(20, 32, false);
  const std::string file = WriteTemp("one_batch.txt", input.text);
  const Exit exit = RunToEnd({TestPath("SUDOKU_CLIENT_BIN"), "bench", "--connect", address(),
                              "--connections", "2", "--in-flight", "4", "--batch", "25",
                              "--requests", "200", "--verify", "--json", file});
  EXPECT_EQ(exit.status, 0) << exit.out << exit.err;
  EXPECT_NE(exit.out.find("\"batches\":200,"), std::string::npos) << exit.out;
  EXPECT_NE(exit.out.find("\"wrong\":0,\"errors\":{}}"), std::string::npos) << exit.out;
}

TEST(ClientEndToEndBench, EchoServerRoundTrip) {
  const std::string log = TempPath("tcp_echo_log");
  const pid_t echo = Spawn({TestPath("TCP_ECHO_BIN")}, "", "/dev/null", log);
  ASSERT_GT(echo, 0);
  std::string address;
  const std::regex listening("tcp_echo: listening on ([0-9.]+:[0-9]+)");
  for (int i = 0; i < 200 && address.empty(); ++i) {
    std::smatch match;
    const std::string text = ReadFile(log);
    if (std::regex_search(text, match, listening)) {
      address = match[1];
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  const std::string samples = TestPath("SUDOKU_TEST_DATA_DIR") + "/samples.txt";
  const Exit exit = RunToEnd({TestPath("SUDOKU_CLIENT_BIN"), "bench", "--echo", "--connect",
                              address, "--batch", "1", "--requests", "200", samples});
  kill(echo, SIGTERM);
  int status = 0;
  waitpid(echo, &status, 0);
  ASSERT_FALSE(address.empty()) << ReadFile(log);
  EXPECT_EQ(exit.status, 0) << exit.out << exit.err;
  EXPECT_NE(exit.out.find("  batches   200 ("), std::string::npos) << exit.out;
  EXPECT_NE(exit.out.find("  errors    none\n"), std::string::npos) << exit.out;
}

TEST_F(ClientEndToEnd, NoDaemonSaysWhatToDo) {
  // Nothing listens on port 1 of loopback.
  const std::string address = "127.0.0.1:1";
  const std::string file = WriteTemp("nodaemon.txt", std::string(81, '.') + "\n");
  const Exit exit = RunClient({"--connect", address, "--retry-for", "200ms", file});
  EXPECT_EQ(exit.err, "sudoku-client: cannot connect to 127.0.0.1:1: Connection refused (is "
                      "sudokud running? start it with: sudokud --listen 127.0.0.1:1) (still "
                      "failing after --retry-for 200ms)\n");
  EXPECT_EQ(exit.out, "");
  EXPECT_EQ(exit.status, 2);
}

// With the default flags no daemon is waited for long: a refused first connect gives up after
// 5 s (not --retry-for's 60 s), and off a terminal one line says what it waits for meanwhile.
TEST_F(ClientEndToEnd, NoDaemonWithTheDefaultFlagsFailsWithinSeconds) {
  const std::string address = "127.0.0.1:1";
  const std::string file = WriteTemp("nodaemon_default.txt", std::string(81, '.') + "\n");
  const auto start = std::chrono::steady_clock::now();
  const Exit exit = RunClient({"--connect", address, file});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  EXPECT_TRUE(std::regex_match(
      exit.err,
      std::regex("sudoku-client: cannot connect to 127\\.0\\.0\\.1:1 \\(Connection refused\\); "
                 "retrying in [0-9]\\.[0-9]s, giving up in [0-9]\\.[0-9]s\n"
                 "sudoku-client: cannot connect to 127\\.0\\.0\\.1:1: Connection refused \\(is "
                 "sudokud running\\? start it with: sudokud --listen 127\\.0\\.0\\.1:1\\) \\(still "
                 "failing after 5s; to wait longer, give --retry-for\\)\n")))
      << exit.err;
  EXPECT_EQ(exit.out, "");
  EXPECT_EQ(exit.status, 2);
}

TEST_F(ClientEndToEnd, AFullDiskIsReportedAsSuch) {
  const std::string file = WriteTemp(
      "full_disk.txt",
      "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9\n");
  const std::string err = TempPath("full_disk_err");
  const pid_t client = Spawn({TestPath("SUDOKU_CLIENT_BIN"), "solve", "--connect", address(), file},
                             "", "/dev/full", err);
  ASSERT_GT(client, 0);
  int status = 0;
  ASSERT_TRUE(WaitWithDeadline(client, &status, kRunDeadline));
  EXPECT_EQ(ReadFile(err),
            "sudoku-client: cannot write the results to standard output: No space left on "
            "device\n");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

TEST_F(ClientEndToEnd, MissingFile) {
  const Exit exit = RunClient({"--connect", address(), "/nonexistent/x.txt"});
  EXPECT_EQ(exit.err,
            "sudoku-client: cannot open '/nonexistent/x.txt': No such file or directory\n");
  EXPECT_EQ(exit.status, 2);
}

TEST_F(ClientEndToEnd, UsageErrors) {
  const Exit bad_flag = RunClient({"--batch", "0"});
  EXPECT_EQ(bad_flag.err,
            "sudoku-client: --batch expects a whole number from 1 to 65536, got '0'\n");
  EXPECT_EQ(bad_flag.status, 2);
  // No larger than the daemon's default --max-batch, which sudoku.proto gives as the most to send.
  const Exit too_large = RunClient({"--batch", "65537"});
  EXPECT_EQ(too_large.err,
            "sudoku-client: --batch expects a whole number from 1 to 65536, got '65537'\n");
  EXPECT_EQ(too_large.status, 2);
  const Exit no_command = RunToEnd({TestPath("SUDOKU_CLIENT_BIN")});
  EXPECT_NE(no_command.err.find("usage: sudoku-client COMMAND"), std::string::npos);
  EXPECT_EQ(no_command.status, 2);
  const Exit unknown = RunToEnd({TestPath("SUDOKU_CLIENT_BIN"), "frobnicate"});
  EXPECT_EQ(unknown.err,
            "sudoku-client: unknown command 'frobnicate' (the commands: solve, explain, generate, "
            "bench; see: sudoku-client --help)\n");
  EXPECT_EQ(unknown.status, 2);
}

TEST(ClientEndToEndFaults, BatchOverTheDaemonLimit) {
  const auto daemon = StartDaemon({"--max-batch", "10"});
  std::string text;
  for (int i = 0; i < 30; ++i) text += std::string(81, '.') + "\n";
  const std::string file = WriteTemp("too_large.txt", text);
  const Exit exit = RunClient({"--connect", daemon->address(), "--batch", "11", file});
  const std::string prefix = "sudoku-client: sudokud at " + daemon->address() +
                             " reported a protocol fault: BATCH_TOO_LARGE: ";
  EXPECT_EQ(exit.err.substr(0, prefix.size()), prefix) << exit.err;
  const std::string hint = " (try a smaller --batch)\n";
  ASSERT_GE(exit.err.size(), hint.size());
  EXPECT_EQ(exit.err.substr(exit.err.size() - hint.size()), hint);
  EXPECT_EQ(exit.status, 2);
  ExpectStopsOnSigterm(*daemon);
}

// Every public set beside the checkout, when it is there: each line a valid solution that keeps
// the givens (the sets have one solution each).
TEST_F(ClientEndToEnd, SolvesThePublicSets) {
  const std::filesystem::path dir = TestPath("SUDOKU_SHARED_DATA_DIR");
  if (dir.empty() || !std::filesystem::is_directory(dir)) GTEST_SKIP() << "no " << dir;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    ++files;
    // Sanitizer builds take every SUDOKU_TEST_PUBLIC_STRIDE-th puzzle (see tests/run_all.sh).
    const char* stride_text = std::getenv("SUDOKU_TEST_PUBLIC_STRIDE");
    const size_t stride = stride_text != nullptr ? std::max(1ul, std::stoul(stride_text)) : 1;
    std::string input = entry.path().string();
    std::vector<std::string> puzzles = Lines(ReadFile(entry.path()));
    if (stride > 1) {
      std::vector<std::string> sample;
      std::string text;
      for (size_t i = 0; i < puzzles.size(); i += stride) {
        sample.push_back(puzzles[i]);
        text += puzzles[i] + "\n";
      }
      puzzles = std::move(sample);
      input = WriteTemp("public_sample.txt", text);
    }
    const Exit exit = RunClient({"--connect", address(), input});
    const std::vector<std::string> lines = Lines(exit.out);
    ASSERT_EQ(lines.size(), puzzles.size()) << entry.path() << ": " << exit.err;
    size_t wrong = 0;
    for (size_t i = 0; i < puzzles.size(); ++i) {
      if (!IsSolutionOf(puzzles[i], lines[i]) && wrong++ < 5) {
        ADD_FAILURE() << entry.path() << " line " << i + 1 << ": " << puzzles[i] << " -> "
                      << lines[i];
      }
    }
    EXPECT_EQ(wrong, 0u) << entry.path();
    const std::string n = std::to_string(puzzles.size());
    ExpectSummary(exit.err,
                  "puzzles " + n + ", solved " + n + ", multiple 0, unsolvable 0, invalid 0, ");
    EXPECT_EQ(exit.status, 0) << entry.path();
  }
  EXPECT_GT(files, 0);
}

// The shared independent checker agrees, with --unique.
TEST_F(ClientEndToEnd, VerifyPyAgrees) {
  const std::filesystem::path dir = TestPath("SUDOKU_SHARED_DATA_DIR");
  const std::filesystem::path verify = dir.parent_path() / "tools" / "verify.py";
  const std::filesystem::path puzzles = dir / "qqwing_mixed.txt";
  if (!std::filesystem::exists(verify) || !std::filesystem::exists(puzzles)) {
    GTEST_SKIP() << "no " << verify << " or " << puzzles;
  }
  const Exit exit = RunClient({"--connect", address(), "--unique", puzzles.string()});
  ASSERT_EQ(exit.status, 0) << exit.err;
  const std::string output = WriteTemp("verify_output.txt", exit.out);
  const Exit check = RunToEnd({"python3", verify.string(), puzzles.string(), output, "--unique"});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
}

// ---- explain and --rate ----

Exit RunExplain(std::vector<std::string> args, const std::string& stdin_path = "") {
  args.insert(args.begin(), {TestPath("SUDOKU_CLIENT_BIN"), "explain"});
  return RunToEnd(args, stdin_path);
}

// From tests/data/logic_steps.txt: its step 30 is an x-wing, after singles only.
constexpr char kXWingPuzzle[] =
    ".4.8....1..6....4..5....6.......5........342...1..6...3.21.87.5......3..6..7..1..";
constexpr char kXWingSolution[] =
    "243867951876591243159324678934275816568913427721486539392148765417659382685732194";
constexpr char kSimpleSolution[] =
    "613574982528619437479382156136925748792846315845731269384267591967153824251498673";

TEST_F(ClientEndToEnd, ExplainNamesEachStepAndRates) {
  const Exit exit = RunExplain({"--connect", address(), kXWingPuzzle});
  ASSERT_EQ(exit.status, 0) << exit.err;
  EXPECT_EQ(exit.err, "");
  const std::vector<std::string> lines = Lines(exit.out);
  ASSERT_GT(lines.size(), 40u);
  EXPECT_EQ(lines[0], std::string("puzzle: ") + kXWingPuzzle);
  EXPECT_EQ(lines[29], "step 29: hidden single: r5c1 = 5 (the only place for 5 in row 5)");
  EXPECT_EQ(lines[30],
            "step 30: x-wing: 8 in rows 3, 5 lies only in columns 3, 9 (r35c39): removes 8 from "
            "r26c9,r4c39");
  EXPECT_EQ(lines[lines.size() - 3], std::string("solution: ") + kXWingSolution);
  // Past the x-wing, a chain technique; nothing is taken from the solution.
  EXPECT_EQ(lines[39],
            "step 39: skyscraper: 9 in rows 1, 6: (9)r1c7=(9)r1c1-(9)r6c1=(9)r6c9: removes 9 "
            "from r3c9,r4c7");
  EXPECT_THAT(lines[lines.size() - 2],
              ::testing::MatchesRegex("rating: level expert, hardest technique skyscraper, 60 "
                                      "steps, [0-9]+ guess(es)? by the solver"));
  // serate 1.18.1 rates it 4.0/1.2/1.2 (ER/EP/ED).
  EXPECT_EQ(lines.back(), "rating: HoDoKu hard (642), SE 4.0 (EP 1.2, ED 1.2)");
  for (const std::string& line : lines) {
    EXPECT_EQ(line.find("guess r"), std::string::npos) << line;
    EXPECT_EQ(line.find("trial"), std::string::npos) << line;
  }
}

TEST_F(ClientEndToEnd, ExplainSimplePuzzleFromAFile) {
  const std::string file =
      WriteTemp("simple.txt", std::string("# one puzzle\n") + kSimplePuzzle + "\n");
  const Exit exit = RunExplain({"--connect", address(), file});
  ASSERT_EQ(exit.status, 0) << exit.err;
  const std::vector<std::string> lines = Lines(exit.out);
  ASSERT_EQ(lines.size(), 56u + 4u);
  // Naked singles, a full house where the cell is the last open one of a row, column or box.
  int full_houses = 0;
  for (size_t i = 1; i <= 56; ++i) {
    EXPECT_THAT(lines[i], ::testing::MatchesRegex(
                              "step " + std::to_string(i) +
                              ": (naked single: r[1-9]c[1-9] = [1-9] \\(its only candidate\\)|"
                              "full house: r[1-9]c[1-9] = [1-9] \\(the last open cell of "
                              "(row|column|box) [1-9]\\))"));
    full_houses += lines[i].find("full house") != std::string::npos;
  }
  EXPECT_THAT(lines[56], ::testing::HasSubstr("full house"));  // the last cell of the grid
  EXPECT_GT(full_houses, 1);
  EXPECT_EQ(lines[57], std::string("solution: ") + kSimpleSolution);
  EXPECT_EQ(lines[58],
            "rating: level simple, hardest technique naked single, 56 steps, 0 guesses by the "
            "solver");
  EXPECT_EQ(lines[59], "rating: HoDoKu easy (224), SE 2.0 (EP 1.2, ED 1.2)");
}

TEST_F(ClientEndToEnd, ExplainDrawsCandidatesBeforeEachStep) {
  const Exit exit = RunExplain({"--connect", address(), "--candidates", kSimplePuzzle});
  ASSERT_EQ(exit.status, 0) << exit.err;
  const std::vector<std::string> lines = Lines(exit.out);
  // The puzzle line, then per step a 37-line grid and the step, then solution and two ratings.
  ASSERT_EQ(lines.size(), 1u + 56u * 38u + 3u);
  EXPECT_EQ(lines[1], "+-------------+-------------+-------------+");
  // Row 1 of the puzzle: 6 . . | . . 4 | 9 . . ; r1c1 is given, r1c2 may be 1 3 5 7.
  EXPECT_EQ(lines[2].substr(0, 10), "|     1.3 ");
  EXPECT_EQ(lines[3].substr(0, 10), "| [6] .5. ");
  EXPECT_EQ(lines[4].substr(0, 10), "|     7.. ");
  EXPECT_EQ(lines[37], "+-------------+-------------+-------------+");
  EXPECT_THAT(lines[38], ::testing::StartsWith("step 1: "));
}

TEST_F(ClientEndToEnd, ExplainJson) {
  const Exit exit = RunExplain({"--connect", address(), "--json", kSimplePuzzle});
  ASSERT_EQ(exit.status, 0) << exit.err;
  EXPECT_THAT(exit.out, ::testing::StartsWith(std::string("{\"puzzle\":\"") + kSimplePuzzle +
                                              "\",\"verdict\":\"solved\",\"steps\":[{\"step\":1,"
                                              "\"technique\":\"naked single\""));
  EXPECT_THAT(exit.out, ::testing::EndsWith(std::string("}],\"solution\":\"") + kSimpleSolution +
                                            "\",\"rating\":{\"level\":\"simple\",\"hardest\":"
                                            "\"naked single\",\"steps\":56,\"guesses\":0,"
                                            "\"logic_guesses\":0,\"hodoku_level\":\"easy\","
                                            "\"hodoku_score\":224,\"se\":2.0,\"se_pearl\":1.2,"
                                            "\"se_diamond\":1.2}}\n"));
  EXPECT_EQ(std::count(exit.out.begin(), exit.out.end(), '\n'), 1);  // one line
  const Exit invalid = RunExplain({"--connect", address(), "--json", std::string(80, '.') + "x"});
  EXPECT_EQ(invalid.status, 1);
  EXPECT_EQ(invalid.out, "{\"puzzle\":\"" + std::string(80, '.') +
                             "x\",\"verdict\":\"invalid\",\"error\":\"invalid: argument, "
                             "column 81: bad character 'x' (expected 1-9, or . 0 _ - * for a "
                             "blank)\",\"where\":\"argument, column 81\",\"reason\":\"bad "
                             "character 'x' (expected 1-9, or . 0 _ - * for a blank)\"}\n");
  // A puzzle that cannot be read is the same object, without "puzzle".
  const std::string short_file = WriteTemp("short.txt", std::string(80, '.') + "\n");
  const Exit unreadable = RunExplain({"--connect", address(), "--json", short_file});
  EXPECT_EQ(unreadable.status, 1);
  EXPECT_EQ(unreadable.out, "{\"verdict\":\"invalid\",\"error\":\"invalid: " + short_file +
                                ", line 1: expected 81 cells, found 80\",\"where\":\"" +
                                short_file +
                                ", line 1\",\"reason\":\"expected 81 cells, found 80\"}\n");
}

TEST_F(ClientEndToEnd, ExplainVerdictsAndErrors) {
  const std::string unsolvable =
      kUnsolvable;
  Exit exit = RunExplain({"--connect", address(), unsolvable});
  EXPECT_EQ(exit.out, "unsolvable\n");
  EXPECT_EQ(exit.status, 1);

  exit = RunExplain({"--connect", address(), "11" + std::string(79, '.')});
  EXPECT_EQ(exit.out, "invalid: argument, column 2: digit 1 repeated in row 1 (r1c1 and r1c2)\n");
  EXPECT_EQ(exit.status, 1);

  exit = RunExplain({"--connect", address(), "1234"});
  EXPECT_EQ(exit.out, "invalid: argument: expected 81 cells, found 4\n");
  EXPECT_EQ(exit.status, 1);

  exit = RunExplain({"--connect", address(), std::string(81, '.')});
  EXPECT_EQ(Lines(exit.out).at(1),
            "multiple solutions: where a digit is chosen, the steps follow one solution");
  EXPECT_EQ(exit.status, 1);

  const std::string layout = WriteTemp("layout.txt", "\n1....\n");
  exit = RunExplain({"--connect", address(), layout});
  EXPECT_EQ(exit.out, "invalid: " + layout + ", line 2: expected 81 cells, found 5\n");
  EXPECT_EQ(exit.status, 1);

  const std::string grid_file = WriteTemp("grid.txt", std::string(kSimplePuzzle).substr(0, 18) +
                                                          "\n");
  exit = RunExplain({"--connect", address(), grid_file});
  EXPECT_EQ(exit.out, "invalid: " + grid_file + ", line 1: expected 81 cells, found 18\n");

  const auto usage_error = [&](std::vector<std::string> args, const std::string& message) {
    const Exit failed = RunExplain(std::move(args));
    EXPECT_EQ(failed.err, "sudoku-client: " + message + "\n");
    EXPECT_EQ(failed.out, "");
    EXPECT_EQ(failed.status, 2);
  };
  usage_error({"--connect", address()},
              "explain takes one PUZZLE or FILE, got 0 (see: sudoku-client explain --help)");
  usage_error({"--connect", address(), kSimplePuzzle, kSimplePuzzle},
              "explain takes one PUZZLE or FILE, got 2 (see: sudoku-client explain --help)");
  usage_error({"--connect", address(), "missing.txt"},
              "cannot open 'missing.txt': No such file or directory (and it is not an "
              "81-character puzzle)");
  usage_error({"--connect", address(), ::testing::TempDir()},
              "cannot open '" + ::testing::TempDir() + "': Is a directory");
  const std::string empty = WriteTemp("empty.txt", "# nothing\n");
  usage_error({"--connect", address(), empty}, "'" + empty + "' holds no puzzle");
  const std::string two = WriteTemp("two.txt", std::string(kSimplePuzzle) + "\n\n" +
                                                   kXWingPuzzle + "\n");
  usage_error({"--connect", address(), two},
              "'" + two + "' holds more than one puzzle (the second starts at line 3); explain "
              "takes one");
  usage_error({"--connect", address(), "--frobnicate", kSimplePuzzle},
              "unrecognised option '--frobnicate' (see: sudoku-client explain --help)");
  usage_error({"--connect", "127.0.0.1:1", "--retry-for", "200ms", kSimplePuzzle},
              "cannot connect to 127.0.0.1:1: Connection refused (is sudokud running? start it "
              "with: sudokud --listen 127.0.0.1:1) (still failing after --retry-for 200ms)");
}

TEST_F(ClientEndToEnd, ExplainReadsStdin) {
  const std::string file = WriteTemp("stdin.txt", std::string(kSimplePuzzle) + "\n");
  const Exit exit = RunExplain({"--connect", address(), "-"}, file);
  ASSERT_EQ(exit.status, 0) << exit.err;
  EXPECT_EQ(Lines(exit.out).at(57), std::string("solution: ") + kSimpleSolution);
}

TEST_F(ClientEndToEnd, SolveRateAppendsTheRating) {
  const std::string unsolvable =
      kUnsolvable;
  const std::string file =
      WriteTemp("rate.txt", std::string(kSimplePuzzle) + "\n" + kXWingPuzzle + "\n" + unsolvable +
                                "\n" + std::string(81, '.') + "\n");
  const Exit exit = RunClient({"--connect", address(), "--unique", "--rate", file});
  EXPECT_EQ(exit.status, 1) << exit.err;
  const std::vector<std::string> lines = Lines(exit.out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0],
            std::string(kSimpleSolution) + " simple naked-single 56 0 easy 224 2.0 1.2 1.2");
  EXPECT_THAT(lines[1],
              ::testing::MatchesRegex(std::string(kXWingSolution) +
                                      " expert skyscraper 60 [0-9]+ hard 642 4\\.0 1\\.2 1\\.2"));
  EXPECT_EQ(lines[2], "unsolvable");
  EXPECT_EQ(lines[3], "multiple");
  // Without --rate, the lines are as before.
  const Exit plain = RunClient({"--connect", address(), file});
  EXPECT_EQ(Lines(plain.out).at(0), kSimpleSolution);
  // One path alone: its part of the rating, the same numbers.
  const Exit se = RunClient({"--connect", address(), "--unique", "--rate-only", "se", file});
  EXPECT_EQ(se.status, 1) << se.err;
  EXPECT_EQ(Lines(se.out), (std::vector<std::string>{
                               std::string(kSimpleSolution) + " 2.0 1.2 1.2",
                               std::string(kXWingSolution) + " 4.0 1.2 1.2", "unsolvable",
                               "multiple"}));
  const Exit hodoku =
      RunClient({"--connect", address(), "--rate-only", "hodoku", "--format", "json", file});
  EXPECT_EQ(hodoku.status, 1) << hodoku.err;
  EXPECT_NE(Lines(hodoku.out).at(0).find(
                "\"rating\":{\"level\":\"simple\",\"hardest\":\"naked single\","
                "\"steps\":56,\"guesses\":0,\"logic_guesses\":0,\"hodoku_level\":\"easy\","
                "\"hodoku_score\":224}}"),
            std::string::npos)
      << hodoku.out;
}

// Pencilmark puzzles (729 characters) are verified against their candidates, each in its place
// of the batch.
TEST_F(ClientEndToEnd, BenchVerifiesPencilmarkPuzzles) {
  std::string text;
  for (int i = 0; i < 20; ++i) {
    const std::string puzzle = i % 2 == 0 ? kXWingPuzzle : kSimplePuzzle;
    for (const char c : puzzle) {
      for (char digit = '1'; digit <= '9'; ++digit) text += c == '.' || c == digit ? digit : '.';
    }
    text += '\n';
  }
  const std::string file = WriteTemp("bench_pencilmarks.txt", text);
  const Exit exit = RunToEnd({TestPath("SUDOKU_CLIENT_BIN"), "bench", "--connect", address(),
                              "--batch", "20", "--requests", "5", "--verify", "--json", file});
  EXPECT_EQ(exit.status, 0) << exit.out << exit.err;
  EXPECT_NE(exit.out.find("\"verified\":100,\"wrong\":0,"), std::string::npos) << exit.out;
}

}  // namespace
}  // namespace sudoku::testing
