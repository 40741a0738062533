// sudokud: solves Sudoku puzzles in bulk for clients on TCP (protocol: proto/sudoku.proto).
//
// This file holds the process: signals, the io_context and the order things start and stop in
// (its flags are daemon/flags.h). The event loop runs on the main thread; solving runs on the
// Pool's threads.
#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <systemd/sd-daemon.h>

#include "daemon/cgroup_limits.h"
#include "daemon/flags.h"
#include "daemon/health.h"
#include "daemon/http_server.h"
#include "daemon/log.h"
#include "daemon/metrics.h"
#include "daemon/notify.h"
#include "daemon/pool.h"
#include "daemon/server.h"
#include "daemon/web_api.h"
#include "solver/solver.h"

namespace sudoku::daemon {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

constexpr int kExitUsage = 2;
constexpr int kExitFailure = 1;

// Why `flag`'s address could not be bound, and, for one already taken (most often by a daemon
// started earlier), what to do.
std::string BindFailure(const boost::system::error_code& error, const char* flag) {
  if (error != asio::error::address_in_use) return error.message();
  return error.message() + " (another program, perhaps a sudokud started earlier, holds it: " +
         "stop it, or give " + flag + " another port)";
}

// Descriptors the process needs besides its connections: listeners, metrics scrapers, stdio,
// sd_notify, TBB and the like.
constexpr rlim_t kSpareDescriptors = MetricsRoutes::kMaxConnections + 48;

// Raises the soft descriptor limit to the hard one (as systemd's LimitNOFILE= or `ulimit -Hn`
// allow), so that a burst of connections beyond --max-connections (refused, each holding a
// descriptor until it closes) does not make accepts fail. Returns the connections to serve:
// `max_connections`, or, when the hard limit is short of it, what fits if the number was the
// default (said in the log), or still `max_connections` with a warning if the operator gave it
// (past the limit the daemon serves fewer connections than it was told to).
// `http_connections`: what --http may hold open besides (0 without it).
size_t FitDescriptors(size_t max_connections, bool given, size_t http_connections) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return max_connections;
  const rlim_t besides = static_cast<rlim_t>(http_connections) + kSpareDescriptors;
  const rlim_t needed = static_cast<rlim_t>(max_connections) + besides;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) ::getrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur >= needed) return max_connections;
  if (given || limit.rlim_cur < besides + 64) {
    Log(LogLevel::kWarning,
        "the descriptor limit (" + std::to_string(limit.rlim_cur) +
            ") is below what --max-connections " + std::to_string(max_connections) + " needs (" +
            std::to_string(needed) + "): raise LimitNOFILE= (or ulimit -n) or lower it");
    return max_connections;
  }
  const size_t fits = static_cast<size_t>(limit.rlim_cur - besides);
  LogLine("serving at most " + std::to_string(fits) + " connections, what the descriptor limit (" +
          std::to_string(limit.rlim_cur) + ") allows; the default --max-connections " +
          std::to_string(max_connections) + " needs " + std::to_string(needed) +
          " (raise LimitNOFILE= or ulimit -n)");
  return fits;
}

