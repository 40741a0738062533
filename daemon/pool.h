// The solver threads: a oneTBB task arena that runs batches off the event loop and hands each
// completion back to Asio.
//
// Thread-safety: Run(), Post() and Hold() may be called from any thread. Work runs on one of the
// arena's threads; its completion runs on the executor associated with the completion handler
// (for a coroutine, its own executor), never on an arena thread. busy() and last_finished() may
// be read from any thread.
#ifndef SUDOKU_DAEMON_POOL_H_
#define SUDOKU_DAEMON_POOL_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "daemon/fair_queue.h"

namespace sudoku::daemon {

// Threads at a low CPU priority (nice 19 for work whose time has no useful bound, nice 10 for
// TLS handshakes) that run jobs off the event loop and the batches' arena. Jobs are queued by
// account (a requester within its source address) and served in order of the CPU time each
// account has used (FairQueue), so that one requester's many or costly jobs never make
// another's wait for all of them. Each thread runs its jobs inside a oneTBB arena of
// its own with no worker, so a parallel algorithm in a job runs on that thread alone and takes
// none of the batches' workers.
class LowPriorityThreads {
 public:
  // Starts `count` threads named `name` (as `top -H` shows them) at `nice`;
  // `default_unit_ns`: the FairQueue's estimate of a unit of weight before an account is
  // measured.
  LowPriorityThreads(int count, const char* name, int nice, uint64_t default_unit_ns);
  // Runs the jobs already queued, then joins the threads.
  ~LowPriorityThreads();

  LowPriorityThreads(const LowPriorityThreads&) = delete;
  LowPriorityThreads& operator=(const LowPriorityThreads&) = delete;

  // Queues `job` of `weight` behind `account`'s earlier ones.
  void Enqueue(Account account, std::function<void()> job, uint64_t weight);

 private:
  void Serve(int nice);

  std::mutex mutex_;
  std::condition_variable wake_;
  FairQueue jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// CPU numbers, as taskset -c and --solver-cpus list them.
using CpuList = std::vector<int>;

// The CPUs this process may use (its affinity mask, as taskset or systemd's CPUAffinity= set it).
CpuList AllowedCpus();
// "0-3,6": as taskset -c lists them.
std::string CpuListText(const CpuList& cpus);
// Moves the calling thread, and so every thread it starts from then on, off `cpus` onto the
// other CPUs the process may use, and returns those; when there are none, changes nothing and
// returns an empty list. For the event loop and the rest of the daemon under --solver-cpus.
CpuList MoveOffCpus(const CpuList& cpus);

class Pool {
 public:
  // Starts an arena of `threads` worker threads, none of them the caller's: the event loop never
  // solves. Each worker is named "sudokud-solve" (as top -H shows it) and, when `cpus` is not
  // empty, runs only on those CPUs.
  explicit Pool(int threads, const CpuList& cpus = {});
  // Waits for the work already handed over (cancelled work finishes quickly).
  ~Pool();

  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  int threads() const { return threads_; }
  // Jobs handed over whose work has not finished yet (queued or running).
  size_t busy() const { return busy_.load(std::memory_order_relaxed); }
  // When a job (Post, or Run of Cost::kBounded) last finished on the main arena; the
  // construction time before any has. A pool whose jobs keep finishing there is alive (see
  // Health). Cost::kLong jobs do not count: they run on threads of their own, so their
  // finishing says nothing of the arena the batches and the canary use.
  std::chrono::steady_clock::time_point last_finished() const {
    return std::chrono::steady_clock::time_point(
        std::chrono::steady_clock::duration(last_finished_.load(std::memory_order_relaxed)));
  }

  // Runs `work()` on the arena and forgets it: nothing is posted back, nothing keeps an event loop
  // busy, and it does not count as busy. `work` must not throw. It goes before every
  // Cost::kBounded job queued: the next arena thread to finish what it runs takes it. For the
  // health canary, which must never wait behind client work, nor hold up a stopping daemon when
  // the pool is wedged.
  void Post(std::function<void()> work);

  // A hook for tests only (Health honours it only when SUDOKUD_TEST_WEDGE_FILE is set): while
  // held, every job waits before it starts, so the pool answers nothing, as a wedged pool would.
  // Releasing it lets them go on. The destructor releases it.
  void Hold(bool held);
  bool held() const { return held_.load(); }

  // How long one job may run. kLong is work whose time has no useful bound: counting a
  // puzzle's solutions up to a large limit (the empty grid to 1,000,000 takes about 10 s of a
  // core), generating puzzles (a minimal symmetric 17-clue one can take seconds), explaining
  // one (the logical solver's chains), rating (the logical solver again, milliseconds a hard
  // puzzle). It runs on threads of its own, as many as --threads, each job on one of them, at
  // the lowest CPU priority (nice 19), the accounts taking turns by CPU used (see
  // LowPriorityThreads): it takes only the CPU that the batches, the health canary and the
  // event loop leave idle, so no amount of it can slow a normal batch or keep the canary from
  // answering, and one client's many jobs cannot starve another's.
  //
  // kHandshake is a TLS handshake's computation (key exchange, signature: up to a millisecond or
  // so a step): one thread of its own at nice 10, the accounts (each connection within its
  // source address) taking turns by CPU used, so that a crowd of handshakes delays neither the
  // event loop (other connections' frames) nor the batches, and one source's crowd waits behind
  // itself. Its jobs do not count as the pool answering either.
  enum class Cost { kBounded, kLong, kHandshake };
  // What a unit of weight of each cost is estimated to take before an account's work has been
  // measured (see FairQueue): a puzzle solved (a microsecond or two); a unit of long work (a
  // puzzle generated, explained, rated or counted far: milliseconds); a TLS handshake step (an
  // ECDHE key exchange and a signature, a millisecond or less).
  static constexpr uint64_t kBoundedUnitNs = 2'000;
  static constexpr uint64_t kLongUnitNs = 2'000'000;
  static constexpr uint64_t kHandshakeUnitNs = 500'000;

