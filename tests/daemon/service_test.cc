// sudokud as an operator runs it: --metrics (Prometheus over HTTP), the Stats request, socket
// activation (a listening socket passed as systemd does) and journal-style log lines. The real
// binary ($SUDOKUD_BIN) on ephemeral loopback ports; no test asserts a timing.
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "proto/framing.h"
#include "tests/daemon/http_client.h"
#include "tests/daemon/wire_client.h"
#include "tests/support/sudoku_check.h"
#include "tests/support/puzzles.h"
#include "tests/support/paths.h"

namespace sudoku::testing {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;
using ::testing::HasSubstr;


const std::vector<std::string> kMetricsFlags = {"--listen", "127.0.0.1:0", "--metrics",
                                                "127.0.0.1:0", "--threads", "1"};

uint16_t MetricsPort(const DaemonProcess& daemon) {
  const std::string line = daemon.WaitForLog("serving metrics on http://127.0.0.1:");
  const size_t start = line.find("127.0.0.1:") + 10;
  return static_cast<uint16_t>(std::stoi(line.substr(start, line.find('/', start) - start)));
}

// The value of each sample line ("name{labels} value"), keyed by "name{labels}".
std::map<std::string, std::string> Samples(const std::string& exposition) {
  std::map<std::string, std::string> samples;
  std::istringstream lines(exposition);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    samples[line.substr(0, space)] = line.substr(space + 1);
  }
  return samples;
}

