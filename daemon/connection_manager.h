// The set of sudokud's open connections, as the connection_manager of Asio's HTTP server example:
// which connections are alive, which count against --max-connections, which of those was active
// least recently, who is closed to make room for a newcomer, and the drain's word to all of them.
// It holds no socket and no budget: each Connection registers itself at its construction, tells
// the manager when it is active, and reports its end (Closed) from its destructor.
//
// Thread-safety: lives on the daemon's io_context thread with the connections; not thread-safe.
#ifndef SUDOKU_DAEMON_CONNECTION_MANAGER_H_
#define SUDOKU_DAEMON_CONNECTION_MANAGER_H_

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <unordered_set>

namespace sudoku::daemon {

class Connection;

// What every connection still reading is told when the daemon drains (wire::Draining).
struct DrainNotice {
  std::string reason;  // "SIGTERM"
  std::chrono::milliseconds timeout{0};  // --drain-timeout
};

class ConnectionManager {
 public:
  // A connection's place in the activity order, held by the connection while it is there.
  using ActivityEntry = std::list<Connection*>::iterator;

  explicit ConnectionManager(size_t max_connections) : max_connections_(max_connections) {}

  ConnectionManager(const ConnectionManager&) = delete;
  ConnectionManager& operator=(const ConnectionManager&) = delete;

  // A connection just made (served or refused): alive until Closed().
  void Add(Connection* connection) {
    connections_.insert(connection);
    crowd_peak_ = std::max(crowd_peak_, connections_.size());
  }
  // A connection destroyed: it leaves the set (and, if still counted, frees its slot). The last
  // one to close during a drain runs the drain's on_empty.
  void Closed(Connection* connection);

  // Starts `connection`, just accepted, when there is a slot for it (closing another to make
  // one, see MakeRoom), else refuses it with a TOO_MANY_CONNECTIONS fault.
  void Admit(const std::shared_ptr<Connection>& connection);

  // `connection` counts against --max-connections from now, and is the most recently active.
  ActivityEntry Serve(Connection* connection);
  // The connection at `entry` was active now: it moves to the end of the activity order.
  void MarkActive(ActivityEntry entry) {
    by_activity_.splice(by_activity_.end(), by_activity_, entry);
  }
  // The connection at `entry` stopped reading or is no longer counted: it cannot be evicted.
  void LeaveActivityOrder(ActivityEntry entry) { by_activity_.erase(entry); }
  // A connection counted against --max-connections no longer is (evicted, or its socket is
  // closed): its slot is free for a newcomer at once.
  void FreeSlot() { --served_; }

  // The drain: every connection stops reading and answers what it accepted, each still reading
  // told so first (Connection::Drain, with `notice`); `on_empty` runs when the last one has
  // closed (never when none is open now: the caller sees empty()).
  void DrainAll(const DrainNotice& notice, std::function<void()> on_empty);
  // Every connection drops what it holds and closes now.
  void AbortAll();

  size_t size() const { return connections_.size(); }
  bool empty() const { return connections_.empty(); }
  // Batches and puzzles accepted and not yet answered, on all connections.
  void InFlight(size_t* batches, size_t* puzzles) const;

 private:
  // At --max-connections: closes the connection idle longest with nothing in flight, if any
  // (the first such in by_activity_), else one holding only work of unbounded cost.
  void MakeRoom();
  // After a crowd of connections has left, gives the memory they took back to the system.
  void ReturnMemoryAfterCrowd();

  // Connections that make a crowd worth giving memory back after.
  static constexpr size_t kCrowd = 256;

  const size_t max_connections_;
  std::unordered_set<Connection*> connections_;  // every connection alive, refused ones too
  // The connections counted and reading, the least recently active first: where MakeRoom finds
  // the idlest without looking at every connection (a scan of all of them on every accept was,
  // with 12,000 connections and a storm of newcomers, the event loop's main work).
  std::list<Connection*> by_activity_;
  size_t served_ = 0;  // connections counted against the limit
  size_t crowd_peak_ = 0;  // the most connections alive since memory was last given back
  std::function<void()> on_empty_;  // set by the drain
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_CONNECTION_MANAGER_H_
