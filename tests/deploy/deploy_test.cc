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
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/daemon/wire_client.h"
#include "tests/support/paths.h"

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

const fs::path kBuildDir = TestPath("SUDOKU_BUILD_DIR");
const fs::path kSourceDir = TestPath("SUDOKU_SOURCE_DIR");

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

// The items `systemd-analyze security` counts against `unit`, by name.
std::set<std::string> OpenItemsOf(const fs::path& unit) {
  const CommandResult result =
      RunShell("LC_ALL=C systemd-analyze security --offline=yes --no-pager '" + unit.string() +
               "'");
  std::set<std::string> items;
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);) {
    // "- NAME  DESCRIPTION  EXPOSURE" (a cross in a UTF-8 locale), "+ ..." for the items closed.
    if (line.rfind("- ", 0) != 0) continue;
    std::istringstream words(line.substr(2));
    std::string name;
    words >> name;
    items.insert(name);
  }
  return items;
}

// The figure the unit's comment and the README state (1.2), and exactly the items they explain:
// a new one, or one closed, means the figure and its explanation must be looked at again.
TEST(Units, ExposureScoreIsTheOneTheReadmeStates) {
  if (!Have("systemd-analyze")) GTEST_SKIP() << "no systemd-analyze";
  const fs::path dir = UnitsToVerify();
  const std::set<std::string> open = {
      "SystemCallFilter=~@resources",  // setpriority(), for nice 19
      "RootDirectory=/RootImage=",     "RestrictAddressFamilies=~AF_UNIX",
      "RestrictAddressFamilies=~AF_(INET|INET6)", "PrivateNetwork=",
      "DeviceAllow=",                  // char-rtc:r, from ProtectClock=
      "IPAddressDeny="};
  for (const char* unit : {"sudokud.service", "sudokud@9811.service"}) {
    EXPECT_DOUBLE_EQ(ExposureOf(dir / unit), 1.2) << unit;
    EXPECT_EQ(OpenItemsOf(dir / unit), open) << unit;
  }
  EXPECT_THAT(ReadFile(kSourceDir / "README.md"),
              HasSubstr("`systemd-analyze security sudokud` scores it 1.2 ("));
  for (const char* unit : {"deploy/sudokud.service", "deploy/sudokud@.service"}) {
    EXPECT_THAT(ReadFile(kSourceDir / unit), HasSubstr("scores this\n# unit 1.2 (")) << unit;
  }
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
        "./usr/share/man/man8/sudokud.8.gz", "./usr/share/man/man1/sudoku-client.1.gz",
        "./usr/share/man/man1/sudoku-bench.1.gz", "./usr/share/doc/sudokud/copyright",
        "./usr/share/doc/sudokud/changelog.Debian.gz", "./usr/share/doc/sudokud/sudoku.proto",
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

  EXPECT_EQ(RunShell("dpkg-deb -f '" + deb.string() + "' Section").output, "net\n");
  EXPECT_EQ(RunShell("dpkg-deb -f '" + deb.string() + "' Version").output, "0.1.0-1\n");

  // Debian's checks, pedantic ones (the hardening tags) and informational ones included: any
  // tag fails. (Its standard error only says that running as root is not recommended.)
  if (Have("lintian")) {
    const CommandResult lintian = RunShell("{ lintian --pedantic --info --tag-display-limit 0 '" +
                                           deb.string() + "' 2>/dev/null; }");
    EXPECT_EQ(lintian.output, "");
    EXPECT_EQ(lintian.exit_code, 0);
  } else {
    ADD_FAILURE() << "no lintian: deploy/bootstrap.sh installs it";
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
    // Now with the man page check: Documentation=man:sudokud(8) must resolve.
    const CommandResult verified =
        RunShell("systemd-analyze verify /usr/lib/systemd/system/sudokud.service "
            "/usr/lib/systemd/system/sudokud.socket");
    EXPECT_EQ(verified.output, "");
  }
  // What the README's steps add (`systemctl enable sudokud.socket`, `systemctl enable
  // sudokud@9811`, its settings file), made by hand here where no systemd runs: purge removes it.
  const fs::path socket_link = "/etc/systemd/system/sockets.target.wants/sudokud.socket";
  const fs::path instance_link = "/etc/systemd/system/multi-user.target.wants/sudokud@9811.service";
  fs::create_directories(socket_link.parent_path());
  fs::create_symlink("/usr/lib/systemd/system/sudokud.socket", socket_link);
  fs::create_symlink("/usr/lib/systemd/system/sudokud@.service", instance_link);
  std::ofstream("/etc/default/sudokud@9811") << "SUDOKUD_OPTS=--metrics 127.0.0.1:9911\n";
  const CommandResult purged = Dpkg("--purge sudokud");
  EXPECT_EQ(purged.exit_code, 0) << purged.output;
  EXPECT_FALSE(fs::exists("/usr/bin/sudokud"));
  EXPECT_FALSE(fs::exists("/etc/default/sudokud"));
  EXPECT_FALSE(fs::exists("/etc/systemd/system/multi-user.target.wants/sudokud.service"));
  EXPECT_FALSE(fs::exists("/etc/systemd/system/sudokud.service"));  // no mask left behind
  // Dangling links count: fs::exists would follow them.
  EXPECT_FALSE(fs::exists(fs::symlink_status(socket_link)));
  EXPECT_FALSE(fs::exists(fs::symlink_status(instance_link)));
  EXPECT_FALSE(fs::exists("/etc/default/sudokud@9811"));
  EXPECT_FALSE(fs::exists("/var/lib/systemd/deb-systemd-helper-enabled/sudokud.socket.dsh-also"));
  fs::remove_all(dir);
}