// Scrapes until no connection is open any more, so that every count has settled.
std::map<std::string, std::string> SettledSamples(uint16_t port) {
  for (int attempt = 0;; ++attempt) {
    auto samples = Samples(HttpRequest(port, http::verb::get, "/metrics").body());
    if (samples["sudokud_connections_open"] == "0" || attempt == 600) return samples;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

size_t FrameBytes(const google::protobuf::MessageLite& message) {
  std::string frame;
  wire::AppendFrame(message, &frame);
  return frame.size();
}

// The known workload: one batch of 5 solvable puzzles and 1 invalid one, then a connection that
// sends an empty Request (EMPTY_REQUEST fault). Returns the protocol bytes sent and received.
struct Workload {
  size_t bytes_to_daemon = 0;
  size_t bytes_from_daemon = 0;
};
Workload RunKnownWorkload(uint16_t port) {
  Workload total;
  std::vector<std::string> puzzles = GeneratePuzzles(5, 30, 7);
  puzzles.push_back("12");
  {
    WireClient client(port);
    wire::Request request;
    request.mutable_solve()->set_batch_id(1);
    for (const auto& puzzle : puzzles) request.mutable_solve()->add_puzzles(puzzle);
    client.Send(request);
    total.bytes_to_daemon += FrameBytes(request);
    const auto response = client.Read();
    EXPECT_TRUE(response && response->has_solve());
    if (response) total.bytes_from_daemon += FrameBytes(*response);
    EXPECT_EQ(response->solve().verdicts_size(), 6);
    client.ShutdownSend();
    EXPECT_FALSE(client.Read().has_value());
  }
  {
    WireClient client(port);
    client.SendBytes(std::string("\x00", 1));
    total.bytes_to_daemon += 1;
    const auto response = client.Read();
    EXPECT_TRUE(response && response->has_fault());
    if (response) total.bytes_from_daemon += FrameBytes(*response);
    client.Close();
  }
  return total;
}

std::string KernelOf(const DaemonProcess& daemon) {
  const std::string line = daemon.WaitForLog("listening on ");
  const size_t start = line.find("kernel ") + 7;
  return line.substr(start, line.find_first_of(",)", start) - start);
}

// SIGTERM, exit 0, and no sanitizer report in the log (for sanitizer builds).
void StopCleanly(DaemonProcess& daemon) {
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0) << daemon.Log();
  EXPECT_THAT(daemon.Log(), ::testing::Not(HasSubstr("runtime error:")));
  EXPECT_THAT(daemon.Log(), ::testing::Not(HasSubstr("Sanitizer")));
}

TEST(Metrics, ScrapeReportsAKnownWorkloadExactly) {
  DaemonProcess daemon(kMetricsFlags);
  const uint16_t metrics = MetricsPort(daemon);
  const Workload workload = RunKnownWorkload(daemon.port());
  auto samples = SettledSamples(metrics);
  const std::map<std::string, std::string> expected = {
      {"sudokud_connections_total", "2"},
      {"sudokud_connections_open", "0"},
      {"sudokud_batches_total{outcome=\"answered\"}", "1"},
      {"sudokud_batches_total{outcome=\"cancelled\"}", "0"},
      {"sudokud_puzzles_total{verdict=\"solved\"}", "5"},
      {"sudokud_puzzles_total{verdict=\"multiple\"}", "0"},
      {"sudokud_puzzles_total{verdict=\"unsolvable\"}", "0"},
      {"sudokud_puzzles_total{verdict=\"invalid\"}", "1"},
      {"sudokud_batches_in_flight", "0"},
      {"sudokud_puzzles_in_flight", "0"},
      {"sudokud_protocol_faults_total{kind=\"UNKNOWN\"}", "0"},
      {"sudokud_protocol_faults_total{kind=\"FRAME_TOO_LARGE\"}", "0"},
      {"sudokud_protocol_faults_total{kind=\"MALFORMED\"}", "0"},
      {"sudokud_protocol_faults_total{kind=\"EMPTY_REQUEST\"}", "1"},
      {"sudokud_protocol_faults_total{kind=\"BATCH_TOO_LARGE\"}", "0"},
      {"sudokud_protocol_faults_total{kind=\"TOO_MANY_CONNECTIONS\"}", "0"},
      {"sudokud_protocol_faults_total{kind=\"IDLE_TIMEOUT\"}", "0"},
      {"sudokud_received_bytes_total", std::to_string(workload.bytes_to_daemon)},
      {"sudokud_sent_bytes_total", std::to_string(workload.bytes_from_daemon)},
      {"sudokud_batch_solve_seconds_bucket{le=\"+Inf\"}", "1"},
      {"sudokud_batch_solve_seconds_count", "1"},
      {"sudokud_batch_latency_seconds_bucket{le=\"+Inf\"}", "1"},
      {"sudokud_batch_latency_seconds_count", "1"},
      {"sudokud_batch_latency_seconds_bucket{le=\"30\"}", "1"},
      {"sudokud_kernel_info{kernel=\"" + KernelOf(daemon) + "\"}", "1"},
      {"sudokud_solver_threads", "1"},
  };
  for (const auto& [name, value] : expected) EXPECT_EQ(samples[name], value) << name;
  // Buckets are cumulative: each at most the next.
  EXPECT_LE(std::stoi(samples["sudokud_batch_solve_seconds_bucket{le=\"0.0001\"}"]),
            std::stoi(samples["sudokud_batch_solve_seconds_bucket{le=\"30\"}"]));
  EXPECT_GT(std::stod(samples["sudokud_batch_latency_seconds_sum"]), 0);
  StopCleanly(daemon);
}

TEST(Metrics, EveryMetricHasHelpAndType) {
  DaemonProcess daemon(kMetricsFlags);
  const auto response = HttpRequest(MetricsPort(daemon), http::verb::get, "/metrics");
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response[http::field::content_type], "text/plain; version=0.0.4; charset=utf-8");
  for (const char* name :
       {"sudokud_connections_total counter", "sudokud_connections_open gauge",
        "sudokud_batches_total counter", "sudokud_puzzles_total counter",
        "sudokud_batches_in_flight gauge", "sudokud_puzzles_in_flight gauge",
        "sudokud_protocol_faults_total counter", "sudokud_received_bytes_total counter",
        "sudokud_sent_bytes_total counter", "sudokud_tls_refused_total counter",
        "sudokud_departed_requests_dropped_total counter", "sudokud_memory_held_bytes gauge",
        "sudokud_batch_solve_seconds histogram",
        "sudokud_batch_latency_seconds histogram", "sudokud_kernel_info gauge",
        "sudokud_solver_threads gauge", "sudokud_uptime_seconds gauge"}) {
    EXPECT_THAT(response.body(), HasSubstr(std::string("\n# TYPE ") + name + "\n")) << name;
  }
}

