// What --http serves: the page (daemon/web/, compiled into the binary), its JSON API, and the
// metrics. The API takes one puzzle per request, as people paste it, and answers with the same
// code, verdicts and messages as the protocol and sudoku-client:
//
//   GET  /                 the page (and /style.css, /main.js and the modules it imports)
//   GET  /metrics          Prometheus text, as --metrics serves it
//   POST /api/solve        {"puzzle": TEXT, "unique": bool, "limit": N, "rate": bool}
//                          -> {"puzzle", "verdict", "solution", "solutions", "guesses",
//                              "rating": {"level", "hardest", "steps", ...}}
//   POST /api/explain      {"puzzle": TEXT} (TEXT may be a candidate state, see below)
//                          -> the object of `sudoku-client explain --json --candidates`:
//                             {"puzzle", "verdict", "steps": [{"step", "technique",
//                              "hodoku_name", "se_name", "text", "placements", "eliminations",
//                              "units", "cells", "digits", "candidates"}], "solution", "rating"}
//   POST /api/generate     {"count": N, "level": LEVEL, "hodoku_level": LEVEL, "se_min": R,
//                           "se_max": R, "needs": TECHNIQUE, "clues": K, "symmetric": bool,
//                           "minimal": bool, "seed": S}
//                          -> {"seed", "puzzles": [{"puzzle", "clues"}], "failures":
//                              [{"index", "message"}]}
//
// TEXT is any one puzzle sudoku-client reads: 81 characters, a pasted 9-line grid, a candidate
// state (729 pencilmarks, or HoDoKu's PM grid as its "Copy PM grid" writes it and the page's
// Copy as PM grid does: explained from the candidates it leaves), a CSV line.
// TECHNIQUE is a technique as an explanation's steps name it ("x-wing", "xy-chain"): only
// puzzles whose explanation takes a step of it come back. The answers are the objects
// sudoku-client writes for the same puzzle (proto/result_json.h; proto/README.md is the schema).
// Errors are JSON, {"error": MESSAGE}:
//   400  a puzzle that is not valid, as sudoku-client's JSON says it: {"puzzle", "verdict":
//        "invalid", "error": "invalid: line 1, column 12: bad character 'x' (expected 1-9, or
//        . 0 _ - * for a blank)", "where": "line 1, column 12", "reason": "bad character ..."}; a
//        body that is not JSON, a field that is unknown or of the wrong kind ("'count' expects a
//        whole number from 1 to 16, got 0"; "'needs' expects a technique (naked single, hidden
//        single, ..., forcing chain or trial), got \"xy chain\"": every name an explanation
//        writes, SE's wxyz-wing not, as no explanation takes it)
//   403  no verified client certificate where the API requires one (WebApiOptions::
//        client_certificates: the TCP port takes only clients with one)
//   404  a path the API does not have; 405 another method than POST (Allow says which)
//   413  a body over kMaxBodyBytes; 415 a body not sent as application/json (so that another
//        web site cannot make a visitor's browser post here without asking first)
//   431  a header, or a chunked body's trailer, over 8 KiB (HttpLimits)
//   503  WebApiOptions::max_in_flight requests already working, the daemon's budget of puzzles
//        in flight (--max-in-flight) or of memory (--max-memory) without room for the request
//        (each with Retry-After: 1), the daemon is stopping, or every connection of the
//        listener is working (Retry-After: 1)
// A request's JSON is decoded into the protocol's request (ApiRequest) and handed to the
// daemon's one RequestHandler (daemon/request_handler.h), as the protocol's port hands its
// own: the same checks, the same costs and budgets (its puzzles to --max-in-flight, its body
// to --max-memory, by Admission's rules), the same work on the solver Pool (explanations,
// generations and counts past two solutions as long work, each request taking its own turns),
// the same counts in the metrics (batches, explains, generates). The one difference is the
// listener's policy: a request refused gets 503 at once where a connection of the port would
// wait. Work stops when its client goes. Requests that cannot be read get the listener's
// refusals as {"error": ...}: 400, 413 (a body over the limit), 431 (a header or a chunked
// body's trailer over 8 KiB), 503 (every connection busy).
//
// Thread-safety: a WebApi's state (its requests working, Stop()) lives on the daemon's event
// loop with the RequestHandler; Handle() may be called from the listener's own thread (see the
// constructor), and goes to the loop for the API. The work it hands to the Pool touches nothing
// but its own request and the cancel flag.
#ifndef SUDOKU_DAEMON_WEB_API_H_
#define SUDOKU_DAEMON_WEB_API_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include "daemon/http_server.h"
#include "daemon/metrics.h"
#include "daemon/request_handler.h"
#include "daemon/web_requests.h"