// ---- installing from the build tree ----

// One test, not two: each install rewrites the build tree's install_manifest.txt.
TEST(Install, EverythingGoesUnderThePrefixAndAnEditedSettingsFileIsKept) {
  const fs::path prefix = TempDir("prefix");
  const std::string install =
      "cmake --install '" + kBuildDir.string() + "' --prefix '" + prefix.string() + "'";
  const CommandResult first = RunShell(install);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  for (const char* path :
       {"bin/sudokud", "bin/sudoku-client", "bin/sudoku-bench", "etc/default/sudokud",
        "lib/systemd/system/sudokud.service", "share/man/man8/sudokud.8.gz",
        "share/man/man1/sudoku-client.1.gz", "share/man/man1/sudoku-bench.1.gz",
        "share/doc/sudokud/copyright", "share/doc/sudokud/examples/haproxy.cfg"}) {
    EXPECT_TRUE(fs::exists(prefix / path)) << path;
  }
  // Nothing outside the prefix: every installed path is under it.
  std::istringstream manifest(ReadFile(kBuildDir / "install_manifest.txt"));
  for (std::string line; std::getline(manifest, line);) {
    EXPECT_EQ(line.rfind(prefix.string() + "/", 0), 0u) << line;
  }
  EXPECT_THAT(ReadFile(prefix / "lib/systemd/system/sudokud.service"),
              HasSubstr("\nExecStart=" + (prefix / "bin/sudokud").string() + " --listen"));

  // An operator's edits survive a second install; the new file goes beside it.
  const std::string edited = "SUDOKUD_OPTS=--threads 2\n";
  std::ofstream(prefix / "etc/default/sudokud") << edited;
  const CommandResult second = RunShell(install);
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_EQ(ReadFile(prefix / "etc/default/sudokud"), edited);
  EXPECT_EQ(ReadFile(prefix / "etc/default/sudokud.new"),
            ReadFile(kSourceDir / "deploy/sudokud.default"));
  EXPECT_THAT(second.output,
              HasSubstr("Keeping: " + (prefix / "etc/default/sudokud").string() +
                        " (the new one is " + (prefix / "etc/default/sudokud").string() +
                        ".new)"));
  fs::remove_all(prefix);

  // With the prefix /usr (as the package installs), the settings go to /etc.
  const fs::path root = TempDir("destdir");
  const CommandResult installed = RunShell("DESTDIR='" + root.string() + "' cmake --install '" +
                                           kBuildDir.string() + "' --prefix /usr");
  ASSERT_EQ(installed.exit_code, 0) << installed.output;
  EXPECT_TRUE(fs::exists(root / "etc/default/sudokud"));
  EXPECT_FALSE(fs::exists(root / "usr/etc"));
  EXPECT_TRUE(fs::exists(root / "usr/bin/sudokud"));
  fs::remove_all(root);
}

