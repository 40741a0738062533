// FairQueue: the order jobs are served in, by the CPU time their accounts have used (as the
// Pool charges it), by requester and by source; and CpuMeter, which measures it.
#include "daemon/fair_queue.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace sudoku::daemon {
namespace {

constexpr uint64_t kUnitNs = 1000;  // the estimate of a unit of weight, before any measure
constexpr uint64_t kMs = 1'000'000;

// A queue whose jobs append their names to `order` when run.
class Served {
 public:
  FairQueue queue{kUnitNs};
  std::vector<std::string> order;

  void Push(Account account, const std::string& name, uint64_t weight = 1) {
    queue.Push(account, [this, name] { order.push_back(name); }, weight);
  }
  // Pops and runs the next job, charging it `ns` (as if measured).
  void RunNext(uint64_t ns) {
    FairQueue::Next next = queue.Pop();
    next.job();
    queue.Charge(next.ticket, ns);
  }
  void RunAll(uint64_t ns) {
    while (!queue.empty()) RunNext(ns);
  }
};

// One source (0), several requesters.
Account Owner(uint64_t owner) { return Account(0, owner); }

TEST(FairQueue, OneRequestersManyJobsDoNotMakeAnothersOneWait) {
  Served served;
  served.Push(Owner(1), "greedy 1");
  served.Push(Owner(1), "greedy 2");
  served.Push(Owner(1), "greedy 3");
  served.Push(Owner(2), "modest");
  served.RunAll(kUnitNs);
  EXPECT_EQ(served.order,
            (std::vector<std::string>{"greedy 1", "modest", "greedy 2", "greedy 3"}));
}

// What a job really cost decides, not its weight: a requester whose one job took 10 ms waits
// while another's jobs of a millisecond catch up, whatever the weights said.
TEST(FairQueue, TheMeasuredCostDecidesNotTheWeight) {
  Served served;
  served.Push(Owner(1), "costly");
  served.Push(Owner(2), "cheap 1");
  served.RunNext(10 * kMs);  // costly, measured at 10 ms
  served.RunNext(1 * kMs);   // cheap 1
  served.Push(Owner(1), "costly again");
  for (int i = 2; i <= 10; ++i) served.Push(Owner(2), "cheap " + std::to_string(i));
  served.RunAll(1 * kMs);
  std::vector<std::string> expected = {"costly", "cheap 1"};
  for (int i = 2; i <= 10; ++i) expected.push_back("cheap " + std::to_string(i));
  expected.push_back("costly again");
  EXPECT_EQ(served.order, expected);
}

// Until measured, a job is charged its estimate: a requester with many jobs does not take every
// thread at once (here two jobs popped before either is measured go to two requesters).
TEST(FairQueue, JobsRunningAreChargedTheirEstimateUntilMeasured) {
  Served served;
  served.Push(Owner(1), "a1");
  served.Push(Owner(1), "a2");
  served.Push(Owner(2), "b1");
  FairQueue::Next first = served.queue.Pop();
  FairQueue::Next second = served.queue.Pop();
  first.job();
  second.job();
  EXPECT_EQ(served.order, (std::vector<std::string>{"a1", "b1"}));
  served.queue.Charge(first.ticket, kUnitNs);
  served.queue.Charge(second.ticket, kUnitNs);
  served.RunAll(kUnitNs);
  EXPECT_EQ(served.order, (std::vector<std::string>{"a1", "b1", "a2"}));
}

// A small job goes before the large ones queued with it: the next job is the one that would
// finish first.
TEST(FairQueue, ASmallJobGoesBeforeTheLargeOnesQueuedWithIt) {
  Served served;
  served.Push(Owner(1), "large 1", 65536);
  served.Push(Owner(2), "large 2", 65536);
  served.Push(Owner(3), "small 1", 2000);
  served.Push(Owner(3), "small 2", 2000);
  FairQueue::Next next = served.queue.Pop();
  next.job();
  served.queue.Charge(next.ticket, 2000 * kUnitNs);
  next = served.queue.Pop();
  next.job();
  served.queue.Charge(next.ticket, 2000 * kUnitNs);
  EXPECT_EQ(served.order, (std::vector<std::string>{"small 1", "small 2"}));
}

// Sources take turns first: a thousand requesters from one address get what one from another
// address gets.
TEST(FairQueue, SourcesTakeTurnsWhateverTheirRequesters) {
  Served served;
  const uint64_t crowd = SourceOf("192.0.2.1");
  const uint64_t loner = SourceOf("192.0.2.2");
  for (uint64_t owner = 1; owner <= 1000; ++owner) {
    served.Push(Account(crowd, owner), "crowd");
  }
  for (int i = 0; i < 3; ++i) served.Push(Account(loner, 1), "loner");
  for (int i = 0; i < 6; ++i) served.RunNext(kMs);
  EXPECT_EQ(served.order, (std::vector<std::string>{"crowd", "loner", "crowd", "loner", "crowd",
                                                     "loner"}));
}

// A source that used more than the others is remembered when it goes quiet: coming back, it
// waits for them to catch up. One that was idle earns no credit for it.
TEST(FairQueue, DebtIsRememberedCreditIsNot) {
  Served served;
  const uint64_t heavy = SourceOf("192.0.2.1");
  const uint64_t light = SourceOf("192.0.2.2");
  const uint64_t newcomer = SourceOf("192.0.2.3");
  served.Push(Account(heavy, 1), "heavy");
  served.RunNext(50 * kMs);  // then it goes quiet
  served.Push(Account(light, 1), "light 1");
  served.RunNext(1 * kMs);
  served.Push(Account(heavy, 2), "heavy again");  // a new connection from the same address
  for (int i = 2; i <= 4; ++i) served.Push(Account(light, 1), "light " + std::to_string(i));
  served.RunAll(1 * kMs);
  EXPECT_EQ(served.order, (std::vector<std::string>{"heavy", "light 1", "light 2", "light 3",
                                                     "light 4", "heavy again"}));
  // Idle while the heavy one ran, then back beside a newcomer: they alternate (the idle one has
  // no credit, or it would run both its jobs first); the newcomer's job, not measured yet, is
  // estimated the cheaper and goes first.
  served.order.clear();
  for (int i = 1; i <= 2; ++i) {
    served.Push(Account(light, 1), "light");
    served.Push(Account(newcomer, 1), "newcomer");
  }
  served.RunAll(1 * kMs);
  EXPECT_EQ(served.order,
            (std::vector<std::string>{"newcomer", "light", "newcomer", "light"}));
}

TEST(FairQueue, SourceOfTellsAddressesApart) {
  EXPECT_EQ(SourceOf("127.0.0.1"), SourceOf("127.0.0.1"));
  EXPECT_NE(SourceOf("127.0.0.1"), SourceOf("127.0.0.2"));
  EXPECT_NE(SourceOf("::1"), 0u);
}

// Busy for about `ms` of this thread's CPU.
void Spin(uint64_t ms) {
  const uint64_t until = CpuMeter::ThreadNanoseconds() + ms * kMs;
  while (CpuMeter::ThreadNanoseconds() < until) {
  }
}

TEST(CpuMeter, AddsThePiecesOtherThreadsRunAndPausesTheOuterMeter) {
  CpuMeter job;
  CpuMeter other;
  {
    CpuMeter::Scope outer(&job);
    EXPECT_EQ(CpuMeter::Current(), &job);
    Spin(20);
    // A piece of the job on another thread, as a parallel loop's range.
    std::thread helper([meter = CpuMeter::Current()] {
      CpuMeter::Scope piece(meter);
      Spin(30);
    });
    helper.join();
    {
      // Another job's piece run here meanwhile: charged to it, not to `job`.
      CpuMeter::Scope nested(&other);
      Spin(40);
    }
    EXPECT_EQ(CpuMeter::Current(), &job);
    {
      CpuMeter::Scope again(&job);  // already measured here: adds nothing twice
      Spin(30);
    }
  }
  EXPECT_EQ(CpuMeter::Current(), nullptr);
  // CPU time, so only a little over what was spun (the joins, the clock reads: under TSan on a
  // busy machine, up to 19 ms over); counted twice, the last piece would make it 110 ms.
  EXPECT_GE(job.nanoseconds(), 80 * kMs);
  EXPECT_LT(job.nanoseconds(), 100 * kMs);
  EXPECT_GE(other.nanoseconds(), 40 * kMs);
  EXPECT_LT(other.nanoseconds(), 45 * kMs);
}

}  // namespace
}  // namespace sudoku::daemon
