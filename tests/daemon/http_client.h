// A blocking HTTP client for the tests of sudokud's listeners (--metrics, --http, the health
// endpoints): one request on a fresh loopback connection.
//
// Thread-safety: stateless; each call makes its own connection.
#ifndef SUDOKU_TESTS_DAEMON_HTTP_CLIENT_H_
#define SUDOKU_TESTS_DAEMON_HTTP_CLIENT_H_

#include <cstdint>
#include <string>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/verb.hpp>

namespace sudoku::testing {

// Sends `method target` with `body` (and its Content-Type, unless empty) to 127.0.0.1:`port`,
// asking for the connection to be closed, and returns the whole response: a HEAD answer carries
// Content-Length and no body. Failures (refused, reset, a malformed response) throw.
boost::beast::http::response<boost::beast::http::string_body> HttpRequest(
    uint16_t port, boost::beast::http::verb method, const std::string& target,
    const std::string& body = "", const std::string& content_type = "");

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_DAEMON_HTTP_CLIENT_H_
