// The network side of sudokud, speaking the protocol described at the top of
// proto/sudoku.proto with Boost.Asio C++20 coroutines. As in Asio's HTTP server example, the
// roles live apart, and each reaches the others only through their public interfaces:
//   server.{h,cc}              listening and accepting, TLS and its reload, the drain's timers,
//                              the counts (Server);
//   server_options.h           its limits and timeouts (ServerOptions);
//   connection_manager.{h,cc}  the set of open connections: who counts against
//                              --max-connections, who is evicted to make room, the drain's word
//                              to each (ConnectionManager);
//   connection.{h,cc}          one client: its socket, reader, writer, watchdog and its one stop
//   connection_requests.cc     path; its requests and their work on the Pool (Connection);
//   request_handler.{h,cc}     each request taken, charged, worked and counted, for this port
//                              and the HTTP API alike (RequestHandler);
//   admission.{h,cc}           the global in-flight budget and who may read next (Admission);
//   frame_reader.{h,cc}        the read buffer and what its bytes hold (ReadBuffer, ScanFrame).
// A connection is handed what it uses (ConnectionContext): the options, the Pool, the
// RequestHandler, the budgets, the counts and the ConnectionManager.
// Batches are solved on the Pool; each response is written as soon as its batch is done.
//
// Thread-safety: a Server and its connections live on one io_context run by one thread; every
// member function must be called from that thread. Only the solving runs elsewhere (on the
// Pool), and it touches nothing but its own batch and the connection's cancel flag.
#ifndef SUDOKU_DAEMON_SERVER_H_
#define SUDOKU_DAEMON_SERVER_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "daemon/admission.h"
#include "daemon/connection.h"
#include "daemon/connection_manager.h"
#include "daemon/metrics.h"
#include "daemon/pool.h"
#include "daemon/request_handler.h"
#include "daemon/request_work.h"
#include "daemon/server_options.h"
#include "daemon/tls.h"

namespace sudoku::daemon {

class Server {
 public:
  // Throws std::runtime_error when options.tls names files that cannot be used.
  Server(boost::asio::io_context& io, Pool& pool, const ServerOptions& options);
  ~Server();

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens on options.listen and returns the bound address (with the actual port
  // when port 0 was asked for). Throws boost::system::system_error.
  boost::asio::ip::tcp::endpoint Listen();
  // Listens on `socket`, a TCP socket already bound (by systemd's socket activation); returns its
  // address. Throws boost::system::system_error.
  boost::asio::ip::tcp::endpoint Adopt(int socket);
  // Starts accepting connections.
  void Start();
  // Stops accepting and reading, answers every batch already accepted, then closes each
  // connection; past options.drain_timeout, or on a second call, cancels what remains. When
  // every connection is gone, `on_stopped` (see OnStopped) runs. `reason` (e.g. "SIGTERM")
  // opens the log line.
  void Drain(const std::string& reason);
  void OnStopped(std::function<void()> on_stopped) { on_stopped_ = std::move(on_stopped); }
  // SIGHUP: reads the TLS files again and uses them for the connections accepted from now on;
  // the open ones keep the certificate they were accepted with. Files that cannot be used leave
  // the one in use in place; the log says why.
  void ReloadTls(const std::string& reason);
  // The certificate in use ("CN=..., expires ..."), or empty without TLS.
  std::string TlsDescription() const { return tls_ ? tls_->description() : std::string(); }

  // True when a drain had to give up on batches still solving and stopped the io_context; the
  // process must then exit without waiting for them (std::_Exit).
  bool abandoned() const { return abandoned_; }

  const ServerStats& stats() const { return stats_; }
  // The request handler, with the budgets of work in flight and memory, that the HTTP API's
  // requests share with the port's (WebApi).
  RequestHandler& requests() { return requests_; }
  // The counts and the state now, for --metrics and the Stats request.
  MetricsSnapshot Snapshot() const;
  // "C connections, B batches (P puzzles) in flight; ... answered" for sd_notify's STATUS=.
  std::string StatusText() const;
  // "C connections, B batches answered, X cancelled, P puzzles (S solved, ...), F protocol
  // faults" for the last line: a batch counts as answered once its answer is written, as
  // cancelled when it was dropped unanswered (its solving stopped, or its answer never written).
  std::string SummaryText() const;

 private:
  boost::asio::awaitable<void> Accept();
  // Serves (or refuses) a connection just accepted.
  void Admit(boost::asio::ip::tcp::socket socket);
  void CancelRemaining(const std::string& why);
  void Finish();

  boost::asio::io_context& io_;
  Pool& pool_;
  const ServerOptions options_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::shared_ptr<TlsContext> tls_;  // for new connections; null without TLS
  boost::asio::steady_timer drain_timer_;
  boost::asio::steady_timer abandon_timer_;
  std::function<void()> on_stopped_;

  Admission admission_;
  JobPool jobs_;
  ServerStats stats_;
  RequestHandler requests_;
  ConnectionManager connections_;
  // What each connection is handed: the members above, each through its public interface.
  const ConnectionContext context_;

  bool draining_ = false;
  bool stopped_ = false;
  bool abandoned_ = false;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_SERVER_H_