// ---- hardening ----

// The names of glibc's checked functions (_FORTIFY_SOURCE) among the dynamic symbols `symbols`
// that readelf lists, the stack protector's __stack_chk_fail excluded.
std::set<std::string> FortifiedFunctions(const std::string& symbols) {
  static const std::regex kChecked("__([a-z0-9_]+)_chk\\b");
  std::set<std::string> names;
  for (auto it = std::sregex_iterator(symbols.begin(), symbols.end(), kChecked);
       it != std::sregex_iterator(); ++it) {
    if ((*it)[1] != "stack") names.insert(it->str());
  }
  return names;
}

// Every binary as Debian builds it (dpkg-buildflags, hardening=+all): position-independent,
// RELRO with immediate binding, the stack protector and glibc's checked functions.
TEST(Hardening, EveryBinaryHasDebiansFlags) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer builds are built without the hardening flags (SUDOKU_HARDENING is "
                  "off there); the plain build checks them";
#endif
  if (!Have("readelf")) GTEST_SKIP() << "no readelf (binutils)";
  for (const char* binary : {"daemon/sudokud", "client/sudoku-client", "client/sudoku-bench"}) {
    const std::string path = (kBuildDir / binary).string();
    const std::string header = RunShell("readelf -h '" + path + "'").output;
    EXPECT_THAT(header, HasSubstr("DYN (Position-Independent Executable file)")) << binary;
    const std::string program = RunShell("readelf -lW '" + path + "'").output;
    EXPECT_THAT(program, HasSubstr("GNU_RELRO")) << binary;
    const std::string dynamic = RunShell("readelf -dW '" + path + "'").output;
    EXPECT_THAT(dynamic, ::testing::ContainsRegex("FLAGS.*BIND_NOW")) << binary;
    EXPECT_THAT(dynamic, ::testing::ContainsRegex("FLAGS_1.*NOW.*PIE")) << binary;
    const std::string symbols = RunShell("readelf --dyn-syms -W '" + path + "'").output;
    EXPECT_THAT(symbols, HasSubstr("__stack_chk_fail")) << binary;
    // A fortified call is one of glibc's checked functions (__memcpy_chk, __sprintf_chk, ...);
    // the stack protector's __stack_chk_fail, matched above, is not one of them.
    EXPECT_THAT(FortifiedFunctions(symbols), ::testing::Not(::testing::IsEmpty())) << binary;
  }
}

// ---- man pages ----

// The options a --help text lists: every --name on a line that starts with an option.
std::vector<std::string> OptionsOf(const std::string& help) {
  std::vector<std::string> options;
  std::istringstream lines(help);
  const std::regex option_line(R"(^\s+-)");
  const std::regex option(R"(--[a-z][a-z0-9-]*)");
  for (std::string line; std::getline(lines, line);) {
    if (!std::regex_search(line, option_line)) continue;
    const std::string head = line.substr(0, std::min<size_t>(line.size(), 48));
    for (std::sregex_iterator it(head.begin(), head.end(), option), end; it != end; ++it) {
      if (std::find(options.begin(), options.end(), it->str()) == options.end()) {
        options.push_back(it->str());
      }
    }
  }
  return options;
}

