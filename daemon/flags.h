// sudokud's command line: every flag with its default, its check and its message, read into
// Flags. A bad flag throws UsageError, whose message names the flag and says what it takes;
// main() logs it and exits 2.
//
// Thread-safety: call from one thread (it may print --help and --version to stdout).
#ifndef SUDOKU_DAEMON_FLAGS_H_
#define SUDOKU_DAEMON_FLAGS_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <optional>
#include <string>
#include <vector>

#include <boost/asio/ip/tcp.hpp>

#include "daemon/cgroup_limits.h"
#include "daemon/health.h"
#include "daemon/server_options.h"

namespace sudoku::daemon {

// A bad flag: the message names the flag and says what it accepts.
struct UsageError {
  std::string message;
};

// What the command line asks for.
struct Flags {
  ServerOptions server;
  HealthOptions health;
  int threads = 1;
  // Whether --threads and --max-memory were given; else they follow the CPUs this process may
  // use and the limits of its cgroup (cgroup_limits.h), which `cgroup` holds as read.
  bool threads_given = false;
  bool max_memory_given = false;
  CgroupLimits cgroup;
  // --solver-cpus: the CPUs the solver threads keep to; empty: no pinning.
  std::vector<int> solver_cpus;
  std::optional<boost::asio::ip::tcp::endpoint> metrics;
  std::optional<boost::asio::ip::tcp::endpoint> http;
  bool http_tls = false;  // --metrics and --http serve HTTPS with --tls-cert and --tls-key
  // The JSON API requires a verified client certificate, as the TCP port does (--tls-client-ca,
  // unless --http-api-without-client-cert).
  bool api_client_certificates = false;
  // --max-connections was given; its default yields to the descriptor limit (see
  // FitDescriptors in main.cc), a number given does not.
  bool max_connections_given = false;
};

// Reads argv into Flags; std::nullopt after printing --help or --version. Throws UsageError.
std::optional<Flags> ParseFlags(int argc, char** argv);

// An address as the log and --help show it: "127.0.0.1:9810", "[::1]:9810".
std::string EndpointText(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_FLAGS_H_
