// Past one machine: three sudokud daemons behind a real HAProxy running deploy/haproxy.cfg (only
// its addresses and ports replaced, and a stats socket added), and sudoku-client solving a large
// set through it with every answer checked. Each daemon runs as its own host, in a network
// namespace with its own address, where this machine allows it (root, `ip netns`); otherwise on
// loopback ports. HAProxy checks each daemon's /readyz; a daemon's pool is wedged with the test
// hook (SUDOKUD_TEST_WEDGE_FILE). Skipped without haproxy. No test asserts a timing.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
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

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/daemon/wire_client.h"
#include "tests/support/sudoku_check.h"
#include "tests/support/puzzles.h"
#include "tests/support/paths.h"
#include "tests/support/ports.h"

extern char** environ;

namespace sudoku::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const fs::path kSourceDir = TestPath("SUDOKU_SOURCE_DIR");

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
      // The first `ip netns add` on a machine makes /run/netns and bind-mounts it on itself;
      // Cleanup() undoes that when it was this test that did it.
      netns_dir_was_mounted_ = Shell("mountpoint -q /run/netns") == 0;
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
        hosts_.push_back(net + "2");
        http_ports_.push_back(9910);
      }
    }
    if (!namespaces_) {
      Cleanup();
      for (int i = 0; i < kCount; ++i) {
        addresses_.push_back("127.0.0.1:" + std::to_string(FreePort()));
        hosts_.push_back("127.0.0.1");
        http_ports_.push_back(FreePort());
      }
    }
  }
  ~Hosts() { Cleanup(); }

  bool namespaces() const { return namespaces_; }
  const std::string& address(int i) const { return addresses_[static_cast<size_t>(i)]; }
  // Where host i serves its metrics and health checks (--metrics).
  std::string http_address(int i) const {
    return hosts_[static_cast<size_t>(i)] + ":" + std::to_string(http_port(i));
  }
  uint16_t http_port(int i) const { return http_ports_[static_cast<size_t>(i)]; }
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
    if (!names_.empty() && !netns_dir_was_mounted_) {
      // Only when no namespace is left in it (another test may be using one).
      Shell("test -z \"$(ls -A /run/netns)\" && umount /run/netns && rmdir /run/netns");
    }
    names_.clear();
    addresses_.clear();
    hosts_.clear();
    http_ports_.clear();
  }

  bool namespaces_ = false;
  bool netns_dir_was_mounted_ = true;  // /run/netns was a mount point before this test
  std::vector<std::string> names_;
  std::vector<std::string> addresses_;
  std::vector<std::string> hosts_;
  std::vector<uint16_t> http_ports_;
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
      // `env` execs the daemon, so that the child's pid is the daemon's.
      daemons_.push_back(std::make_unique<Child>(
          hosts_.On(i, {"env", "SUDOKUD_TEST_WEDGE_FILE=" + WedgeFile(i).string(),
                        DaemonBinary(), "--listen", hosts_.address(i), "--metrics",
                        hosts_.http_address(i), "--threads", "1", "--canary-deadline", "3s"}),
          "/dev/null", log));
      ASSERT_TRUE(daemons_.back()->WaitForLog("serving metrics on ")) << daemons_.back()->Log();
    }
    // deploy/haproxy.cfg as shipped, with this test's addresses and ports, and a stats socket
    // to read the servers' states from.
    std::string config = ReadFile(kSourceDir / "deploy/haproxy.cfg");
    frontend_ = "127.0.0.1:" + std::to_string(FreePort());
    config = Replace(config, "bind 127.0.0.1:9800", "bind " + frontend_);
    config = Replace(config, "\nglobal\n",
                     "\nglobal\n    stats socket " + StatsSocket().string() + " mode 600\n");
    for (int i = 0; i < Hosts::kCount; ++i) {
      const std::string n = std::to_string(i + 1);
      config = Replace(config, "127.0.0.1:981" + n + " port 991" + n,
                       hosts_.address(i) + " port " + std::to_string(hosts_.http_port(i)));
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
    return TestPath("SUDOKUD_BIN");
  }
  static std::string ClientBinary() {
    return TestPath("SUDOKU_CLIENT_BIN");
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

  fs::path WedgeFile(int i) const { return dir_ / ("wedge" + std::to_string(i)); }
  fs::path StatsSocket() const { return dir_ / "haproxy.sock"; }

  // HAProxy's `show stat` line for server `name` of the backend, split at commas (field 7 is
  // stot, the sessions it has had; field 17 the status: UP, DOWN, "UP 1/2" going down...).
  std::vector<std::string> ServerStat(const std::string& name) const {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof address.sun_path, "%s", StatsSocket().c_str());
    std::string reply;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
      const std::string command = "show stat\n";
      if (::write(fd, command.data(), command.size()) == static_cast<ssize_t>(command.size())) {
        char buffer[4096];
        for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) reply.append(buffer, n);
      }
    }
    ::close(fd);
    std::istringstream lines(reply);
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("sudokud_instances," + name + ",")) continue;
      std::vector<std::string> fields;
      std::istringstream cells(line);
      for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
      return fields;
    }
    return {};
  }
  std::string Status(const std::string& name) const {
    const auto fields = ServerStat(name);
    return fields.size() > 17 ? fields[17] : "(no stats)";
  }
  long Sessions(const std::string& name) const {
    const auto fields = ServerStat(name);
    return fields.size() > 7 ? std::stol(fields[7]) : -1;
  }
  // Waits, up to three minutes, for HAProxy to give server `name` the status `status`; returns
  // the last status read.
  std::string WaitForStatus(const std::string& name, const std::string& status) const {
    const auto deadline = Clock::now() + std::chrono::seconds(180);
    std::string now = Status(name);
    while (now != status && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      now = Status(name);
    }
    return now;
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

  // Starts sudoku-client on puzzles.txt (six connections through HAProxy, batches of 500),
  // writing its answers to `answers`, and returns once a tenth of the `puzzles` answers are out,
  // so that a test can break an instance in the middle of the run.
  std::unique_ptr<Child> StartClientAndWaitForATenth(size_t puzzles, const fs::path& answers) {
    auto client = std::make_unique<Child>(
        std::vector<std::string>{"sh", "-c",
                                 Client({"--connections", "6", "--batch", "500",
                                         (dir_ / "puzzles.txt").string()})},
        answers, dir_ / "client.log");
    const auto deadline = Clock::now() + std::chrono::seconds(300);
    while (client->Running() && fs::file_size(answers) < puzzles * 82 / 10 &&
           Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return client;
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
  const auto client = StartClientAndWaitForATenth(puzzles.size(), answers);
  daemons_[1]->Signal(SIGKILL);
  EXPECT_EQ(client->Wait(), 0) << client->Log();
  ExpectEveryAnswer(puzzles, answers);
}

// HAProxy checks /readyz: an instance whose solver pool is wedged is marked DOWN, its
// connections are cut and the client resends their batches through the others, every answer
// right; released, it is marked UP and takes connections again.
TEST_F(HaproxyTest, TakesOutAWedgedInstanceAndBringsItBackWhenReleased) {
  for (const char* name : {"sudokud1", "sudokud2", "sudokud3"}) {
    ASSERT_EQ(WaitForStatus(name, "UP"), "UP") << name << "\n" << haproxy_->Log();
  }
  const auto puzzles = WritePuzzles(100000, dir_ / "puzzles.txt");
  const fs::path answers = dir_ / "answers.txt";
  {
    const auto client = StartClientAndWaitForATenth(puzzles.size(), answers);
    std::ofstream(WedgeFile(1)) << "";
    EXPECT_EQ(WaitForStatus("sudokud2", "DOWN"), "DOWN") << daemons_[1]->Log();
    EXPECT_EQ(client->Wait(), 0) << ReadFile(dir_ / "client.log");
    ExpectEveryAnswer(puzzles, answers);
  }
  EXPECT_THAT(daemons_[1]->Log(), ::testing::HasSubstr(
                                      "not ready: solver pool has not answered a canary for "));
  // While it is out, a whole run goes through the other two.
  const long sessions_while_down = Sessions("sudokud2");
  EXPECT_EQ(Shell(Client({"--connections", "6", "--batch", "500",
                          (dir_ / "puzzles.txt").string()}) +
                  " >'" + answers.string() + "'"),
            0);
  ExpectEveryAnswer(puzzles, answers);
  EXPECT_EQ(Sessions("sudokud2"), sessions_while_down);
  EXPECT_EQ(Status("sudokud2"), "DOWN");

  fs::remove(WedgeFile(1));
  EXPECT_EQ(WaitForStatus("sudokud2", "UP"), "UP") << daemons_[1]->Log();
  // Back in: leastconn gives it connections again.
  EXPECT_EQ(Shell(Client({"--connections", "6", "--batch", "500",
                          (dir_ / "puzzles.txt").string()}) +
                  " >'" + answers.string() + "'"),
            0);
  ExpectEveryAnswer(puzzles, answers);
  EXPECT_GT(Sessions("sudokud2"), sessions_while_down);
}

}  // namespace
}  // namespace sudoku::testing