// Runs `command` through sh, stderr merged; its output and exit status.
std::pair<std::string, int> Shell(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {"", -1};
  char chunk[4096];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) output.append(chunk, n);
  const int status = ::pclose(pipe);
  return {output, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

// Generate and explain requests are counted by kind (not as batches of 0 puzzles); the process
// metrics, the build and the configured limits are exported. (--max-memory is given: its
// default follows the cgroup's memory limit, which tests/deploy/cgroup_test.sh checks.)
TEST(Metrics, CountsEveryRequestKindAndExportsProcessBuildAndLimits) {
  const std::string client = TestPath("SUDOKU_CLIENT_BIN");
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--threads", "1",
                        "--max-in-flight", "5000", "--max-connections", "64", "--max-memory",
                        "1073741824"});
  const uint16_t metrics = MetricsPort(daemon);
  const auto generated = Shell(std::string(client) + " generate --count 50 --seed 7 --connect " +
                               "127.0.0.1:" + std::to_string(daemon.port()) + " >/dev/null");
  ASSERT_EQ(generated.second, 0) << generated.first;
  const auto explained =
      Shell(std::string(client) + " explain --connect 127.0.0.1:" + std::to_string(daemon.port()) +
            " 6....49...28.1..3........56........8.......1.84..3.26.3..2...9.96.....24..1..8..."
            " >/dev/null");
  ASSERT_EQ(explained.second, 0) << explained.first;
  auto samples = SettledSamples(metrics);
  const std::map<std::string, std::string> expected = {
      {"sudokud_requests_total{kind=\"solve\"}", "0"},
      {"sudokud_requests_total{kind=\"explain\"}", "1"},
      {"sudokud_requests_total{kind=\"generate\"}", "1"},
      {"sudokud_request_puzzles_total{kind=\"solve\"}", "0"},
      {"sudokud_request_puzzles_total{kind=\"explain\"}", "1"},
      {"sudokud_request_puzzles_total{kind=\"generate\"}", "50"},
      {"sudokud_batches_total{outcome=\"answered\"}", "0"},
      {"sudokud_connections_total", "2"},
      {"sudokud_max_connections", "64"},
      {"sudokud_max_in_flight_puzzles", "5000"},
      {"sudokud_max_in_flight_puzzles_per_connection", "65536"},
      {"sudokud_max_batch_puzzles", "65536"},
      {"sudokud_max_frame_bytes", "16777216"},
      {"sudokud_max_memory_bytes", "1073741824"},
  };
  for (const auto& [name, value] : expected) EXPECT_EQ(samples[name], value) << name;
  const std::string build_info = "sudokud_build_info{version=\"";
  bool found = false;
  for (const auto& [name, value] : samples) {
    if (name.rfind(build_info, 0) != 0) continue;
    found = true;
    const std::regex expected_info(
        R"(sudokud_build_info\{version="[0-9]+\.[0-9]+\.[0-9]+( \(git [0-9a-f]{7}\))?",kernel=")" +
        KernelOf(daemon) + R"("\})");
    EXPECT_TRUE(std::regex_match(name, expected_info)) << name;
    EXPECT_EQ(value, "1");
  }
  EXPECT_TRUE(found);
  EXPECT_GT(std::stod(samples["process_cpu_seconds_total"]), 0);
  EXPECT_GT(std::stod(samples["process_resident_memory_bytes"]), 1e6);
  EXPECT_GE(std::stod(samples["process_open_fds"]), 5);
  EXPECT_GE(std::stod(samples["process_max_fds"]), std::stod(samples["process_open_fds"]));
  const double now = std::chrono::duration<double>(
                         std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_GT(std::stod(samples["process_start_time_seconds"]), now - 600);
  EXPECT_LE(std::stod(samples["process_start_time_seconds"]), now + 1);
  StopCleanly(daemon);
}

// Prometheus' own linter finds nothing to say about the exposition.
TEST(Metrics, PromtoolCheckMetricsIsClean) {
  if (Shell("command -v promtool").second != 0) {
    FAIL() << "no promtool: deploy/bootstrap.sh installs the prometheus package";
  }
  DaemonProcess daemon(kMetricsFlags);
  const uint16_t metrics = MetricsPort(daemon);
  RunKnownWorkload(daemon.port());
  const std::string body = HttpRequest(metrics, http::verb::get, "/metrics").body();
  const std::string file = ::testing::TempDir() + "metrics_" + std::to_string(::getpid());
  std::ofstream(file) << body;
  const auto checked = Shell("promtool check metrics < '" + file + "'");
  EXPECT_EQ(checked.first, "");
  EXPECT_EQ(checked.second, 0);
  std::remove(file.c_str());
  StopCleanly(daemon);
}

