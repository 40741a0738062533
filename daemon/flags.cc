#include "daemon/flags.h"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/program_options.hpp>
#include <tbb/info.h>

#include "daemon/pool.h"
#include "proto/command_line.h"
#include "proto/flag_values.h"
#include "proto/version.h"

namespace sudoku::daemon {
namespace {

namespace asio = boost::asio;
namespace po = boost::program_options;
using asio::ip::tcp;

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

// A duration flag from `min` to `max`, to the millisecond: "100ms" is 100 ms, not a second. A
// value above 0 that rounds to 0 ms is 1 ms (0 turns a limit off).
std::chrono::milliseconds ParseMilliseconds(const po::variables_map& flags, const char* name,
                                            std::chrono::seconds min, std::chrono::seconds max) {
  const auto& text = flags[name].as<std::string>();
  const auto parsed = ParseDuration(text);
  auto rounded = std::chrono::milliseconds::max();
  if (parsed && parsed->count() <= static_cast<double>(max.count())) {
    rounded = std::chrono::round<std::chrono::milliseconds>(*parsed);
    if (rounded.count() == 0 && parsed->count() > 0) rounded = std::chrono::milliseconds(1);
  }
  if (rounded < min || rounded > max) {
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


// Every listener takes HOST:PORT, or a port alone for this host only (127.0.0.1).
tcp::endpoint ParseAddress(const std::string& text, const char* name) {
  const bool port_only =
      !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  return ParseListen(port_only ? "127.0.0.1:" + text : text, name);
}

// --solver-cpus: CPU numbers and ranges as taskset -c takes them ("1", "0-3,6"), each one this
// process may use. Sorted, without repeats.
std::vector<int> ParseCpuList(const std::string& text) {
  const UsageError malformed{"--solver-cpus must list CPUs as taskset -c does, e.g. 3 or 0-2,5, "
                             "got '" + text + "'"};
  std::vector<int> cpus;
  size_t start = 0;
  do {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const char* first = text.data() + start;
    const char* const last = text.data() + end;
    int low = 0, high = 0;
    std::from_chars_result read = std::from_chars(first, last, low);
    high = low;
    if (read.ec == std::errc() && read.ptr != last && *read.ptr == '-') {
      read = std::from_chars(read.ptr + 1, last, high);
    }
    if (read.ec != std::errc() || read.ptr != last || low < 0 || high < low ||
        high >= CPU_SETSIZE) {
      throw malformed;
    }
    for (int cpu = low; cpu <= high; ++cpu) cpus.push_back(cpu);
    start = end + 1;
  } while (start <= text.size());
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  const std::vector<int> allowed = AllowedCpus();
  for (int cpu : cpus) {
    if (!std::binary_search(allowed.begin(), allowed.end(), cpu)) {
      throw UsageError{"--solver-cpus " + text + ": CPU " + std::to_string(cpu) +
                       " is not one this process may use (" + CpuListText(allowed) + ")"};
    }
  }
  return cpus;
}

// A default duration as --help shows it: "30s".
template <typename Duration>
std::string Seconds(Duration duration) {
  return DurationText(std::chrono::duration_cast<std::chrono::milliseconds>(duration));
}

}  // namespace

std::optional<Flags> ParseFlags(int argc, char** argv) {
  // The defaults are ServerOptions' and HealthOptions' own, stated once there, but for those of
  // --threads and --max-memory, which follow the machine and its cgroup (cgroup_limits.h).
  const ServerOptions defaults;
  // The cap is DefaultMaxMemory()'s own, so that --help cannot drift from it.
  const std::string max_memory_help =
      "bytes held for clients (unfinished frames, answers not yet read) over all connections; "
      "past half of it the connections holding more than their share stop reading (at least "
      "twice --max-frame-bytes; default " + std::to_string(kMaxMemoryCap) + ", or half of the "
      "cgroup's memory limit, memory.max or memory.limit_in_bytes, when that is less)";
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
      // The defaults are described, not this machine's figures: the text is the same on every
      // machine, as the man page's (which the deploy test holds to it).
      ("threads", po::value<std::string>()->value_name("N"),
       "solver threads (default: every core this process may use, but no more than the whole "
       "cores of its cgroup's CPU quota, cpu.max or cpu.cfs_quota_us; at least 1)")
      ("solver-cpus", po::value<std::string>()->value_name("LIST"),
       "run the solver threads only on these CPUs, listed as taskset -c lists them (e.g. 2-7), "
       "and the event loop and the rest of the daemon on the other CPUs it may use (default: "
       "no pinning)")
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
      ("max-memory", po::value<std::string>()->value_name("BYTES"), max_memory_help.c_str())
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
  // Read once the command line is: --help and --version say the same on every machine.
  out.cgroup = ReadCgroupLimits();
  out.threads_given = flags.count("threads") > 0;
  out.threads = out.threads_given
                    ? static_cast<int>(ParseInteger(flags, "threads", 1, 1024))
                    : DefaultThreads(tbb::info::default_concurrency(), out.cgroup);
  if (flags.count("solver-cpus")) {
    out.solver_cpus = ParseCpuList(flags["solver-cpus"].as<std::string>());
  }
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
  out.max_memory_given = flags.count("max-memory") > 0;
  server.max_memory = out.max_memory_given
                          ? ParseInteger(flags, "max-memory",
                                         static_cast<int64_t>(2 * server.max_frame_bytes),
                                         int64_t{1} << 44)
                          : DefaultMaxMemory(out.cgroup, 2 * server.max_frame_bytes);
  const auto seconds = [](int64_t n) { return std::chrono::seconds(n); };
  server.idle_timeout = ParseMilliseconds(flags, "idle-timeout", seconds(0), seconds(86400 * 7));
  server.write_stall_timeout =
      ParseMilliseconds(flags, "write-stall-timeout", seconds(0), seconds(86400));
  server.frame_timeout = ParseMilliseconds(flags, "frame-timeout", seconds(0), seconds(86400));
  server.first_frame_timeout =
      ParseMilliseconds(flags, "first-frame-timeout", seconds(0), seconds(86400));
  server.drain_timeout = ParseMilliseconds(flags, "drain-timeout", seconds(0), seconds(86400));
  out.health.canary_deadline =
      ParseMilliseconds(flags, "canary-deadline", seconds(2), seconds(3600));
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

}  // namespace sudoku::daemon
