// /healthz, /readyz and the watchdog (daemon/health.h): first a Health in this process with its
// pool held and released by hand, then the real sudokud with the test hook
// (SUDOKUD_TEST_WEDGE_FILE) wedging its pool. Every state is waited for with a generous bound;
// no test asserts a timing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>

#include "daemon/health.h"
#include "daemon/http_server.h"
#include "daemon/metrics.h"
#include "daemon/pool.h"
#include "proto/framing.h"
#include "tests/daemon/http_client.h"
#include "tests/daemon/wire_client.h"

namespace sudoku::daemon {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace fs = std::filesystem;
using asio::ip::tcp;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;
using Clock = std::chrono::steady_clock;
using ::sudoku::testing::HttpRequest;

// Bounds on waiting for a state; reaching one fails the test (they bound hanging, not timing).
constexpr std::chrono::seconds kStateBound{120};

// What /readyz says of a pool that does not answer: the exact text, the seconds aside.
constexpr char kWedgedBody[] =
    "not ready: solver pool has not answered a canary for [0-9]+\\.[0-9] s\n";

struct Reply {
  unsigned status = 0;
  std::string body;
  std::string content_type;
  std::string content_length;
  std::string allow;
  std::string cache_control;
};

Reply Get(uint16_t port, const std::string& target, http::verb method = http::verb::get) {
  const auto response = HttpRequest(port, method, target);
  return Reply{response.result_int(),
               response.body(),
               std::string(response[http::field::content_type]),
               std::string(response[http::field::content_length]),
               std::string(response[http::field::allow]),
               std::string(response[http::field::cache_control])};
}

// Asks `target` until `done(reply)`, up to kStateBound; returns the last reply.
Reply GetUntil(uint16_t port, const std::string& target,
               const std::function<bool(const Reply&)>& done) {
  const auto deadline = Clock::now() + kStateBound;
  Reply reply = Get(port, target);
  while (!done(reply) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    reply = Get(port, target);
  }
  return reply;
}

bool Is(const Reply& reply, unsigned status) { return reply.status == status; }

// A Health with its MetricsRoutes on an HttpServer on 127.0.0.1, arranged as sudokud arranges
// them: Health on the event loop's io_context, the listener on a probe io_context, each run by a
// thread of its own, /metrics rendered on the loop. Canaries every 20 ms; a pool (or a loop)
// silent for a second is not ready.
class HealthServer {
 public:
  explicit HealthServer(const std::string& wedge_file = "")
      : pool_(1),
        health_(loop_, pool_,
                HealthOptions{.canary_interval = std::chrono::milliseconds(20),
                              .canary_deadline = std::chrono::milliseconds(1000),
                              .wedge_file = wedge_file}),
        routes_(
            [this] {
              render_thread_ = std::this_thread::get_id();
              return std::string("sudokud_up 1\n");
            },
            &health_, loop_.get_executor()),
        server_(probe_, "metrics", HttpLimits{}, &routes_) {
    port_ = server_.Listen(tcp::endpoint(asio::ip::address_v4::loopback(), 0)).port();
    server_.Start();
    health_.Start();
    loop_thread_ = std::thread([this] { loop_.run(); });
    probe_thread_ = std::thread([this] { probe_.run(); });
  }
  ~HealthServer() {
    asio::post(probe_, [this] { server_.Stop(); });
    probe_thread_.join();
    asio::post(loop_, [this] { health_.Stop(); });
    loop_thread_.join();
  }

  uint16_t port() const { return port_; }
  Pool& pool() { return pool_; }
  std::thread::id loop_thread() const { return loop_thread_.get_id(); }
  // The thread the last /metrics was rendered on.
  std::thread::id render_thread() const { return render_thread_; }
  void Draining() {
    std::promise<void> done;
    asio::post(loop_, [&] {
      health_.Draining();
      done.set_value();
    });
    done.get_future().wait();
  }
  // Blocks the event loop until the returned promise is set (as a handler that takes too long
  // would).
  std::shared_ptr<std::promise<void>> BlockLoop() {
    auto release = std::make_shared<std::promise<void>>();
    asio::post(loop_, [wait = release->get_future().share()] { wait.wait(); });
    return release;
  }

