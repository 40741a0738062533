// A blocking HTTP client for the tests of sudokud's listeners (--metrics, --http, the health
// endpoints): one request on a fresh loopback connection; and where a daemon's log says a
// listener is, and what its /metrics says.
//
// Thread-safety: stateless; each call makes its own connection.
#ifndef SUDOKU_TESTS_DAEMON_HTTP_CLIENT_H_
#define SUDOKU_TESTS_DAEMON_HTTP_CLIENT_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/verb.hpp>

namespace sudoku::testing {

class DaemonProcess;

// Sends `method target` with `body` (and its Content-Type, unless empty) and `headers` to
// 127.0.0.1:`port`, asking for the connection to be closed, and returns the whole response: a
// HEAD answer carries Content-Length and no body. Failures (refused, reset, a malformed
// response) throw.
boost::beast::http::response<boost::beast::http::string_body> HttpRequest(
    uint16_t port, boost::beast::http::verb method, const std::string& target,
    const std::string& body = "", const std::string& content_type = "",
    const std::vector<std::pair<std::string, std::string>>& headers = {});

// The port a log line of `daemon` names after `opening` ("serving metrics on http://127.0.0.1:").
uint16_t PortAfter(const DaemonProcess& daemon, const std::string& opening);

// The value of `sample` ("sudokud_memory_held_bytes", or with its labels) in what /metrics on
// plain-HTTP `port` says now. Throws when it is not there.
double MetricSample(uint16_t port, const std::string& sample);
// Scrapes until `sample` equals `value` or `timeout` passes; returns the last value seen.
double WaitForMetric(uint16_t port, const std::string& sample, double value,
                     std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_DAEMON_HTTP_CLIENT_H_