namespace sudoku::daemon {

class WebApi : public HttpHandler {
 public:
  static constexpr size_t kMaxBodyBytes = 64 * 1024;
  // Connections an --http listener serves at once (HttpLimits::max_connections): room for a
  // crowd of idle keep-alive sockets, as on --metrics (MetricsRoutes::kMaxConnections). Each
  // holds at most a header and a body of kMaxBodyBytes, 72 KiB: 72 MiB for all of them.
  static constexpr size_t kMaxConnections = 1024;

  // `requests` takes, charges, works and counts the API's requests as the protocol port's
  // (Server::requests()); `metrics` serves /metrics, /healthz and /readyz. Both must outlive
  // the WebApi. `loop`, when given, is the executor `requests` lives on: Handle() called from
  // another thread (the listener's own, as the daemon runs it) takes an API request there and
  // comes back, while the page, the metrics and the health checks are answered where they were
  // asked, so that a busy event loop holds none of them back.
  WebApi(RequestHandler& requests, MetricsRoutes* metrics, const WebApiOptions& options = {},
         std::optional<boost::asio::any_io_executor> loop = std::nullopt);
  ~WebApi() override;

  // The limits an HttpServer for this handler takes.
  static HttpLimits Limits();

  boost::asio::awaitable<HttpResponse> Handle(const HttpRequest& request,
                                              const HttpPeer& peer) override;
  HttpResponse Refuse(boost::beast::http::status status, std::string_view target,
                      const std::string& why) override;

  // From now on API requests get 503 ("sudokud is stopping"), and the work in hand stops at
  // its next chance (a generation between puzzles, a count between guesses; an explanation
  // started runs to its end). A request's work also stops when its client goes.
  void Stop();

  // API requests working now.
  size_t in_flight() const { return in_flight_; }

 private:
  // An API request (a path under /api/), on the loop.
  boost::asio::awaitable<HttpResponse> Api(std::string path, const HttpRequest& request,
                                           const HttpPeer& peer);
  // The refusal of an API request before any work: an unknown path, a method or type it does
  // not take, a stopping daemon; nullopt when it may go on.
  std::optional<HttpResponse> Admit(std::string_view path, const HttpRequest& request,
                                    const HttpPeer& peer) const;
  // The one busy decision, 503 with Retry-After: 1, for a request of `cost` puzzles holding
  // `bytes`: WebApiOptions::max_in_flight requests working, or the daemon's budgets (Admission:
  // puzzles in flight, memory) without room for it; nullopt when it may start.
  std::optional<HttpResponse> Busy(size_t cost, size_t bytes) const;

  RequestHandler& requests_;
  MetricsRoutes* const metrics_;
  const WebApiOptions options_;
  const std::optional<boost::asio::any_io_executor> loop_;
  size_t in_flight_ = 0;
  bool stopped_ = false;
  // The cancel flags of the requests working now (each request's PeerGone, which its work on
  // the Pool reads and its connection keeps alive): Stop() sets them all.
  std::unordered_set<std::atomic<bool>*> working_;
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_WEB_API_H_
