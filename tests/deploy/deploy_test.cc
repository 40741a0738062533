// sudokud as deployed: the systemd units checked offline by systemd-analyze, the Debian package
// built, inspected, installed with dpkg and removed, and three daemons behind a real HAProxy
// using deploy/haproxy.cfg. Parts that need root, or a tool that is missing, skip with a reason.
// No test asserts a timing.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/daemon/wire_client.h"

extern char** environ;

namespace sudoku::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `command` through sh, its stderr merged into its stdout.
CommandResult RunShell(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char chunk[4096];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) {
    result.output.append(chunk, n);
  }
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

bool Have(const std::string& program) {
  return RunShell("command -v " + program + " >/dev/null").exit_code == 0;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const fs::path kBuildDir = SUDOKU_BUILD_DIR;
const fs::path kSourceDir = SUDOKU_SOURCE_DIR;

fs::path TempDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("sudokud_" + name + "_" +
                                                          std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// ---- systemd units ----

// The units with this build's daemon in ExecStart; the template as one instance of it.
fs::path UnitsToVerify() {
  const fs::path dir = TempDir("units");
  for (const char* unit : {"sudokud.service", "sudokud.socket"}) {
    fs::copy_file(kBuildDir / "deploy/verify" / unit, dir / unit);
  }
  fs::copy_file(kBuildDir / "deploy/verify/sudokud@.service", dir / "sudokud@9811.service");
  return dir;
}

TEST(Units, PassSystemdAnalyzeVerify) {
  if (!Have("systemd-analyze")) GTEST_SKIP() << "no systemd-analyze";
  const fs::path dir = UnitsToVerify();
  // --man=no: the man page is checked once installed (Package test). Any output is a finding:
  // verify exits 0 on bad values and only prints "..., ignoring".
  const CommandResult result = RunShell("cd '" + dir.string() +
                                   "' && systemd-analyze verify --man=no sudokud.service "
                                   "sudokud@9811.service sudokud.socket");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "");
}

double ExposureOf(const fs::path& unit) {
  const CommandResult result =
      RunShell("systemd-analyze security --offline=yes --no-pager '" + unit.string() + "'");
  std::smatch match;
  const std::regex overall("Overall exposure level for [^:]+: ([0-9.]+)");
  if (!std::regex_search(result.output, match, overall)) {
    ADD_FAILURE() << result.output;
    return 10;
  }
  return std::stod(match[1]);
}

TEST(Units, ExposureScoreIsAtMostTwo) {
  if (!Have("systemd-analyze")) GTEST_SKIP() << "no systemd-analyze";
  const fs::path dir = UnitsToVerify();
  EXPECT_LE(ExposureOf(dir / "sudokud.service"), 2.0);
  EXPECT_LE(ExposureOf(dir / "sudokud@9811.service"), 2.0);
}

TEST(Units, DefaultSettingsFileHoldsOnlyAssignmentsAndComments) {
  std::istringstream lines(ReadFile(kSourceDir / "deploy/sudokud.default"));
  int assignments = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    EXPECT_THAT(line, ::testing::MatchesRegex("SUDOKUD_[A-Z]+=.*")) << line;
    ++assignments;
  }
  EXPECT_GE(assignments, 1);
}

// ---- the Debian package ----

