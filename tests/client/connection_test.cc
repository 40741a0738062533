#include "client/connection.h"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>  // before Asio: asio issue 944
#include <vector>

#include "client/client_error.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// Runs Connect() on `connection` to the end: "" when it connected, else the error's message.
// `done` runs when the attempt is over (to close what would keep io.run() going).
std::string ConnectError(asio::io_context& io, Connection& connection,
                         const std::function<void()>& done = [] {}) {
  std::string error = "still connecting";
  asio::co_spawn(io, connection.Connect(), [&error, &done](std::exception_ptr failure) {
    error.clear();
    if (failure) {
      try {
        std::rethrow_exception(failure);
      } catch (const ConnectionLost& lost) {
        error = lost.what();
      } catch (const std::exception& other) {
        error = std::string("not a ConnectionLost: ") + other.what();
      }
    }
    done();
  });
  io.run();
  return error;
}

TEST(Connection, ConnectsToAListeningDaemon) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  Connection connection(
      io.get_executor(),
      ParseEndpoint("127.0.0.1:" + std::to_string(acceptor.local_endpoint().port())));
  EXPECT_EQ(ConnectError(io, connection), "");
}

TEST(Connection, SaysWhenNothingListens) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const std::string address = "127.0.0.1:" + std::to_string(acceptor.local_endpoint().port());
  acceptor.close();
  Connection connection(io.get_executor(), ParseEndpoint(address));
  EXPECT_EQ(ConnectError(io, connection),
            "cannot connect to " + address +
                ": Connection refused (is sudokud running? start it with: sudokud --listen " +
                address + ")");
}

// A listener whose queue is full drops new connection requests without an answer, as an address
// behind a firewall does: the attempt ends at the time-out, not minutes later.
TEST(Connection, GivesUpWhenNoAnswerComes) {
  asio::io_context io;
  tcp::acceptor acceptor(io);
  const tcp::endpoint local(asio::ip::make_address("127.0.0.1"), 0);
  acceptor.open(local.protocol());
  acceptor.bind(local);
  acceptor.listen(0);  // room for one connection, never accepted
  const tcp::endpoint target = acceptor.local_endpoint();
  std::vector<std::unique_ptr<tcp::socket>> fillers;
  for (int i = 0; i < 3; ++i) {
    fillers.push_back(std::make_unique<tcp::socket>(io));
    fillers.back()->async_connect(target, [](const boost::system::error_code&) {});
  }
  const std::string address = "127.0.0.1:" + std::to_string(target.port());
  Connection connection(io.get_executor(), ParseEndpoint(address), wire::kDefaultMaxFrameBytes,
                        std::chrono::milliseconds(300));
  const auto start = std::chrono::steady_clock::now();
  const std::string error = ConnectError(io, connection, [&fillers] {
    for (auto& filler : fillers) filler->close();  // lets io.run() return
  });
  EXPECT_EQ(error, "cannot connect to " + address +
                       ": no answer within 0.3 s (is the address right? is sudokud running "
                       "there?)");
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
}

}  // namespace
}  // namespace sudoku::client
