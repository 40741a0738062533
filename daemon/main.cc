// sudokud: solves Sudoku puzzles in bulk for clients on TCP (protocol: proto/sudoku.proto).
//
// This file holds the process: flags, signals, the io_context and the order things start and stop
// in. The event loop runs on the main thread; solving runs on the Pool's threads.
#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <charconv>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/program_options.hpp>
#include <systemd/sd-daemon.h>
#include <tbb/info.h>

#include "daemon/health.h"
#include "daemon/http_server.h"
#include "daemon/log.h"
#include "daemon/metrics.h"
#include "daemon/notify.h"
#include "daemon/pool.h"
#include "daemon/server.h"
#include "daemon/web_api.h"
#include "proto/command_line.h"
#include "proto/flag_values.h"
#include "proto/version.h"
#include "solver/solver.h"

namespace sudoku::daemon {
namespace {

namespace asio = boost::asio;
namespace po = boost::program_options;
using asio::ip::tcp;

constexpr int kExitUsage = 2;
constexpr int kExitFailure = 1;

// A bad flag: the message names the flag and says what it accepts.
struct UsageError {
  std::string message;
};

int64_t ParseInteger(const po::variables_map& flags, const char* name, int64_t min, int64_t max) {
  const auto& text = flags[name].as<std::string>();
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    throw UsageError{"--" + std::string(name) + " must be an integer from " + std::to_string(min) +
                     " to " + std::to_string(max) + ", got '" + text + "'"};
  }
  return value;
}

// A duration flag from `min` to `max`, whole seconds (the units the server's limits are kept in;
// anything finer is rounded up, so that 500ms is one second, not never).
std::chrono::seconds ParseSeconds(const po::variables_map& flags, const char* name,
                                  std::chrono::seconds min, std::chrono::seconds max) {
  const auto& text = flags[name].as<std::string>();
  const auto parsed = ParseDuration(text);
  const auto rounded = parsed ? std::chrono::ceil<std::chrono::seconds>(*parsed) : max + max;
  if (!parsed || parsed->count() > static_cast<double>(max.count()) || rounded < min ||
      rounded > max) {
    throw UsageError{"--" + std::string(name) + " must be " + std::string(kDurationHint) +
                     " from " + std::to_string(min.count()) + "s to " +
                     std::to_string(max.count()) + "s, got '" + text + "'"};
  }
  return rounded;
}

// HOST:PORT, with HOST a name, an IPv4 address or a bracketed IPv6 address.
tcp::endpoint ParseListen(const std::string& text, const char* name = "listen") {
  const std::string flag = "--" + std::string(name) + " '" + text + "'";
  const HostPort address = SplitHostPort(text);
  if (address.problem == HostPort::Problem::kShape) {
    throw UsageError{flag + ": expected [HOST:]PORT, e.g. 9810, 127.0.0.1:9810 or [::1]:9810"};
  }
  if (address.problem == HostPort::Problem::kPort) {
    throw UsageError{flag + ": the port must be a number from 0 to 65535 (0 picks a free one)"};
  }
  const std::string& host = address.host;
  const std::string port_text = std::to_string(address.port);
  asio::io_context io;
  tcp::resolver resolver(io);
  boost::system::error_code resolve_error;
  const auto results = resolver.resolve(host, port_text, tcp::resolver::passive, resolve_error);
  if (resolve_error || results.empty()) {
    throw UsageError{flag + ": cannot resolve '" + host + "': " + resolve_error.message()};
  }
  return results.begin()->endpoint();
}

struct Flags {
  ServerOptions server;
  HealthOptions health;
  int threads = 1;
  std::optional<tcp::endpoint> metrics;
  std::optional<tcp::endpoint> http;
  bool http_tls = false;  // --metrics and --http serve HTTPS with --tls-cert and --tls-key
  // The JSON API requires a verified client certificate, as the TCP port does (--tls-client-ca,
  // unless --http-api-without-client-cert).
  bool api_client_certificates = false;
  // --max-connections was given; its default yields to the descriptor limit (see
  // FitDescriptors), a number given does not.
  bool max_connections_given = false;
};

// Every listener takes HOST:PORT, or a port alone for this host only (127.0.0.1).
tcp::endpoint ParseAddress(const std::string& text, const char* name) {
  const bool port_only =
      !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  return ParseListen(port_only ? "127.0.0.1:" + text : text, name);
}

// Parses argv; std::nullopt after printing --help.
std::string EndpointText(const tcp::endpoint& endpoint);

// A default duration as --help shows it: "30s".
template <typename Duration>
std::string Seconds(Duration duration) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(duration).count()) + "s";
}

