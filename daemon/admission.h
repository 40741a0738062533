// Admission and budgets: what the daemon holds for its clients, and who may take more when a
// budget is spent. Two budgets:
//   - puzzles in flight, --max-in-flight: accepted and not yet solved, over all connections (the
//     work queued for the solver, which is what a newcomer's batch waits behind). A connection's
//     own holding, which its fair share is measured against, lasts until its answers are
//     written or dropped: a client that does not read keeps its share, not everyone's budget
//     (its unread answers are memory, the other budget);
//   - memory (--max-memory): the bytes of every connection's read buffer (unfinished frames) and
//     of every answer not yet taken by its reader.
// No sockets here: a connection asks, and when refused waits until Admission wakes it
// (Connection::Wake).
//
// Thread-safety: lives on the daemon's io_context thread with the connections; not thread-safe.
#ifndef SUDOKU_DAEMON_ADMISSION_H_
#define SUDOKU_DAEMON_ADMISSION_H_

#include <cstddef>
#include <deque>
#include <vector>

namespace sudoku::daemon {

class Connection;

class Admission {
 public:
  Admission(size_t max_in_flight, size_t max_memory)
      : max_in_flight_(max_in_flight), max_memory_(max_memory) {}

  Admission(const Admission&) = delete;
  Admission& operator=(const Admission&) = delete;

  // Whether `connection`, holding `held` puzzles in flight, may take a request costing `cost`
  // more. A connection whose holding stays within its fair share (--max-in-flight divided among
  // the connections holding puzzles or waiting, but never less than kMinShare) may, as long as
  // the total stays within twice the limit: two clients that never read cannot shut out a third,
  // nor can a thousand connections in line with large batches keep a client's ordinary batches
  // waiting behind them. Otherwise the connections wait
  // in line, and the first may take its request when the total stays within the limit, or, for
  // a request larger than the limit, when nothing else is in flight. So the total never passes
  // twice the limit, or one request alone when a request is larger than the limit. A
  // connection refused joins the line and is woken when capacity was released or a holder left.
  bool TryAdmit(Connection* connection, size_t held, size_t cost);
  // Takes `connection` out of the queues (it stopped reading, or is gone).
  void Leave(Connection* connection);
  // Whether a request costing `cost`, from a requester that holds nothing and does not wait in
  // line (an HTTP API request, refused with 503 instead), may start now: by the rule above, it
  // is within its share, or it fits and nobody waits in line. Charged, when taken, with
  // Charge(0, cost), and given back with WorkDone(cost) and Release(0, cost, false).
  bool MayStartNow(size_t cost) const;

  // Puzzles taken into flight by a connection that held `held` before; their work done (solved,
  // the answer ready: they leave the daemon-wide total); and given back once written or dropped
  // (`held`: what the connection holds after; `working`: their work was not done, as when
  // cancelled, so they leave the total too).
  void Charge(size_t held, size_t cost);
  void WorkDone(size_t cost);
  void Release(size_t held, size_t cost, bool working);

  // Whether `connection`, holding `held` bytes, may take `more`. A connection within its fair
  // share (the budget divided among the connections holding memory) may, up to the whole
  // budget; one past its share only while the total is under half the budget. So the total
  // never passes the budget, the connections holding the most are the first to stop reading,
  // and the second half is kept for the others: a bystander's frame is still read when a few
  // connections have filled the first. A connection refused is woken when memory comes back.
  bool MayTakeMemory(Connection* connection, size_t held, size_t more);
  // Whether a requester holding nothing and not waiting (an HTTP API request, refused with 503
  // instead) may hold `bytes` now, by the rule above. Charged with MemoryChanged(0, bytes).
  bool MayHoldNow(size_t bytes) const { return MemoryFits(0, bytes); }
  // `connection`'s holding went from `before` to `after` bytes.
  void MemoryChanged(size_t before, size_t after);

  size_t in_flight() const { return in_flight_; }
  size_t max_in_flight() const { return max_in_flight_; }
  size_t memory() const { return memory_; }
  size_t max_memory() const { return max_memory_; }

 private:
  // Whether a requester holding `held` may take `cost` more as its fair share, with
  // `others_waiting` other connections in line; whether `cost` fits under the limit.
  bool WithinShare(size_t held, size_t cost, size_t others_waiting) const;
  bool Fits(size_t cost) const;
  // Whether a holder of `held` bytes may take `more` by MayTakeMemory's rule.
  bool MemoryFits(size_t held, size_t more) const;
  void LeaveQueue(Connection* connection);
  void WakeMemoryWaiters();

  // The least a connection's fair share may be: four of sudoku-client's default batches.
  static constexpr size_t kMinShare = 8192;

  const size_t max_in_flight_;
  const size_t max_memory_;
  size_t in_flight_ = 0;  // puzzles admitted and not yet solved, all connections
  size_t in_flight_holders_ = 0;  // connections holding any
  std::deque<Connection*> queue_;
  size_t memory_ = 0;   // bytes held, all connections
  size_t holders_ = 0;  // connections holding any
  std::vector<Connection*> memory_waiters_;
  // The waiters are woken once the total falls this low (a read's worth below what it was when
  // the last of them was refused), or when a holder leaves.
  static constexpr size_t kWakeStep = 1 << 20;
  size_t wake_below_ = 0;
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_ADMISSION_H_