 private:
  asio::io_context loop_;
  asio::io_context probe_;
  Pool pool_;
  Health health_;
  MetricsRoutes routes_;
  HttpServer server_;
  uint16_t port_ = 0;
  std::atomic<std::thread::id> render_thread_;
  std::thread loop_thread_;
  std::thread probe_thread_;
};

TEST(Health, AliveAndReadyWhileThePoolAnswers) {
  HealthServer server;
  const Reply alive = Get(server.port(), "/healthz");
  EXPECT_EQ(alive.status, 200u);
  EXPECT_EQ(alive.body, "alive\n");
  EXPECT_EQ(alive.content_type, "text/plain; charset=utf-8");
  EXPECT_EQ(alive.cache_control, "no-store");
  const Reply ready = Get(server.port(), "/readyz");
  EXPECT_EQ(ready.status, 200u);
  EXPECT_EQ(ready.body, "ready\n");
  // Beside the metrics, which still answer; a query string is ignored as for /metrics.
  EXPECT_EQ(Get(server.port(), "/metrics").body, "sudokud_up 1\n");
  EXPECT_EQ(Get(server.port(), "/readyz?verbose=1").body, "ready\n");
}

TEST(Health, AWedgedPoolIsNotReadyButStillAliveUntilReleased) {
  HealthServer server;
  server.pool().Hold(true);
  const Reply wedged = GetUntil(server.port(), "/readyz", [](const Reply& r) { return Is(r, 503); });
  EXPECT_EQ(wedged.status, 503u);
  EXPECT_THAT(wedged.body, MatchesRegex(kWedgedBody));
  EXPECT_EQ(wedged.cache_control, "no-store");
  // The event loop still answers: alive, though not ready.
  EXPECT_EQ(Get(server.port(), "/healthz").body, "alive\n");
  server.pool().Hold(false);
  const Reply ready = GetUntil(server.port(), "/readyz", [](const Reply& r) { return Is(r, 200); });
  EXPECT_EQ(ready.status, 200u);
  EXPECT_EQ(ready.body, "ready\n");
}

// The probes are answered on their own thread while the loop is busy (here: blocked for less
// than the deadline); /metrics waits for the loop and is rendered there.
TEST(Health, ProbesAreAnsweredWhileTheEventLoopIsBusy) {
  HealthServer server;
  const auto release = server.BlockLoop();
  auto metrics = std::async(std::launch::async, [&] { return Get(server.port(), "/metrics"); });
  EXPECT_EQ(Get(server.port(), "/healthz").body, "alive\n");
  EXPECT_EQ(Get(server.port(), "/readyz").body, "ready\n");
  EXPECT_EQ(metrics.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  release->set_value();
  EXPECT_EQ(metrics.get().body, "sudokud_up 1\n");
  EXPECT_EQ(server.render_thread(), server.loop_thread());
}

// A loop that stops turning is neither alive nor ready, and both come back when it turns again.
TEST(Health, AStuckEventLoopIsNotAliveUntilItTurnsAgain) {
  HealthServer server;
  const auto release = server.BlockLoop();
  const Reply dead = GetUntil(server.port(), "/healthz", [](const Reply& r) { return Is(r, 503); });
  EXPECT_EQ(dead.status, 503u);
  EXPECT_THAT(dead.body,
              MatchesRegex("not alive: the event loop has not turned for [0-9]+\\.[0-9] s\n"));
  EXPECT_EQ(dead.cache_control, "no-store");
  const Reply unready = Get(server.port(), "/readyz");
  EXPECT_EQ(unready.status, 503u);
  EXPECT_THAT(unready.body,
              MatchesRegex("not ready: the event loop has not turned for [0-9]+\\.[0-9] s\n"));
  release->set_value();
  EXPECT_EQ(GetUntil(server.port(), "/healthz", [](const Reply& r) { return Is(r, 200); }).body,
            "alive\n");
  EXPECT_EQ(GetUntil(server.port(), "/readyz", [](const Reply& r) { return Is(r, 200); }).body,
            "ready\n");
}

TEST(Health, ADrainingDaemonIsNotReady) {
  HealthServer server;
  server.Draining();
  const Reply reply = Get(server.port(), "/readyz");
  EXPECT_EQ(reply.status, 503u);
  EXPECT_EQ(reply.body, "not ready: draining\n");
  EXPECT_EQ(Get(server.port(), "/healthz").status, 200u);
}

TEST(Health, HeadAnswersWithoutABodyAndOtherMethodsAreNotAllowed) {
  HealthServer server;
  const Reply head = Get(server.port(), "/readyz", http::verb::head);
  EXPECT_EQ(head.status, 200u);
  EXPECT_EQ(head.body, "");
  EXPECT_EQ(head.content_length, "6");  // "ready\n", as GET says
  for (const char* path : {"/healthz", "/readyz"}) {
    const Reply post = Get(server.port(), path, http::verb::post);
    EXPECT_EQ(post.status, 405u) << path;
    EXPECT_EQ(post.body, "method not allowed: use GET or HEAD\n");
    EXPECT_EQ(post.allow, "GET, HEAD");
  }
  const Reply other = Get(server.port(), "/ready");
  EXPECT_EQ(other.status, 404u);
  EXPECT_EQ(other.body, "not found: metrics are at /metrics, health at /healthz and /readyz\n");
}

TEST(Health, TheWedgeFileHoldsThePoolWhileItExists) {
  const fs::path file =
      fs::path(::testing::TempDir()) / ("health_wedge_" + std::to_string(::getpid()));
  fs::remove(file);
  HealthServer server(file.string());
  std::ofstream(file) << "";
  EXPECT_THAT(GetUntil(server.port(), "/readyz", [](const Reply& r) { return Is(r, 503); }).body,
              MatchesRegex(kWedgedBody));
  EXPECT_TRUE(server.pool().held());
  fs::remove(file);
  EXPECT_EQ(GetUntil(server.port(), "/readyz", [](const Reply& r) { return Is(r, 200); }).body,
            "ready\n");
  EXPECT_FALSE(server.pool().held());
}

// ---- The real sudokud ----

using sudoku::testing::DaemonProcess;
using sudoku::testing::NotifySocket;
using sudoku::testing::WireClient;

uint16_t PortFromLog(const DaemonProcess& daemon, const std::string& opening) {
  const std::string line = daemon.WaitForLog(opening);
  const size_t start = line.find(opening) + opening.size();
  return static_cast<uint16_t>(std::stoi(line.substr(start)));
}

// A daemon whose pool the test wedges by creating a file, with --metrics and --http.
class WedgeableDaemon {
 public:
  explicit WedgeableDaemon(std::vector<std::string> env = {}, std::vector<std::string> flags = {})
      : file_(fs::path(::testing::TempDir()) /
              ("sudokud_wedge_" + std::to_string(::getpid()) + "_" + std::to_string(++count_))) {
    fs::remove(file_);
    env.push_back(std::string(kWedgeFileVariable) + "=" + file_.string());
    std::vector<std::string> args = {"--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0",
                                     "--http",   "127.0.0.1:0", "--threads", "1",
                                     "--canary-deadline", "2s"};
    args.insert(args.end(), flags.begin(), flags.end());
    daemon_.emplace(args, env);
    metrics_port_ = PortFromLog(*daemon_, "serving metrics on http://127.0.0.1:");
    http_port_ = PortFromLog(*daemon_, "serving the page on http://127.0.0.1:");
  }
  ~WedgeableDaemon() { fs::remove(file_); }

  DaemonProcess& process() { return *daemon_; }
  uint16_t metrics_port() const { return metrics_port_; }
  uint16_t http_port() const { return http_port_; }
  void Wedge() { std::ofstream(file_) << ""; }
  void Unwedge() { fs::remove(file_); }

 private:
  static inline int count_ = 0;
  fs::path file_;
  std::optional<DaemonProcess> daemon_;
  uint16_t metrics_port_ = 0;
  uint16_t http_port_ = 0;
};

constexpr char kPuzzle[] =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
constexpr char kSolution[] =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
// Five: a batch of four or fewer may be solved on the event loop when the pool looks idle.
const std::vector<std::string> kPuzzles(5, kPuzzle);

void ExpectSolved(const std::optional<wire::Response>& response, uint64_t batch_id) {
  ASSERT_TRUE(response && response->has_solve());
  EXPECT_EQ(response->solve().batch_id(), batch_id);
  std::string solutions;
  for (size_t i = 0; i < kPuzzles.size(); ++i) solutions += kSolution;
  EXPECT_EQ(response->solve().solutions(), solutions);
}

TEST(HealthDaemon, ServesBothEndpointsOnBothListenersAndTheCanaryAge) {
  WedgeableDaemon daemon;
  for (const uint16_t port : {daemon.metrics_port(), daemon.http_port()}) {
    EXPECT_EQ(Get(port, "/healthz").body, "alive\n");
    EXPECT_EQ(GetUntil(port, "/readyz", [](const Reply& r) { return Is(r, 200); }).body,
              "ready\n");
  }
  const std::string metrics = Get(daemon.metrics_port(), "/metrics").body;
  EXPECT_THAT(metrics, HasSubstr("\n# TYPE sudokud_canary_age_seconds gauge\n"
                                 "sudokud_canary_age_seconds "));
  EXPECT_THAT(metrics, HasSubstr("\n# TYPE sudokud_ready gauge\nsudokud_ready 1\n"));
  EXPECT_THAT(daemon.process().Log(),
              HasSubstr("test hook: SUDOKUD_TEST_WEDGE_FILE is set: the solver pool is held "
                        "while "));
  daemon.process().Signal(SIGTERM);
  EXPECT_EQ(daemon.process().Wait(), 0);
}

// A wedged pool: 503 with why on both listeners, the metric says so, a batch waits; released,
// the batch is answered and the daemon is ready again.
TEST(HealthDaemon, AWedgedPoolIsNotReadyAndComesBackWhenReleased) {
  WedgeableDaemon daemon;
  daemon.Wedge();
  daemon.process().WaitForLog("so the solver pool holds every job");
  WireClient client(daemon.process().port());
  client.SendSolve(7, kPuzzles);
  for (const uint16_t port : {daemon.metrics_port(), daemon.http_port()}) {
    const Reply reply = GetUntil(port, "/readyz", [](const Reply& r) { return Is(r, 503); });
    EXPECT_EQ(reply.status, 503u);
    EXPECT_THAT(reply.body, MatchesRegex(kWedgedBody));
    EXPECT_EQ(Get(port, "/healthz").body, "alive\n");
  }
  EXPECT_THAT(Get(daemon.metrics_port(), "/metrics").body, HasSubstr("\nsudokud_ready 0\n"));
  EXPECT_THAT(daemon.process().WaitForLog("not ready: solver pool has not answered a canary"),
              HasSubstr("sudokud: not ready: solver pool has not answered a canary for "));
  EXPECT_EQ(client.Unread(), 0u);  // the batch waits on the held pool
  daemon.Unwedge();
  ExpectSolved(client.Read(), 7);
  EXPECT_EQ(GetUntil(daemon.metrics_port(), "/readyz", [](const Reply& r) { return Is(r, 200); })
                .body,
            "ready\n");
  daemon.process().WaitForLog("ready again: the solver pool answers");
  client.Close();
  daemon.process().Signal(SIGTERM);
  EXPECT_EQ(daemon.process().Wait(), 0);
}

// A connection at its in-flight limit is not read, so a frame it had begun to send waits on the
// daemon: that wait is not the peer's slowness, and --frame-timeout does not fault it.
TEST(HeldPool, AFrameHeldBackByTheInFlightLimitIsNotTimedOut) {
  WedgeableDaemon daemon({}, {"--max-in-flight-per-connection", "5", "--frame-timeout", "1"});
  daemon.Wedge();
  daemon.process().WaitForLog("so the solver pool holds every job");
  std::string frames;
  for (const uint64_t batch_id : {7, 8}) {
    wire::Request request;
    request.mutable_solve()->set_batch_id(batch_id);
    for (const std::string& puzzle : kPuzzles) request.mutable_solve()->add_puzzles(puzzle);
    wire::AppendFrame(request, &frames);
  }
  // Batch 7 takes the connection's whole limit on the held pool; batch 8 arrives in part, in the
  // same write, so the daemon holds its first bytes while it waits for room.
  const size_t cut = frames.size() - 40;
  WireClient client(daemon.process().port());
  client.SendBytes(std::string_view(frames).substr(0, cut));
  // Three frame timeouts pass while the pool is held.
  std::this_thread::sleep_for(std::chrono::seconds(3));
  EXPECT_EQ(client.Unread(), 0u);
  daemon.Unwedge();
  ExpectSolved(client.Read(), 7);
  client.SendBytes(std::string_view(frames).substr(cut));
  ExpectSolved(client.Read(), 8);
  client.Close();
  daemon.process().Signal(SIGTERM);
  EXPECT_EQ(daemon.process().Wait(), 0);
  EXPECT_THAT(daemon.process().Log(), HasSubstr(", 0 protocol faults"));
}

// Waits until the daemon's metrics count one batch in flight (accepted, held on the pool).
void ExpectOneBatchInFlight(uint16_t metrics_port) {
  EXPECT_THAT(GetUntil(metrics_port, "/metrics",
                       [](const Reply& r) {
                         return r.body.find("\nsudokud_batches_in_flight 1\n") !=
                                std::string::npos;
                       })
                  .body,
              HasSubstr("\nsudokud_batches_in_flight 1\n"));
}

// An explain and a generate request whose requester leaves before they are done are counted as
// cancelled, by kind, beside the batches.
TEST(HeldPool, CancelledExplainAndGenerateRequestsAreCounted) {
  WedgeableDaemon daemon;
  daemon.Wedge();
  daemon.process().WaitForLog("so the solver pool holds every job");
  {
    WireClient client(daemon.process().port());
    wire::Request explain;
    explain.mutable_explain()->set_request_id(1);
    explain.mutable_explain()->set_puzzle(kPuzzle);
    client.Send(explain);
    wire::Request generate;
    generate.mutable_generate()->set_request_id(2);
    generate.mutable_generate()->set_count(10);
    client.Send(generate);
    // Both accepted (their 11 puzzles in flight) and held on the pool; then the client is gone.
    GetUntil(daemon.metrics_port(), "/metrics", [](const Reply& r) {
      return r.body.find("\nsudokud_puzzles_in_flight 11\n") != std::string::npos;
    });
    client.Reset();
  }
  daemon.Unwedge();
  const Reply metrics = GetUntil(daemon.metrics_port(), "/metrics", [](const Reply& r) {
    return r.body.find("\nsudokud_connections_open 0\n") != std::string::npos;
  });
  EXPECT_THAT(metrics.body, HasSubstr("\nsudokud_requests_cancelled_total{kind=\"solve\"} 0\n"
                                      "sudokud_requests_cancelled_total{kind=\"explain\"} 1\n"
                                      "sudokud_requests_cancelled_total{kind=\"generate\"} 1\n"));
  EXPECT_EQ(daemon.process().Stop(), 0);
}

// A batch that outlives the drain and its cancellation (held on the pool) is abandoned: the
// daemon exits anyway, --metrics on its own thread included.
TEST(HeldPool, ADrainThatCannotFinishIsAbandonedAndTheDaemonExits) {
  WedgeableDaemon daemon({}, {"--drain-timeout", "1"});
  daemon.Wedge();
  daemon.process().WaitForLog("so the solver pool holds every job");
  WireClient client(daemon.process().port());
  client.SendSolve(3, kPuzzles);
  ExpectOneBatchInFlight(daemon.metrics_port());
  daemon.process().Signal(SIGTERM);
  EXPECT_EQ(daemon.process().Wait(), 0);
  const std::string log = daemon.process().Log();
  EXPECT_THAT(log, HasSubstr(": cancelled 1 batches (5 puzzles) on 1 connections\n"));
  EXPECT_THAT(log, MatchesRegex("(.|\n)*sudokud: abandoning [12] batches still queued or solving "
                                "\\(cancelled, they did not stop\\)\n(.|\n)*"));
}

// Draining: not ready at once (whatever the pool), while the listeners still answer.
TEST(HealthDaemon, ADrainingDaemonIsNotReadyUntilItExits) {
  WedgeableDaemon daemon;
  // A batch held on the pool keeps the drain going while the test looks.
  daemon.Wedge();
  daemon.process().WaitForLog("so the solver pool holds every job");
  WireClient client(daemon.process().port());
  client.SendSolve(3, kPuzzles);
  // Accepted before the drain starts (a drain reads nothing more).
  ExpectOneBatchInFlight(daemon.metrics_port());
  daemon.process().Signal(SIGTERM);
  daemon.process().WaitForLog("SIGTERM: stopped accepting");
  const Reply reply = Get(daemon.metrics_port(), "/readyz");
  EXPECT_EQ(reply.status, 503u);
  EXPECT_EQ(reply.body, "not ready: draining\n");
  EXPECT_EQ(Get(daemon.metrics_port(), "/healthz").body, "alive\n");
  daemon.Unwedge();
  const std::optional<wire::Response> notice = client.Read();
  ASSERT_TRUE(notice && notice->has_draining());
  EXPECT_EQ(notice->draining().last_frame(), 1u);
  ExpectSolved(client.Read(), 3);
  EXPECT_EQ(client.Read(), std::nullopt);
  EXPECT_EQ(daemon.process().Wait(), 0);
}

// The watchdog is fed while the pool answers, not while it is wedged, and again once released.
TEST(HealthDaemon, TheWatchdogIsFedOnlyWhileThePoolAnswers) {
  NotifySocket notify;
  WedgeableDaemon daemon({notify.EnvEntry(), "WATCHDOG_USEC=200000"});
  EXPECT_THAT(notify.WaitFor("WATCHDOG=1"), StartsWith("WATCHDOG=1\nSTATUS="));
  daemon.Wedge();
  const std::string starved = notify.WaitFor("STATUS=not feeding the watchdog: ");
  EXPECT_THAT(starved,
              MatchesRegex("STATUS=not feeding the watchdog: solver pool has not answered a "
                           "canary for [0-9]+\\.[0-9] s; 0 connections, .*"));
  // Every notification from then on until the release leaves the watchdog unfed.
  for (int i = 0; i < 5; ++i) {
    const auto next = notify.Receive();
    ASSERT_TRUE(next);
    EXPECT_THAT(*next, StartsWith("STATUS=not feeding the watchdog: "));
  }
  daemon.Unwedge();
  EXPECT_THAT(notify.WaitFor("WATCHDOG=1"), StartsWith("WATCHDOG=1\nSTATUS=0 connections"));
  daemon.process().Signal(SIGTERM);
  EXPECT_EQ(daemon.process().Wait(), 0);
}

// A daemon stopped while its pool is wedged does not wait for the canary stuck on it.
TEST(HealthDaemon, StopsWithoutWaitingForAWedgedPool) {
  WedgeableDaemon daemon;
  daemon.Wedge();
  EXPECT_THAT(
      GetUntil(daemon.metrics_port(), "/readyz", [](const Reply& r) { return Is(r, 503); }).body,
      MatchesRegex(kWedgedBody));
  daemon.process().Signal(SIGTERM);
  EXPECT_EQ(daemon.process().Wait(), 0);
  EXPECT_THAT(daemon.process().Log(),
              MatchesRegex("(.|\n)*\nsudokud: solver pool has not answered a canary for "
                           "[0-9]+\\.[0-9] s; exiting without waiting for it\n"));
}

TEST(HealthDaemon, RejectsACanaryDeadlineOutOfRange) {
  for (const char* value : {"1s", "2h", "soon"}) {
    const auto result = sudoku::testing::RunDaemonToExit({"--canary-deadline", value});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.err, std::string("sudokud: --canary-deadline must be a duration such as 10s, "
                                      "2m or 500ms (a plain number is seconds) from 2s to 3600s, "
                                      "got '") +
                              value + "' (see sudokud --help)\n");
  }
}

}  // namespace
}  // namespace sudoku::daemon
