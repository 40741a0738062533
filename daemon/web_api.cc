#include "daemon/web_api.h"

#include <optional>
#include <string>

#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>

namespace sudoku::daemon {

namespace asio = boost::asio;
namespace http = boost::beast::http;

WebApi::WebApi(Pool& pool, MetricsRoutes* metrics, const WebApiOptions& options,
               Admission* admission)
    : pool_(pool), metrics_(metrics), admission_(admission), options_(options) {}

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
  std::string why;
  if (in_flight_ >= options_.max_in_flight) {
    why = "busy: the daemon is working on " + std::to_string(in_flight_) +
          " requests, the most it takes at once; try again shortly";
  } else if (admission_ != nullptr && !admission_->MayStartNow(cost)) {
    why = "busy: the daemon has " + std::to_string(admission_->in_flight()) +
          " puzzles in flight, its limit is " + std::to_string(admission_->max_in_flight()) +
          " (--max-in-flight); try again shortly";
  } else if (admission_ != nullptr && !admission_->MayHoldNow(bytes)) {
    why = "busy: the daemon holds " + std::to_string(admission_->memory()) +
          " bytes of requests and answers, its budget is " +
          std::to_string(admission_->max_memory()) + " (--max-memory); try again shortly";
  } else {
    return std::nullopt;
  }
  HttpResponse response = ApiErrorResponse(http::status::service_unavailable, why);
  response.set(http::field::retry_after, "1");
  return response;
}

asio::awaitable<HttpResponse> WebApi::Handle(const HttpRequest& request,
                                             const HttpPeer& peer) {
  const std::string path = PathOf(request);
  if (auto answer = metrics_->Route(request)) co_return std::move(*answer);
  if (!path.starts_with("/api/")) co_return PageResponse(path, request);
  std::optional<HttpResponse> refusal = Admit(path, request, peer);
  if (refusal) co_return std::move(*refusal);
  PreparedApiRequest prepared = PrepareApiRequest(path, request.body(), options_);
  if (prepared.refusal) co_return std::move(*prepared.refusal);
  // Charged as the port charges a request: its puzzles to the work in flight, the bytes it holds
  // (its body) to the memory budget, while it works.
  const size_t cost = prepared.job->cost();
  const size_t bytes = request.body().size();
  if (auto busy = Busy(cost, bytes)) co_return std::move(*busy);
  // Counted from the admissions above, with no suspension between: the limits hold exactly.
  ++in_flight_;
  if (admission_ != nullptr) {
    admission_->Charge(0, cost);
    admission_->MemoryChanged(0, bytes);
  }
  // The request's work stops when its client goes (peer_gone) or the daemon stops (Stop() sets
  // every working request's flag).
  const PeerGone& peer_gone = peer.gone;
  working_.insert(peer_gone.get());
  if (stopped_) peer_gone->store(true, std::memory_order_relaxed);
  // The work gets plain pointers, as the protocol's connections give theirs: built with g++ 12,
  // a lambda holding the shared_ptrs, given to this co_await, released them once too often
  // (valgrind: the job freed on completion while the Pool's copy of the lambda still held it).
  // This frame owns both until the work is done.
  const std::shared_ptr<ApiJob> job = prepared.job;
  const PeerGone cancel = peer_gone;
  ApiJob* const work = job.get();
  const std::atomic<bool>* const cancelled = cancel.get();
  const auto executor = co_await asio::this_coro::executor;
  // Each request takes its own turns among the long work (Pool::NewOwner).
  co_await pool_.Run(executor, [work, cancelled] { work->Run(*cancelled); }, asio::use_awaitable,
                     job->long_work() ? Pool::Cost::kLong : Pool::Cost::kBounded,
                     pool_.NewOwner());
  working_.erase(cancel.get());
  --in_flight_;
  if (admission_ != nullptr) {
    admission_->WorkDone(cost);
    admission_->Release(0, cost, /*working=*/false);
    admission_->MemoryChanged(bytes, 0);
  }
  co_return job->Answer();
}

}  // namespace sudoku::daemon
