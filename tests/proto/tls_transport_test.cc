// TlsTransport, the socket under both ends' SSL streams, on a loopback TCP pair: writes pass
// straight through until Gather(), are kept from then until Flush() sends them in order, and
// reads take what the socket has at once. The TLS tests of the daemon and the client run whole
// connections over it.
#include "proto/tls_transport.h"

#include <gtest/gtest.h>

#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

namespace sudoku {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

class TlsTransportTest : public ::testing::Test {
 protected:
  TlsTransportTest() : near_(io_), far_(io_) {
    tcp::acceptor acceptor(io_, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    near_.connect(acceptor.local_endpoint());
    acceptor.accept(far_);
  }

  // Runs `task` to its end on the io_context.
  template <typename Task>
  void Run(Task task) {
    bool done = false;
    asio::co_spawn(
        io_,
        [&]() -> asio::awaitable<void> {
          co_await task();
          done = true;
        },
        asio::detached);
    io_.run();
    io_.restart();
    ASSERT_TRUE(done);
  }

  // What the far end has received so far, without waiting for more.
  std::string Received() {
    std::string bytes(far_.available(), '\0');
    if (!bytes.empty()) asio::read(far_, asio::buffer(bytes));
    return bytes;
  }

  asio::io_context io_;
  tcp::socket near_;
  tcp::socket far_;
};

asio::awaitable<size_t> Write(TlsTransport<tcp::socket&>& transport, const std::string& bytes) {
  co_return co_await transport.async_write_some(asio::buffer(bytes), asio::use_awaitable);
}

TEST_F(TlsTransportTest, WritesPassStraightThroughWhenNotGathering) {
  TlsTransport<tcp::socket&> transport(near_);
  Run([&]() -> asio::awaitable<void> { EXPECT_EQ(co_await Write(transport, "hello"), 5u); });
  far_.non_blocking(false);
  std::string bytes(5, '\0');
  asio::read(far_, asio::buffer(bytes));
  EXPECT_EQ(bytes, "hello");
}

TEST_F(TlsTransportTest, GatheredWritesAreKeptUntilFlushThenSentInOrder) {
  TlsTransport<tcp::socket&> transport(near_);
  transport.Gather();
  Run([&]() -> asio::awaitable<void> {
    EXPECT_EQ(co_await Write(transport, "first "), 6u);
    EXPECT_EQ(co_await Write(transport, "second"), 6u);
  });
  EXPECT_EQ(Received(), "");
  boost::system::error_code error;
  Run([&]() -> asio::awaitable<void> { co_await transport.Flush(error); });
  EXPECT_FALSE(error);
  std::string bytes(12, '\0');
  asio::read(far_, asio::buffer(bytes));
  EXPECT_EQ(bytes, "first second");
  // After Flush(), writes go straight through again.
  Run([&]() -> asio::awaitable<void> { co_await Write(transport, "!"); });
  bytes.assign(1, '\0');
  asio::read(far_, asio::buffer(bytes));
  EXPECT_EQ(bytes, "!");
}

TEST_F(TlsTransportTest, FlushWithNothingGatheredSendsNothing) {
  TlsTransport<tcp::socket&> transport(near_);
  transport.Gather();
  boost::system::error_code error;
  Run([&]() -> asio::awaitable<void> { co_await transport.Flush(error); });
  EXPECT_FALSE(error);
  EXPECT_EQ(Received(), "");
}

TEST_F(TlsTransportTest, FlushToAClosedPeerSaysWhy) {
  TlsTransport<tcp::socket&> transport(near_);
  far_.close();
  transport.Gather();
  boost::system::error_code error;
  Run([&]() -> asio::awaitable<void> {
    // The first write may still be taken by the kernel before the peer's reset arrives.
    const std::string bytes(1 << 20, 'x');
    for (int i = 0; i < 64 && !error; ++i) {
      co_await Write(transport, bytes);
      co_await transport.Flush(error);
      transport.Gather();
    }
  });
  EXPECT_TRUE(error == asio::error::broken_pipe || error == asio::error::connection_reset)
      << error.message();
}

TEST_F(TlsTransportTest, ReadsTakeWhatTheSocketHasInOneCall) {
  TlsTransport<tcp::socket&> transport(near_);
  const std::string sent(3 * 16384, 'r');
  asio::write(far_, asio::buffer(sent));
  Run([&]() -> asio::awaitable<void> {
    char first = 0;
    EXPECT_EQ(co_await transport.async_read_some(asio::buffer(&first, 1), asio::use_awaitable),
              1u);
    EXPECT_EQ(first, 'r');
  });
  // The rest was read with the first byte, and waits in memory.
  EXPECT_EQ(transport.buffered(), sent.size() - 1);
  EXPECT_EQ(near_.available(), 0u);
}

TEST_F(TlsTransportTest, TakesOverAnOwnedSocket) {
  TlsTransport<tcp::socket> transport(std::move(near_));
  EXPECT_TRUE(transport.socket().is_open());
  EXPECT_FALSE(near_.is_open());
  Run([&]() -> asio::awaitable<void> {
    const std::string bytes = "owned";
    EXPECT_EQ(co_await transport.async_write_some(asio::buffer(bytes), asio::use_awaitable), 5u);
  });
  std::string bytes(5, '\0');
  asio::read(far_, asio::buffer(bytes));
  EXPECT_EQ(bytes, "owned");
}

}  // namespace
}  // namespace sudoku
