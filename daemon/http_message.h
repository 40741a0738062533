// HTTP messages as sudokud's listeners read and answer them, without the network: the request
// and response types, the limits a request is read under, and how a request that breaks them
// is refused. The server (http_server.h) reads sockets with these rules; the fuzz target
// (tests/fuzz/fuzz_http.cc) feeds bytes through the same ones. No Asio coroutines here, so that
// clang builds it for the fuzz targets.
//
// Thread-safety: stateless functions and plain types.
#ifndef SUDOKU_DAEMON_HTTP_MESSAGE_H_
#define SUDOKU_DAEMON_HTTP_MESSAGE_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

namespace sudoku::daemon {

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;
using HttpRequestParser = boost::beast::http::request_parser<boost::beast::http::string_body>;

// Set (from the event loop) when the peer of a request being handled has gone; read by the
// handler's work wherever it runs.
using PeerGone = std::shared_ptr<std::atomic<bool>>;

// Who sent a request, as far as its connection knows.
struct HttpPeer {
  // Set once the peer has closed its side or reset the connection: work for it can stop.
  PeerGone gone;
  bool tls = false;
  // Its IP address ("192.0.2.7"): its API requests are one requester, for their turns on the
  // solver threads (see FairQueue).
  std::string address;
  // The subject of the client certificate the handshake verified ("CN=client"); empty: none.
  std::string certificate;
};

struct HttpLimits {
  // Connections served at once. A newcomer past it closes the connection that has waited
  // longest for its next request (an idle keep-alive, or a peer too slow to send one), so that
  // idle or stalled clients never keep a health probe out; when every connection is working on
  // a request or writing its answer, the newcomer is answered 503 (Retry-After: 1) and closed.
  size_t max_connections = 16;
  // A connection waits at most this long for the whole of a request (and for its answer to be
  // written); past it, it is closed.
  std::chrono::seconds timeout{30};
  // The request line and header fields; past it, 431.
  size_t max_header_bytes = 8192;
  // The trailer fields after a chunked body (the chunk lines count too); past it, 431. The read
  // buffer never holds more than the header's or the trailer's limit (ReadBufferLimit), so no
  // request can make a connection hold more memory than that and its body.
  size_t max_trailer_bytes = 8192;
  // Larger request bodies are refused with 413 before they are read.
  size_t max_body_bytes = 0;
};

// The most a connection's read buffer may hold: a header or a trailer must be whole in it to be
// parsed, and a body is taken as it comes.
size_t ReadBufferLimit(const HttpLimits& limits);

// A new parser for one request under `limits`.
void LimitParser(const HttpLimits& limits, HttpRequestParser* parser);

// How a request that could not be read is refused: 400 (it does not parse as HTTP), 413 (its
// body is over the limit) or 431 (its header, or the trailer of its chunked body, is over the
// limit), with why ("bad target", "the body is 70000 bytes, more than the limit of 65536").
struct HttpRefusal {
  boost::beast::http::status status;
  std::string target;  // the request's target when its line was read, else empty
  std::string why;
};
HttpRefusal RefusalFor(const boost::system::error_code& error, const HttpRequestParser& parser,
                       const HttpLimits& limits);

// "payload too large: WHY": the status's reason in lower case, then `why`.
std::string RefusalText(boost::beast::http::status status, const std::string& why);

// A response of `status` with `body` as `content_type`, Content-Length set.
HttpResponse MakeResponse(boost::beast::http::status status, std::string_view content_type,
                          std::string body);

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_HTTP_MESSAGE_H_
