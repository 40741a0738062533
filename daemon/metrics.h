// What sudokud counts, and the two ways it tells: Prometheus text format over HTTP
// (--metrics HOST:PORT, or /metrics beside the page on --http: MetricsRoutes on an HttpServer)
// and the protocol's Stats request. Both render the same MetricsSnapshot, so they always agree.
//
// Thread-safety: ServerStats and Histogram live on the daemon's io_context and are used from its
// thread only; nothing here takes a lock. MetricsRoutes may serve from another thread when given
// the loop's executor (see there). RenderPrometheus() and FillStats() are pure functions of their
// arguments.
#ifndef SUDOKU_DAEMON_METRICS_H_
#define SUDOKU_DAEMON_METRICS_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include "daemon/cgroup_limits.h"
#include "daemon/health.h"
#include "daemon/http_server.h"
#include "proto/sudoku.pb.h"
#include "proto/verdicts.h"

namespace sudoku::daemon {

// A Prometheus histogram: counts of observations at or below each upper bound, plus their sum.
class Histogram {
 public:
  // `upper_bounds` ascending; the +Inf bucket is implicit.
  explicit Histogram(std::vector<double> upper_bounds);

  void Observe(double value);

  const std::vector<double>& upper_bounds() const { return upper_bounds_; }
  // Observations at or below upper_bounds()[i] (cumulative, as Prometheus exposes them).
  uint64_t CumulativeCount(size_t i) const;
  uint64_t count() const { return count_; }
  double sum() const { return sum_; }

 private:
  std::vector<double> upper_bounds_;
  std::vector<uint64_t> buckets_;  // per bucket, not cumulative; the last is +Inf
  uint64_t count_ = 0;
  double sum_ = 0;
};

// Seconds: from 100 µs (a small batch of easy puzzles) to 30 s. A full 65536-puzzle batch of
// magictour_top1465-grade puzzles takes about 0.3 s on one core (0.5 s counting to two); the
// upper buckets catch batches that queued behind others.
inline std::vector<double> BatchSecondsBuckets() {
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
          0.1,    0.25,    0.5,    1,     2.5,    5,     10,   30};
}

// Counts since start-up, kept by the Server.
struct ServerStats {
  uint64_t connections = 0;        // connections served (refused ones count as faults only)
  // Batches answered: their answers written (solve requests; on the HTTP API, a /api/solve
  // worked to its end).
  uint64_t batches = 0;
  // Accepted, then dropped unanswered: solving stopped, or the answer never written (connection
  // reset, write stall, protocol fault, drain timeout).
  uint64_t batches_cancelled = 0;
  wire::VerdictTally puzzles;      // the puzzles of the answered batches, by verdict
  uint64_t explains = 0;           // explain requests answered (written; one puzzle each)
  uint64_t generates = 0;          // generate requests answered in full
  // Explain and generate requests accepted, then dropped unanswered (a generation: stopped
  // before its last puzzle), for the same reasons as batches_cancelled.
  uint64_t explains_cancelled = 0;
  uint64_t generates_cancelled = 0;
  uint64_t puzzles_generated = 0;  // puzzles sent in generate responses
  uint64_t faults = 0;             // ProtocolFaults sent
  std::array<uint64_t, wire::ProtocolFault::Kind_ARRAYSIZE> faults_by_kind{};
  // TLS connections closed in or before their handshake (no or a bad client certificate, a
  // handshake failed or not done in time); a plaintext peer on the TLS port gets a fault instead.
  uint64_t tls_refused = 0;
  // Requests dropped before their work started because their requester had left (reset or
  // closed its connection, or its HTTP client went) while they waited for a turn or for room.
  uint64_t departed_dropped = 0;
  uint64_t bytes_received = 0;     // protocol bytes, all connections
  uint64_t bytes_sent = 0;
  // Per batch: time solving on the pool, and from its frame being read to its response written.
  Histogram batch_solve_seconds{BatchSecondsBuckets()};
  Histogram batch_latency_seconds{BatchSecondsBuckets()};
};