// `page` rendered by man as a reader sees it, long lines unbroken; groff's warnings fail.
std::string RenderedManPage(const std::string& page) {
  const fs::path path = kBuildDir / "deploy/man" / (page + ".gz");
  const std::string man = "LC_ALL=C MANWIDTH=200 man --warnings -E ascii -l '" + path.string() + "'";
  const CommandResult warnings = RunShell(man + " 2>&1 >/dev/null");
  EXPECT_EQ(warnings.output, "") << page;
  const CommandResult rendered = RunShell(man + " 2>/dev/null | col -b");
  EXPECT_EQ(rendered.exit_code, 0) << page;
  // A word broken at one of its hyphens at the end of a line, joined again.
  return std::regex_replace(rendered.output, std::regex(R"(-\n\s+)"), "-");
}

void ExpectDocumentsEveryOption(const std::string& page, const std::string& help_command) {
  const std::string text = RenderedManPage(page);
  const CommandResult help = RunShell(help_command);
  ASSERT_EQ(help.exit_code, 0) << help.output;
  const std::vector<std::string> options = OptionsOf(help.output);
  EXPECT_GE(options.size(), 2u) << help.output;
  for (const std::string& option : options) {
    EXPECT_THAT(text, HasSubstr(option))
        << "`" << help_command << "` lists " << option << ", which deploy/man/" << page
        << " does not document: add it to the page's OPTIONS (or the command's section)";
  }
}

TEST(Manual, EveryPageRendersAndNamesEveryOption) {
  if (!Have("man") || !Have("col")) {
    ADD_FAILURE() << "no man or col: deploy/bootstrap.sh installs man-db and bsdextrautils";
    return;
  }
  const std::string daemon = (kBuildDir / "daemon/sudokud").string();
  const std::string client = (kBuildDir / "client/sudoku-client").string();
  const std::string bench = (kBuildDir / "client/sudoku-bench").string();
  ExpectDocumentsEveryOption("sudokud.8", daemon + " --help");
  for (const char* command : {"solve", "explain", "generate", "bench"}) {
    ExpectDocumentsEveryOption("sudoku-client.1", client + " " + command + " --help");
  }
  ExpectDocumentsEveryOption("sudoku-bench.1", bench + " --help");

  const std::string page = RenderedManPage("sudokud.8");
  for (const char* section : {"SYNOPSIS", "OPTIONS", "SIGNALS", "EXIT STATUS", "ENVIRONMENT",
                              "FILES", "UNITS AND PORTS"}) {
    EXPECT_THAT(page, HasSubstr(std::string("\n") + section + "\n")) << section;
  }
  for (const char* unit : {"sudokud.service", "sudokud.socket", "sudokud@.service"}) {
    EXPECT_THAT(page, HasSubstr(unit));
  }
  const std::string client_page = RenderedManPage("sudoku-client.1");
  for (const char* command : {"solve", "explain", "generate", "bench"}) {
    EXPECT_THAT(client_page, HasSubstr(std::string("\n   ") + command + "\n")) << command;
  }
}

// ---- command-line conventions ----

const std::string kDaemon = (kBuildDir / "daemon/sudokud").string();
const std::string kClient = (kBuildDir / "client/sudoku-client").string();
const std::string kBench = (kBuildDir / "client/sudoku-bench").string();

TEST(Cli, EveryBinaryAndCommandPrintsItsVersion) {
  const std::string version = std::string(" ") + SUDOKU_VERSION + R"(( \(git [0-9a-f]{7}\))?\n)";
  for (const auto& [command, name] :
       {std::pair{kDaemon, "sudokud"}, std::pair{kBench, "sudoku-bench"},
        std::pair{kClient, "sudoku-client"}, std::pair{kClient + " solve", "sudoku-client"},
        std::pair{kClient + " explain", "sudoku-client"},
        std::pair{kClient + " generate", "sudoku-client"},
        std::pair{kClient + " bench", "sudoku-client"}}) {
    const CommandResult result = RunShell(command + " --version");
    EXPECT_EQ(result.exit_code, 0) << command;
    EXPECT_TRUE(std::regex_match(result.output, std::regex(name + version)))
        << command << ": " << result.output;
  }
}

