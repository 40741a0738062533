#include "daemon/admission.h"

#include <algorithm>

#include "daemon/connection.h"

namespace sudoku::daemon {

bool Admission::WithinShare(size_t held, size_t cost, size_t others_waiting) const {
  const size_t sharers = in_flight_holders_ + others_waiting + (held == 0 ? 1 : 0);
  // Never below kMinShare, so that a client's few ordinary batches are taken while the total
  // leaves room, however many connections hold or wait.
  const size_t share =
      std::max(max_in_flight_ / std::max<size_t>(sharers, 1), std::min(kMinShare, max_in_flight_));
  return held + cost <= share && in_flight_ + cost <= 2 * max_in_flight_;
}

bool Admission::Fits(size_t cost) const {
  return in_flight_ + cost <= max_in_flight_ || in_flight_ == 0;
}

bool Admission::MayStartNow(size_t cost) const {
  return WithinShare(0, cost, queue_.size()) || (queue_.empty() && Fits(cost));
}

bool Admission::TryAdmit(Connection* connection, size_t held, size_t cost) {
  const bool queued = connection->queued_for_admission;
  const bool within_share = WithinShare(held, cost, queue_.size() - (queued ? 1 : 0));
  const bool first_in_line = queued ? queue_.front() == connection : queue_.empty();
  if (within_share || (first_in_line && Fits(cost))) {
    LeaveQueue(connection);
    return true;
  }
  if (!queued) {
    connection->queued_for_admission = true;
    queue_.push_back(connection);
  }
  return false;
}

void Admission::Leave(Connection* connection) {
  if (connection->waiting_for_memory) {
    connection->waiting_for_memory = false;
    std::erase(memory_waiters_, connection);
  }
  LeaveQueue(connection);
}

void Admission::LeaveQueue(Connection* connection) {
  if (!connection->queued_for_admission) return;
  connection->queued_for_admission = false;
  const bool was_first = queue_.front() == connection;
  queue_.erase(std::find(queue_.begin(), queue_.end(), connection));
  if (was_first && !queue_.empty()) queue_.front()->Wake();
}

void Admission::Charge(size_t held, size_t cost) {
  if (held == 0 && cost > 0) ++in_flight_holders_;
  in_flight_ += cost;
}

void Admission::WorkDone(size_t cost) {
  in_flight_ -= cost;
  if (cost > 0 && !queue_.empty()) queue_.front()->Wake();
}

void Admission::Release(size_t held, size_t cost, bool working) {
  if (working) in_flight_ -= cost;
  if (cost == 0) return;
  const bool holder_gone = held == 0;
  if (holder_gone) --in_flight_holders_;
  if (queue_.empty()) return;
  if (holder_gone) {
    // A holder gone raises everyone's share: every waiter looks again.
    for (Connection* connection : queue_) connection->Wake();
  } else {
    queue_.front()->Wake();
  }
}

bool Admission::MemoryFits(size_t held, size_t more) const {
  const size_t holders = holders_ + (held == 0 ? 1 : 0);
  const bool within_share = held + more <= max_memory_ / holders;
  return memory_ + more <= (within_share ? max_memory_ : max_memory_ / 2);
}

bool Admission::MayTakeMemory(Connection* connection, size_t held, size_t more) {
  if (MemoryFits(held, more)) return true;
  if (!connection->waiting_for_memory) {
    connection->waiting_for_memory = true;
    memory_waiters_.push_back(connection);
  }
  wake_below_ = memory_ > kWakeStep ? memory_ - kWakeStep : 0;
  return false;
}

void Admission::MemoryChanged(size_t before, size_t after) {
  memory_ = memory_ - before + after;
  if (before == 0 && after > 0) ++holders_;
  if (before > 0 && after == 0) --holders_;
  // A holder gone raises everyone's share; memory given back may let a waiter read. Not on
  // every answer written, though: waking thousands of waiters for a few bytes would be a storm.
  if (!memory_waiters_.empty() && ((before > 0 && after == 0) || memory_ <= wake_below_)) {
    WakeMemoryWaiters();
  }
}

void Admission::WakeMemoryWaiters() {
  std::vector<Connection*> waiters;
  waiters.swap(memory_waiters_);
  for (Connection* connection : waiters) {
    connection->waiting_for_memory = false;
    connection->Wake();
  }
}

}  // namespace sudoku::daemon
