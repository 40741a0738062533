// One client connection of sudokud: its reader (frames in), its writer (responses out), its
// watchdog (idle timeout, linger) and one coroutine per request on the solver pool. Defined in
// two files: connection.cc, the socket's side, and connection_requests.cc, the requests' side
// (which hands each request to the daemon's RequestHandler).
//
// A connection moves one way through its stages (Stage): reading requests, answering what was
// accepted, faulted (a ProtocolFault is the last thing written), closed. Every way of stopping
// (end of input, drain, fault, a write error, a timeout) goes through Advance(), and every
// coroutine that waits for the connection's state to change waits on one wake-up (Wake()).
//
// Thread-safety: a Connection lives on the daemon's io_context thread, with its Server and
// ConnectionManager; every member function must be called from that thread. Only the solving
// runs elsewhere (on the Pool), and it touches nothing but its own Job and the connection's
// cancel flag.
#ifndef SUDOKU_DAEMON_CONNECTION_H_
#define SUDOKU_DAEMON_CONNECTION_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "daemon/connection_manager.h"
#include "daemon/frame_reader.h"
#include "daemon/metrics.h"
#include "daemon/pool.h"
#include "daemon/request_handler.h"
#include "daemon/request_work.h"
#include "daemon/server_options.h"
#include "daemon/tls.h"
#include "proto/codec.h"
#include "proto/sudoku.pb.h"
#include "proto/wake_up.h"

namespace sudoku::daemon {

class Admission;

// A frame being read gets a second more than --frame-timeout for every this many bytes received
// (as Apache's mod_reqtimeout's MinRate): the deadline measures progress, so a peer sending at
// least this fast is never timed out.
inline constexpr size_t kMinFrameRate = 1024;

// How often a connection whose reader waits for room looks whether its peer has left
// (Connection::CheckPeerStillThere).
inline constexpr auto kDepartureCheck = std::chrono::milliseconds(250);

// What a connection uses of the daemon around it, each part through its own public interface.
// The Server owns all of it and hands it to each connection it accepts.
struct ConnectionContext {
  const ServerOptions& options;    // the limits and timeouts
  Pool& pool;                      // where large frames are decoded
  RequestHandler& requests;        // takes each request read, does its work, counts it
  Admission& admission;            // the budgets of puzzles in flight and of memory
  ServerStats& stats;              // the daemon's counts
  ConnectionManager& connections;  // the set of connections, which it joins and leaves
};

// Its coroutines (reader, writer, watchdog, one per batch in flight) each hold a shared_ptr to
// it, so its state outlives every batch still on the arena, even after the socket is gone.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using Clock = std::chrono::steady_clock;
  using Kind = wire::ProtocolFault::Kind;

  // `stream`: plain TCP, or TLS whose handshake the reader does first (within
  // --first-frame-timeout). `source`: the peer's address (SourceOf), whose requesters share
  // their turns on the solver threads.
  Connection(const ConnectionContext& context, Stream stream, std::string peer, uint64_t source);
  ~Connection();

  // Serves the connection: counts it against --max-connections until it closes.
  void Start();
  // Sends `kind` and closes without reading a request.
  void Refuse(Kind kind, const std::string& message);
  // The drain: no further request is read; what was accepted is answered, then the connection
  // closes. A connection still reading is told first, ahead of its answers: a Draining response
  // with the number of the last frame it read (sudoku.proto), so that its client sends the
  // frames after it elsewhere at once instead of finding out at the close.
  void Drain(const DrainNotice& notice);
  // Drops everything and closes now. Batches on the arena are cancelled and their results
  // discarded when they come back.
  void Abort() { Advance(Stage::kClosed); }
  // Whether it may be closed to make room for a newcomer: served, reading, nothing in flight
  // and no whole request waiting (an unfinished frame may be buffered).
  bool Evictable() const;
  // Whether all it has in flight is work of unbounded cost, none of it answered yet: it may be
  // closed to make room when no connection is idle (ConnectionManager::MakeRoom).
  bool HoldsOnlyLongWork() const {
    return counted_ && reading() && solving_ > 0 && long_solving_ == solving_ &&
           queue_.empty() && batches_writing_ == 0;
  }
  Clock::time_point last_activity() const { return last_activity_; }
  // Closes it to make room (a TOO_MANY_CONNECTIONS fault with `message`); its slot is free at once.
  void Evict(const std::string& message);
  // Something this connection may be waiting for changed (capacity released, a response
  // queued, the peer gone): its coroutines look again.
  void Wake() { wake_.Notify(); }

