// Who gets the solver threads next: jobs queued by requester and by source address, served in
// order of the CPU time each has really used (measured, not estimated by the kind of request).
//
//   FairQueue queue;
//   queue.Push({.source = SourceOf("192.0.2.7"), .owner = 12}, job, /*weight=*/puzzles);
//   FairQueue::Next next = queue.Pop();          // the job whose account has used the least
//   CpuMeter meter;
//   { CpuMeter::Scope scope(&meter); next.job(); }
//   queue.Charge(next.ticket, meter.nanoseconds());  // what it really cost
//
// Two levels, as a hierarchical fair queue: the sources (a peer's address) take turns by the CPU
// time their requesters have used together, then within the chosen source its requesters (a
// connection; the JSON API's requests from that address, which share one) take turns by their
// own. So a thousand connections from one address get what one would, and a requester that has
// used more gets less, whatever it sends: a rating, a handshake, a kind of request added later.
//
// A job's cost is known once it has run. Until then it is charged an estimate (its weight, say its
// puzzles, times what a unit of its requester's work has cost so far, or `default_unit_ns` for a
// requester not measured yet), so that a requester with many jobs queued cannot take every thread
// at once before the first one is measured; Charge() replaces the estimate with the measure. The
// next job is the one that would finish first in CPU time (its account's use plus its estimate), so
// a small job does not wait for the large ones queued with it.
//
// Idle earns no credit: an account that comes back starts at the use of the one served last. Debt
// is remembered: an account that used more than that keeps its excess when it goes idle, so a
// requester cannot clear its account by pausing, nor an address by reconnecting (up to
// kRemembered idle requesters and as many idle sources, the oldest forgotten first).
//
// Thread-safety: not thread-safe; its user holds a lock. CpuMeter is thread-safe.
#ifndef SUDOKU_DAEMON_FAIR_QUEUE_H_
#define SUDOKU_DAEMON_FAIR_QUEUE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace sudoku::daemon {

// Whose work a job is: its requester (`owner`, unique within its source) and the address it came
// from (`source`, SourceOf()). Implicitly made from a bare owner, for work of no particular source.
struct Account {
  Account() = default;
  Account(uint64_t owner_id) : owner(owner_id) {}  // NOLINT: a bare owner is an account
  Account(uint64_t source_id, uint64_t owner_id) : source(source_id), owner(owner_id) {}
  uint64_t source = 0;
  uint64_t owner = 0;
};

// The source of a peer's address ("192.0.2.7", "2001:db8::1"): equal addresses, equal sources.
uint64_t SourceOf(std::string_view address);

// The CPU time a job uses, on whichever threads its pieces run. The thread that runs the job holds
// a Scope over it; a piece the job hands to another thread (a range of a parallel loop) holds a
// Scope of its own there, on the meter Current() gave the job. Nested scopes pause the outer
// one, so a thread that runs another job's piece while it waits charges that piece to its own
// job's meter, not to the one it waits in.
class CpuMeter {
 public:
  uint64_t nanoseconds() const { return ns_.load(std::memory_order_relaxed); }
  // The meter this thread is measuring for now, or null.
  static CpuMeter* Current();

  class Scope {
   public:
    explicit Scope(CpuMeter* meter);  // null: measures nothing
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    CpuMeter* const meter_;
    CpuMeter* outer_ = nullptr;
    uint64_t started_ = 0;
  };

  // This thread's CPU time (CLOCK_THREAD_CPUTIME_ID), in nanoseconds.
  static uint64_t ThreadNanoseconds();

 private:
  std::atomic<uint64_t> ns_{0};
};

class FairQueue {
 public:
  // `default_unit_ns`: the estimated cost of a unit of weight for a requester not measured yet.
  explicit FairQueue(uint64_t default_unit_ns) : default_unit_ns_(default_unit_ns) {}

  // What Pop() handed out, for Charge().
  struct Ticket {
    Account account;
    uint64_t estimate = 0;  // ns charged at Pop()
    uint64_t weight = 0;
  };
  struct Next {
    std::function<void()> job;
    Ticket ticket;
  };

  void Push(Account account, std::function<void()> job, uint64_t weight = 1);
  bool empty() const { return ready_sources_.empty(); }
  // The job whose account would finish it first. Must not be empty.
  Next Pop();
  // The job of `ticket` has run and cost `ns` of CPU time.
  void Charge(const Ticket& ticket, uint64_t ns);

  // Idle accounts remembered for their debt (see above).
  static constexpr size_t kRemembered = 4096;

 private:
  struct Queued {
    std::function<void()> job;
    uint64_t weight;
  };
  // Finish key, arrival sequence, id: the ready accounts in the order they are served.
  using Key = std::tuple<uint64_t, uint64_t, uint64_t>;
  struct Owner {
    std::deque<Queued> jobs;
    uint64_t used = 0;     // ns charged (virtual: starts at the source's time, see above)
    size_t running = 0;    // jobs popped and not yet charged
    uint64_t measured_ns = 0;     // for its estimate: measured cost ...
    uint64_t measured_units = 0;  // ... of this much weight
    Key key{};             // its key in Source::ready while it has jobs queued
    std::list<Account>::iterator idle_at;  // in idle_owners_ while idle
    bool idle = false;
  };
  struct Source {
    std::unordered_map<uint64_t, Owner> owners;
    std::set<Key> ready;   // owners with jobs queued
    uint64_t used = 0;
    uint64_t now = 0;      // the use of the owner served last: where a returning owner starts
    size_t running = 0;
    Key key{};             // its key in ready_sources_ while `ready` is not empty
    std::list<uint64_t>::iterator idle_at;
    bool idle = false;
  };

  uint64_t Estimate(const Owner& owner, uint64_t weight) const;
  // (Re)files `owner` of `source` (and `source`) under their current keys, or as idle.
  void File(uint64_t source_id, Source& source, uint64_t owner_id, Owner& owner);
  void FileSource(uint64_t source_id, Source& source);
  // Forgets the oldest idle accounts past kRemembered.
  void Forget();

  const uint64_t default_unit_ns_;
  std::unordered_map<uint64_t, Source> sources_;
  std::set<Key> ready_sources_;
  std::list<uint64_t> idle_sources_;  // oldest first
  std::list<Account> idle_owners_;    // oldest first
  uint64_t now_ = 0;  // the use of the source served last
  uint64_t sequence_ = 1;  // 0 is no key's
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_FAIR_QUEUE_H_
