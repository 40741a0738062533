// Marks oneTBB's fork/join edges for ThreadSanitizer.
//
// Debian's oneTBB is not built with -fsanitize=thread, so TSan cannot see that tbb::parallel_for
// returns only after every worker has finished its ranges. A worker's accesses (to a daemon
// connection's cancel flag, to a benchmark's counters on the caller's stack) then look unordered
// with what the caller does next (the connection being freed, the stack reused), and the report
// often loses the worker's stack, so tests/tsan.supp cannot match it.
// Each range calls RangeDone(tag) when it ends and the caller calls Joined(tag) after
// parallel_for returns: the happens-before edge oneTBB really provides, told to TSan. The fork is
// told the same way: Forking() before work is handed to oneTBB (enqueued, or split by
// parallel_for), RangeBegins() first thing where a worker starts on it. They take no tag: the
// worker cannot read one (a lambda's capture) before it has acquired, so one object stands
// for every fork. That orders more than oneTBB does (a race between two unrelated jobs could
// hide behind it), a price worth the rest being checked at all. Without the fork edge every read
// of the handed-over data (a batch's puzzles) is a race TSan reports and then suppresses, which
// made a TSan daemon hundreds of times slower than the race-free path. All four compile to
// nothing outside TSan builds.
//
// Thread-safety: the functions are reentrant.
#ifndef SUDOKU_PROTO_TSAN_FORK_JOIN_H_
#define SUDOKU_PROTO_TSAN_FORK_JOIN_H_

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace sudoku {

#if defined(__SANITIZE_THREAD__)
inline char fork_edge;  // the sync object of Forking() and RangeBegins()
inline void Forking() { __tsan_release(&fork_edge); }
inline void RangeBegins() { __tsan_acquire(&fork_edge); }
inline void RangeDone(const void* tag) { __tsan_release(const_cast<void*>(tag)); }
inline void Joined(const void* tag) { __tsan_acquire(const_cast<void*>(tag)); }
#else
inline void Forking() {}
inline void RangeBegins() {}
inline void RangeDone(const void*) {}
inline void Joined(const void*) {}
#endif

}  // namespace sudoku

#endif  // SUDOKU_PROTO_TSAN_FORK_JOIN_H_