  bool counted() const { return counted_; }
  size_t in_flight() const { return requester_.in_flight(); }
  size_t batches_in_flight() const;

  size_t memory() const { return memory_; }

  bool queued_for_admission = false;  // in Admission's queue
  bool waiting_for_memory = false;    // among Admission's memory waiters

 private:
  enum class Stage {
    kReading,    // reading requests
    kAnswering,  // no further request is read (end of input, drain); answering what was accepted
    kFaulted,    // a fault is queued; nothing else will be written, nothing more solved
    kClosed,     // the socket is closed; everything not written is dropped
  };
  // The one stop path: moves on to `stage` (never back) and does what entering it takes.
  void Advance(Stage stage);
  bool reading() const { return stage_ == Stage::kReading; }
  // Answers not wanted any more: dropped when they come back from the arena.
  bool discarding() const { return stage_ >= Stage::kFaulted; }

  // Starts `coroutine` on the event loop: what escapes it is logged and aborts the connection.
  void Spawn(boost::asio::awaitable<void> coroutine);
  // Marks activity now: the connection moves to the end of the manager's activity order.
  void Touch();
  // Takes it out of the activity order for good: it stopped reading, or is no longer counted.
  void LeaveActivityOrder();

  // Each coroutine takes `self` only to keep the connection alive while it runs.
  boost::asio::awaitable<void> Reader(std::shared_ptr<Connection> self);
  boost::asio::awaitable<void> Writer(std::shared_ptr<Connection> self);
  boost::asio::awaitable<void> Watchdog(std::shared_ptr<Connection> self);
  // TLS: looks at the first bytes (plaintext gets a NOT_THIS_PROTOCOL fault, in plaintext), then
  // does the handshake. False when the connection cannot go on.
  boost::asio::awaitable<bool> Secure();
  // Runs an accepted batch or explanation on the Pool, then hands it to Solved().
  boost::asio::awaitable<void> RunJob(std::shared_ptr<Connection> self, std::unique_ptr<Job> job);
  // After its work: queues the response for the writer, or drops it (connection gone,
  // cancelled), or faults the connection (`failure`: what the work threw).
  void Solved(std::unique_ptr<Job> job, const std::string& failure);
  // Generates a GenerateRequest's puzzles a chunk at a time, queueing each chunk's response.
  boost::asio::awaitable<void> RunGenerate(std::shared_ptr<Connection> self,
                                           std::unique_ptr<Job> request);
  // Waits until this connection and the daemon may take `cost` more puzzles in flight
  // (Admission::TryAdmit): kAdmitted. kStopped when reading stopped meanwhile; kDropped when
  // the request waiting is `long_work` and the peer closed its side meanwhile (such work is not
  // done for a peer that may be gone; the reader reads on, to its end of input).
  enum class Admitted { kAdmitted, kStopped, kDropped };
  boost::asio::awaitable<Admitted> WaitForCapacity(size_t cost, bool long_work = false);
  // While the reader reads nothing (waiting for room), the socket says nothing of a peer that
  // leaves: the kernel's state of the connection is looked at instead, every kDepartureCheck.
  // A reset aborts the connection, its work dropped before it starts; a closed side cancels its
  // long work, as an end of input would. True when the peer is still there.
  bool CheckPeerStillThere();
  // Gives a request decoded and checked once (wire::CheckRequest) to the RequestHandler, and
  // runs its work. False when it faulted.
  bool HandleRequest(std::unique_ptr<Job> job, wire::RequestKind kind);
  void EndOfInput();
  // When the frame being read (or, before any, the first) must be whole; none once reading
  // stopped or when the timeouts are off.
  std::optional<Clock::time_point> FrameDeadline() const;
  // What the bytes of the frame being read buy beyond a deadline: a second per kMinFrameRate,
  // counted as the socket received them (with TLS, records not yet decrypted count: a record
  // is read only once whole). Progress moves the deadlines, so a peer that keeps sending at
  // that rate or faster is never timed out, however large its frame (the first one too), while
  // one that drips a byte now and then is, after about the timeout.
  Clock::duration ProgressAllowance() const;
  // The frame being read starts at `when` (its progress is measured from here).
  void StartFrame(Clock::time_point when);

