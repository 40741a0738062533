#include "daemon/pool.h"

#include <cstdlib>
#include <exception>
#include <string>

#include "daemon/log.h"

namespace sudoku::daemon {

Pool::Pool(int threads)
    : threads_(threads),
      parallelism_(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads) + 1),
      // No slot is reserved for a caller thread: only enqueued work runs here.
      arena_(threads, 0) {
  arena_.initialize();
}

Pool::~Pool() {
  arena_.execute([this] { group_.wait(); });
}

void Pool::Enqueue(std::function<void()> task) {
  busy_.fetch_add(1, std::memory_order_relaxed);
  arena_.enqueue(group_.defer(std::move(task)));
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