TEST(Cli, EveryBinaryAndCommandTakesShortHelp) {
  for (const std::string& command :
       {kDaemon, kBench, kClient, kClient + " solve", kClient + " explain",
        kClient + " generate", kClient + " bench"}) {
    const CommandResult result = RunShell(command + " -h");
    EXPECT_EQ(result.exit_code, 0) << command;
    EXPECT_THAT(result.output, HasSubstr("--help")) << command;
    EXPECT_EQ(result.output, RunShell(command + " --help").output) << command;
  }
}

TEST(Cli, AStrayArgumentIsAUsageError) {
  CommandResult result = RunShell(kDaemon + " extra-arg");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.output,
            "sudokud: unexpected argument 'extra-arg': sudokud takes only options "
            "(see sudokud --help)\n");
  result = RunShell(kClient + " generate --count 2 extra-arg");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.output,
            "sudoku-client: generate takes no arguments besides its options, got 'extra-arg' "
            "(see: sudoku-client generate --help)\n");
  result = RunShell(kClient + " solvee");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.output, "sudoku-client: unknown command 'solvee' (the commands: solve, "
                           "explain, generate, bench; see: sudoku-client --help)\n");
}

TEST(Cli, DurationsTakeUnits) {
  CommandResult result = RunShell(kDaemon + " --idle-timeout 10x");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.output,
            "sudokud: --idle-timeout must be a duration such as 10s, 2m or 500ms (a plain number "
            "is seconds) from 0s to 604800s, got '10x' (see sudokud --help)\n");
  result = RunShell(kDaemon + " --drain-timeout 2d");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.output,
            "sudokud: --drain-timeout must be a duration such as 10s, 2m or 500ms (a plain "
            "number is seconds) from 0s to 86400s, got '2d' (see sudokud --help)\n");
  result = RunShell(kBench + " --min-seconds 1y x.txt");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.output,
            "sudoku-bench: --min-seconds expects a duration such as 10s, 2m or 500ms (a plain "
            "number is seconds), got '1y'\n");
  // Accepted forms: the daemon starts (on a free port) and drains at once on SIGTERM.
  for (const char* durations : {"--idle-timeout 2m --drain-timeout 500ms",
                                "--idle-timeout 300 --drain-timeout 1.5s"}) {
    result = RunShell("timeout -s TERM 1 " + kDaemon + " --listen 127.0.0.1:0 --threads 1 " +
                      durations);
    EXPECT_THAT(result.output, HasSubstr("sudokud: listening on 127.0.0.1:")) << durations;
    EXPECT_THAT(result.output, HasSubstr("sudokud: stopped: ")) << durations;
  }
}

TEST(Cli, NoFlagMeansTwoThings) {
  // --rate is solve's rating of each puzzle; bench's pace is --batches-per-second.
  EXPECT_THAT(RunShell(kClient + " solve --help").output, HasSubstr("--rate "));
  const std::string bench = RunShell(kClient + " bench --help").output;
  EXPECT_THAT(bench, HasSubstr("--batches-per-second R"));
  EXPECT_THAT(bench, ::testing::Not(HasSubstr("--rate")));
  // --count is a number of puzzles (generate's); bench's number of batches is --requests.
  EXPECT_THAT(RunShell(kClient + " generate --help").output, HasSubstr("--count N"));
  EXPECT_THAT(bench, HasSubstr("--requests N"));
  EXPECT_THAT(bench, ::testing::Not(HasSubstr("--count")));
}

TEST(Cli, PlaceholdersNameTheValue) {
  for (const std::string& command :
       {kDaemon, kBench, kClient + " solve", kClient + " explain", kClient + " generate",
        kClient + " bench"}) {
    const std::string help = RunShell(command + " --help").output;
    EXPECT_THAT(help, ::testing::Not(::testing::ContainsRegex(R"(--[a-z-]+ arg\b)"))) << command;
  }
  EXPECT_THAT(RunShell(kBench + " --help").output, HasSubstr("--threads N"));
  EXPECT_THAT(RunShell(kBench + " --help").output, HasSubstr("--min-seconds DURATION"));
}