// The limits the daemon was started with (its flags), exported so that saturation queries divide
// by the configured value rather than a constant.
struct ConfiguredLimits {
  uint64_t max_connections = 0;
  uint64_t max_in_flight = 0;
  uint64_t max_in_flight_per_connection = 0;
  uint64_t max_batch = 0;
  uint64_t max_frame_bytes = 0;
  uint64_t max_memory = 0;
};

// The process as Prometheus' client libraries describe it (process_* metrics), read from /proc
// and getrusage() at the moment of a scrape.
struct ProcessFigures {
  double cpu_seconds = 0;
  double resident_memory_bytes = 0;
  double open_fds = 0;
  double max_fds = 0;
  double start_time_seconds = 0;  // since the Unix epoch
};
ProcessFigures ReadProcessFigures();

// Everything both outlets report, at one moment.
struct MetricsSnapshot {
  const ServerStats& stats;
  uint64_t connections_open = 0;
  uint64_t batches_in_flight = 0;
  uint64_t puzzles_in_flight = 0;
  // Bytes held for clients, as --max-memory counts them: read buffers, decoded requests waiting,
  // answers not yet taken, TLS states and buffers.
  uint64_t memory_held = 0;
  std::string kernel{};  // ActiveKernel().name
  int threads = 0;       // solver threads
  double uptime_seconds = 0;
  ConfiguredLimits limits{};
  std::string version{};  // VersionText(): "0.1.0 (git 08dee86)"
  // Filled for the Prometheus outlet only (see ReadProcessFigures()).
  std::optional<ProcessFigures> process{};
  // From the daemon's Health (health.h), for the Prometheus outlet; absent in tests without one.
  struct HealthFigures {
    double canary_age_seconds = 0;
    bool ready = false;
  };
  std::optional<HealthFigures> health{};
  // The limits of the process's cgroup (cgroup_limits.h), for the Prometheus outlet: a gauge for
  // each that applies.
  const CgroupLimits* cgroup = nullptr;
};

// Prometheus text exposition format 0.0.4: every metric with HELP and TYPE, fault kinds and
// verdicts always present (zero until they happen), so that dashboards see every series.
std::string RenderPrometheus(const MetricsSnapshot& snapshot);

// The same figures as a StatsResponse.
void FillStats(const MetricsSnapshot& snapshot, wire::StatsResponse* response);

// The operator's paths on an HttpServer: GET or HEAD /metrics answers 200 with `render()`, and,
// given a Health, /healthz and /readyz answer as health.h says; another path is 404, another
// method is 405 (with Allow). What --metrics serves alone, and what --http serves beside the page
// (web_api.h).
class MetricsRoutes : public HttpHandler {
 public:
  // Scrapers and probes served at once on a --metrics listener (HttpLimits::max_connections).
  // Far more than any operator's scrapers and probes, so that a crowd of idle sockets sits in
  // the room rather than evicting one another as they reconnect, each eviction an accept that a
  // load balancer's probe waits behind. An idle HTTP connection costs a few KiB.
  static constexpr size_t kMaxConnections = 256;

  // `health`, when given, must outlive this. `render` runs on `render_on` when given: Handle()
  // called from another executor's thread (the --metrics listener's own) goes there to render
  // and comes back, so that the figures are read on the thread that writes them, while the
  // health checks are answered where they were asked.
  explicit MetricsRoutes(std::function<std::string()> render, const Health* health = nullptr,
                         std::optional<boost::asio::any_io_executor> render_on = std::nullopt)
      : render_(std::move(render)), health_(health), render_on_(std::move(render_on)) {}

  boost::asio::awaitable<HttpResponse> Handle(const HttpRequest& request,
                                              const HttpPeer& peer) override;
  // The answer for /metrics, /healthz or /readyz whatever the method (the query string ignored),
  // or nullopt for another path.
  std::optional<HttpResponse> Route(const HttpRequest& request) const;
  // Whether `path` is one Route() answers.
  bool Serves(std::string_view path) const {
    return path == "/metrics" || (health_ != nullptr && (path == "/healthz" || path == "/readyz"));
  }
  // The answer for the path /metrics, whatever the method.
  HttpResponse Metrics(const HttpRequest& request) const;

 private:
  std::function<std::string()> render_;
  const Health* const health_;
  const std::optional<boost::asio::any_io_executor> render_on_;
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_METRICS_H_
