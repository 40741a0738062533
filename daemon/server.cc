#include "daemon/server.h"

#include <sys/socket.h>

#include <cerrno>
#include <exception>
#include <sstream>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "daemon/accept_batch.h"
#include "daemon/log.h"
#include "proto/flag_values.h"
#include "proto/version.h"
#include "solver/solver.h"

namespace sudoku::daemon {

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;
using asio::ip::tcp;

namespace {

// After a drain timeout, how long to wait for cancelled batches to notice before giving up on
// them. The search polls the cancellation every 1024 guesses, milliseconds of CPU; but batches
// counting past two solutions run at nice 19 and, on a loaded machine, may wait that long for a
// core (a second was too short with both cores busy). Well inside TimeoutStopSec's margin.
constexpr auto kAbandonAfter = std::chrono::seconds(5);

std::string EndpointText(const tcp::endpoint& endpoint) {
  std::ostringstream out;
  out << endpoint;
  return out.str();
}

}  // namespace

Server::Server(asio::io_context& io, Pool& pool, const ServerOptions& options)
    : io_(io),
      pool_(pool),
      options_(options),
      acceptor_(io),
      drain_timer_(io),
      abandon_timer_(io),
      admission_(options.max_in_flight, options.max_memory),
      requests_(pool, admission_, stats_, jobs_, options.max_batch, [this] { return Snapshot(); }),
      connections_(options.max_connections),
      context_{.options = options_,
               .pool = pool_,
               .requests = requests_,
               .admission = admission_,
               .stats = stats_,
               .connections = connections_} {
  if (options.tls) tls_ = std::make_shared<TlsContext>(*options.tls);
}

void Server::ReloadTls(const std::string& reason) {
  if (!options_.tls) {
    LogLine(reason + ": nothing to reload (no --tls-cert)");
    return;
  }
  try {
    tls_ = std::make_shared<TlsContext>(*options_.tls);
  } catch (const std::exception& e) {
    Log(LogLevel::kError, reason + ": kept the TLS certificate in use (" + tls_->description() +
                              "): " + e.what());
    return;
  }
  LogLine(reason + ": reloaded the TLS certificate (" + tls_->description() +
          ") for new connections; the " + std::to_string(connections_.size()) +
          " open ones keep theirs");
}

Server::~Server() = default;

tcp::endpoint Server::Listen() {
  const tcp::endpoint& endpoint = options_.listen;
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(tcp::acceptor::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(asio::socket_base::max_listen_connections);
  return acceptor_.local_endpoint();
}

tcp::endpoint Server::Adopt(int socket) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getsockname(socket, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw boost::system::system_error(errno, boost::system::system_category(), "getsockname");
  }
  acceptor_.assign(address.ss_family == AF_INET6 ? tcp::v6() : tcp::v4(), socket);
  acceptor_.listen(asio::socket_base::max_listen_connections);  // a no-op if it listens already
  return acceptor_.local_endpoint();
}

void Server::Start() {
  asio::co_spawn(io_, Accept(), LogEscape("accept loop"));
}

awaitable<void> Server::Accept() {
  boost::system::error_code error;
  asio::steady_timer backoff(io_);
  acceptor_.non_blocking(true, error);  // for AcceptWaiting
  for (;;) {
    tcp::socket socket(io_);
    co_await acceptor_.async_accept(socket, asio::redirect_error(use_awaitable, error));
    if (!acceptor_.is_open()) co_return;
    if (error) {
      // Out of descriptors or memory: that lasts until something closes, so wait, do not spin.
      ClientCausedLog().Log("cannot accept", LogLevel::kWarning,
                            "cannot accept a connection: " + error.message());
      backoff.expires_after(std::chrono::milliseconds(100));
      co_await backoff.async_wait(asio::redirect_error(use_awaitable, error));
      continue;
    }
    Admit(std::move(socket));
    AcceptWaiting(acceptor_, [this](tcp::socket next) { Admit(std::move(next)); });
  }
}

void Server::Admit(tcp::socket socket) {
  boost::system::error_code error;
  socket.set_option(tcp::no_delay(true), error);  // a lone small batch must not wait for Nagle
  const tcp::endpoint remote = socket.remote_endpoint(error);
  Stream stream = tls_ ? Stream(std::move(socket), tls_) : Stream(std::move(socket));
  connections_.Admit(std::make_shared<Connection>(
      context_, std::move(stream), error ? "unknown peer" : EndpointText(remote),
      error ? 0 : SourceOf(remote.address().to_string())));
}

void Server::Drain(const std::string& reason) {
  if (stopped_) return;
  if (draining_) {
    CancelRemaining("a second " + reason);
    return;
  }
  draining_ = true;
  // Closed before the log line says so: whoever reads the line may count on it.
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  size_t batches = 0;
  size_t puzzles = 0;
  connections_.InFlight(&batches, &puzzles);
  LogLine(reason + ": stopped accepting; draining " + std::to_string(connections_.size()) +
          " connections with " + std::to_string(batches) + " batches (" +
          std::to_string(puzzles) + " puzzles) in flight (--drain-timeout " +
          SecondsText(options_.drain_timeout) + ")");
  connections_.DrainAll(DrainNotice{.reason = reason, .timeout = options_.drain_timeout},
                        [this] { Finish(); });
  if (connections_.empty()) {
    Finish();
    return;
  }
  drain_timer_.expires_after(options_.drain_timeout);
  drain_timer_.async_wait([this](const boost::system::error_code& error) {
    if (!error) {
      CancelRemaining("the drain timeout (" + SecondsText(options_.drain_timeout) +
                      " s)");
    }
  });
}

void Server::CancelRemaining(const std::string& why) {
  if (stopped_ || abandoned_) return;
  size_t batches = 0;
  size_t puzzles = 0;
  connections_.InFlight(&batches, &puzzles);
  Log(LogLevel::kWarning, "after " + why + ": cancelled " + std::to_string(batches) +
                              " batches (" + std::to_string(puzzles) + " puzzles) on " +
                              std::to_string(connections_.size()) + " connections");
  drain_timer_.cancel();
  connections_.AbortAll();
  abandon_timer_.expires_after(kAbandonAfter);
  abandon_timer_.async_wait([this](const boost::system::error_code& error) {
    if (error || stopped_) return;
    abandoned_ = true;
    Log(LogLevel::kWarning,
        "abandoning " + std::to_string(pool_.busy()) +
            " batches still queued or solving (cancelled, they did not stop)");
    io_.stop();
  });
}

void Server::Finish() {
  if (stopped_) return;
  stopped_ = true;
  drain_timer_.cancel();
  abandon_timer_.cancel();
  if (on_stopped_) on_stopped_();
}

MetricsSnapshot Server::Snapshot() const {
  size_t batches = 0;
  size_t puzzles = 0;
  connections_.InFlight(&batches, &puzzles);
  return MetricsSnapshot{
      .stats = stats_,
      .connections_open = connections_.size(),
      .batches_in_flight = batches,
      .puzzles_in_flight = puzzles,
      .memory_held = admission_.memory(),
      .kernel = ActiveKernel().name,
      .threads = pool_.threads(),
      .uptime_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(),
      .limits = {.max_connections = options_.max_connections,
                 .max_in_flight = options_.max_in_flight,
                 .max_in_flight_per_connection = options_.max_in_flight_per_connection,
                 .max_batch = options_.max_batch,
                 .max_frame_bytes = options_.max_frame_bytes,
                 .max_memory = options_.max_memory},
      .version = VersionText(),
      .process = std::nullopt,  // the Prometheus outlet reads the process itself
      .health = std::nullopt,   // and asks the Health
  };
}

std::string Server::StatusText() const {
  size_t batches = 0;
  size_t puzzles = 0;
  connections_.InFlight(&batches, &puzzles);
  return std::to_string(connections_.size()) + " connections, " + std::to_string(batches) +
         " batches (" + std::to_string(puzzles) + " puzzles) in flight; " +
         std::to_string(stats_.batches) + " batches, " + std::to_string(stats_.puzzles.total()) +
         " puzzles answered; " + std::to_string(stats_.faults) + " protocol faults";
}

std::string Server::SummaryText() const {
  const wire::VerdictTally& p = stats_.puzzles;
  return std::to_string(stats_.connections) + " connections, " + std::to_string(stats_.batches) +
         " batches answered, " + std::to_string(stats_.batches_cancelled) + " cancelled, " +
         std::to_string(p.total()) + " puzzles (" + std::to_string(p.solved) +
         " solved, " + std::to_string(p.multiple) + " multiple, " + std::to_string(p.unsolvable) +
         " unsolvable, " + std::to_string(p.invalid) + " invalid), " +
         std::to_string(stats_.faults) + " protocol faults";
}

}  // namespace sudoku::daemon
