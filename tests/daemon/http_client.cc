#include "tests/daemon/http_client.h"

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <stdexcept>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include "tests/support/daemon_process.h"

namespace sudoku::testing {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;

http::response<http::string_body> HttpRequest(
    uint16_t port, http::verb method, const std::string& target, const std::string& body,
    const std::string& content_type,
    const std::vector<std::pair<std::string, std::string>>& headers) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::address_v4::loopback(), port));
  http::request<http::string_body> request{method, target, 11};
  request.set(http::field::host, "localhost");
  if (!content_type.empty()) request.set(http::field::content_type, content_type);
  for (const auto& [name, value] : headers) request.set(name, value);
  request.body() = body;
  // Content-Length for a body; none for a GET or HEAD without one.
  request.prepare_payload();
  request.keep_alive(false);
  http::write(socket, request);
  boost::beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(16 << 20);  // Beast refuses a body over 8 MiB by default
  parser.skip(method == http::verb::head);
  http::read(socket, buffer, parser);
  return parser.release();
}

uint16_t PortAfter(const DaemonProcess& daemon, const std::string& opening) {
  const std::string line = daemon.WaitForLog(opening);
  return static_cast<uint16_t>(std::stoi(line.substr(line.find(opening) + opening.size())));
}

double MetricSample(uint16_t port, const std::string& sample) {
  const std::string body =
      HttpRequest(port, boost::beast::http::verb::get, "/metrics").body();
  const std::string opening = "\n" + sample + " ";
  const size_t at = body.find(opening);
  if (at == std::string::npos) throw std::runtime_error("/metrics has no sample " + sample);
  return std::stod(body.substr(at + opening.size()));
}

double WaitForMetric(uint16_t port, const std::string& sample, double value,
                     std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const double seen = MetricSample(port, sample);
    if (seen == value || std::chrono::steady_clock::now() >= deadline) return seen;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace sudoku::testing