// SIGINT and SIGTERM (stop), and SIGHUP (reload the TLS files), handed to the event loop. They
// are blocked in every thread (threads started later inherit the mask) and taken by one thread
// of their own with sigwait(), rather than by an asynchronous handler that writes to the event
// loop's pipe: ThreadSanitizer's runtime defers asynchronous signals, so a SIGTERM sent right
// after start-up could go unhandled while the event loop sat in epoll_wait; sigwait() has no
// such window.
class StopSignals {
 public:
  // Blocks the signals from here on, so that one sent at any later moment waits for Start().
  StopSignals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    sigaddset(&set_, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  ~StopSignals() { Stop(); }

  // From now on each signal runs `handler(signal)` on `io`'s thread.
  void Start(asio::io_context& io, std::function<void(int)> handler) {
    waiter_ = std::thread([this, &io, handler = std::move(handler)] {
      for (;;) {
        int signal = 0;
        if (sigwait(&set_, &signal) != 0) continue;
        if (stopped_.load()) return;
        asio::post(io, [handler, signal] { handler(signal); });
      }
    });
  }

  // Stops taking signals (a later one stays pending, blocked, and is dropped at exit).
  void Stop() {
    if (!waiter_.joinable() || stopped_.exchange(true)) return;
    pthread_kill(waiter_.native_handle(), SIGTERM);  // wakes the sigwait() above
    waiter_.join();
  }

 private:
  sigset_t set_;
  std::atomic<bool> stopped_{false};
  std::thread waiter_;
};

// Runs the event loop until it runs out of work. No input may end the process: an exception
// that escapes a handler (a library's, thrown where no coroutine can catch it) is logged, and
// the loop goes on; the connection whose handler threw loses that handler, and with it the
// coroutine that served it, which closes its socket as it is destroyed.
void RunEventLoop(asio::io_context& io) {
  for (;;) {
    try {
      io.run();
      return;
    } catch (const std::exception& e) {
      Log(LogLevel::kError, std::string("internal error in an event handler: ") + e.what() +
                                "; the connection it served is closed, the daemon goes on");
    }
  }
}

int Run(const Flags& flags) {
  // First, before any thread starts, so that every thread inherits the blocked mask and a signal
  // sent as soon as the log says "listening" starts a drain rather than killing the process.
  // Handled from io.run() on.
  StopSignals signals;
  // Next, before any thread starts, so that all of them but the solvers inherit the CPUs left.
  const CpuList other_cpus =
      flags.solver_cpus.empty() ? CpuList{} : MoveOffCpus(flags.solver_cpus);
  ServerOptions server_options = flags.server;
  server_options.max_connections =
      FitDescriptors(flags.server.max_connections, flags.max_connections_given,
                     flags.http ? WebApi::kMaxConnections : 0);
  // Declared in this order so that they are destroyed in the reverse one: the server (and its
  // connections) first, then the pool, which waits for its work, then the io_context that the
  // work's completions are posted to.
  asio::io_context io(1);
  // --metrics, where load balancers probe /readyz, runs on a thread of its own (health.h says
  // why); its /metrics goes to `io` to render. Kept running until the drain is over.
  asio::io_context probe_io(1);
  auto probe_work = asio::make_work_guard(probe_io);
  // --http has a thread of its own too: its TLS handshakes, page and API traffic, whatever a
  // crowd makes of them, never delay a probe of --metrics.
  asio::io_context http_io(1);
  auto http_work = asio::make_work_guard(http_io);
  Pool pool(flags.threads, flags.solver_cpus);
  Server server(io, pool, server_options);
  Health health(io, pool, flags.health);
  Notifier notifier(
      io, [&server] { return server.StatusText(); }, [&health] { return health.PoolTrouble(); });
  MetricsRoutes metrics_routes(
      [&server, &health, &flags] {
        MetricsSnapshot snapshot = server.Snapshot();
        snapshot.process = ReadProcessFigures();
        snapshot.cgroup = &flags.cgroup;
        snapshot.health = MetricsSnapshot::HealthFigures{
            .canary_age_seconds = health.CanaryAgeSeconds(), .ready = health.NotReady().empty()};
        return RenderPrometheus(snapshot);
      },
      &health, io.get_executor());
  HttpServer metrics(probe_io, "metrics",
                     HttpLimits{.max_connections = MetricsRoutes::kMaxConnections},
                     &metrics_routes);
  // --http runs on its own thread: its health checks, page and TLS handshakes are never behind
  // the event loop; its API requests go to the loop, where the RequestHandler is.
  WebApi web_api(server.requests(), &metrics_routes,
                 WebApiOptions{.client_certificates = flags.api_client_certificates},
                 io.get_executor());
  HttpServer http(http_io, "http", WebApi::Limits(), &web_api);
  // --http-tls: the HTTP listeners' certificate, the port's. Its client CA too when the API
  // requires client certificates, but optional: a scraper or a load balancer's health check has
  // none. Read again on SIGHUP.
  const auto secure_http = [&](const std::string& reason) {
    if (!flags.http_tls) return;
    const TlsFiles files{
        .cert = flags.server.tls->cert,
        .key = flags.server.tls->key,
        .client_ca = flags.api_client_certificates ? flags.server.tls->client_ca : "",
        .client_certificate_optional = true};
    std::shared_ptr<TlsContext> context;
    try {
      context = std::make_shared<TlsContext>(files);
    } catch (const std::exception& e) {
      if (reason.empty()) throw;
      Log(LogLevel::kError, reason + ": kept the HTTPS certificate in use: " + e.what());
      return;
    }
    asio::post(probe_io, [&metrics, context] { metrics.SetTls(context); });
    asio::post(http_io, [&http, context] { http.SetTls(context); });
    if (!reason.empty()) LogLine(reason + ": reloaded the HTTPS certificate for new connections");
  };
  secure_http("");
  const std::string http_scheme = flags.http_tls ? "https://" : "http://";

  bool stopped = false;
  server.OnStopped([&] {
    stopped = true;
    notifier.Stop();
    health.Stop();
    asio::post(probe_io, [&] {
      metrics.Stop();
      probe_work.reset();
    });
    asio::post(http_io, [&] {
      http.Stop();
      http_work.reset();
    });
  });

  tcp::endpoint bound;
  // Socket activation: systemd (or systemd-socket-activate) passes the bound socket; --listen is
  // then ignored.
  const int passed = sd_listen_fds(1);
  const bool listening_stream =
      passed == 1 && sd_is_socket_inet(SD_LISTEN_FDS_START, AF_UNSPEC, SOCK_STREAM, 1, 0) > 0;
  if (passed > 1 || (passed == 1 && !listening_stream)) {
    Log(LogLevel::kError, "socket activation: expected one listening TCP socket, got " +
                              std::to_string(passed) + " descriptors (see sudokud.socket)");
    return kExitFailure;
  }
  try {
    bound = passed == 1 ? server.Adopt(SD_LISTEN_FDS_START) : server.Listen();
  } catch (const boost::system::system_error& e) {
    Log(LogLevel::kError,
        "cannot listen on " + EndpointText(flags.server.listen) + ": " +
            BindFailure(e.code(), "--listen"));
    return kExitFailure;
  }
  std::optional<tcp::endpoint> metrics_bound;
  if (flags.metrics) {
    try {
      metrics_bound = metrics.Listen(*flags.metrics);
    } catch (const boost::system::system_error& e) {
      Log(LogLevel::kError, "cannot serve metrics on " + EndpointText(*flags.metrics) + ": " +
                                BindFailure(e.code(), "--metrics"));
      return kExitFailure;
    }
  }
  std::optional<tcp::endpoint> http_bound;
  if (flags.http) {
    try {
      http_bound = http.Listen(*flags.http);
    } catch (const boost::system::system_error& e) {
      Log(LogLevel::kError, "cannot serve the page on " + EndpointText(*flags.http) + ": " +
                                BindFailure(e.code(), "--http"));
      return kExitFailure;
    }
  }
  // Anyone who reaches a listener bound beyond this host without TLS reads and sends in the
  // clear: allowed (a private network, a proxy that ends TLS), but said.
  const auto warn_if_open = [](const char* flag, const tcp::endpoint& endpoint, bool tls,
                               const char* what) {
    if (tls || endpoint.address().is_loopback()) return;
    Log(LogLevel::kWarning, std::string(flag) + " " + EndpointText(endpoint) +
                                " listens beyond this host without TLS: anyone who reaches it " +
                                what + " in the clear; bind 127.0.0.1, or add " +
                                (std::string(flag) == "--listen" ? "--tls-cert and --tls-key"
                                                                 : "--http-tls"));
  };
  if (passed == 0) {
    warn_if_open("--listen", bound, flags.server.tls.has_value(), "solves puzzles");
  }
  if (metrics_bound) {
    warn_if_open("--metrics", *metrics_bound, flags.http_tls, "reads the metrics");
  }
  if (http_bound) {
    warn_if_open("--http", *http_bound, flags.http_tls,
                 flags.api_client_certificates ? "reads the page and the metrics"
                                               : "solves and generates puzzles");
  }
  const std::string_view note = KernelSelectionNote();
  if (!note.empty()) LogLine(std::string(note));
  // What the cgroup allows, and what that made of --threads and --max-memory (nothing without a
  // limit); a limit file that says something else is passed over, and said.
  for (const std::string& reason : flags.cgroup.ignored) {
    Log(LogLevel::kWarning, "cgroup: ignored " + reason);
  }
  const std::string cgroup = CgroupLimitsText(
      flags.cgroup, ChosenLimits{.threads = flags.threads,
                                 .threads_given = flags.threads_given,
                                 .max_memory = flags.server.max_memory,
                                 .max_memory_given = flags.max_memory_given});
  if (!cgroup.empty()) LogLine(cgroup);
  std::string pinning;
  if (!flags.solver_cpus.empty()) {
    pinning = " on CPU" + std::string(flags.solver_cpus.size() > 1 ? "s " : " ") +
              CpuListText(flags.solver_cpus);
    if (!other_cpus.empty()) pinning += ", the rest on " + CpuListText(other_cpus);
  }
  LogLine("listening on " + EndpointText(bound) + " (threads " + std::to_string(pool.threads()) +
          pinning + ", kernel " + ActiveKernel().name + (passed == 1 ? ", socket from systemd" : "") +
          ")" + (flags.server.tls ? "; TLS with " + server.TlsDescription() : std::string()));
  if (metrics_bound) {
    LogLine("serving metrics on " + http_scheme + EndpointText(*metrics_bound) + "/metrics");
    metrics.Start();
  }
  if (http_bound) {
    LogLine("serving the page on " + http_scheme + EndpointText(*http_bound) +
            "/ (API at /api/, metrics at /metrics)");
    http.Start();
  }
  if (!flags.health.wedge_file.empty()) {
    Log(LogLevel::kWarning, std::string("test hook: ") + kWedgeFileVariable +
                                " is set: the solver pool is held while " +
                                flags.health.wedge_file + " exists");
  }
  server.Start();
  health.Start();
  notifier.Ready();
  // A signal sent since start-up has waited, blocked, for this.
  bool stopping = false;
  signals.Start(io, [&](int signal) {
    if (stopped) return;  // the drain is over; io.run() is about to return
    if (signal == SIGHUP) {  // systemctl reload
      server.ReloadTls("SIGHUP");
      secure_http("SIGHUP");
      return;
    }
    if (!stopping) {
      stopping = true;
      health.Draining();
      notifier.Stopping();
      web_api.Stop();  // the page's API takes no new work; the page and metrics stay up
    }
    // A second signal cancels what the drain still waits for.
    server.Drain(signal == SIGINT ? "SIGINT" : "SIGTERM");
  });
  // `io` runs until the probe and HTTP threads are done, so that a /metrics they serve can still
  // render.
  auto loop_work = asio::make_work_guard(io);
  std::atomic<int> http_threads = 2;
  const auto run_http_thread = [&](asio::io_context& http_loop) {
    RunEventLoop(http_loop);
    if (--http_threads == 0) asio::post(io, [&] { loop_work.reset(); });
  };
  std::thread probe_thread([&] { run_http_thread(probe_io); });
  std::thread http_thread([&] { run_http_thread(http_io); });
  RunEventLoop(io);
  // Returned after the drain, or abandoned (Server::CancelRemaining stopped `io`, and the HTTP
  // listeners were never told to stop).
  probe_io.stop();
  http_io.stop();
  probe_thread.join();
  http_thread.join();
  signals.Stop();  // before `io` goes: the waiter posts to it

  ClientCausedLog().ReportSuppressed();
  LogLine("stopped: " + server.SummaryText());
  if (server.abandoned()) {
    // Batches are still on the arena a second after they were cancelled; waiting for them (the
    // Pool's destructor) could take arbitrarily long.
    std::_Exit(0);
  }
  if (const std::string trouble = health.PoolTrouble(); !trouble.empty()) {
    // The canary may be stuck on a wedged pool, which the Pool's destructor would wait for.
    Log(LogLevel::kWarning, trouble + "; exiting without waiting for it");
    std::_Exit(0);
  }
  return 0;
}

}  // namespace
}  // namespace sudoku::daemon

int main(int argc, char** argv) {
  using sudoku::daemon::Log;
  // A write to a stderr pipe nobody reads any more (a log collector gone) must fail with EPIPE,
  // not kill the daemon: the line is lost, the service goes on. (Sockets never raise SIGPIPE:
  // Asio sends with MSG_NOSIGNAL.)
  std::signal(SIGPIPE, SIG_IGN);
  std::optional<sudoku::daemon::Flags> flags;
  try {
    flags = sudoku::daemon::ParseFlags(argc, argv);
  } catch (const sudoku::daemon::UsageError& e) {
    Log(sudoku::daemon::LogLevel::kError, e.message + " (see sudokud --help)");
    return sudoku::daemon::kExitUsage;
  }
  if (!flags) return 0;
  try {
    return sudoku::daemon::Run(*flags);
  } catch (const sudoku::daemon::TlsFileError& e) {
    // A configuration mistake, as a bad flag is: the operator fixes the files and starts again.
    Log(sudoku::daemon::LogLevel::kError, e.what());
    return sudoku::daemon::kExitUsage;
  } catch (const std::exception& e) {
    Log(sudoku::daemon::LogLevel::kError, std::string("fatal: ") + e.what());
    return sudoku::daemon::kExitFailure;
  }
}
