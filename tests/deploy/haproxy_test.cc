// Past one machine: three sudokud daemons behind a real HAProxy running deploy/haproxy.cfg (only
// its addresses replaced), and sudoku-client solving a large set through it with every answer
// checked. Each daemon runs as its own host, in a network namespace with its own address, where
// this machine allows it (root, `ip netns`); otherwise on loopback ports. Skipped without
// haproxy. No test asserts a timing.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
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

#include "tests/daemon/wire_client.h"

extern char** environ;

namespace sudoku::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const fs::path kSourceDir = SUDOKU_SOURCE_DIR;

// Runs `command` through sh, its output discarded unless it redirects it itself.
int Shell(const std::string& command) {
  const int status = std::system(("{ " + command + "; } >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A child process whose stdout and stderr go to files.
class Child {
 public:
  Child(const std::vector<std::string>& args, const fs::path& out, const fs::path& err)
      : err_(err) {
    std::vector<char*> argv;
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int error = posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) throw std::runtime_error("cannot start " + args[0]);
  }
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      Wait();
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  void Signal(int signal) const { ::kill(pid_, signal); }
  // The exit code, or 128 + the signal.
  int Wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  bool Running() const {
    int status = 0;
    return pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == 0;
  }
  std::string Log() const { return ReadFile(err_); }
  // Waits (up to a minute) for stderr to contain `text`.
  bool WaitForLog(const std::string& text) const {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (Clock::now() < deadline) {
      if (Log().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

 private:
  pid_t pid_ = -1;
  fs::path err_;
};

uint16_t FreePort() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(
      io, {boost::asio::ip::address_v4::loopback(), 0});
  return acceptor.local_endpoint().port();
}

// Where the three daemons run: three network namespaces, each joined to this one by a veth pair
// (10.213.N.1 here, 10.213.N.2 there), or else loopback ports.
class Hosts {
 public:
  static constexpr int kCount = 3;

  Hosts() {
    const std::string tag = std::to_string(::getpid() % 100000);
    const int subnet = static_cast<int>(::getpid() % 60) * 4;
    if (::geteuid() == 0 && Shell("command -v ip") == 0) {
      namespaces_ = true;
      for (int i = 0; i < kCount && namespaces_; ++i) {
        const std::string ns = "sudokud-test-" + tag + "-" + std::to_string(i);
        const std::string host_link = "sv" + tag + "h" + std::to_string(i);
        const std::string ns_link = "sv" + tag + "n" + std::to_string(i);
        const std::string net = "10.213." + std::to_string(subnet + i) + ".";
        names_.push_back(ns);
        namespaces_ =
            Shell("ip netns add " + ns) == 0 &&
            Shell("ip link add " + host_link + " type veth peer name " + ns_link + " netns " +
                  ns) == 0 &&
            Shell("ip addr add " + net + "1/24 dev " + host_link) == 0 &&
            Shell("ip link set " + host_link + " up") == 0 &&
            Shell("ip -n " + ns + " addr add " + net + "2/24 dev " + ns_link) == 0 &&
            Shell("ip -n " + ns + " link set " + ns_link + " up") == 0 &&
            Shell("ip -n " + ns + " link set lo up") == 0;
        addresses_.push_back(net + "2:9810");
      }
    }
    if (!namespaces_) {
      Cleanup();
      for (int i = 0; i < kCount; ++i) {
        addresses_.push_back("127.0.0.1:" + std::to_string(FreePort()));
      }
    }
  }
  ~Hosts() { Cleanup(); }

  bool namespaces() const { return namespaces_; }
  const std::string& address(int i) const { return addresses_[static_cast<size_t>(i)]; }
  // The command line that runs `args` on host i.
  std::vector<std::string> On(int i, std::vector<std::string> args) const {
    if (!namespaces_) return args;
    args.insert(args.begin(), {"ip", "netns", "exec", names_[static_cast<size_t>(i)]});
    return args;
  }

 private:
  void Cleanup() {
    // Deleting a namespace deletes the veth pair with it.
    for (const auto& ns : names_) Shell("ip netns del " + ns);
    names_.clear();
    addresses_.clear();
  }

  bool namespaces_ = false;
  std::vector<std::string> names_;
  std::vector<std::string> addresses_;
};

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class HaproxyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Shell("command -v haproxy") != 0) GTEST_SKIP() << "no haproxy (apt-get install haproxy)";
    dir_ = fs::path(::testing::TempDir()) / ("sudokud_haproxy_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    for (int i = 0; i < Hosts::kCount; ++i) {
      const std::string log = (dir_ / ("daemon" + std::to_string(i) + ".log")).string();
      daemons_.push_back(std::make_unique<Child>(
          hosts_.On(i, {DaemonBinary(), "--listen", hosts_.address(i), "--threads", "1"}),
          "/dev/null", log));
      ASSERT_TRUE(daemons_.back()->WaitForLog("listening on ")) << daemons_.back()->Log();
    }
    // deploy/haproxy.cfg as shipped, with this test's addresses.
    std::string config = ReadFile(kSourceDir / "deploy/haproxy.cfg");
    frontend_ = "127.0.0.1:" + std::to_string(FreePort());
    config = Replace(config, "bind 127.0.0.1:9800", "bind " + frontend_);
    for (int i = 0; i < Hosts::kCount; ++i) {
      config = Replace(config, "127.0.0.1:981" + std::to_string(i + 1), hosts_.address(i));
    }
    std::ofstream(dir_ / "haproxy.cfg") << config;
    haproxy_ = std::make_unique<Child>(
        std::vector<std::string>{"haproxy", "-db", "-f", (dir_ / "haproxy.cfg").string()},
        "/dev/null", dir_ / "haproxy.log");
    // Ready once a puzzle goes through (HAProxy marks servers up after their checks pass).
    std::ofstream(dir_ / "one.txt") << GeneratePuzzles(1, 30, 1)[0] << "\n";
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (Shell(Client({(dir_ / "one.txt").string()})) != 0) {
      ASSERT_LT(Clock::now(), deadline) << haproxy_->Log();
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }

  void TearDown() override {
    haproxy_.reset();
    daemons_.clear();
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  static std::string DaemonBinary() {
    const char* binary = std::getenv("SUDOKUD_BIN");
    return binary != nullptr ? binary : SUDOKUD_BUILT_BIN;
  }
  static std::string ClientBinary() {
    const char* binary = std::getenv("SUDOKU_CLIENT_BIN");
    return binary != nullptr ? binary : SUDOKU_CLIENT_BUILT_BIN;
  }
  // sudoku-client through the load balancer, as a shell command.
  std::string Client(const std::vector<std::string>& args) const {
    std::string command = "'" + ClientBinary() + "' solve --connect " + frontend_;
    for (const auto& arg : args) command += " '" + arg + "'";
    return command;
  }

  // Writes `count` puzzles to a file; returns them.
  std::vector<std::string> WritePuzzles(int count, const fs::path& path) const {
    std::vector<std::string> puzzles = GeneratePuzzles(count, 24, 2024);
    std::ofstream out(path);
    for (const auto& puzzle : puzzles) out << puzzle << "\n";
    return puzzles;
  }

  // Every output line is a valid solution of its puzzle.
  static void ExpectEveryAnswer(const std::vector<std::string>& puzzles, const fs::path& output) {
    std::istringstream lines(ReadFile(output));
    size_t i = 0;
    int wrong = 0;
    for (std::string line; std::getline(lines, line); ++i) {
      if (i < puzzles.size() && !IsSolutionOf(puzzles[i], line) && ++wrong <= 5) {
        ADD_FAILURE() << "puzzle " << i << ": " << puzzles[i] << " answered " << line;
      }
    }
    EXPECT_EQ(i, puzzles.size());
    EXPECT_EQ(wrong, 0);
  }

  // "stopped: C connections, B batches, ..." from daemon i after SIGTERM: the batches it served.
  long BatchesServedBy(int i) {
    Child& daemon = *daemons_[static_cast<size_t>(i)];
    daemon.Signal(SIGTERM);
    EXPECT_EQ(daemon.Wait(), 0) << daemon.Log();
    std::smatch match;
    const std::string log = daemon.Log();
    const std::regex stopped("stopped: [0-9]+ connections, ([0-9]+) batches");
    if (!std::regex_search(log, match, stopped)) {
      ADD_FAILURE() << log;
      return -1;
    }
    return std::stol(match[1]);
  }

  Hosts hosts_;
  fs::path dir_;
  std::string frontend_;
  std::vector<std::unique_ptr<Child>> daemons_;
  std::unique_ptr<Child> haproxy_;
};

TEST_F(HaproxyTest, SolvesALargeSetThroughThreeInstances) {
  const auto puzzles = WritePuzzles(100000, dir_ / "puzzles.txt");
  const int status = Shell(Client({"--connections", "6", "--batch", "500",
                                   (dir_ / "puzzles.txt").string()}) +
                           " >'" + (dir_ / "answers.txt").string() + "'");
  EXPECT_EQ(status, 0);
  ExpectEveryAnswer(puzzles, dir_ / "answers.txt");
  // leastconn spread the six connections over all three.
  for (int i = 0; i < Hosts::kCount; ++i) EXPECT_GT(BatchesServedBy(i), 0) << "daemon " << i;
  if (!hosts_.namespaces()) std::printf("note: daemons on loopback ports, not namespaces\n");
}

// The client resends the batches of a connection that died, reconnecting to the same address:
// HAProxy sends the new connection to a live instance.
TEST_F(HaproxyTest, GetsEveryAnswerWhenAnInstanceIsKilledMidRun) {
  const auto puzzles = WritePuzzles(300000, dir_ / "puzzles.txt");
  const fs::path answers = dir_ / "answers.txt";
  Child client({"sh", "-c", Client({"--connections", "6", "--batch", "500",
                                    (dir_ / "puzzles.txt").string()})},
               answers, dir_ / "client.log");
  // Kill daemon 1 once a tenth of the answers are out.
  const auto deadline = Clock::now() + std::chrono::seconds(300);
  while (client.Running() && fs::file_size(answers) < puzzles.size() * 82 / 10 &&
         Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  daemons_[1]->Signal(SIGKILL);
  EXPECT_EQ(client.Wait(), 0) << client.Log();
  ExpectEveryAnswer(puzzles, answers);
}

}  // namespace
}  // namespace sudoku::testing
