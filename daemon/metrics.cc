#include "daemon/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <string_view>

#include <sys/resource.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/verb.hpp>
#include <fmt/format.h>

namespace sudoku::daemon {

namespace asio = boost::asio;
namespace http = boost::beast::http;

Histogram::Histogram(std::vector<double> upper_bounds)
    : upper_bounds_(std::move(upper_bounds)), buckets_(upper_bounds_.size() + 1, 0) {}

void Histogram::Observe(double value) {
  const auto bucket = std::lower_bound(upper_bounds_.begin(), upper_bounds_.end(), value);
  ++buckets_[static_cast<size_t>(bucket - upper_bounds_.begin())];
  ++count_;
  sum_ += value;
}

uint64_t Histogram::CumulativeCount(size_t i) const {
  uint64_t total = 0;
  for (size_t b = 0; b <= i && b < buckets_.size(); ++b) total += buckets_[b];
  return total;
}

namespace {

// Prometheus floats: shortest round-trip text; integers print without a fraction.
std::string Number(double value) {
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // Counters and integral bounds print as integers ("30", not "3e+01").
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<int64_t>(value));
  }
  return fmt::format("{}", value);  // the shortest text that reads back the same
}

class Exposition {
 public:
  void Header(std::string_view name, std::string_view type, std::string_view help) {
    out_.append("# HELP ").append(name).append(" ").append(help).append("\n");
    out_.append("# TYPE ").append(name).append(" ").append(type).append("\n");
  }
  void Sample(std::string_view name, std::string_view labels, double value) {
    out_.append(name);
    if (!labels.empty()) out_.append("{").append(labels).append("}");
    out_.append(" ").append(Number(value)).append("\n");
  }
  void Single(std::string_view name, std::string_view type, std::string_view help, double value) {
    Header(name, type, help);
    Sample(name, "", value);
  }
  // Metrics of one type with one whole-number sample each, given as a table.
  struct Figure {
    std::string_view name;
    std::string_view help;
    uint64_t value;
  };
  void Singles(std::string_view type, std::initializer_list<Figure> figures) {
    for (const Figure& f : figures) Single(f.name, type, f.help, static_cast<double>(f.value));
  }
  // A counter split by one label: a sample `name{label="value"}` for each of `counts`.
  struct Count {
    std::string_view value;
    uint64_t count;
  };
  void Counters(std::string_view name, std::string_view help, std::string_view label,
                std::initializer_list<Count> counts) {
    Header(name, "counter", help);
    for (const Count& c : counts) {
      Sample(name, std::string(label) + "=\"" + std::string(c.value) + "\"",
             static_cast<double>(c.count));
    }
  }
  void Histogram(std::string_view name, std::string_view help, const daemon::Histogram& h) {
    Header(name, "histogram", help);
    const std::string bucket = std::string(name) + "_bucket";
    for (size_t i = 0; i < h.upper_bounds().size(); ++i) {
      Sample(bucket, "le=\"" + Number(h.upper_bounds()[i]) + "\"",
             static_cast<double>(h.CumulativeCount(i)));
    }
    Sample(bucket, "le=\"+Inf\"", static_cast<double>(h.count()));
    Sample(std::string(name) + "_sum", "", h.sum());
    Sample(std::string(name) + "_count", "", static_cast<double>(h.count()));
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Label values here are enum names and kernel names: no character needs escaping, but a kernel
// name is escaped anyway, as the format asks.
std::string EscapeLabel(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out.append("\\n");
      continue;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::string RenderPrometheus(const MetricsSnapshot& snapshot) {
  const ServerStats& stats = snapshot.stats;
  Exposition out;
  out.Single("sudokud_connections_total", "counter",
             "Connections served since start-up (refused ones count as protocol faults only).",
             static_cast<double>(stats.connections));
  out.Single("sudokud_connections_open", "gauge", "Connections open now, refused ones included.",
             static_cast<double>(snapshot.connections_open));

  out.Counters("sudokud_batches_total",
               "Batches accepted (an /api/solve request is a batch of one puzzle), by outcome: "
               "answered (the answer written; an API answer, handed to its connection), or "
               "cancelled unanswered (solving stopped or the answer dropped unwritten: connection "
               "gone, write stall, protocol fault, drain timeout).",
               "outcome", {{"answered", stats.batches}, {"cancelled", stats.batches_cancelled}});

  const wire::VerdictTally& p = stats.puzzles;
  out.Counters("sudokud_puzzles_total", "Puzzles of answered batches, by verdict.", "verdict",
               {{"solved", p.solved},
                {"multiple", p.multiple},
                {"unsolvable", p.unsolvable},
                {"invalid", p.invalid}});

  out.Single("sudokud_batches_in_flight", "gauge",
             "Batches accepted and not yet answered or dropped.",
             static_cast<double>(snapshot.batches_in_flight));
  out.Single("sudokud_puzzles_in_flight", "gauge",
             "Puzzles accepted and not yet answered or dropped (each connection's bounded by "
             "--max-in-flight-per-connection; the part not yet solved, by --max-in-flight).",
             static_cast<double>(snapshot.puzzles_in_flight));
  out.Single("sudokud_memory_held_bytes", "gauge",
             "Bytes held for clients, as --max-memory counts them: read buffers, requests "
             "waiting, answers not yet taken, TLS states and buffers.",
             static_cast<double>(snapshot.memory_held));

  out.Header("sudokud_protocol_faults_total", "counter",
             "ProtocolFaults sent (each closes its connection), by kind.");
  for (int kind = 0; kind < wire::ProtocolFault::Kind_ARRAYSIZE; ++kind) {
    if (!wire::ProtocolFault::Kind_IsValid(kind)) continue;
    out.Sample("sudokud_protocol_faults_total",
               "kind=\"" + wire::ProtocolFault::Kind_Name(kind) + "\"",
               static_cast<double>(stats.faults_by_kind[static_cast<size_t>(kind)]));
  }

  out.Singles("counter",
              {{"sudokud_tls_refused_total",
                "TLS connections closed in their handshake (no or a refused client certificate, "
                "a failed or late handshake).",
                stats.tls_refused},
               {"sudokud_departed_requests_dropped_total",
                "Requests dropped before their work started because their requester had left "
                "(a reset or closed connection, an HTTP client gone).",
                stats.departed_dropped},
               {"sudokud_received_bytes_total", "Protocol bytes read from clients.",
                stats.bytes_received},
               {"sudokud_sent_bytes_total", "Protocol bytes written to clients.",
                stats.bytes_sent}});

  out.Histogram("sudokud_batch_solve_seconds",
                "Time a batch spent solving on the solver threads (answered batches).",
                stats.batch_solve_seconds);
  out.Histogram("sudokud_batch_latency_seconds",
                "Time from a batch's frame being read to its response being written, queueing "
                "included.",
                stats.batch_latency_seconds);

  out.Counters("sudokud_requests_total",
               "Requests answered, by kind: solve (a batch), explain (one puzzle), generate.",
               "kind",
               {{"solve", stats.batches},
                {"explain", stats.explains},
                {"generate", stats.generates}});
  out.Counters("sudokud_requests_cancelled_total",
               "Requests accepted, then dropped unanswered, by kind: solve (a batch, as "
               "sudokud_batches_total{outcome=\"cancelled\"}), explain, generate (stopped before "
               "its last puzzle): solving stopped or the answer dropped unwritten (connection "
               "gone, write stall, protocol fault, drain timeout).",
               "kind",
               {{"solve", stats.batches_cancelled},
                {"explain", stats.explains_cancelled},
                {"generate", stats.generates_cancelled}});
  out.Counters("sudokud_request_puzzles_total",
               "Puzzles handled, by request kind: solved (any verdict), explained, generated.",
               "kind",
               {{"solve", p.total()},
                {"explain", stats.explains},
                {"generate", stats.puzzles_generated}});

  const ConfiguredLimits& limits = snapshot.limits;
  out.Singles(
      "gauge",
      {{"sudokud_max_connections", "Connections served at once (--max-connections).",
        limits.max_connections},
       {"sudokud_max_in_flight_puzzles",
        "Puzzles accepted and unanswered over all connections (--max-in-flight).",
        limits.max_in_flight},
       {"sudokud_max_in_flight_puzzles_per_connection",
        "Puzzles accepted and unanswered on one connection (--max-in-flight-per-connection).",
        limits.max_in_flight_per_connection},
       {"sudokud_max_batch_puzzles", "Most puzzles in one batch (--max-batch).",
        limits.max_batch},
       {"sudokud_max_frame_bytes", "Largest frame accepted (--max-frame-bytes).",
        limits.max_frame_bytes},
       {"sudokud_max_memory_bytes", "Bytes held for clients over all connections (--max-memory).",
        limits.max_memory}});

  out.Header("sudokud_build_info", "gauge",
             "The daemon's version and the solver kernel it runs (always 1).");
  out.Sample("sudokud_build_info",
             "version=\"" + EscapeLabel(snapshot.version) + "\",kernel=\"" +
                 EscapeLabel(snapshot.kernel) + "\"",
             1);
  out.Header("sudokud_kernel_info", "gauge", "The solver kernel in use (always 1).");
  out.Sample("sudokud_kernel_info", "kernel=\"" + EscapeLabel(snapshot.kernel) + "\"", 1);
  out.Single("sudokud_solver_threads", "gauge", "Solver threads (--threads).", snapshot.threads);
  out.Single("sudokud_uptime_seconds", "gauge", "Seconds since the daemon started.",
             snapshot.uptime_seconds);
  if (snapshot.health) {
    out.Single("sudokud_canary_age_seconds", "gauge",
               "Seconds since the solver pool last finished a job: the canary puzzle it gets "
               "every second, or a batch. Past --canary-deadline /readyz fails and the systemd "
               "watchdog is no longer fed.",
               snapshot.health->canary_age_seconds);
    out.Single("sudokud_ready", "gauge",
               "1 when /readyz answers 200: not draining, and the solver pool answers.",
               snapshot.health->ready ? 1 : 0);
  }
  if (snapshot.cgroup != nullptr && snapshot.cgroup->cpu) {
    out.Single("sudokud_cgroup_cpu_quota_cores", "gauge",
               "The CPU quota of the daemon's cgroup in cores, the tightest from its group up "
               "(cpu.max, or cpu.cfs_quota_us over cpu.cfs_period_us); absent without one. "
               "Without --threads, the solver threads are its whole cores, at most the CPUs "
               "the daemon may use.",
               snapshot.cgroup->cpu->cores());
  }
  if (snapshot.cgroup != nullptr && snapshot.cgroup->memory) {
    out.Single("sudokud_cgroup_memory_limit_bytes", "gauge",
               "The memory limit of the daemon's cgroup, the lowest from its group up "
               "(memory.max or memory.limit_in_bytes); absent without one. Without "
               "--max-memory, the budget for clients is half of it, at most 4 GiB.",
               static_cast<double>(snapshot.cgroup->memory->bytes));
  }
  if (snapshot.process) {
    const ProcessFigures& process = *snapshot.process;
    out.Single("process_cpu_seconds_total", "counter",
               "Total user and system CPU time spent in seconds.", process.cpu_seconds);
    out.Single("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
               process.resident_memory_bytes);
    out.Single("process_open_fds", "gauge", "Number of open file descriptors.", process.open_fds);
    out.Single("process_max_fds", "gauge", "Maximum number of open file descriptors.",
               process.max_fds);
    out.Single("process_start_time_seconds", "gauge",
               "Start time of the process since unix epoch in seconds.",
               process.start_time_seconds);
  }
  return out.Take();
}

ProcessFigures ReadProcessFigures() {
  ProcessFigures figures;
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) == 0) {
    figures.cpu_seconds =
        static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
        static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  }
  const double page_size = static_cast<double>(::sysconf(_SC_PAGESIZE));
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  {
    std::ifstream statm("/proc/self/statm");
    double size = 0;
    double resident = 0;
    if (statm >> size >> resident) figures.resident_memory_bytes = resident * page_size;
  }
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc/self/fd", error), end; !error && it != end;
       it.increment(error)) {
    ++figures.open_fds;
  }
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    figures.max_fds = static_cast<double>(limit.rlim_cur);
  }
  // The start time: the boot time (btime in /proc/stat) plus the process's start in clock
  // ticks after boot (the 22nd field of /proc/self/stat, counted after the command's closing
  // parenthesis, which may itself hold spaces).
  double boot_time = 0;
  {
    std::ifstream stat("/proc/stat");
    for (std::string word; stat >> word;) {
      if (word == "btime") {
        stat >> boot_time;
        break;
      }
    }
  }
  {
    std::ifstream stat("/proc/self/stat");
    const std::string text(std::istreambuf_iterator<char>(stat), {});
    const size_t paren = text.rfind(')');
    if (paren != std::string::npos) {
      std::istringstream fields(text.substr(paren + 2));
      std::string field;
      // Field 3 (the state) is the first after the parenthesis; field 22 is the start time.
      for (int i = 3; i <= 22 && fields >> field; ++i) {
        if (i == 22) {
          figures.start_time_seconds = boot_time + std::strtod(field.c_str(), nullptr) / ticks;
        }
      }
    }
  }
  return figures;
}