TEST(Metrics, HeadAnswersWithoutABody) {
  DaemonProcess daemon(kMetricsFlags);
  const auto response = HttpRequest(MetricsPort(daemon), http::verb::head, "/metrics");
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response.body(), "");
  EXPECT_GT(std::stoi(std::string(response[http::field::content_length])), 1000);
}

TEST(Metrics, OtherPathsAreNotFound) {
  DaemonProcess daemon(kMetricsFlags);
  const uint16_t port = MetricsPort(daemon);
  for (const char* target : {"/", "/metric", "/metrics/x", "/favicon.ico"}) {
    const auto response = HttpRequest(port, http::verb::get, target);
    EXPECT_EQ(response.result(), http::status::not_found) << target;
    EXPECT_EQ(response.body(),
              "not found: metrics are at /metrics, health at /healthz and /readyz\n")
        << target;
  }
  // A query string is allowed (Prometheus may add one).
  EXPECT_EQ(HttpRequest(port, http::verb::get, "/metrics?x=1").result(), http::status::ok);
}

TEST(Metrics, OtherMethodsAreNotAllowed) {
  DaemonProcess daemon(kMetricsFlags);
  const uint16_t port = MetricsPort(daemon);
  for (http::verb method : {http::verb::post, http::verb::put, http::verb::delete_}) {
    const auto response = HttpRequest(port, method, "/metrics");
    EXPECT_EQ(response.result(), http::status::method_not_allowed) << method;
    EXPECT_EQ(response[http::field::allow], "GET, HEAD");
    EXPECT_EQ(response.body(), "method not allowed: use GET or HEAD\n");
  }
  StopCleanly(daemon);
}

TEST(Metrics, RequestThatIsNotHttpIsABadRequest) {
  DaemonProcess daemon(kMetricsFlags);
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::address_v4::loopback(), MetricsPort(daemon)));
  asio::write(socket, asio::buffer(std::string("hello there\r\n\r\n")));
  std::string reply;
  boost::system::error_code error;
  asio::read(socket, asio::dynamic_buffer(reply), error);
  EXPECT_EQ(error, asio::error::eof);
  EXPECT_THAT(reply, ::testing::StartsWith("HTTP/1.1 400 Bad Request\r\n"));
  EXPECT_THAT(reply, HasSubstr("\r\n\r\nbad request: bad target\n"));
  // The daemon still serves.
  EXPECT_EQ(HttpRequest(MetricsPort(daemon), http::verb::get, "/metrics").result(), http::status::ok);
  StopCleanly(daemon);
}

// As many connections as the listener serves at once (MetricsRoutes::kMaxConnections, 256); a
// newcomer past them closes the one that has waited longest for a request (here the first idle
// one), so idle keep-alive connections never keep a scraper or a probe out. (Fewer would leave
// the newcomer room: the first idle one would then end only at the listener's 30 s timeout.)
TEST(Metrics, ServesItsLimitAtOnceAndTheIdlestMakesRoom) {
  DaemonProcess daemon(kMetricsFlags);
  const uint16_t port = MetricsPort(daemon);
  asio::io_context io;
  std::vector<tcp::socket> idle;
  for (int i = 0; i < 256; ++i) {
    idle.emplace_back(io).connect(tcp::endpoint(asio::ip::address_v4::loopback(), port));
  }
  EXPECT_EQ(HttpRequest(port, http::verb::get, "/metrics").result(), http::status::ok);
  std::string reply;
  boost::system::error_code error;
  asio::read(idle.front(), asio::dynamic_buffer(reply), error);
  EXPECT_EQ(error, asio::error::eof);
  EXPECT_EQ(reply, "");
  EXPECT_EQ(HttpRequest(port, http::verb::get, "/readyz").result(), http::status::ok);
  StopCleanly(daemon);
}

