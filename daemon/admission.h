// Admission and budgets: how many puzzles the daemon holds in flight (accepted, not yet written
// back or dropped), and who may read its next batch when that budget is spent. No sockets here:
// a connection asks, and when refused waits until Admission wakes it.
//
// Thread-safety: lives on the daemon's io_context thread with the connections; not thread-safe.
#ifndef SUDOKU_DAEMON_ADMISSION_H_
#define SUDOKU_DAEMON_ADMISSION_H_

#include <cstddef>
#include <deque>

namespace sudoku::daemon {

class Connection;

class Admission {
 public:
  explicit Admission(size_t max_in_flight) : max_in_flight_(max_in_flight) {}

  Admission(const Admission&) = delete;
  Admission& operator=(const Admission&) = delete;

  // Whether `connection` may read its next batch under the global in-flight limit. Granted in
  // arrival order, so that no connection starves; a connection refused joins the queue and is
  // woken (Connection::Wake) when it is first in line and capacity was released.
  bool TryAdmit(Connection* connection);
  // Takes `connection` out of the queue (it stopped reading, or is gone).
  void Leave(Connection* connection);

  // Puzzles taken into flight, and given back once written or dropped.
  void Charge(size_t cost) { in_flight_ += cost; }
  void Release(size_t cost);

  size_t in_flight() const { return in_flight_; }

 private:
  const size_t max_in_flight_;
  size_t in_flight_ = 0;  // puzzles admitted, all connections
  std::deque<Connection*> queue_;
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_ADMISSION_H_