void FillStats(const MetricsSnapshot& snapshot, wire::StatsResponse* response) {
  const ServerStats& stats = snapshot.stats;
  response->Clear();
  response->set_connections_total(stats.connections);
  response->set_batches_answered(stats.batches);
  response->set_batches_cancelled(stats.batches_cancelled);
  response->set_explains_cancelled(stats.explains_cancelled);
  response->set_generates_cancelled(stats.generates_cancelled);
  response->set_puzzles_solved(stats.puzzles.solved);
  response->set_puzzles_multiple(stats.puzzles.multiple);
  response->set_puzzles_unsolvable(stats.puzzles.unsolvable);
  response->set_puzzles_invalid(stats.puzzles.invalid);
  response->set_bytes_received(stats.bytes_received);
  response->set_bytes_sent(stats.bytes_sent);
  for (int kind = 0; kind < wire::ProtocolFault::Kind_ARRAYSIZE; ++kind) {
    const uint64_t count = stats.faults_by_kind[static_cast<size_t>(kind)];
    if (count == 0 || !wire::ProtocolFault::Kind_IsValid(kind)) continue;
    wire::FaultCount* fault = response->add_faults();
    fault->set_kind(static_cast<wire::ProtocolFault::Kind>(kind));
    fault->set_count(count);
  }
  response->set_connections_open(snapshot.connections_open);
  response->set_batches_in_flight(snapshot.batches_in_flight);
  response->set_puzzles_in_flight(snapshot.puzzles_in_flight);
  response->set_kernel(snapshot.kernel);
  response->set_threads(static_cast<uint32_t>(snapshot.threads));
  response->set_uptime_seconds(snapshot.uptime_seconds);
}

