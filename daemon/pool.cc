#include "daemon/pool.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "daemon/log.h"
#include "proto/tsan_fork_join.h"

namespace sudoku::daemon {
namespace {

// The batches' threads run a little below the event loop's priority: when they fill every core,
// the event loop (accepting, reading, writing for every connection) still gets most of the CPU
// it asks for, instead of a share among equals, so that a crowd's connections cannot keep a
// newcomer's SYN waiting in a full accept queue. Below nice 0 needs a privilege; above costs
// nothing while the event loop is idle.
constexpr int kSolverNice = 5;
// The long-work threads'.
constexpr int kIdleNice = 19;


cpu_set_t CpuSetOf(const CpuList& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus) CPU_SET(cpu, &set);
  return set;
}

}  // namespace

CpuList AllowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  CpuList cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

std::string CpuListText(const CpuList& cpus) {
  std::string text;
  for (size_t i = 0; i < cpus.size();) {
    size_t last = i;
    while (last + 1 < cpus.size() && cpus[last + 1] == cpus[last] + 1) ++last;
    if (!text.empty()) text += ',';
    text += std::to_string(cpus[i]);
    if (last > i) text += '-' + std::to_string(cpus[last]);
    i = last + 1;
  }
  return text;
}

CpuList MoveOffCpus(const CpuList& cpus) {
  CpuList others;
  for (int cpu : AllowedCpus()) {
    if (std::find(cpus.begin(), cpus.end(), cpu) == cpus.end()) others.push_back(cpu);
  }
  if (others.empty()) return others;
  const cpu_set_t set = CpuSetOf(others);
  if (sched_setaffinity(0, sizeof set, &set) != 0) return {};
  return others;
}

LowPriorityThreads::LowPriorityThreads(int count, const char* name, int nice,
                                       uint64_t default_unit_ns)
    : jobs_(default_unit_ns) {
  for (int i = 0; i < count; ++i) {
    threads_.emplace_back([this, nice] { Serve(nice); });
    pthread_setname_np(threads_.back().native_handle(), name);
  }
}

LowPriorityThreads::~LowPriorityThreads() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void LowPriorityThreads::Enqueue(Account account, std::function<void()> job, uint64_t weight) {
  {
    std::lock_guard lock(mutex_);
    jobs_.Push(account, std::move(job), weight);
  }
  wake_.notify_one();
}

void LowPriorityThreads::Serve(int nice) {
  // Linux's nice is per thread. Lowering a thread's priority needs no privilege; if it fails
  // anyway, the jobs still run, at the priority of the rest.
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), nice);
  if (nice == kIdleNice) {
    // And SCHED_IDLE, where allowed (sudokud.service's system call filter refuses it: nice 19
    // stays): a thread that runs only when nothing else wants the CPU is preempted at once when
    // the event loop wakes, where nice 19 alone still lets it finish its slice first.
    sched_param param{};
    ::sched_setscheduler(0, SCHED_IDLE, &param);
  }
  // Concurrency 1, the one slot reserved for this thread: no oneTBB worker ever joins.
  tbb::task_arena arena(1, 1);
  for (;;) {
    FairQueue::Next next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and every job handed over has run
      next = jobs_.Pop();
    }
    CpuMeter meter;
    {
      CpuMeter::Scope scope(&meter);
      arena.execute(next.job);
    }
    std::lock_guard lock(mutex_);
    jobs_.Charge(next.ticket, meter.nanoseconds());
  }
}

Pool::Pool(int threads, const CpuList& cpus)
    : threads_(threads),
      parallelism_(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads) + 1),
      // No slot is reserved for a caller thread: only enqueued work runs here.
      arena_(threads, 0),
      bounded_(kBoundedUnitNs),
      long_jobs_(threads, "sudokud-long", kIdleNice, kLongUnitNs),
      handshakes_(1, "sudokud-tls", 10, kHandshakeUnitNs) {
  arena_.initialize();
  SetUpThreads(cpus);
}