std::optional<Flags> ParseFlags(int argc, char** argv) {
  const int cores = tbb::info::default_concurrency();
  // The defaults are ServerOptions' and HealthOptions' own, stated once there.
  const ServerOptions defaults;
  po::options_description options("Usage: sudokud [OPTIONS]\nOptions");
  options.add_options()
      ("help,h", "print this help and exit")
      ("version", "print the version and exit")
      ("listen",
       po::value<std::string>()
           ->default_value(EndpointText(defaults.listen))
           ->value_name("[HOST:]PORT"),
       "address to listen on; a port alone listens on 127.0.0.1, port 0 picks a free port (the "
       "log says which). Ignored when systemd passes a listening socket (socket activation)")
      ("metrics", po::value<std::string>()->value_name("[HOST:]PORT"),
       "serve Prometheus metrics over HTTP at http://HOST:PORT/metrics, and the health checks "
       "/healthz and /readyz; a port alone listens on 127.0.0.1 (default: off)")
      ("http", po::value<std::string>()->value_name("[HOST:]PORT"),
       "serve the web page (http://HOST:PORT/), its JSON API (/api/solve, /api/explain, "
       "/api/generate), the metrics (/metrics) and the health checks (/healthz, /readyz) over "
       "HTTP; a port alone listens on 127.0.0.1 (default: off)")
      ("canary-deadline",
       po::value<std::string>()
           ->default_value(Seconds(HealthOptions{}.canary_deadline))
           ->value_name("DURATION"),
       "the solver pool must finish a job (a canary puzzle is sent every second) this often; "
       "past it /readyz answers 503 and the systemd watchdog is no longer fed")
      // Shown as "all", not this machine's count: the text also goes into the man page.
      ("threads",
       po::value<std::string>()->default_value(std::to_string(cores), "all")->value_name("N"),
       "solver threads (default: every core this process may use)")
      ("max-frame-bytes",
       po::value<std::string>()
           ->default_value(std::to_string(defaults.max_frame_bytes))
           ->value_name("BYTES"),
       "largest frame accepted; a larger declared length is refused before any allocation")
      ("max-batch",
       po::value<std::string>()
           ->default_value(std::to_string(defaults.max_batch))
           ->value_name("N"),
       "most puzzles in one batch")
      ("max-connections",
       po::value<std::string>()
           ->default_value(std::to_string(defaults.max_connections))
           ->value_name("N"),
       "connections served at once; a newcomer past it closes the connection idle longest (or, "
       "none being idle, one holding only work of unbounded cost), else is refused with a "
       "protocol fault")
      ("max-in-flight-per-connection",
       po::value<std::string>()
           ->default_value(std::to_string(defaults.max_in_flight_per_connection))
           ->value_name("N"),
       "puzzles accepted but not yet answered on one connection; past it the daemon stops "
       "reading that connection until results drain")
      ("max-in-flight",
       po::value<std::string>()
           ->default_value(std::to_string(defaults.max_in_flight))
           ->value_name("N"),
       "puzzles accepted and not yet solved, over all connections; a request is charged its "
       "real size (a generation of N puzzles, N) and none of it runs before it fits, so what "
       "is in flight stays within twice the limit")
      ("max-memory",
       po::value<std::string>()
           ->default_value(std::to_string(defaults.max_memory))
           ->value_name("BYTES"),
       "bytes held for clients (unfinished frames, answers not yet read) over all connections; "
       "past half of it the connections holding more than their share stop reading (at least "
       "twice --max-frame-bytes)")
      ("idle-timeout",
       po::value<std::string>()
           ->default_value(Seconds(defaults.idle_timeout))
           ->value_name("DURATION"),
       "close a connection that sends nothing and waits for nothing this long (0: never)")
      ("write-stall-timeout",
       po::value<std::string>()
           ->default_value(Seconds(defaults.write_stall_timeout))
           ->value_name("DURATION"),
       "close a connection whose reader has taken no byte of its pending answers this long, "
       "dropping them (0: never)")
      ("frame-timeout",
       po::value<std::string>()
           ->default_value(Seconds(defaults.frame_timeout))
           ->value_name("DURATION"),
       "a frame whose first byte has arrived must be whole this soon, plus a second for every "
       "1024 bytes received (a sender keeping that rate is never timed out), or the connection "
       "gets a REQUEST_TIMEOUT fault (0: never)")
      ("first-frame-timeout",
       po::value<std::string>()
           ->default_value(Seconds(defaults.first_frame_timeout))
           ->value_name("DURATION"),
       "a new connection must send a whole frame this soon, plus a second for every 1024 bytes "
       "of it received, or it gets a REQUEST_TIMEOUT fault; "
       "with TLS, its handshake must be done this soon too, or it is closed (0: never)")
      ("drain-timeout",
       po::value<std::string>()
           ->default_value(Seconds(defaults.drain_timeout))
           ->value_name("DURATION"),
       "on SIGTERM/SIGINT, how long to finish accepted batches before cancelling them")
      ("tls-cert", po::value<std::string>()->value_name("FILE"),
       "serve the port over TLS (1.2 or 1.3) with this PEM certificate (then any intermediates); "
       "SIGHUP reads it and --tls-key again for new connections")
      ("tls-key", po::value<std::string>()->value_name("FILE"),
       "the PEM private key of --tls-cert (unencrypted)")
      ("tls-client-ca", po::value<std::string>()->value_name("FILE"),
       "mutual TLS: only clients with a certificate signed by a CA in this PEM file get in; the "
       "certificate's subject goes into the connection's log lines")
      ("http-tls",
       "serve --metrics and --http over HTTPS with --tls-cert and --tls-key; SIGHUP reloads "
       "them there too. With --tls-client-ca, a client certificate is asked for but not "
       "required: the metrics, health checks and page stay open, the JSON API takes only "
       "clients whose certificate it signed")
      ("http-api-without-client-cert",
       "with --tls-client-ca: let the JSON API of --http serve clients without a client "
       "certificate (by default, where the TCP port requires one, the API answers them 403)");

  // The daemon takes no arguments besides its options: one is a mistake (a flag's value split
  // off, a missing --), not something to ignore.
  std::vector<std::string> arguments;
  po::variables_map flags;
  try {
    flags = ReadCommandLine(po::command_line_parser(argc, argv), options, &arguments);
  } catch (const po::error& e) {
    throw UsageError{e.what()};
  }
  if (flags.count("help")) {
    std::cout << "sudokud: solves Sudoku puzzles in bulk for clients on TCP.\n\n" << options;
    return std::nullopt;
  }
  if (flags.count("version")) {
    std::cout << VersionLine("sudokud") << "\n";
    return std::nullopt;
  }
  if (!arguments.empty()) {
    throw UsageError{"unexpected argument '" + arguments.front() +
                     "': sudokud takes only options"};
  }
  Flags out;
  out.threads = static_cast<int>(ParseInteger(flags, "threads", 1, 1024));
  ServerOptions& server = out.server;
  server.listen = ParseAddress(flags["listen"].as<std::string>(), "listen");
  if (flags.count("metrics")) {
    out.metrics = ParseAddress(flags["metrics"].as<std::string>(), "metrics");
  }
  if (flags.count("http")) out.http = ParseAddress(flags["http"].as<std::string>(), "http");
  if (out.metrics && out.http && *out.metrics == *out.http && out.http->port() != 0) {
    throw UsageError{"--metrics and --http name the same address; --http serves /metrics too, "
                     "so give --http alone"};
  }
  server.max_frame_bytes = ParseInteger(flags, "max-frame-bytes", 1024, int64_t{1} << 30);
  server.max_batch = ParseInteger(flags, "max-batch", 1, int64_t{1} << 24);
  server.max_connections = ParseInteger(flags, "max-connections", 1, 1 << 20);
  out.max_connections_given = !flags["max-connections"].defaulted();
  server.max_in_flight_per_connection =
      ParseInteger(flags, "max-in-flight-per-connection", 1, int64_t{1} << 30);
  server.max_in_flight = ParseInteger(flags, "max-in-flight", 1, int64_t{1} << 32);
  server.max_memory = ParseInteger(flags, "max-memory", static_cast<int64_t>(2 * server.max_frame_bytes),
                                   int64_t{1} << 44);
  const auto seconds = [](int64_t n) { return std::chrono::seconds(n); };
  server.idle_timeout = ParseSeconds(flags, "idle-timeout", seconds(0), seconds(86400 * 7));
  server.write_stall_timeout =
      ParseSeconds(flags, "write-stall-timeout", seconds(0), seconds(86400));
  server.frame_timeout = ParseSeconds(flags, "frame-timeout", seconds(0), seconds(86400));
  server.first_frame_timeout =
      ParseSeconds(flags, "first-frame-timeout", seconds(0), seconds(86400));
  server.drain_timeout = ParseSeconds(flags, "drain-timeout", seconds(0), seconds(86400));
  out.health.canary_deadline =
      ParseSeconds(flags, "canary-deadline", seconds(2), seconds(3600));
  // The test hook (health.h): only from the environment, never from a flag or the network.
  if (const char* wedge = std::getenv(kWedgeFileVariable); wedge != nullptr && *wedge != '\0') {
    out.health.wedge_file = wedge;
  }
  if (flags.count("tls-cert") != flags.count("tls-key")) {
    throw UsageError{"--tls-cert and --tls-key go together: give both, or neither for plain TCP"};
  }
  if (flags.count("tls-client-ca") && !flags.count("tls-cert")) {
    throw UsageError{"--tls-client-ca needs --tls-cert and --tls-key: client certificates are "
                     "checked only over TLS"};
  }
  if (flags.count("http-tls")) {
    if (!flags.count("tls-cert")) {
      throw UsageError{"--http-tls needs --tls-cert and --tls-key: the HTTP listeners serve "
                       "their certificate"};
    }
    if (!flags.count("metrics") && !flags.count("http")) {
      throw UsageError{"--http-tls needs --metrics or --http: there is no HTTP listener to "
                       "secure"};
    }
    out.http_tls = true;
  }
  if (flags.count("http-api-without-client-cert") && !flags.count("tls-client-ca")) {
    throw UsageError{"--http-api-without-client-cert goes with --tls-client-ca: without it, no "
                     "listener asks for client certificates"};
  }
  out.api_client_certificates =
      flags.count("tls-client-ca") && !flags.count("http-api-without-client-cert");
  if (flags.count("tls-cert")) {
    server.tls = TlsFiles{
        .cert = flags["tls-cert"].as<std::string>(),
        .key = flags["tls-key"].as<std::string>(),
        .client_ca = flags.count("tls-client-ca") ? flags["tls-client-ca"].as<std::string>() : ""};
  }
  return out;
}