// ---- ports: everything the package ships runs side by side on one host ----

// The HOST:PORT values after `key` in `text` (one per line that starts with it).
std::vector<std::string> Values(const std::string& text, const std::string& key) {
  std::vector<std::string> values;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || line.compare(start, key.size(), key) != 0) continue;
    std::istringstream words(line.substr(start + key.size()));
    std::string word;
    words >> word;
    if (!word.empty() && word.back() != ':') values.push_back(word);
    if (key == "server") {
      words >> word;
      values.back() = word;
    }
  }
  return values;
}

TEST(Ports, ServiceSocketInstancesAndHaproxyDoNotCollide) {
  const std::string service = ReadFile(kSourceDir / "deploy/sudokud.service");
  const std::string socket = ReadFile(kSourceDir / "deploy/sudokud.socket");
  const std::string haproxy = ReadFile(kSourceDir / "deploy/haproxy.cfg");
  EXPECT_THAT(service, HasSubstr("\nEnvironment=SUDOKUD_LISTEN=127.0.0.1:9810\n"));
  // The socket is the service's own (it hands the service its port), so it shares 9810.
  EXPECT_THAT(socket, HasSubstr("\nListenStream=127.0.0.1:9810\n"));
  EXPECT_EQ(Values(haproxy, "bind"), std::vector<std::string>{"127.0.0.1:9800"});
  EXPECT_EQ(Values(haproxy, "server"),
            (std::vector<std::string>{"127.0.0.1:9811", "127.0.0.1:9812", "127.0.0.1:9813"}));
  // Each instance's health checks on its port plus 100 (its --metrics; README, Ports).
  for (const char* server : {"server sudokud1 127.0.0.1:9811 port 9911\n",
                             "server sudokud2 127.0.0.1:9812 port 9912\n",
                             "server sudokud3 127.0.0.1:9813 port 9913\n"}) {
    EXPECT_THAT(haproxy, HasSubstr(server));
  }
  EXPECT_THAT(ReadFile(kSourceDir / "deploy/sudokud@.service"),
              HasSubstr("\nEnvironment=SUDOKUD_LISTEN=127.0.0.1:%i\n"));
}

// The README's scale-out step adds the example's sections to Debian's own haproxy.cfg, keeping
// its `global` (chroot, user, stats socket): the result must be a configuration HAProxy takes.
TEST(Ports, TheReadmesHaproxyStepKeepsDebiansGlobalSection) {
  const std::string step =
      "sed -n '/^defaults/,$p' /usr/share/doc/sudokud/examples/haproxy.cfg | "
      "sudo tee -a /etc/haproxy/haproxy.cfg";
  ASSERT_THAT(ReadFile(kSourceDir / "README.md"), HasSubstr(step));
  if (!Have("haproxy")) GTEST_SKIP() << "no haproxy";
  const fs::path debians = "/etc/haproxy/haproxy.cfg";
  if (!fs::exists(debians)) GTEST_SKIP() << "no haproxy configuration at " << debians;
  const fs::path config = TempDir("haproxy") / "haproxy.cfg";
  fs::copy_file(debians, config);
  const CommandResult appended = RunShell("sed -n '/^defaults/,$p' '" +
                                          (kSourceDir / "deploy/haproxy.cfg").string() +
                                          "' >> '" + config.string() + "'");
  ASSERT_EQ(appended.exit_code, 0) << appended.output;
  const CommandResult checked = RunShell("haproxy -c -f '" + config.string() + "'");
  EXPECT_EQ(checked.exit_code, 0) << checked.output;
  const std::string merged = ReadFile(config);
  EXPECT_THAT(merged, HasSubstr("chroot /var/lib/haproxy"));
  EXPECT_THAT(merged, HasSubstr("backend sudokud_instances"));
}

}  // namespace
}  // namespace sudoku::testing
