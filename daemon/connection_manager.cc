#include "daemon/connection_manager.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "daemon/connection.h"
#include "proto/sudoku.pb.h"

namespace sudoku::daemon {

void ConnectionManager::Closed(Connection* connection) {
  connections_.erase(connection);
  if (connection->counted()) --served_;
  ReturnMemoryAfterCrowd();
  if (on_empty_ && connections_.empty()) on_empty_();
}

void ConnectionManager::ReturnMemoryAfterCrowd() {
  // A crowd has left once the connections are down to a quarter of their peak: what their
  // buffers and TLS states took is free in the allocator, which keeps it (glibc returns only
  // the top of its heaps by itself). Given back once per crowd, not per close.
  if (crowd_peak_ < kCrowd || connections_.size() > crowd_peak_ / 4) return;
  ::malloc_trim(0);
  crowd_peak_ = connections_.size();
}

void ConnectionManager::Admit(const std::shared_ptr<Connection>& connection) {
  if (served_ >= max_connections_) MakeRoom();
  if (served_ >= max_connections_) {
    connection->Refuse(wire::ProtocolFault::TOO_MANY_CONNECTIONS,
                       "the daemon already serves " + std::to_string(served_) +
                           " connections (--max-connections " +
                           std::to_string(max_connections_) + ")");
  } else {
    connection->Start();
  }
}

ConnectionManager::ActivityEntry ConnectionManager::Serve(Connection* connection) {
  ++served_;
  return by_activity_.insert(by_activity_.end(), connection);
}

void ConnectionManager::MakeRoom() {
  // First the connection idle longest (nothing in flight; at most an unfinished frame).
  Connection* idlest = nullptr;
  for (Connection* connection : by_activity_) {
    if (connection->Evictable()) {
      idlest = connection;
      break;
    }
  }
  // Failing that, the one holding the most work of unbounded cost and nothing else: such work
  // runs only on what the batches leave idle, so its connections must not keep a newcomer out.
  Connection* long_only = nullptr;
  if (idlest == nullptr) {
    for (Connection* connection : by_activity_) {
      if (connection->HoldsOnlyLongWork() &&
          (long_only == nullptr || connection->in_flight() > long_only->in_flight())) {
        long_only = connection;
      }
    }
  }
  const std::string full = "closed to make room for a new connection: the daemon serves " +
                           std::to_string(served_) + " connections (--max-connections " +
                           std::to_string(max_connections_) + ")";
  if (idlest != nullptr) {
    const auto idle = std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::steady_clock::now() - idlest->last_activity());
    idlest->Evict(full + " and this one, with nothing in flight, was idle longest (" +
                  std::to_string(idle.count()) + " s)");
  } else if (long_only != nullptr) {
    long_only->Evict(full + ", none idle, and this one held only work of unbounded cost (" +
                     std::to_string(long_only->in_flight()) +
                     " puzzles: solution limit above 2, rate, generate, explain), now cancelled");
  }
}

void ConnectionManager::DrainAll(const DrainNotice& notice, std::function<void()> on_empty) {
  on_empty_ = std::move(on_empty);
  // Drain() never destroys a connection on the spot (its coroutines hold it), so iterating is
  // safe.
  for (Connection* connection : connections_) connection->Drain(notice);
}

void ConnectionManager::AbortAll() {
  // Nor does Abort().
  for (Connection* connection : connections_) connection->Abort();
}

void ConnectionManager::InFlight(size_t* batches, size_t* puzzles) const {
  *batches = 0;
  *puzzles = 0;
  for (const Connection* connection : connections_) {
    *batches += connection->batches_in_flight();
    *puzzles += connection->in_flight();
  }
}

}  // namespace sudoku::daemon
