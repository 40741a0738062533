#include "daemon/admission.h"

#include <algorithm>

#include "daemon/connection.h"

namespace sudoku::daemon {

bool Admission::TryAdmit(Connection* connection) {
  const bool first_in_line = queue_.empty() || queue_.front() == connection;
  if (first_in_line && in_flight_ < max_in_flight_) {
    Leave(connection);
    return true;
  }
  if (!connection->queued_for_admission) {
    connection->queued_for_admission = true;
    queue_.push_back(connection);
  }
  return false;
}

void Admission::Leave(Connection* connection) {
  if (!connection->queued_for_admission) return;
  connection->queued_for_admission = false;
  const bool was_first = queue_.front() == connection;
  queue_.erase(std::find(queue_.begin(), queue_.end(), connection));
  if (was_first && !queue_.empty()) queue_.front()->Wake();
}


void Admission::Release(size_t cost) {
  in_flight_ -= cost;
  if (!queue_.empty()) queue_.front()->Wake();
}

}  // namespace sudoku::daemon