// dpkg with `arguments`; while another package operation holds dpkg's lock, waits and retries
// (for up to five minutes) rather than failing.
CommandResult Dpkg(const std::string& arguments) {
  CommandResult result;
  for (int attempt = 0; attempt < 300; ++attempt) {
    result = RunShell("DEBIAN_FRONTEND=noninteractive dpkg " + arguments);
    if (result.exit_code == 0 || result.output.find("lock") == std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  return result;
}

TEST(Package, BuildsInstallsCleanlyAndRemoves) {
  if (!Have("cpack") || !Have("dpkg-deb") || !Have("dpkg-shlibdeps")) {
    GTEST_SKIP() << "cpack, dpkg-deb or dpkg-shlibdeps missing";
  }
  const fs::path dir = TempDir("package");
  const CommandResult built = RunShell("cd '" + kBuildDir.string() + "' && cpack -G DEB -B '" +
                                  dir.string() + "'");
  ASSERT_EQ(built.exit_code, 0) << built.output;
  fs::path deb;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".deb") deb = entry.path();
  }
  ASSERT_FALSE(deb.empty()) << built.output;

  const std::string contents = RunShell("dpkg-deb -c '" + deb.string() + "'").output;
  for (const char* path :
       {"./usr/bin/sudokud", "./usr/bin/sudoku-client", "./usr/bin/sudoku-bench",
        "./usr/lib/systemd/system/sudokud.service", "./usr/lib/systemd/system/sudokud@.service",
        "./usr/lib/systemd/system/sudokud.socket", "./etc/default/sudokud",
        "./usr/share/man/man1/sudokud.1.gz", "./usr/share/man/man1/sudoku-client.1.gz",
        "./usr/share/man/man1/sudoku-bench.1.gz",
        "./usr/share/doc/sudokud/examples/haproxy.cfg"}) {
    EXPECT_THAT(contents, HasSubstr(std::string(" ") + path + "\n")) << path;
  }
  const std::string depends = RunShell("dpkg-deb -f '" + deb.string() + "' Depends").output;
  for (const char* library : {"libc6", "libstdc++6", "libtbb12", "libprotobuf32", "libsystemd0",
                              "libboost-program-options1.74.0", "init-system-helpers"}) {
    EXPECT_THAT(depends, HasSubstr(library)) << depends;
  }
  const std::string conffiles = RunShell("dpkg-deb -I '" + deb.string() + "' conffiles").output;
  EXPECT_EQ(conffiles, "/etc/default/sudokud\n");
  // The installed unit names the installed daemon.
  const CommandResult unit = RunShell("dpkg-deb --fsys-tarfile '" + deb.string() +
                                 "' | tar -xO ./usr/lib/systemd/system/sudokud.service");
  EXPECT_THAT(unit.output, HasSubstr("\nExecStart=/usr/bin/sudokud --listen ${SUDOKUD_LISTEN} "
                                     "$SUDOKUD_OPTS\n"));

  // Each man page documents its binary's options, the client's those of its command.
  for (const auto& [page, option] : {std::pair{"sudokud", "--max-in-flight"},
                                     std::pair{"sudoku-client", "--connections"},
                                     std::pair{"sudoku-bench", "--min-seconds"}}) {
    // roff writes a hyphen as backslash-hyphen: undo that before looking for the option.
    const CommandResult text =
        RunShell("dpkg-deb --fsys-tarfile '" + deb.string() + "' | tar -xO ./usr/share/man/man1/" +
                 page + ".1.gz | gzip -dc | sed 's/\\\\-/-/g'");
    EXPECT_THAT(text.output, HasSubstr(option)) << page;
  }

  if (::geteuid() != 0) GTEST_SKIP() << "installing with dpkg needs root";
  if (RunShell("dpkg-query -W -f='${Status}' sudokud").output == "install ok installed") {
    GTEST_SKIP() << "a sudokud package is installed already; not touching it";
  }
  const CommandResult installed = Dpkg("-i '" + deb.string() + "'");
  ASSERT_EQ(installed.exit_code, 0) << installed.output;
  EXPECT_THAT(installed.output, ::testing::Not(HasSubstr("warning")));
  EXPECT_THAT(installed.output, ::testing::Not(HasSubstr("error")));
  EXPECT_EQ(RunShell("/usr/bin/sudokud --help").exit_code, 0);
  // Enabled, as Debian enables services (here without a running systemd: only the symlink).
  EXPECT_TRUE(fs::is_symlink("/etc/systemd/system/multi-user.target.wants/sudokud.service"));
  if (Have("systemd-analyze")) {
    // Now with the man page check: Documentation=man:sudokud(1) must resolve.
    const CommandResult verified =
        RunShell("systemd-analyze verify /usr/lib/systemd/system/sudokud.service "
            "/usr/lib/systemd/system/sudokud.socket");
    EXPECT_EQ(verified.output, "");
  }
  const CommandResult purged = Dpkg("--purge sudokud");
  EXPECT_EQ(purged.exit_code, 0) << purged.output;
  EXPECT_FALSE(fs::exists("/usr/bin/sudokud"));
  EXPECT_FALSE(fs::exists("/etc/default/sudokud"));
  EXPECT_FALSE(fs::exists("/etc/systemd/system/multi-user.target.wants/sudokud.service"));
  EXPECT_FALSE(fs::exists("/etc/systemd/system/sudokud.service"));  // no mask left behind
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sudoku::testing
