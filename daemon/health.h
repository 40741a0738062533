// Whether the daemon is alive and ready, for load balancers (/healthz, /readyz on the HTTP
// listeners) and for systemd's watchdog (notify.h).
//
//   alive   the event loop turns: its canary timer (below), due every canary_interval, has
//           fired within canary_interval + canary_deadline. --metrics and --http answer on a
//           thread of their own, so that a loop busy with a crowd's reads cannot make a probe
//           time out; the loop's ticks are what say it still turns.
//   ready   alive, not draining, and the solver pool answers. A canary puzzle goes to the pool
//           (the task arena the batches use) every canary_interval; the pool counts as answering
//           while its last finished job (that canary, or any batch) is younger than
//           canary_deadline. Batches count too because a busy pool's queue may hold the canary
//           behind them: their answers prove the pool alive just as well.
//
// GET or HEAD /healthz: 200 "alive", or 503 "not alive: the event loop has not turned for 12.1 s".
// /readyz: 200 "ready", or 503 with why not: "not ready: draining", "not ready: the event loop has
// not turned for 12.1 s", "not ready: solver pool has not answered a canary for 5.2 s".
//
// A test hook, for tests only: when SUDOKUD_TEST_WEDGE_FILE names a path, the pool is held
// (Pool::Hold) while that file exists, checked at each canary tick. It cannot be reached over the
// network, and without the variable it does nothing.
//
// Thread-safety: a Health lives on the daemon's io_context: Start, Stop and Draining are called
// from its thread. The const members (the answers and what they say) may be called from any
// thread: what they read is atomic. The canary job on the pool touches nothing but its own
// shared flag.
#ifndef SUDOKU_DAEMON_HEALTH_H_
#define SUDOKU_DAEMON_HEALTH_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "daemon/http_server.h"
#include "daemon/pool.h"

namespace sudoku::daemon {

struct HealthOptions {
  std::chrono::milliseconds canary_interval{1000};
  // Longer than a batch ever waits in a healthy pool's queue, so that a merely busy daemon stays
  // ready; short enough that a load balancer takes a wedged one out within seconds.
  std::chrono::milliseconds canary_deadline{10000};
  // The test hook's file (see above); empty: no hook.
  std::string wedge_file;
};

// The environment variable that names the test hook's file.
inline constexpr char kWedgeFileVariable[] = "SUDOKUD_TEST_WEDGE_FILE";

class Health {
 public:
  Health(boost::asio::io_context& io, Pool& pool, const HealthOptions& options);

  Health(const Health&) = delete;
  Health& operator=(const Health&) = delete;

  // Starts sending canaries.
  void Start();
  // Stops the timer, so that the io_context can run out of work. A canary still on the pool is
  // not waited for.
  void Stop();
  // From now on /readyz says "not ready: draining".
  void Draining() { draining_ = true; }

  // Seconds since the pool last finished a job (see above).
  double CanaryAgeSeconds() const;
  // Why the event loop does not count as turning ("the event loop has not turned for 12.1 s"),
  // or an empty string when it does.
  std::string LoopTrouble() const;
  // Why the pool does not count as answering ("solver pool has not answered a canary for
  // 5.2 s"), or an empty string when it does. What the watchdog goes by.
  std::string PoolTrouble() const;
  // Why the daemon is not ready ("draining", LoopTrouble() or PoolTrouble()), or empty when it
  // is.
  std::string NotReady() const;

  // The answer for /healthz or /readyz (GET or HEAD; 405 otherwise), or nullopt for another path.
  std::optional<HttpResponse> Answer(std::string_view path, const HttpRequest& request) const;

 private:
  boost::asio::awaitable<void> Tick();
  void SendCanary();
  void ApplyWedgeFile();

  Pool& pool_;
  const HealthOptions options_;
  boost::asio::steady_timer timer_;
  // Set while a canary is on the pool, so that a wedged pool gets one, not one a second.
  std::shared_ptr<std::atomic<bool>> canary_out_ = std::make_shared<std::atomic<bool>>(false);
  std::atomic<bool> draining_ = false;
  // When the canary timer last fired (steady_clock ticks): the event loop's heartbeat.
  std::atomic<std::chrono::steady_clock::rep> loop_turned_;
  bool stopped_ = false;
  bool reported_trouble_ = false;  // the log said the pool is not answering, and not yet that it is
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_HEALTH_H_
