// The page's JSON API, request by request, without the network: what each path answers, the
// checks a request passes before any work (path, certificate, method, type, body), and the
// codec between its JSON and the protocol's messages (ApiRequest). WebApi (web_api.h) hands
// the decoded request to the daemon's RequestHandler, as the protocol's port does; the fuzz
// target (tests/fuzz/fuzz_http.cc) does the work inline (DoRequest). No Asio coroutines here,
// so that clang builds it for the fuzz targets. The API's paths, fields and errors are
// described in web_api.h.
//
// Thread-safety: the functions are reentrant; an ApiRequest is used by one thread at a time.
#ifndef SUDOKU_DAEMON_WEB_REQUESTS_H_
#define SUDOKU_DAEMON_WEB_REQUESTS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/status.hpp>

#include "daemon/http_message.h"
#include "daemon/request_work.h"
#include "proto/codec.h"
#include "proto/sudoku.pb.h"

namespace sudoku::daemon {

struct WebApiOptions {
  // API requests working at once, over all connections; one more gets 503. A request holds its
  // connection until answered, so this also bounds the solver time the page's users can take.
  size_t max_in_flight = 8;
  // Puzzles one /api/generate request may ask for (sudoku-client generate is for more).
  uint32_t max_generate = 16;
  // The largest "limit" /api/solve takes (solutions counted for one puzzle).
  uint32_t max_solution_limit = 1000;
  // The API answers only requests whose connection presented a verified client certificate
  // (403 otherwise): the TCP port requires one (--tls-client-ca), and the operator did not say
  // otherwise (--http-api-without-client-cert). The page, metrics and health stay open.
  bool client_certificates = false;
};

// One API request decoded: what its JSON asks for, as the protocol's port would have it
// (request(), handed to the daemon's RequestHandler), and its answer made from the response
// the work filled (Answer()). The JSON codec in front of the one request handler.
class ApiRequest {
 public:
  virtual ~ApiRequest() = default;

  // The request, for the work to take (move) or read: Answer() does not look at it again.
  wire::Request& request() { return request_; }

  // The answer to the work's `response`: what the work threw (`failure`) is 500 "internal
  // error: ..."; work that did not run to its end (`complete` false: cancelled) is 503
  // "sudokud is stopping" (and nobody reads it when its client left); a puzzle the work found
  // invalid is 400, with the CLI's words.
  HttpResponse Answer(const wire::Response& response, bool complete,
                      const std::string& failure) const;

 protected:
  // Throws ApiError (in web_requests.cc) for an answer that is an error.
  virtual HttpResponse Render(const wire::Response& response) const = 0;

  wire::Request request_;
};

// The path of `request`'s target, without its query.
std::string PathOf(const HttpRequest& request);

// A file of the page (GET or HEAD): gzip-compressed where Accept-Encoding takes it, 304 where
// If-None-Match names its ETag; or 404 / 405.
HttpResponse PageResponse(std::string_view path, const HttpRequest& request);

// Why an API request (a path under /api/) is refused before its body is read: an unknown path
// (404), no client certificate where one is required (403), another method than POST (405), a
// body not sent as application/json (415); nullopt when it may go on.
std::optional<HttpResponse> CheckApiRequest(std::string_view path, const HttpRequest& request,
                                            const HttpPeer& peer, const WebApiOptions& options);

// The request of an API path's body, or the answer that refuses it (400 with the field or the
// puzzle named).
struct PreparedApiRequest {
  std::unique_ptr<ApiRequest> request;
  std::optional<HttpResponse> refusal;
};
PreparedApiRequest PrepareApiRequest(std::string_view path, const std::string& body,
                                     const WebApiOptions& options);

// {"error": MESSAGE} with `status`.
HttpResponse ApiErrorResponse(boost::beast::http::status status, const std::string& message);

// The --http listener's answer to a request it could not read or serve (HttpHandler::Refuse):
// JSON ({"error": "payload too large: WHY"}) unless the target was read and is not the API's.
HttpResponse ApiRefusal(boost::beast::http::status status, std::string_view target,
                        const std::string& why);

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_WEB_REQUESTS_H_
