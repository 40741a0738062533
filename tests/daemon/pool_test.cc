#include "daemon/pool.h"

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

namespace sudoku::daemon {
namespace {

namespace asio = boost::asio;

TEST(Pool, RunsWorkOnTheArenaAndCompletesOnTheLoop) {
  asio::io_context io;
  Pool pool(2);
  EXPECT_EQ(pool.threads(), 2);
  const auto loop_thread = std::this_thread::get_id();
  std::thread::id work_thread;
  std::thread::id completion_thread;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        co_await pool.Run(io.get_executor(), [&] { work_thread = std::this_thread::get_id(); },
                          asio::use_awaitable);
        completion_thread = std::this_thread::get_id();
      },
      asio::detached);
  io.run();  // returns only once the completion has run: the pending work keeps it busy
  EXPECT_NE(work_thread, std::thread::id());
  EXPECT_NE(work_thread, loop_thread);
  EXPECT_EQ(completion_thread, loop_thread);
  EXPECT_EQ(pool.busy(), 0u);
}

TEST(Pool, RethrowsTheWorksExceptionAtTheAwait) {
  asio::io_context io;
  Pool pool(1);
  std::string caught;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        try {
          co_await pool.Run(io.get_executor(), [] { throw std::runtime_error("out of cells"); },
                            asio::use_awaitable);
        } catch (const std::runtime_error& e) {
          caught = e.what();
        }
      },
      asio::detached);
  io.run();
  EXPECT_EQ(caught, "out of cells");
}

TEST(Pool, CompletesEveryJobOnce) {
  asio::io_context io;
  Pool pool(2);
  std::atomic<int> worked{0};
  int completed = 0;
  for (int i = 0; i < 1000; ++i) {
    pool.Run(io.get_executor(), [&] { ++worked; },
             [&](std::exception_ptr error) {
               EXPECT_FALSE(error);
               ++completed;
             });
  }
  io.run();
  EXPECT_EQ(worked.load(), 1000);
  EXPECT_EQ(completed, 1000);
}

TEST(Pool, DestructorWaitsForTheWorkHandedOver) {
  asio::io_context io;
  std::atomic<bool> done{false};
  {
    Pool pool(1);
    pool.Run(io.get_executor(), [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      done = true;
    }, [](std::exception_ptr) {});
  }
  EXPECT_TRUE(done.load());
}

// What a job sees of the thread it runs on.
struct ThreadSeen {
  int nice = -100;
  int policy = -1;  // SCHED_OTHER, SCHED_IDLE...
  std::string name;
  std::set<std::thread::id> parallel_for_threads;
};

ThreadSeen RunAndLook(Pool& pool, Pool::Cost cost) {
  asio::io_context io;
  ThreadSeen seen;
  pool.Run(
      io.get_executor(),
      [&seen] {
        seen.nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
        seen.policy = ::sched_getscheduler(0);
        char name[32] = {};
        pthread_getname_np(pthread_self(), name, sizeof name);
        seen.name = name;
        std::mutex mutex;
        tbb::parallel_for(0, 64, [&](int) {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          std::lock_guard lock(mutex);
          seen.parallel_for_threads.insert(std::this_thread::get_id());
        });
      },
      [](std::exception_ptr error) { EXPECT_FALSE(error); }, cost);
  io.run();
  return seen;
}

// Work without a useful bound runs at the lowest priority (nice 19, and SCHED_IDLE: only on
// CPU nothing else wants) on threads of its own, alone even in a parallel loop; batches run on
// the arena a little below the process's priority (nice +5), so that the event loop comes first.
TEST(Pool, LongJobsRunAtTheLowestPriorityOnTheirOwnThread) {
  const int own_nice = ::getpriority(PRIO_PROCESS, 0);
  Pool pool(2);
  const ThreadSeen long_job = RunAndLook(pool, Pool::Cost::kLong);
  EXPECT_EQ(long_job.nice, 19);
  EXPECT_EQ(long_job.policy, SCHED_IDLE);
  EXPECT_EQ(long_job.name, "sudokud-long");
  EXPECT_EQ(long_job.parallel_for_threads.size(), 1u);
  const ThreadSeen batch = RunAndLook(pool, Pool::Cost::kBounded);
  EXPECT_EQ(batch.nice, std::min(own_nice + 5, 19));  // a little below the event loop
  EXPECT_EQ(batch.policy, SCHED_OTHER);
  EXPECT_EQ(batch.name, "sudokud-solve");
}

// A TLS handshake's steps run on a thread of their own at nice 10: off the event loop, and
// behind the batches when the CPU is short.
TEST(Pool, HandshakesRunOnTheirOwnThreadAtNice10) {
  Pool pool(2);
  const ThreadSeen handshake = RunAndLook(pool, Pool::Cost::kHandshake);
  EXPECT_EQ(handshake.nice, 10);
  EXPECT_EQ(handshake.policy, SCHED_OTHER);
  EXPECT_EQ(handshake.name, "sudokud-tls");
}

// The CPUs the calling thread may run on.
CpuList ThreadCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(pthread_getaffinity_np(pthread_self(), sizeof set, &set), 0);
  CpuList cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

