// End to end: the real sudokud on an ephemeral loopback port and the real sudoku-client binary,
// every output line checked against answers known independently of the solver.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "solver/puzzle_reader.h"
#include "tests/client/mixed_input.h"
#include "tests/client/sudoku_check.h"

extern char** environ;

namespace sudoku::testing {
namespace {

// The environment tests/CMakeLists.txt sets up, or else what the build compiled in.
std::string Env(const char* name) {
  const char* value = std::getenv(name);
  if (value != nullptr && *value != '\0') return value;
  const std::string key = name;
  if (key == "SUDOKUD_BIN") return SUDOKU_BUILT_SUDOKUD;
  if (key == "SUDOKU_CLIENT_BIN") return SUDOKU_BUILT_CLIENT;
  if (key == "SUDOKU_TEST_DATA_DIR") return SUDOKU_SOURCE_TEST_DATA_DIR;
  if (key == "SUDOKU_SHARED_DATA_DIR") return SUDOKU_SOURCE_SHARED_DATA_DIR;
  return "";
}

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
  args.insert(args.begin(), {Env("SUDOKU_CLIENT_BIN"), "solve"});
  return RunToEnd(args, stdin_path);
}

// sudokud on 127.0.0.1:0; the port comes from its "listening on" line.
class Daemon {
 public:
  explicit Daemon(std::vector<std::string> flags = {}) : log_(TempPath("sudokud_" + Counter())) {
    std::vector<std::string> argv = {Env("SUDOKUD_BIN"), "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    pid_ = Spawn(argv, "", "/dev/null", log_);
    const std::regex listening("sudokud: listening on ([0-9.]+:[0-9]+)");
    for (int i = 0; i < 200 && pid_ > 0 && address_.empty(); ++i) {
      std::smatch match;
      const std::string log = ReadFile(log_);
      if (std::regex_search(log, match, listening)) {
        address_ = match[1];
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
  }
  ~Daemon() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      EXPECT_TRUE(WaitWithDeadline(pid_, &status, std::chrono::seconds(10)))
          << "sudokud did not stop on SIGTERM";
    }
  }
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  const std::string& address() const { return address_; }
  std::string log() const { return ReadFile(log_); }

 private:
  static std::string Counter() {
    static int next = 0;
    return std::to_string(next++);
  }

  std::string log_;
  pid_t pid_ = -1;
  std::string address_;
};

class ClientEndToEnd : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = new Daemon(); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  void SetUp() override {
    ASSERT_FALSE(daemon_->address().empty()) << "sudokud did not start: " << daemon_->log();
  }
  static const std::string& address() { return daemon_->address(); }

  static Daemon* daemon_;
};

Daemon* ClientEndToEnd::daemon_ = nullptr;

void ExpectSummary(const std::string& err, const std::string& counts) {
  EXPECT_TRUE(std::regex_match(err, std::regex(counts + "[0-9]+\\.[0-9]{3} s, [0-9]+ puzzles/s\n")))
      << err;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_F(ClientEndToEnd, SolvesTheBundledSamples) {
  const std::string samples = Env("SUDOKU_TEST_DATA_DIR") + "/samples.txt";
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
      "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
  const std::string solution =
      "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
  const std::string a = WriteTemp("a.txt", puzzle + "\n");
  const std::string b = WriteTemp("b.txt", "# b\n" + puzzle.substr(0, 40) + "0" + puzzle.substr(41) +
                                               "\n" + puzzle.substr(0, 80) + "\n");
  const Exit exit = RunClient({"--connect", address(), a, b, a});
  EXPECT_EQ(exit.out, solution + "\n" + solution + "\n" + "invalid: " + b +
                          ", line 3: expected 81 cells, found 80\n" + solution + "\n");
  ExpectSummary(exit.err, "puzzles 4, solved 3, multiple 0, unsolvable 0, invalid 1, ");
  EXPECT_EQ(exit.status, 1);
}

TEST_F(ClientEndToEnd, DaemonErrorsPointIntoGrids) {
  std::string puzzle =
      "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
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

TEST_F(ClientEndToEnd, NoDaemonSaysWhatToDo) {
  // Nothing listens on port 1 of loopback.
  const std::string address = "127.0.0.1:1";
  const std::string file = WriteTemp("nodaemon.txt", std::string(81, '.') + "\n");
  const Exit exit = RunClient({"--connect", address, file});
  EXPECT_EQ(exit.err, "sudoku-client: cannot connect to 127.0.0.1:1: Connection refused (is "
                      "sudokud running? start it with: sudokud --listen 127.0.0.1:1)\n");
  EXPECT_EQ(exit.out, "");
  EXPECT_EQ(exit.status, 2);
}

TEST_F(ClientEndToEnd, MissingFile) {
  const Exit exit = RunClient({"--connect", address(), "/nonexistent/x.txt"});
  EXPECT_EQ(exit.err, "sudoku-client: cannot open '/nonexistent/x.txt': No such file or directory\n");
  EXPECT_EQ(exit.status, 2);
}

TEST_F(ClientEndToEnd, UsageErrors) {
  const Exit bad_flag = RunClient({"--batch", "0"});
  EXPECT_EQ(bad_flag.err, "sudoku-client: --batch expects a whole number from 1 to 100000, got '0'\n");
  EXPECT_EQ(bad_flag.status, 2);
  const Exit no_command = RunToEnd({Env("SUDOKU_CLIENT_BIN")});
  EXPECT_NE(no_command.err.find("usage: sudoku-client COMMAND"), std::string::npos);
  EXPECT_EQ(no_command.status, 2);
  const Exit unknown = RunToEnd({Env("SUDOKU_CLIENT_BIN"), "frobnicate"});
  EXPECT_EQ(unknown.err,
            "sudoku-client: unknown command 'frobnicate' (the commands: solve, generate; see: "
            "sudoku-client --help)\n");
  EXPECT_EQ(unknown.status, 2);
}

TEST(ClientEndToEndFaults, BatchOverTheDaemonLimit) {
  Daemon daemon({"--max-batch", "10"});
  ASSERT_FALSE(daemon.address().empty()) << daemon.log();
  std::string text;
  for (int i = 0; i < 30; ++i) text += std::string(81, '.') + "\n";
  const std::string file = WriteTemp("too_large.txt", text);
  const Exit exit = RunClient({"--connect", daemon.address(), "--batch", "11", file});
  const std::string prefix =
      "sudoku-client: sudokud at " + daemon.address() + " reported a protocol fault: BATCH_TOO_LARGE: ";
  EXPECT_EQ(exit.err.substr(0, prefix.size()), prefix) << exit.err;
  const std::string hint = " (try a smaller --batch)\n";
  ASSERT_GE(exit.err.size(), hint.size());
  EXPECT_EQ(exit.err.substr(exit.err.size() - hint.size()), hint);
  EXPECT_EQ(exit.status, 2);
}

// Every public set beside the checkout, when it is there: each line a valid solution that keeps
// the givens (the sets have one solution each).
TEST_F(ClientEndToEnd, SolvesThePublicSets) {
  const std::filesystem::path dir = Env("SUDOKU_SHARED_DATA_DIR");
  if (dir.empty() || !std::filesystem::is_directory(dir)) GTEST_SKIP() << "no " << dir;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    ++files;
    const std::vector<std::string> puzzles = Lines(ReadFile(entry.path()));
    const Exit exit = RunClient({"--connect", address(), entry.path().string()});
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
  const std::filesystem::path dir = Env("SUDOKU_SHARED_DATA_DIR");
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

}  // namespace
}  // namespace sudoku::testing