  void Fault(Kind kind, const std::string& message);
  // Gives back `cost` puzzles written or dropped; `working`: their work was not done yet.
  void Release(size_t cost, bool working);
  // Hands `job`'s response to the writer, its bytes charged against --max-memory; `ahead` of
  // the responses already queued (the drain's notice), else after them.
  void Queue(std::unique_ptr<Job> job, bool ahead = false);
  // A queued response written (`written`) or dropped: its puzzles and bytes are given back.
  void Finished(std::unique_ptr<Job> job, bool written);
  // A response not written after all (its connection stopped, its work cancelled).
  void Drop(std::unique_ptr<Job> job);
  void DropQueued();
  // Tells Admission what the read buffer and the queued responses hold now.
  void UpdateMemory();

  const ConnectionContext& context_;
  Stream stream_;
  std::string peer_;  // "ADDRESS:PORT", then " (SUBJECT)" once a client certificate is verified
  ReadBuffer input_;
  uint64_t frames_ = 0;  // whole frames read, for messages ("frame 3 ...")
  // The last frame handed to the RequestHandler: the last one answered (or faulted) when reading
  // stops. A frame read whole and waiting for room, or being decoded, when reading stops is not.
  uint64_t frames_taken_ = 0;

  WakeUp wake_;                         // the reader and writer wait here (see Wake())
  boost::asio::steady_timer deadline_;  // the watchdog's next deadline
  Clock::time_point last_activity_;
  // Its place in the manager's activity order, while it is there (counted and reading).
  ConnectionManager::ActivityEntry activity_entry_;
  bool in_activity_order_ = false;
  Clock::time_point linger_until_ = Clock::time_point::max();  // set once the writer is done
  const Clock::time_point connected_;
  Clock::time_point frame_started_;       // when the first byte of the frame being read came
  uint64_t frame_socket_bytes_ = 0;    // the stream's bytes_received() then
  uint64_t frame_buffered_bytes_ = 0;  // the frame's bytes buffered then
  Clock::time_point last_read_;           // when the last read that brought bytes completed
  bool held_back_ = false;  // the reader waits for capacity (WaitForCapacity), reading nothing
  Clock::time_point next_departure_check_ = Clock::time_point::max();
  Clock::time_point last_write_progress_;  // when the pending write last moved (or began)
  Clock::time_point watchdog_expiry_ = Clock::time_point::max();  // deadline_'s expiry

  std::deque<std::unique_ptr<Job>> queue_;  // responses waiting for the writer
  // Its standing with the RequestHandler: puzzles in flight, ids in flight, the cancel flags
  // (all its work when it stops; its long work also when the peer closes its side), its turn
  // among the long work.
  Requester requester_;
  size_t long_solving_ = 0;  // requests of unbounded cost on the pool
  size_t solving_ = 0;               // batches on the arena
  size_t batches_writing_ = 0;       // responses (not faults or stats) the writer holds
  // A fault found while requests accepted before it are still in flight: sent once they are all
  // answered (the reader stopped at it).
  std::unique_ptr<Job> pending_fault_;
  size_t answer_bytes_ = 0;          // bytes of responses queued or being written
  size_t waiting_request_bytes_ = 0;  // a decoded request waiting for in-flight capacity
  size_t memory_ = 0;                // what Admission was last told this connection holds

  Stage stage_ = Stage::kReading;
  bool counted_ = false;      // counts against --max-connections
  bool peer_closed_ = false;  // the peer has shut down its side
  bool writing_ = false;      // the writer waits for a write to complete
  // Bytes may be written: plain TCP, or TLS after its handshake (or a plaintext peer on the TLS
  // port, answered in plaintext).
  bool secured_ = false;
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_CONNECTION_H_