TEST(Pool, SolverThreadsKeepToTheCpusGiven) {
  const CpuList allowed = AllowedCpus();
  ASSERT_FALSE(allowed.empty());
  const CpuList last = {allowed.back()};
  Pool pool(2, last);
  asio::io_context io;
  std::mutex mutex;
  std::set<CpuList> seen;
  pool.Run(
      io.get_executor(),
      [&] {
        tbb::parallel_for(0, 64, [&](int) {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          std::lock_guard lock(mutex);
          seen.insert(ThreadCpus());
        });
      },
      [](std::exception_ptr error) { EXPECT_FALSE(error); });
  io.run();
  EXPECT_EQ(seen, std::set<CpuList>{last});
  EXPECT_EQ(ThreadCpus(), allowed);  // the caller's thread is left alone
}

TEST(Pool, MoveOffCpusLeavesTheCallerOnTheOthers) {
  const CpuList allowed = AllowedCpus();
  std::thread([&] {
    if (allowed.size() < 2) {
      // Nowhere else to go: nothing changes.
      EXPECT_EQ(MoveOffCpus(allowed), CpuList{});
      EXPECT_EQ(ThreadCpus(), allowed);
      return;
    }
    const CpuList others(allowed.begin() + 1, allowed.end());
    EXPECT_EQ(MoveOffCpus({allowed.front()}), others);
    EXPECT_EQ(ThreadCpus(), others);
    EXPECT_EQ(MoveOffCpus(allowed), CpuList{});  // every CPU asked for: left where it was
    EXPECT_EQ(ThreadCpus(), others);
  }).join();
}

TEST(Pool, CpuListTextIsTasksetsForm) {
  EXPECT_EQ(CpuListText({}), "");
  EXPECT_EQ(CpuListText({3}), "3");
  EXPECT_EQ(CpuListText({0, 1, 2, 3, 6}), "0-3,6");
  EXPECT_EQ(CpuListText({1, 3, 4, 8, 9, 10}), "1,3-4,8-10");
}

TEST(Pool, DestructorRunsTheLongJobsHandedOver) {
  asio::io_context io;
  std::atomic<int> done{0};
  {
    Pool pool(1);
    for (int i = 0; i < 3; ++i) {
      pool.Run(
          io.get_executor(),
          [&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            ++done;
          },
          [](std::exception_ptr) {}, Pool::Cost::kLong);
    }
  }
  EXPECT_EQ(done.load(), 3);
}

// Busy for `ns` of the calling thread's CPU time.
void Spin(uint64_t ns) {
  const uint64_t until = CpuMeter::ThreadNanoseconds() + ns;
  while (CpuMeter::ThreadNanoseconds() < until) {
  }
}

// What a pool of one thread of each kind runs, in order, after a job that holds its thread:
// `queued` (owner, weight, name) are handed over while the thread is held, at `cost`. Each job
// costs what its weight is estimated to (the pool measures it), so that weights and costs agree.
struct QueuedJob {
  int owner;
  uint64_t weight;
  std::string name;
};
std::vector<std::string> OrderRun(Pool::Cost cost, const std::vector<QueuedJob>& queued) {
  asio::io_context io;
  Pool pool(1);
  const uint64_t unit_ns = cost == Pool::Cost::kLong ? Pool::kLongUnitNs : Pool::kBoundedUnitNs;
  std::mutex mutex;
  std::vector<std::string> order;
  std::promise<void> started;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::vector<uint64_t> owners;
  for (int i = 0; i < 8; ++i) owners.push_back(pool.NewOwner());
  pool.Run(
      io.get_executor(),
      [&] {
        started.set_value();
        released.wait();
      },
      [](std::exception_ptr) {}, cost, pool.NewOwner());
  started.get_future().wait();  // the thread is busy: what follows is queued
  for (const QueuedJob& job : queued) {
    pool.Run(
        io.get_executor(),
        [&, name = job.name, ns = job.weight * unit_ns] {
          Spin(ns);
          std::lock_guard lock(mutex);
          order.push_back(name);
        },
        [](std::exception_ptr) {}, cost, owners.at(job.owner), job.weight);
  }
  release.set_value();
  io.run();
  return order;
}

// Jobs of `cost` take turns by owner: an owner with many queued jobs does not make a later
// owner's one wait for all of them.
void ExpectTurnsByOwner(Pool::Cost cost) {
  EXPECT_EQ(OrderRun(cost, {{0, 1, "greedy 1"}, {0, 1, "greedy 2"}, {0, 1, "greedy 3"},
                            {1, 1, "modest 1"}}),
            (std::vector<std::string>{"greedy 1", "modest 1", "greedy 2", "greedy 3"}));
}

TEST(Pool, LongJobsTakeTurnsByOwner) { ExpectTurnsByOwner(Pool::Cost::kLong); }

// The same on the arena: a client's small batch waits for one job of each other connection,
// not for every large one queued before it.
TEST(Pool, BoundedJobsTakeTurnsByOwner) { ExpectTurnsByOwner(Pool::Cost::kBounded); }

// Weighted: a small job goes before the large ones of owners that queued theirs first, and an
// owner's next job waits as long as its last one weighed.
TEST(Pool, ASmallJobGoesBeforeTheLargeOnesQueuedWithIt) {
  EXPECT_EQ(OrderRun(Pool::Cost::kBounded,
                     {{0, 65536, "large 1"}, {1, 65536, "large 2"}, {2, 65536, "large 3"},
                      {3, 2000, "small 1"}, {3, 2000, "small 2"}, {0, 65536, "large 1 again"}}),
            (std::vector<std::string>{"small 1", "small 2", "large 1", "large 2", "large 3",
                                      "large 1 again"}));
}

}  // namespace
}  // namespace sudoku::daemon
