// Connection's request side (see connection.h): each request read whole goes to the daemon's
// RequestHandler (daemon/request_handler.h), which takes it, charges it and does its work; here
// the connection waits for room in the budgets, runs the work beside its reader, streams a
// generation's chunks, and hands each answer to the writer. The socket's side (reader, writer,
// watchdog, the stop path) is in connection.cc.
#include "daemon/connection.h"

#include <algorithm>

#include "daemon/admission.h"
#include "proto/codec.h"

namespace sudoku::daemon {

namespace asio = boost::asio;
using asio::awaitable;

bool Connection::HandleRequest(std::unique_ptr<Job> job, wire::RequestKind kind) {
  RequestHandler& requests = context_.requests;
  if (auto refusal = requests.Accept(requester_, *job, kind)) {
    requests.jobs().Recycle(std::move(job));
    Fault(refusal->kind, "frame " + std::to_string(frames_) + ": " + refusal->message);
    return false;
  }
  if (job->at_once) {  // answered by Accept (Stats)
    wire::SetFrame(job->response, &job->frame);
    Queue(std::move(job));
    return true;
  }
  // Counted now, not when the coroutine starts, so that the writer never sees "input ended,
  // nothing solving" while this request is on its way to the Pool.
  ++solving_;
  if (job->long_work) ++long_solving_;
  if (kind == wire::RequestKind::kGenerate) {
    Spawn(RunGenerate(shared_from_this(), std::move(job)));
    return true;
  }
  if (requests.WorthSolvingHere(*job)) {
    const std::string failure = requests.WorkNow(requester_, *job, /*frame=*/true);
    Solved(std::move(job), failure);
    return !discarding();
  }
  Spawn(RunJob(shared_from_this(), std::move(job)));
  return true;
}

awaitable<void> Connection::RunJob([[maybe_unused]] std::shared_ptr<Connection> self,
                                   std::unique_ptr<Job> job) {
  const std::string failure =
      co_await context_.requests.Work(stream_.get_executor(), requester_, *job, /*frame=*/true);
  Solved(std::move(job), failure);
}

void Connection::Solved(std::unique_ptr<Job> job, const std::string& failure) {
  --solving_;
  if (job->long_work) --long_solving_;
  Touch();
  if (discarding() || !failure.empty() || !job->complete) {
    const std::string message =
        discarding() || failure.empty() ? "" : RequestHandler::InternalError(*job, failure);
    Drop(std::move(job));
    if (!message.empty()) Fault(wire::ProtocolFault::UNKNOWN, message);
    return;
  }
  // Counted as answered (or cancelled) only once the writer knows whether it was written.
  Queue(std::move(job));
}

awaitable<void> Connection::RunGenerate([[maybe_unused]] std::shared_ptr<Connection> self,
                                        std::unique_ptr<Job> request) {
  RequestHandler& requests = context_.requests;
  const uint32_t count = request->request.generate().count();
  size_t unreleased = request->cost;
  uint32_t begin = 0;
  while (begin < count) {
    if (discarding() || requester_.long_cancelled()) break;
    const uint32_t end = std::min(count, begin + kGenerateChunk);
    std::unique_ptr<Job> chunk = requests.jobs().New();
    chunk->received = Clock::now();  // a chunk's latency: its generation and its write
    const std::string failure = co_await requests.Generate(
        stream_.get_executor(), requester_, *request, begin, end, *chunk, /*frame=*/true);
    Touch();
    if (discarding() || (failure.empty() && !chunk->complete)) {
      requests.jobs().Recycle(std::move(chunk));
      break;
    }
    if (!failure.empty()) {
      requests.jobs().Recycle(std::move(chunk));
      Fault(wire::ProtocolFault::UNKNOWN, RequestHandler::InternalError(*request, failure));
      break;
    }
    // Generated: its share of the request leaves the work to do, and stays on this connection
    // until written.
    requests.Generated(*request, *chunk, end - begin, end == count);
    unreleased -= chunk->cost;
    Queue(std::move(chunk));
    begin = end;
  }
  --solving_;
  --long_solving_;
  if (begin < count) requests.GenerateCancelled();
  requests.ReleaseId(requester_, *request);  // stopped before its last chunk
  Release(unreleased, /*working=*/true);
  requests.jobs().Recycle(std::move(request));
}

awaitable<Connection::Admitted> Connection::WaitForCapacity(size_t cost, bool long_work) {
  const size_t limit = context_.options.max_in_flight_per_connection;
  for (bool waited = false;; waited = true) {
    // Stopped (aborted, drained, faulted) before dropped: a reset cancels everything too.
    const bool dropped = reading() && long_work && requester_.long_cancelled();
    if (!reading() || dropped) {
      held_back_ = false;
      next_departure_check_ = Clock::time_point::max();
      context_.admission.Leave(this);
      co_return dropped ? Admitted::kDropped : Admitted::kStopped;
    }
    // A request larger than the connection's limit is taken when it holds nothing else.
    const size_t held = requester_.in_flight();
    if ((held == 0 || held + cost <= limit) && context_.admission.TryAdmit(this, held, cost)) {
      held_back_ = false;
      next_departure_check_ = Clock::time_point::max();
      // The frame in the buffer waited on the daemon, not on the peer: its time starts again.
      if (waited && input_.size() > 0) StartFrame(Clock::now());
      co_return Admitted::kAdmitted;
    }
    if (!held_back_) {
      held_back_ = true;
      // The watchdog looks at the peer while this waits (CheckPeerStillThere).
      next_departure_check_ = Clock::now() + kDepartureCheck;
      if (next_departure_check_ < watchdog_expiry_) deadline_.cancel();
    }
    co_await wake_.Wait();
  }
}

void Connection::Release(size_t cost, bool working) {
  context_.requests.Release(requester_, cost, working);
  Wake();
}

void Connection::Queue(std::unique_ptr<Job> job, bool ahead) {
  context_.requests.WorkDone(*job);
  job->memory = job->frame.size();
  answer_bytes_ += job->memory;
  if (ahead) {
    queue_.push_front(std::move(job));
  } else {
    queue_.push_back(std::move(job));
  }
  UpdateMemory();
  Wake();
}

void Connection::Finished(std::unique_ptr<Job> job, bool written) {
  context_.requests.Ended(requester_, *job, written);
  answer_bytes_ -= job->memory;
  job->memory = 0;
  Release(job->cost, job->working);
  context_.requests.jobs().Recycle(std::move(job));
  UpdateMemory();
}

void Connection::Drop(std::unique_ptr<Job> job) { Finished(std::move(job), /*written=*/false); }

void Connection::DropQueued() {
  for (auto& job : queue_) Drop(std::move(job));
  queue_.clear();
}

}  // namespace sudoku::daemon
