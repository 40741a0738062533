// Fuzz target: the HTTP request path of --http without the network, parser through dispatch.
// The bytes go through Beast's request parser under the listener's limits and its bounded read
// buffer (daemon/http_message.h: LimitParser, ReadBufferLimit), in reads of the sizes the input
// picks, as HttpServer's connection reads a socket; a request that cannot be read gets the
// listener's refusal (RefusalFor, ApiRefusal); one read whole is answered as WebApi::Handle
// answers it (the page, the API's checks, its body, its work run inline), and the next request
// of the same connection (keep-alive) is read after it.
//
// Input: the first byte picks the read size (1 to 256 bytes, or the whole buffer when 0) and
// whether the connection is TLS with a verified client certificate, which the API may require;
// the rest is the connection's bytes. Checked: nothing throws out of the path; every answer
// has a status and a Content-Length equal to its body; every API answer, and every refusal
// before a target was read, is a JSON object, with "error" when the status is an error.
//
// Bounds, so that one input costs milliseconds: generation requests, and puzzles with fewer
// than 17 givens or given as pencilmarks, are prepared (their fields checked) but not run;
// solution limits are capped at 8; at most 8 requests a connection.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>
#include <nlohmann/json.hpp>

#include "daemon/http_message.h"
#include "daemon/request_work.h"
#include "daemon/web_requests.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using sudoku::daemon::HttpLimits;
using sudoku::daemon::HttpPeer;
using sudoku::daemon::HttpRequest;
using sudoku::daemon::HttpRequestParser;
using sudoku::daemon::HttpResponse;

constexpr int kMaxRequests = 8;

// The limits of an --http listener (WebApi::Limits), without the connection count.
HttpLimits Limits() { return HttpLimits{.max_body_bytes = 64 * 1024}; }

void CheckResponse(const HttpResponse& response, bool json) {
  FUZZ_CHECK(response.result_int() >= 200 && response.result_int() < 600);
  const auto length = response.find(http::field::content_length);
  FUZZ_CHECK(length != response.end());
  FUZZ_CHECK(std::string(length->value()) == std::to_string(response.body().size()));
  if (!json) return;
  const auto body = nlohmann::json::parse(response.body(), nullptr, false);
  FUZZ_CHECK(!body.is_discarded() && body.is_object());
  if (response.result_int() >= 400) FUZZ_CHECK(body.contains("error"));
}

// Whether the body's "puzzle" could hide a long search: fewer than 17 givens, or pencilmarks
// (whose contradictions a search may take long to find). The solver has its own fuzz target.
bool TooSparse(const std::string& body) {
  const auto json = nlohmann::json::parse(body, nullptr, false);
  if (!json.is_object() || !json.contains("puzzle") || !json["puzzle"].is_string()) return false;
  const std::string& puzzle = json["puzzle"].get_ref<const std::string&>();
  const auto givens = std::count_if(puzzle.begin(), puzzle.end(),
                                    [](char c) { return c >= '1' && c <= '9'; });
  return givens < 17 || puzzle.size() >= 729 - 9;
}

// The answer WebApi::Handle gives (without /metrics, which is MetricsRoutes', nor the daemon's
// state: stopping, busy).
HttpResponse Answer(const HttpRequest& request, const HttpPeer& peer,
                    const sudoku::daemon::WebApiOptions& options) {
  const std::string path = sudoku::daemon::PathOf(request);
  if (!path.starts_with("/api/")) return sudoku::daemon::PageResponse(path, request);
  if (auto refusal = sudoku::daemon::CheckApiRequest(path, request, peer, options)) {
    return std::move(*refusal);
  }
  sudoku::daemon::PreparedApiRequest prepared =
      sudoku::daemon::PrepareApiRequest(path, request.body(), options);
  if (prepared.refusal) return std::move(*prepared.refusal);
  // A generation's time, and a sparse puzzle's search, have no bound worth a fuzzer's while:
  // checked, not run.
  if (path == "/api/generate" || TooSparse(request.body())) {
    return sudoku::daemon::MakeResponse(http::status::ok, "application/json", "{}");
  }
  // The work the RequestHandler would do on the Pool, done inline.
  const sudoku::wire::Request& work = prepared.request->request();
  const std::atomic<bool> cancel{false};
  sudoku::wire::Response response;
  sudoku::wire::VerdictTally counts;
  std::string failure;
  bool complete = false;
  try {
    complete = sudoku::daemon::DoRequest(work, sudoku::daemon::KindOf(work), cancel, &response,
                                         &counts);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  return prepared.request->Answer(response, complete, failure);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t read_size = (data[0] & 0x7f) == 0 ? 0 : (data[0] & 0x7f) * 2;
  const HttpPeer peer{.gone = nullptr,
                      .tls = (data[0] & 0x80) != 0,
                      .address = "192.0.2.1",
                      .certificate = (data[0] & 0x80) != 0 ? "CN=fuzz" : ""};
  sudoku::daemon::WebApiOptions options;
  options.max_solution_limit = 8;
  options.max_generate = 2;
  options.client_certificates = true;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const HttpLimits limits = Limits();

  beast::flat_buffer buffer(sudoku::daemon::ReadBufferLimit(limits));
  size_t taken = 0;
  for (int requests = 0; requests < kMaxRequests; ++requests) {
    HttpRequestParser parser;
    sudoku::daemon::LimitParser(limits, &parser);
    boost::system::error_code error;
    for (;;) {
      if (buffer.size() > 0) {
        buffer.consume(parser.put(buffer.data(), error));
        if (!error && parser.is_done()) break;
        if (error && error != http::error::need_more) break;
        error = {};
      }
      if (taken == input.size()) {
        error = http::error::end_of_stream;
        break;
      }
      const size_t room = buffer.max_size() - buffer.size();
      if (room == 0) {  // as Beast's read: the buffer is full and the parser wants more
        error = http::error::buffer_overflow;
        break;
      }
      const size_t n = std::min({room, input.size() - taken, read_size == 0 ? room : read_size});
      std::memcpy(buffer.prepare(n).data(), input.data() + taken, n);
      buffer.commit(n);
      taken += n;
    }
    if (error == http::error::end_of_stream) return 0;  // the peer closed: nothing to answer
    if (error) {
      const sudoku::daemon::HttpRefusal refusal =
          sudoku::daemon::RefusalFor(error, parser, limits);
      FUZZ_CHECK(!refusal.why.empty());
      const HttpResponse response =
          sudoku::daemon::ApiRefusal(refusal.status, refusal.target, refusal.why);
      CheckResponse(response,
                    refusal.target.empty() || std::string_view(refusal.target).starts_with("/api/"));
      return 0;  // the connection closes after a refusal
    }
    const HttpRequest request = parser.release();
    const HttpResponse response = Answer(request, peer, options);
    CheckResponse(response, sudoku::daemon::PathOf(request).starts_with("/api/"));
    if (!request.keep_alive()) return 0;
  }
  return 0;
}