  // Runs `work()` on the arena for `cost`, then completes `token` with a null exception_ptr, or
  // with the exception `work` threw (a coroutine awaiting with use_awaitable gets it rethrown).
  // `executor` is where the completion runs when the handler has no executor of its own; it is
  // kept busy (io_context::run() does not return) until the completion is posted. `account`
  // says whose work it is and `weight` how much (its puzzles, say): the jobs of each cost are
  // served in order of the CPU time their accounts have used, measured as they run, `weight`
  // scaling the estimate a job is charged until it is measured (see FairQueue, NewOwner()).
  template <typename Executor, typename Work, typename CompletionToken>
  auto Run(const Executor& executor, Work work, CompletionToken&& token,
           Cost cost = Cost::kBounded, Account account = {}, uint64_t weight = 1) {
    return boost::asio::async_initiate<CompletionToken, void(std::exception_ptr)>(
        [this, executor, cost, account, weight](auto handler, Work work) {
          Start(std::move(work), std::move(handler), executor, cost, account, weight);
        },
        token, std::move(work));
  }

  // A new owner for an Account: one for each connection whose jobs take their own turns.
  uint64_t NewOwner() { return next_owner_.fetch_add(1, std::memory_order_relaxed); }

 private:
  template <typename Work, typename Handler, typename Executor>
  void Start(Work work, Handler handler, const Executor& executor, Cost cost, Account account,
             uint64_t weight) {
    auto target = boost::asio::get_associated_executor(handler, executor);
    struct Op {
      Pool* pool;
      Work work;
      Handler handler;
      boost::asio::executor_work_guard<decltype(target)> guard;
    };
    // oneTBB stores the functor const and copies it, so the move-only handler lives behind a
    // shared_ptr.
    auto op = std::make_shared<Op>(
        Op{this, std::move(work), std::move(handler), boost::asio::make_work_guard(target)});
    Enqueue(cost, account, weight, [op, cost] {
      std::exception_ptr error;
      try {
        op->work();
      } catch (...) {
        error = std::current_exception();
      }
      // Before the completion is posted, so that a completed job never counts as busy.
      op->pool->busy_.fetch_sub(1, std::memory_order_relaxed);
      if (cost == Cost::kBounded) op->pool->Finished();
      // No exception may leave an arena functor: oneTBB would abort the process without a word.
      try {
        boost::asio::post(op->guard.get_executor(), [op, error]() mutable {
          op->guard.reset();
          std::move(op->handler)(error);
        });
      } catch (...) {
        CannotDeliver(std::current_exception());
      }
    });
  }

  // Hands `task` to the arena for its cost and counts it as busy (the task itself says when it
  // is done).
  void Enqueue(Cost cost, Account account, uint64_t weight, std::function<void()> task);
  // Names each of the arena's threads and, when `cpus` is not empty, keeps it on them.
  void SetUpThreads(const CpuList& cpus);
  // Runs the next job: a Post()ed one, else the next Cost::kBounded job, the accounts taking
  // turns (one runs for each enqueued), and charges its account what it cost.
  void RunNextBounded();
  // Runs on the arena before each job: waits while Hold(true) is in force.
  void WaitWhileHeld() const;
  void Finished() {
    last_finished_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                         std::memory_order_relaxed);
  }
  // Posting a completion can only fail to allocate, and a completion that is never delivered
  // leaves a connection waiting forever: this says so and aborts.
  [[noreturn]] static void CannotDeliver(std::exception_ptr error) noexcept;

  const int threads_;
  std::atomic<size_t> busy_{0};
  std::atomic<std::chrono::steady_clock::rep> last_finished_{
      std::chrono::steady_clock::now().time_since_epoch().count()};
  std::atomic<bool> held_{false};
  std::atomic<uint64_t> next_owner_{1};
  // The arena's workers come from TBB's global pool, which by default has one thread fewer than
  // the cores; raise it so that --threads N gets N workers beside the event loop.
  tbb::global_control parallelism_;
  tbb::task_arena arena_;
  tbb::task_group group_;
  // Cost::kBounded jobs wait here, the accounts taking turns; the arena gets one task per job,
  // which runs whichever job's turn it is. The arena alone would run them first come, first
  // served: a client's small batch behind every large one queued before it.
  std::mutex bounded_mutex_;
  FairQueue bounded_;
  std::deque<std::function<void()>> urgent_;  // Post()'s, served before bounded_
  LowPriorityThreads long_jobs_;   // Cost::kLong
  LowPriorityThreads handshakes_;  // Cost::kHandshake
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_POOL_H_