void Pool::SetUpThreads(const CpuList& cpus) {
  // oneTBB makes the arena's threads for the first work that needs them all and keeps them, so
  // `threads_` tasks, each held until every one has a thread of its own, reach each thread once.
  // (A task_scheduler_observer would see each thread join, but oneTBB may keep its record
  // alive past the arena, which the leak checker reports at exit.) The wait is bounded, so that
  // a thread oneTBB is slow to make cannot hold up the start: it is set up whenever it comes.
  struct Gate {
    std::mutex mutex;
    std::condition_variable all_in;
    int arrived = 0;
  };
  auto gate = std::make_shared<Gate>();
  const cpu_set_t set = CpuSetOf(cpus);
  const bool pin = !cpus.empty();
  const int threads = threads_;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  const auto all_arrived = [gate, threads] { return gate->arrived >= threads; };
  // Relative to the thread that makes the pool (oneTBB's threads outlive a pool, and may
  // already have been lowered by an earlier one).
  const int nice = std::min(19, ::getpriority(PRIO_PROCESS, 0) + kSolverNice);
  for (int i = 0; i < threads; ++i) {
    auto handle = group_.defer([gate, set, pin, deadline, all_arrived, nice] {
      RangeBegins();
      pthread_setname_np(pthread_self(), "sudokud-solve");
      ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), nice);
      // Cannot fail for CPUs the process may use (--solver-cpus checks); if it did, the thread
      // would run where it may, which costs speed, not answers.
      if (pin) pthread_setaffinity_np(pthread_self(), sizeof set, &set);
      std::unique_lock lock(gate->mutex);
      ++gate->arrived;
      gate->all_in.notify_all();
      gate->all_in.wait_until(lock, deadline, all_arrived);
    });
    Forking();
    arena_.enqueue(std::move(handle));
  }
  std::unique_lock lock(gate->mutex);
  gate->all_in.wait_until(lock, deadline, all_arrived);
}

Pool::~Pool() {
  Hold(false);
  arena_.execute([this] { group_.wait(); });
  // handshakes_ and long_jobs_, destroyed after this body, run what they were handed and join
  // their threads.
}

void Pool::Enqueue(Cost cost, Account account, uint64_t weight, std::function<void()> task) {
  busy_.fetch_add(1, std::memory_order_relaxed);
  auto job = [this, task = std::move(task)] {
    RangeBegins();
    WaitWhileHeld();
    task();
  };
  // Forking() once the task (with its captures) is built, just before a worker may run it.
  if (cost != Cost::kBounded) {
    // Handed over under a mutex, which TSan sees.
    (cost == Cost::kLong ? long_jobs_ : handshakes_).Enqueue(account, std::move(job), weight);
  } else {
    {
      std::lock_guard lock(bounded_mutex_);
      bounded_.Push(account, std::move(job), weight);
    }
    auto handle = group_.defer([this] { RunNextBounded(); });
    Forking();
    arena_.enqueue(std::move(handle));
  }
}

void Pool::RunNextBounded() {
  std::function<void()> urgent;
  FairQueue::Next next;
  {
    std::lock_guard lock(bounded_mutex_);
    if (urgent_.empty()) {
      next = bounded_.Pop();
    } else {
      urgent = std::move(urgent_.front());
      urgent_.pop_front();
    }
  }
  if (urgent) {
    urgent();  // the canary: microseconds, charged to no one
    return;
  }
  CpuMeter meter;
  {
    CpuMeter::Scope scope(&meter);
    next.job();
  }
  std::lock_guard lock(bounded_mutex_);
  bounded_.Charge(next.ticket, meter.nanoseconds());
}

void Pool::Post(std::function<void()> work) {
  {
    std::lock_guard lock(bounded_mutex_);
    urgent_.push_back([this, work = std::move(work)] {
      RangeBegins();
      WaitWhileHeld();
      work();
      Finished();
    });
  }
  auto handle = group_.defer([this] { RunNextBounded(); });
  Forking();
  arena_.enqueue(std::move(handle));
}

void Pool::Hold(bool held) {
  held_.store(held);
  if (!held) held_.notify_all();
}

void Pool::WaitWhileHeld() const {
  // One load when not held: the cost on every job of a hook that is almost never used.
  while (held_.load()) held_.wait(true);
}

void Pool::CannotDeliver(std::exception_ptr error) noexcept {
  std::string what = "unknown exception";
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  LogLine("cannot hand a finished batch back to the event loop (" + what + "); aborting");
  std::abort();
}

}  // namespace sudoku::daemon
