// sudokud's limits and timeouts for the protocol's listener (ServerOptions), apart from the Server
// so that its connections, which read them, need not see the Server.
#ifndef SUDOKU_DAEMON_SERVER_OPTIONS_H_
#define SUDOKU_DAEMON_SERVER_OPTIONS_H_

#include <chrono>
#include <cstddef>
#include <optional>

#include <boost/asio/ip/tcp.hpp>

#include "daemon/tls.h"
#include "proto/framing.h"

namespace sudoku::daemon {

struct ServerOptions {
  boost::asio::ip::tcp::endpoint listen{boost::asio::ip::address_v4::loopback(), 9810};
  // A frame whose declared length is larger is refused before anything is allocated for it.
  size_t max_frame_bytes = wire::kDefaultMaxFrameBytes;
  // Puzzles in one SolveRequest.
  size_t max_batch = wire::kDefaultMaxBatch;
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
  // in-flight room, and answers not yet taken by their readers, all connections together. Past
  // half of it, the connections holding more than their share stop reading; at it, all do (see
  // Admission::MayTakeMemory). The default, 4 GiB, suits
  // the 24 GiB machines sudokud is sized for: a sixth of the memory, leaving the rest to the
  // solver's in-flight work (near 70 MiB), the page cache and a client on the same machine; and
  // 128 connections can each hold a whole 16 MiB frame in the first half. Under a cgroup memory
  // limit, --max-memory defaults to half of the limit when that is less (cgroup_limits.h).
  // At least twice max_frame_bytes, so that one frame always fits.
  size_t max_memory = size_t{4} << 30;
  // A connection that sends nothing and has nothing solving for this long gets an IDLE_TIMEOUT
  // fault; zero means never.
  std::chrono::milliseconds idle_timeout{300000};
  // A connection whose answers have been waiting to be written this long without its reader
  // taking a byte is closed and its answers dropped, so that a client that never reads gives
  // its share of the budgets back; zero means never. 30 s: far longer than a reader that reads
  // at all ever leaves a write pending.
  std::chrono::milliseconds write_stall_timeout{30000};
  // As nginx's client_header_timeout and client_body_timeout: a frame whose first byte has
  // arrived must be whole within frame_timeout, and a new connection must send a whole frame
  // within first_frame_timeout; else REQUEST_TIMEOUT. Time spent waiting for the daemon's own
  // budgets does not count. 10 s is ample for a 16 MiB frame on any network the daemon is meant
  // for (1.6 MB/s), and frees a slot held by a stalled or silent peer 30 times sooner than the
  // idle timeout. Zero means never.
  std::chrono::milliseconds frame_timeout{10000};
  std::chrono::milliseconds first_frame_timeout{10000};
  // How long Drain() waits for accepted batches before cancelling them.
  std::chrono::milliseconds drain_timeout{30000};
  // Serve TLS with these files (--tls-cert, --tls-key, --tls-client-ca); the handshake must be
  // done within first_frame_timeout.
  std::optional<TlsFiles> tls;
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_SERVER_OPTIONS_H_
