#include "daemon/web_api.h"

#include <optional>
#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>

#include "daemon/log.h"

namespace sudoku::daemon {

namespace asio = boost::asio;
namespace http = boost::beast::http;

WebApi::WebApi(RequestHandler& requests, MetricsRoutes* metrics, const WebApiOptions& options,
               std::optional<asio::any_io_executor> loop)
    : requests_(requests), metrics_(metrics), options_(options), loop_(std::move(loop)) {}

WebApi::~WebApi() { Stop(); }

HttpLimits WebApi::Limits() {
  return HttpLimits{.max_connections = kMaxConnections, .max_body_bytes = kMaxBodyBytes};
}

void WebApi::Stop() {
  stopped_ = true;
  for (std::atomic<bool>* cancel : working_) cancel->store(true, std::memory_order_relaxed);
}

HttpResponse WebApi::Refuse(http::status status, std::string_view target, const std::string& why) {
  return ApiRefusal(status, target, why);
}

std::optional<HttpResponse> WebApi::Admit(std::string_view path, const HttpRequest& request,
                                          const HttpPeer& peer) const {
  if (auto refusal = CheckApiRequest(path, request, peer, options_)) return refusal;
  if (stopped_) return ApiErrorResponse(http::status::service_unavailable, "sudokud is stopping");
  return std::nullopt;
}

std::optional<HttpResponse> WebApi::Busy(size_t cost, size_t bytes) const {
  std::optional<std::string> why;
  if (in_flight_ >= options_.max_in_flight) {
    why = "busy: the daemon is working on " + std::to_string(in_flight_) +
          " requests, the most it takes at once; try again shortly";
  } else {
    why = requests_.Busy(cost, bytes);
  }
  if (!why) return std::nullopt;
  HttpResponse response = ApiErrorResponse(http::status::service_unavailable, *why);
  response.set(http::field::retry_after, "1");
  return response;
}

asio::awaitable<HttpResponse> WebApi::Handle(const HttpRequest& request,
                                             const HttpPeer& peer) {
  std::string path = PathOf(request);
  if (metrics_->Serves(path)) co_return co_await metrics_->Handle(request, peer);
  if (!path.starts_with("/api/")) co_return PageResponse(path, request);
  if (loop_ && co_await asio::this_coro::executor != *loop_) {
    // The request and peer live in the caller's frame, which waits for this.
    co_return co_await asio::co_spawn(*loop_, Api(std::move(path), request, peer),
                                      asio::use_awaitable);
  }
  co_return co_await Api(std::move(path), request, peer);
}

asio::awaitable<HttpResponse> WebApi::Api(std::string path, const HttpRequest& request,
                                          const HttpPeer& peer) {
  std::optional<HttpResponse> refusal = Admit(path, request, peer);
  if (refusal) co_return std::move(*refusal);
  PreparedApiRequest prepared = PrepareApiRequest(path, request.body(), options_);
  if (prepared.refusal) co_return std::move(*prepared.refusal);
  // From here on the request is the protocol's, handled by the same RequestHandler: the same
  // checks, costs, budgets, work and counts.
  Job job;
  job.request = std::move(prepared.request->request());
  const wire::RequestKind kind = KindOf(job.request);
  // Charged as the port charges a request: its puzzles to the work in flight, the bytes it holds
  // (its body) to the memory budget, while it works.
  const size_t bytes = request.body().size();
  if (auto busy = Busy(CostOf(job.request, kind), bytes)) co_return std::move(*busy);
  // Each request is a requester of its own, its work stopped when its client goes (peer.gone)
  // or the daemon stops (Stop() sets every working request's flag); its CPU time is charged to
  // one account for every API request from its address, so that many connections from one
  // client take the turns of one.
  Requester requester(RequestHandler::ApiAccount(peer.address), peer.gone, peer.gone);
  if (auto refused = requests_.Accept(requester, job, kind)) {
    co_return ApiErrorResponse(http::status::bad_request, refused->message);
  }
  // Counted from the admissions above, with no suspension between: the limits hold exactly.
  ++in_flight_;
  requests_.admission().MemoryChanged(0, bytes);
  const PeerGone cancel = peer.gone;  // this frame keeps the flag until the work is done
  working_.insert(cancel.get());
  if (stopped_) cancel->store(true, std::memory_order_relaxed);
  const std::string failure =
      co_await requests_.Serve(co_await asio::this_coro::executor, requester, job);
  working_.erase(cancel.get());
  if (job.skipped) {
    ClientCausedLog().Log("requester left", LogLevel::kNotice,
                          "http: " + peer.address + ": the client left before its " + path +
                              " request's work started; dropped it");
  }
  --in_flight_;
  requests_.admission().MemoryChanged(bytes, 0);
  co_return prepared.request->Answer(job.response, job.complete, failure);
}

}  // namespace sudoku::daemon
