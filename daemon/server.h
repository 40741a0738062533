// The network side of sudokud, speaking the protocol described at the top of
// proto/sudoku.proto with Boost.Asio C++20 coroutines. As in Asio's HTTP server example, the
// roles live apart:
//   server.{h,cc}        accepting, the set of open connections, draining, the counts;
//   connection.{h,cc}    one client: its reader, writer, watchdog and batches (Connection);
//   admission.{h,cc}     the global in-flight budget and who may read next (Admission);
//   frame_reader.{h,cc}  the read buffer and what its bytes hold (ReadBuffer, ScanFrame).
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
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "daemon/admission.h"
#include "daemon/connection.h"
#include "daemon/metrics.h"
#include "daemon/pool.h"
#include "daemon/request_work.h"
#include "daemon/tls.h"
#include "proto/framing.h"

namespace sudoku::daemon {

struct ServerOptions {
  boost::asio::ip::tcp::endpoint listen{boost::asio::ip::address_v4::loopback(), 9810};
  // A frame whose declared length is larger is refused before anything is allocated for it.
  size_t max_frame_bytes = wire::kDefaultMaxFrameBytes;
  // Puzzles in one SolveRequest.
  size_t max_batch = 65536;
  // Connections served at once. One more closes the connection idle longest with nothing in
  // flight (which gets a TOO_MANY_CONNECTIONS fault saying why), or, when none is, gets that
  // fault itself. An idle connection costs a descriptor and about 6 KiB (10 KiB with a frame
  // begun), so the default holds a crowd of thousands of silent sockets in under 200 MiB: a
  // smaller one let such a crowd fill it, and then each of its members that reconnected when
  // closed evicted another, a churn that kept the listen queue full and a normal client out.
  // The daemon serves fewer when the descriptor limit is short (see FitDescriptors in main.cc).
  size_t max_connections = 16384;
  // Puzzles accepted but not yet answered (written back), per connection and in all. At either
  // limit a connection stops reading its socket until results drain, so TCP pushes back on the
  // sender. A batch is taken whenever the count is below the limits, so it may pass them by at
  // most one batch (and a batch larger than a limit is still served).
  size_t max_in_flight_per_connection = 65536;
  // The global default keeps a daemon flooded by 64 connections near 70 MiB of memory (about
  // 330 bytes per puzzle in flight, plus one frame per connection) while still holding a fifth
  // of a second of work for two cores. It counts puzzles accepted and not yet solved: answers
  // waiting for their readers count against their connection's limit and the memory budget,
  // so that four clients that never read could not spend it all and shut everyone out. A
  // connection below its fair share of it (the limit divided among the connections holding
  // puzzles or waiting) is admitted even past it: the total stays under twice the limit.
  size_t max_in_flight = 131072;
  // Bytes held for clients: unfinished frames in read buffers, decoded requests waiting for
  // in-flight room, and answers not yet taken by their readers, all connections together. Past half of it, the connections holding more than their
  // share stop reading; at it, all do (see Admission::MayTakeMemory). The default, 4 GiB, suits
  // the 24 GiB machines sudokud is sized for: a sixth of the memory, leaving the rest to the
  // solver's in-flight work (near 70 MiB), the page cache and a client on the same machine; and
  // 128 connections can each hold a whole 16 MiB frame in the first half.
  // At least twice max_frame_bytes, so that one frame always fits.
  size_t max_memory = size_t{4} << 30;
  // A connection that sends nothing and has nothing solving for this long gets an IDLE_TIMEOUT
  // fault; zero means never.
  std::chrono::seconds idle_timeout{300};
  // A connection whose answers have been waiting to be written this long without its reader
  // taking a byte is closed and its answers dropped, so that a client that never reads gives
  // its share of the budgets back; zero means never. 30 s: far longer than a reader that reads
  // at all ever leaves a write pending.
  std::chrono::seconds write_stall_timeout{30};
  // As nginx's client_header_timeout and client_body_timeout: a frame whose first byte has
  // arrived must be whole within frame_timeout, and a new connection must send a whole frame
  // within first_frame_timeout; else REQUEST_TIMEOUT. Time spent waiting for the daemon's own
  // budgets does not count. 10 s is ample for a 16 MiB frame on any network the daemon is meant
  // for (1.6 MB/s), and frees a slot held by a stalled or silent peer 30 times sooner than the
  // idle timeout. Zero means never.
  std::chrono::seconds frame_timeout{10};
  std::chrono::seconds first_frame_timeout{10};
  // How long Drain() waits for accepted batches before cancelling them.
  std::chrono::seconds drain_timeout{30};
  // Serve TLS with these files (--tls-cert, --tls-key, --tls-client-ca); the handshake must be
  // done within first_frame_timeout.
  std::optional<TlsFiles> tls;
};

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
  // The budgets of work in flight and memory, which the HTTP API's requests share (WebApi).
  Admission& admission() { return admission_; }
  // The counts and the state now, for --metrics and the Stats request.
  MetricsSnapshot Snapshot() const;
  // "C connections, B batches (P puzzles) in flight; ... answered" for sd_notify's STATUS=.
  std::string StatusText() const;
  // "C connections, B batches answered, X cancelled, P puzzles (S solved, ...), F protocol
  // faults" for the last line: a batch counts as answered once its answer is written, as
  // cancelled when it was dropped unanswered (its solving stopped, or its answer never written).
  std::string SummaryText() const;

 private:
  friend class Connection;  // registers itself, and uses the limits, counts and budgets

  boost::asio::awaitable<void> Accept();
  // Serves (or refuses) a connection just accepted.
  void Admit(boost::asio::ip::tcp::socket socket);
  void ConnectionClosed(Connection* connection);
  // At --max-connections: closes the connection idle longest with nothing in flight, if any
  // (the first such in by_activity_), else one holding only work of unbounded cost.
  void MakeRoom();
  void CancelRemaining(const std::string& why);
  void Finish();
  void InFlight(size_t* batches, size_t* puzzles) const;

  boost::asio::io_context& io_;
  Pool& pool_;
  const ServerOptions options_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::shared_ptr<TlsContext> tls_;  // for new connections; null without TLS
  boost::asio::steady_timer drain_timer_;
  boost::asio::steady_timer abandon_timer_;
  std::function<void()> on_stopped_;

  std::unordered_set<Connection*> connections_;  // every connection alive, refused ones too
  // The connections counted and reading, the least recently active first: where MakeRoom finds
  // the idlest without looking at every connection (a scan of all of them on every accept was,
  // with 12,000 connections and a storm of newcomers, the event loop's main work).
  std::list<Connection*> by_activity_;
  size_t served_ = 0;                            // connections counted against the limit
  Admission admission_;
  JobPool jobs_;

  bool draining_ = false;
  bool stopped_ = false;
  bool abandoned_ = false;
  ServerStats stats_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_SERVER_H_
