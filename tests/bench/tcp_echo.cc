// tcp_echo: a bare TCP echo server, the floor for sudokud's round-trip latency. It runs as the
// daemon does (one Asio event loop, C++20 coroutines, TCP_NODELAY), so that
// `sudoku-client bench --echo` against it and `sudoku-client bench` against sudokud, with the
// same frames, differ by what the daemon adds: parsing, the hand-off to the solver threads,
// solving and the answer. tests/bench/e2e_bench.sh runs both.
//
//   tcp_echo [HOST:PORT]     (default 127.0.0.1:0; prints "tcp_echo: listening on HOST:PORT")
#include <utility>  // before Asio: asio issue 944

#include <cstdio>
#include <exception>
#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

asio::awaitable<void> Echo(tcp::socket socket) {
  char data[64 << 10];
  boost::system::error_code error;
  while (true) {
    const size_t n = co_await socket.async_read_some(
        asio::buffer(data), asio::redirect_error(asio::use_awaitable, error));
    if (error) co_return;
    co_await asio::async_write(socket, asio::buffer(data, n),
                               asio::redirect_error(asio::use_awaitable, error));
    if (error) co_return;
  }
}

asio::awaitable<void> Accept(tcp::acceptor& acceptor) {
  while (true) {
    tcp::socket socket = co_await acceptor.async_accept(asio::use_awaitable);
    socket.set_option(tcp::no_delay(true));
    asio::co_spawn(acceptor.get_executor(), Echo(std::move(socket)), asio::detached);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string address = argc > 1 ? argv[1] : "127.0.0.1:0";
  const size_t colon = address.rfind(':');
  if (argc > 2 || colon == std::string::npos) {
    std::fprintf(stderr, "usage: tcp_echo [HOST:PORT]\n");
    return 2;
  }
  try {
    asio::io_context io(1);
    tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address(address.substr(0, colon)),
                                             static_cast<unsigned short>(
                                                 std::stoi(address.substr(colon + 1)))));
    const tcp::endpoint bound = acceptor.local_endpoint();
    std::fprintf(stderr, "tcp_echo: listening on %s:%u\n", bound.address().to_string().c_str(),
                 bound.port());
    asio::co_spawn(io, Accept(acceptor), asio::detached);
    io.run();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tcp_echo: %s\n", error.what());
    return 2;
  }
}
