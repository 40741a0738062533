#include "daemon/pool.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <string>

#include "daemon/log.h"
#include "solver/tsan_fork_join.h"

namespace sudoku::daemon {

Pool::Pool(int threads)
    : threads_(threads),
      parallelism_(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads) + 1),
      // No slot is reserved for a caller thread: only enqueued work runs here.
      arena_(threads, 0),
      long_arena_(std::max(threads - 1, 1), 0) {
  arena_.initialize();
  long_arena_.initialize();
}

Pool::~Pool() {
  Hold(false);
  long_arena_.execute([this] { long_group_.wait(); });
  arena_.execute([this] { group_.wait(); });
}

void Pool::Enqueue(Cost cost, std::function<void()> task) {
  busy_.fetch_add(1, std::memory_order_relaxed);
  auto job = [this, task = std::move(task)] {
    RangeBegins();
    WaitWhileHeld();
    task();
  };
  // Forking() once the task (with its captures) is built, just before a worker may run it.
  if (cost == Cost::kLong) {
    auto handle = long_group_.defer(std::move(job));
    Forking();
    long_arena_.enqueue(std::move(handle));
  } else {
    auto handle = group_.defer(std::move(job));
    Forking();
    arena_.enqueue(std::move(handle));
  }
}

void Pool::Post(std::function<void()> work) {
  auto handle = group_.defer([this, work = std::move(work)] {
    RangeBegins();
    WaitWhileHeld();
    work();
    Finished();
  });
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
