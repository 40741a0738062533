#include "tests/support/daemon_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "tests/support/paths.h"

extern char** environ;

namespace sudoku::testing {

using Clock = std::chrono::steady_clock;

std::string DaemonBinary() { return TestPath("SUDOKUD_BIN"); }

namespace {

// Starts `argv[0]` with stdout/stderr going to the given descriptors (-1 leaves them alone).
pid_t Spawn(const std::vector<std::string>& args, const std::vector<std::string>& extra_env,
            int out_fd, int err_fd) {
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  for (const auto& entry : extra_env) env_strings.push_back(entry);
  std::vector<char*> envp;
  for (auto& entry : env_strings) envp.push_back(entry.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (out_fd >= 0) posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  if (err_fd >= 0) posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(error));
  }
  return pid;
}

int ExitCode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

DaemonProcess::DaemonProcess(const std::vector<std::string>& args,
                             const std::vector<std::string>& env) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  std::vector<std::string> argv{DaemonBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  try {
    // Its stdout too: left to the test's, which ctest reads, a daemon that outlived a test
    // process that aborted (std::terminate skips the destructor that stops it) kept ctest
    // waiting for the end of the test's output until its timeout, ten minutes.
    pid_ = Spawn(argv, env, fds[1], fds[1]);
  } catch (...) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw;
  }
  ::close(fds[1]);
  reader_ = std::thread([this, fd = fds[0]] { Drain(fd); });
  const std::string line = WaitForLog("listening on ");
  const size_t colon = line.find(' ', line.find("listening on ") + 13);
  const size_t port_start = line.rfind(':', colon) + 1;
  port_ = static_cast<uint16_t>(std::stoi(line.substr(port_start, colon - port_start)));
}

DaemonProcess::~DaemonProcess() {
  bool exited;
  {
    std::lock_guard lock(mutex_);
    exited = exited_;
  }
  if (!exited) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  if (reader_.joinable()) reader_.join();
}

void DaemonProcess::Drain(int fd) {
  std::array<char, 4096> chunk;
  for (;;) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    std::lock_guard lock(mutex_);
    if (n <= 0) {
      log_closed_ = true;
      changed_.notify_all();
      break;
    }
    log_.append(chunk.data(), static_cast<size_t>(n));
    changed_.notify_all();
  }
  ::close(fd);
}

void DaemonProcess::Signal(int signal) { ::kill(pid_, signal); }

int DaemonProcess::Wait(std::chrono::milliseconds timeout) {
  {
    std::lock_guard lock(mutex_);
    if (exited_) return status_;
  }
  const auto deadline = Clock::now() + timeout;
  int status = 0;
  pid_t done = 0;
  while ((done = ::waitpid(pid_, &status, WNOHANG)) == 0 && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  int code = -1;
  if (done == pid_) {
    code = ExitCode(status);
  } else {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
  }
  // The daemon's stderr ends with it: wait for the last bytes before reporting.
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return log_closed_; });
  exited_ = true;
  status_ = code;
  return code;
}

int DaemonProcess::Stop(std::chrono::milliseconds timeout) {
  {
    std::lock_guard lock(mutex_);
    if (exited_) return status_;
  }
  Signal(SIGTERM);
  Signal(SIGCONT);
  return Wait(timeout);
}

std::string DaemonProcess::Log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

std::string DaemonProcess::WaitForLog(std::string_view text,
                                      std::chrono::milliseconds timeout) const {
  const auto deadline = Clock::now() + timeout;
  std::unique_lock lock(mutex_);
  for (;;) {
    const size_t at = log_.find(text);
    if (at != std::string::npos) {
      const size_t start = log_.rfind('\n', at);
      const size_t begin = start == std::string::npos ? 0 : start + 1;
      const size_t end = log_.find('\n', at);
      if (end != std::string::npos) return log_.substr(begin, end - begin);
    }
    if (log_closed_) {
      throw std::runtime_error("sudokud ended without logging '" + std::string(text) +
                               "'; its log:\n" + log_);
    }
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout) {
      throw std::runtime_error("sudokud did not log '" + std::string(text) +
                               "' in time; its log:\n" + log_);
    }
  }
}

void DaemonProcess::WaitForThreadToRun(std::string_view thread,
                                       std::chrono::milliseconds timeout) const {
  const auto deadline = Clock::now() + timeout;
  const std::filesystem::path tasks = "/proc/" + std::to_string(pid_) + "/task";
  for (;;) {
    // /proc/PID/task/TID/stat: "TID (NAME) STATE ..." with utime and stime the 14th and 15th
    // fields; the name may hold spaces, so the fields are counted from its closing parenthesis.
    std::error_code error;
    for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
      std::ifstream in(task.path() / "stat");
      const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const size_t open = stat.find('('), close = stat.rfind(')');
      if (open == std::string::npos || close == std::string::npos) continue;
      if (std::string_view(stat).substr(open + 1, close - open - 1) != thread) continue;
      std::istringstream fields(stat.substr(close + 2));
      std::string field;
      uint64_t utime = 0, stime = 0;
      for (int i = 3; i <= 15 && fields >> field; ++i) {
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
      }
      if (utime + stime > 0) return;
    }
    if (Clock::now() >= deadline) {
      throw std::runtime_error("sudokud's " + std::string(thread) +
                               " threads did not run in time; its log:\n" + Log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

ProcessResult RunDaemonToExit(const std::vector<std::string>& args) {
  std::vector<std::string> argv{DaemonBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunToExit(argv);
}

ProcessResult RunToExit(const std::vector<std::string>& argv) {
  char out_path[] = "/tmp/sudokud-test-out-XXXXXX";
  char err_path[] = "/tmp/sudokud-test-err-XXXXXX";
  const int out_fd = ::mkostemp(out_path, O_CLOEXEC);
  const int err_fd = ::mkostemp(err_path, O_CLOEXEC);
  ProcessResult result;
  const pid_t pid = Spawn(argv, {}, out_fd, err_fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = ExitCode(status);
  auto slurp = [](int fd) {
    std::string text;
    std::array<char, 4096> chunk;
    ::lseek(fd, 0, SEEK_SET);
    ssize_t n;
    while ((n = ::read(fd, chunk.data(), chunk.size())) > 0) text.append(chunk.data(), n);
    ::close(fd);
    return text;
  };
  result.out = slurp(out_fd);
  result.err = slurp(err_fd);
  ::unlink(out_path);
  ::unlink(err_path);
  return result;
}

long ProcStatusKiB(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(field.size()));
  }
  return -1;
}

unsigned long RaiseDescriptorLimit() {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
  ::getrlimit(RLIMIT_NOFILE, &limit);
  return limit.rlim_cur;
}

}  // namespace sudoku::testing