HttpResponse MetricsRoutes::Metrics(const HttpRequest& request) const {
  const bool head = request.method() == http::verb::head;
  if (request.method() != http::verb::get && !head) {
    HttpResponse response = MakeResponse(http::status::method_not_allowed,
                                         "text/plain; charset=utf-8",
                                         "method not allowed: use GET or HEAD\n");
    response.set(http::field::allow, "GET, HEAD");
    return response;
  }
  return MakeResponse(http::status::ok, "text/plain; version=0.0.4; charset=utf-8", render_());
}

namespace {

// The request's path: Prometheus may add query parameters.
std::string_view PathOf(const HttpRequest& request) {
  const std::string_view target(request.target().data(), request.target().size());
  return target.substr(0, target.find('?'));
}

}  // namespace

std::optional<HttpResponse> MetricsRoutes::Route(const HttpRequest& request) const {
  const std::string_view target = PathOf(request);
  if (target == "/metrics") return Metrics(request);
  if (health_ != nullptr) return health_->Answer(target, request);
  return std::nullopt;
}

asio::awaitable<HttpResponse> MetricsRoutes::Handle(const HttpRequest& request,
                                                    const HttpPeer& /*peer*/) {
  if (render_on_ && PathOf(request) == "/metrics") {
    const asio::any_io_executor caller = co_await asio::this_coro::executor;
    if (caller != *render_on_) {
      // Rendered by a coroutine on render_on; this one resumes on its own executor.
      co_return co_await asio::co_spawn(
          *render_on_, [this, &request]() -> asio::awaitable<HttpResponse> {
            co_return Metrics(request);
          },
          asio::use_awaitable);
    }
  }
  if (auto answer = Route(request)) co_return std::move(*answer);
  co_return MakeResponse(http::status::not_found, "text/plain; charset=utf-8",
                         health_ != nullptr
                             ? "not found: metrics are at /metrics, health at /healthz and "
                               "/readyz\n"
                             : "not found: metrics are at /metrics\n");
}

}  // namespace sudoku::daemon