std::string EndpointText(const tcp::endpoint& endpoint) {
  std::ostringstream out;
  out << endpoint;
  return out.str();
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
  ServerOptions server_options = flags.server;
  server_options.max_connections =
      FitDescriptors(flags.server.max_connections, flags.max_connections_given,
                     flags.http ? WebApi::kMaxConnections : 0);
  // Declared in this order so that they are destroyed in the reverse one: the server (and its
  // connections) first, then the pool, which waits for its work, then the io_context that the
  // work's completions are posted to.
  asio::io_context io(1);
  Pool pool(flags.threads);
  Server server(io, pool, server_options);
  Health health(io, pool, flags.health);
  Notifier notifier(
      io, [&server] { return server.StatusText(); }, [&health] { return health.PoolTrouble(); });
  MetricsRoutes metrics_routes(
      [&server, &health] {
        MetricsSnapshot snapshot = server.Snapshot();
        snapshot.process = ReadProcessFigures();
        snapshot.health = MetricsSnapshot::HealthFigures{
            .canary_age_seconds = health.CanaryAgeSeconds(), .ready = health.NotReady().empty()};
        return RenderPrometheus(snapshot);
      },
      &health);
  HttpServer metrics(io, "metrics", HttpLimits{.max_connections = MetricsRoutes::kMaxConnections},
                     &metrics_routes);
  WebApi web_api(pool, &metrics_routes,
                 WebApiOptions{.client_certificates = flags.api_client_certificates},
                 &server.admission());
  HttpServer http(io, "http", WebApi::Limits(), &web_api);
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
    metrics.SetTls(context);
    http.SetTls(context);
    if (!reason.empty()) LogLine(reason + ": reloaded the HTTPS certificate for new connections");
  };
  secure_http("");
  const std::string http_scheme = flags.http_tls ? "https://" : "http://";

  bool stopped = false;
  server.OnStopped([&] {
    stopped = true;
    notifier.Stop();
    health.Stop();
    metrics.Stop();
    http.Stop();
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
        "cannot listen on " + EndpointText(flags.server.listen) + ": " + e.code().message());
    return kExitFailure;
  }
  std::optional<tcp::endpoint> metrics_bound;
  if (flags.metrics) {
    try {
      metrics_bound = metrics.Listen(*flags.metrics);
    } catch (const boost::system::system_error& e) {
      Log(LogLevel::kError, "cannot serve metrics on " + EndpointText(*flags.metrics) + ": " +
                                e.code().message());
      return kExitFailure;
    }
  }
  std::optional<tcp::endpoint> http_bound;
  if (flags.http) {
    try {
      http_bound = http.Listen(*flags.http);
    } catch (const boost::system::system_error& e) {
      Log(LogLevel::kError, "cannot serve the page on " + EndpointText(*flags.http) + ": " +
                                e.code().message());
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
  LogLine("listening on " + EndpointText(bound) + " (threads " + std::to_string(pool.threads()) +
          ", kernel " + ActiveKernel().name + (passed == 1 ? ", socket from systemd" : "") +
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
  RunEventLoop(io);
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
