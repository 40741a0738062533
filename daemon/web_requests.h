// The page's JSON API, request by request, without the network: what each path answers, the
// checks a request passes before any work (path, certificate, method, type, body), and the work
// itself as an ApiJob that any thread may run. WebApi (web_api.h) drives these on the event
// loop and the solver Pool; the fuzz target (tests/fuzz/fuzz_http.cc) drives them inline. No
// Asio coroutines here, so that clang builds it for the fuzz targets. The API's paths, fields
// and errors are described in web_api.h.
//
// Thread-safety: the functions are reentrant; an ApiJob is used by one thread at a time (built
// on the event loop, run on the Pool, answered on the event loop).
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

// One API request, in three parts that are ordinary functions: read and checked on the event
// loop (PrepareApiRequest), worked on the Pool (Run), answered on the event loop (Answer).
class ApiJob {
 public:
  virtual ~ApiJob() = default;

  // On the Pool. Whatever the work throws becomes the answer. `cancel` stops it at its next
  // chance (the daemon is stopping, or the client left).
  void Run(const std::atomic<bool>& cancel) noexcept;
  // The answer: 503 "sudokud is stopping" when the work was cancelled (and then nobody reads
  // it when its client left).
  HttpResponse Answer();
  // Whether the daemon runs it as long work (Pool::Cost::kLong), and the puzzles it costs
  // against --max-in-flight: by the rules of daemon/request_work.h, as the same request on the
  // protocol's port.
  bool long_work() const { return IsLongWork(request_, KindOf(request_)); }
  size_t cost() const { return CostOf(request_, KindOf(request_)); }

 protected:
  virtual void Work(const std::atomic<bool>& cancel) = 0;
  void Reply(HttpResponse answer) { answer_ = std::move(answer); }

  wire::Request request_;  // what the JSON asks for, as the protocol's port would have it

 private:
  std::optional<HttpResponse> answer_;
};

// The path of `request`'s target, without its query.
std::string PathOf(const HttpRequest& request);

// A file of the page (GET or HEAD), or 404 / 405.
HttpResponse PageResponse(std::string_view path, const HttpRequest& request);

// Why an API request (a path under /api/) is refused before its body is read: an unknown path
// (404), no client certificate where one is required (403), another method than POST (405), a
// body not sent as application/json (415); nullopt when it may go on.
std::optional<HttpResponse> CheckApiRequest(std::string_view path, const HttpRequest& request,
                                            const HttpPeer& peer, const WebApiOptions& options);

// The job for an API path's body, or the answer that refuses it (400 with the field or the
// puzzle named).
struct PreparedApiRequest {
  std::shared_ptr<ApiJob> job;
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
