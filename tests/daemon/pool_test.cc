#include "daemon/pool.h"

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <atomic>
#include <stdexcept>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace sudoku::daemon