TEST(Metrics, ReportsAnAddressInUse) {
  DaemonProcess first(kMetricsFlags);
  const std::string address = "127.0.0.1:" + std::to_string(MetricsPort(first));
  const ProcessResult result =
      RunDaemonToExit({"--listen", "127.0.0.1:0", "--metrics", address});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "sudokud: cannot serve metrics on " + address +
                            ": Address already in use (another program, perhaps a sudokud "
                            "started earlier, holds it: stop it, or give --metrics another "
                            "port)\n");
}

TEST(Metrics, RejectsABadAddress) {
  const ProcessResult result = RunDaemonToExit({"--metrics", "localhost"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "sudokud: --metrics 'localhost': expected [HOST:]PORT, e.g. 9810, 127.0.0.1:9810 or "
            "[::1]:9810 (see sudokud --help)\n");
}

TEST(Stats, ReturnsTheSameCountsAsTheMetrics) {
  DaemonProcess daemon(kMetricsFlags);
  const uint16_t metrics = MetricsPort(daemon);
  const Workload workload = RunKnownWorkload(daemon.port());
  SettledSamples(metrics);
  WireClient client(daemon.port());
  wire::Request request;
  request.mutable_stats();
  client.Send(request);
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_stats()) << response->DebugString();
  const wire::StatsResponse& stats = response->stats();
  EXPECT_EQ(stats.connections_total(), 3u);  // this one included
  EXPECT_EQ(stats.connections_open(), 1u);
  EXPECT_EQ(stats.batches_answered(), 1u);
  EXPECT_EQ(stats.batches_cancelled(), 0u);
  EXPECT_EQ(stats.puzzles_solved(), 5u);
  EXPECT_EQ(stats.puzzles_multiple(), 0u);
  EXPECT_EQ(stats.puzzles_unsolvable(), 0u);
  EXPECT_EQ(stats.puzzles_invalid(), 1u);
  EXPECT_EQ(stats.bytes_received(), workload.bytes_to_daemon + FrameBytes(request));
  EXPECT_EQ(stats.bytes_sent(), workload.bytes_from_daemon);
  ASSERT_EQ(stats.faults_size(), 1);
  EXPECT_EQ(stats.faults(0).kind(), wire::ProtocolFault::EMPTY_REQUEST);
  EXPECT_EQ(stats.faults(0).count(), 1u);
  EXPECT_EQ(stats.batches_in_flight(), 0u);
  EXPECT_EQ(stats.puzzles_in_flight(), 0u);
  EXPECT_EQ(stats.kernel(), KernelOf(daemon));
  EXPECT_EQ(stats.threads(), 1u);
  EXPECT_GT(stats.uptime_seconds(), 0);
  // The connection goes on serving solve requests after a Stats request.
  client.SendSolve(2, GeneratePuzzles(3, 30, 8));
  const auto solved = client.Read();
  ASSERT_TRUE(solved && solved->has_solve());
  EXPECT_EQ(solved->solve().batch_id(), 2u);
  client.Close();
  StopCleanly(daemon);
}

// A child process with a listening socket as descriptor 3 and LISTEN_FDS/LISTEN_PID naming it,
// exactly as systemd starts a socket-activated service; stderr goes to `log_path`.
pid_t SpawnWithSocket(int listener, const std::string& log_path,
                      const std::vector<std::string>& args) {
  const std::string binary = DaemonBinary();
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::dup2(log, 2);
  ::dup2(listener, 3);  // dup2 clears FD_CLOEXEC on the copy
  ::setenv("LISTEN_FDS", "1", 1);
  ::setenv("LISTEN_PID", std::to_string(::getpid()).c_str(), 1);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(binary.c_str()));
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  ::execv(binary.c_str(), argv.data());
  ::_exit(127);
}

// A file name of its own in the temporary directory: this process's id keeps test runs that
// happen at once (ctest -j, several checkouts) apart.
// Removed when the test ends.
struct TempFile {
  explicit TempFile(const std::string& name)
      : path(::testing::TempDir() + std::to_string(::getpid()) + "_" + name) {}
  ~TempFile() { std::remove(path.c_str()); }
  const std::string path;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(SocketActivation, ServesOnThePassedSocketAndIgnoresListen) {
  asio::io_context io;
  tcp::acceptor listener(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  const uint16_t port = listener.local_endpoint().port();
  const TempFile log_file("socket_activation.log");
  const std::string& log_path = log_file.path;
  // --listen names a port the daemon must not use.
  const pid_t pid = SpawnWithSocket(listener.native_handle(), log_path,
                                    {"--listen", "127.0.0.1:1", "--threads", "1"});
  listener.close();  // the daemon holds its own copy
  {
    WireClient client(port);  // connects even before the daemon accepts: the socket listens
    const auto puzzles = GeneratePuzzles(20, 30, 3);
    client.SendSolve(1, puzzles);
    const auto response = client.Read();
    ASSERT_TRUE(response && response->has_solve());
    const std::string& solutions = response->solve().solutions();
    for (size_t i = 0; i < puzzles.size(); ++i) {
      EXPECT_TRUE(IsSolutionOf(puzzles[i], solutions.substr(i * 81, 81))) << i;
    }
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_THAT(ReadFile(log_path),
              HasSubstr("sudokud: listening on 127.0.0.1:" + std::to_string(port) +
                        " (threads 1, kernel "));
  EXPECT_THAT(ReadFile(log_path), HasSubstr(", socket from systemd)\n"));
}

TEST(SocketActivation, RefusesASocketThatIsNotAListeningTcpSocket) {
  const int datagram = ::socket(AF_INET, SOCK_DGRAM, 0);
  const TempFile log_file("socket_activation_bad.log");
  const std::string& log_path = log_file.path;
  const pid_t pid = SpawnWithSocket(datagram, log_path, {});
  ::close(datagram);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
  EXPECT_EQ(ReadFile(log_path),
            "sudokud: socket activation: expected one listening TCP socket, got 1 descriptors "
            "(see sudokud.socket)\n");
}

TEST(SocketActivation, UnderSystemdSocketActivateNotifiesReadyAndServes) {
  if (std::system("command -v systemd-socket-activate >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "no systemd-socket-activate";
  }
  uint16_t port = 0;
  {
    asio::io_context io;
    tcp::acceptor probe(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    port = probe.local_endpoint().port();
  }
  NotifySocket notify;
  const TempFile log_file("socket_activate.log");
  const std::string& log_path = log_file.path;
  const std::string notify_entry = notify.EnvEntry();
  const std::string binary = DaemonBinary();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(log, 2);
    ::putenv(const_cast<char*>(notify_entry.c_str()));
    const std::string listen = "127.0.0.1:" + std::to_string(port);
    // -E passes the notify socket on; without it the daemon would not see it. The sanitizers'
    // options (tests/tsan.supp's suppressions) go on the same way.
    if (::getenv("TSAN_OPTIONS") == nullptr) ::setenv("TSAN_OPTIONS", "", 0);
    ::execlp("systemd-socket-activate", "systemd-socket-activate", "-l", listen.c_str(), "-E",
             "NOTIFY_SOCKET", "-E", "TSAN_OPTIONS", binary.c_str(), "--threads", "1",
             static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // systemd-socket-activate binds first, then starts the daemon on the first connection.
  std::optional<WireClient> client;
  for (int attempt = 0; !client; ++attempt) {
    try {
      client.emplace(port);
    } catch (const std::exception&) {
      ASSERT_LT(attempt, 600) << ReadFile(log_path);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  const auto puzzles = GeneratePuzzles(10, 30, 5);
  client->SendSolve(1, puzzles);
  const auto response = client->Read();
  ASSERT_TRUE(response && response->has_solve());
  EXPECT_EQ(response->solve().verdicts_size(), 10);
  EXPECT_THAT(notify.WaitFor("READY=1"), HasSubstr("STATUS="));
  client->Close();
  ::kill(pid, SIGTERM);  // systemd-socket-activate execs the daemon: the same process
  EXPECT_THAT(notify.WaitFor("STOPPING=1"), HasSubstr("STATUS=draining: "));
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status << ReadFile(log_path);
  EXPECT_THAT(ReadFile(log_path), HasSubstr(", socket from systemd)\n"));
}

// Runs `script` with /bin/sh to its end; its wait status.
int RunShell(const std::string& script) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(Logging, UnderTheJournalLinesCarryTheirPriority) {
  // JOURNAL_STREAM names stderr's device and inode, as systemd sets it for journal output.
  const TempFile log_file("journal.log");
  const std::string& log_path = log_file.path;
  const std::string script =
      "exec 2>'" + log_path + "'; JOURNAL_STREAM=$(stat -c %d:%i '" + log_path +
      "') exec '" + DaemonBinary() + "' --threads 0";
  const int exit_status = RunShell(script);
  EXPECT_TRUE(WIFEXITED(exit_status) && WEXITSTATUS(exit_status) == 2) << exit_status;
  EXPECT_EQ(ReadFile(log_path),
            "<3>--threads must be an integer from 1 to 1024, got '0' (see sudokud --help)\n");
}

TEST(Logging, ElsewhereLinesNameTheProgram) {
  // A JOURNAL_STREAM that is not stderr (inherited by a child whose stderr is elsewhere).
  const TempFile log_file("not_journal.log");
  const std::string& log_path = log_file.path;
  const std::string script = "exec 2>'" + log_path + "'; JOURNAL_STREAM=1:1 exec '" +
                             DaemonBinary() + "' --threads 0";
  const int exit_status = RunShell(script);
  EXPECT_TRUE(WIFEXITED(exit_status) && WEXITSTATUS(exit_status) == 2) << exit_status;
  EXPECT_EQ(ReadFile(log_path),
            "sudokud: --threads must be an integer from 1 to 1024, got '0' (see sudokud --help)\n");
}

TEST(Limits, WarnsWhenTheDescriptorLimitIsBelowMaxConnections) {
  // The port is taken, so the daemon exits right after the warning.
  DaemonProcess first({"--listen", "127.0.0.1:0", "--threads", "1"});
  const std::string address = "127.0.0.1:" + std::to_string(first.port());
  const TempFile log_file("descriptors.log");
  const std::string& log_path = log_file.path;
  const std::string script = "ulimit -n 200 && ulimit -Hn 200 && exec 2>'" + log_path +
                             "' && exec '" + DaemonBinary() +
                             "' --max-connections 1000 --listen " + address;
  const int exit_status = RunShell(script);
  EXPECT_TRUE(WIFEXITED(exit_status) && WEXITSTATUS(exit_status) == 1) << exit_status;
  EXPECT_EQ(ReadFile(log_path),
            "sudokud: the descriptor limit (200) is below what --max-connections 1000 needs "
            "(1304): raise LimitNOFILE= (or ulimit -n) or lower it\n"
            "sudokud: cannot listen on " + address + ": Address already in use (another program, "
            "perhaps a sudokud started earlier, holds it: stop it, or give --listen another "
            "port)\n");
}

// Without --max-connections, a descriptor limit short of the default's needs lowers the
// default to what fits, with a log line saying so, and the daemon goes on (here to a port that
// is taken, so that it exits right after the line).
TEST(Limits, TheDefaultMaxConnectionsYieldsToTheDescriptorLimit) {
  DaemonProcess first({"--listen", "127.0.0.1:0", "--threads", "1"});
  const std::string address = "127.0.0.1:" + std::to_string(first.port());
  const TempFile log_file("descriptors-default.log");
  const std::string& log_path = log_file.path;
  const std::string script = "ulimit -n 2000 && ulimit -Hn 2000 && exec 2>'" + log_path +
                             "' && exec '" + DaemonBinary() + "' --listen " + address;
  const int exit_status = RunShell(script);
  EXPECT_TRUE(WIFEXITED(exit_status) && WEXITSTATUS(exit_status) == 1) << exit_status;
  EXPECT_EQ(ReadFile(log_path),
            "sudokud: serving at most 1696 connections, what the descriptor limit (2000) "
            "allows; the default --max-connections 16384 needs 16688 (raise LimitNOFILE= or "
            "ulimit -n)\n"
            "sudokud: cannot listen on " + address + ": Address already in use (another program, "
            "perhaps a sudokud started earlier, holds it: stop it, or give --listen another "
            "port)\n");
}

}  // namespace
}  // namespace sudoku::testing
