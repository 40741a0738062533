#include "daemon/request_handler.h"

#include <algorithm>
#include <exception>

#include <boost/asio/use_awaitable.hpp>

#include "daemon/log.h"

namespace sudoku::daemon {
namespace {

// Job objects kept for reuse, and the largest batch whose object is kept (bigger ones would pin
// their memory).
constexpr size_t kMaxFreeJobs = 8;
constexpr int kMaxRecycledPuzzles = 4096;

// A lone small batch is solved on the event loop when the solver threads are idle: waking an
// arena thread and being woken back costs two thread hand-offs, tens of microseconds, where
// solving a puzzle takes a few. Under load (anything on the arena) batches go to the arena as
// usual, so the event loop never becomes the solver. Small and with at most two solutions
// wanted, so that the loop is held for microseconds only.
constexpr int kSolveHerePuzzles = 4;
constexpr uint32_t kSolveHereSolutionLimit = 2;

Requester::Flag NewFlag() { return std::make_shared<std::atomic<bool>>(false); }

}  // namespace

std::unique_ptr<Job> JobPool::New() {
  if (free_.empty()) return std::make_unique<Job>();
  std::unique_ptr<Job> job = std::move(free_.back());
  free_.pop_back();
  return job;
}

void JobPool::Recycle(std::unique_ptr<Job> job) {
  if (free_.size() >= kMaxFreeJobs ||
      wire::PuzzleCount(job->request.solve()) > kMaxRecycledPuzzles) {
    return;
  }
  job->kind = wire::RequestKind::kNone;
  job->complete = false;
  job->fault = false;
  job->at_once = false;
  job->skipped = false;
  job->long_work = false;
  job->asked = Job::Asked::kOther;
  job->held_id_kind = Job::HeldId::kNone;
  job->cost = 0;
  job->working = false;
  free_.push_back(std::move(job));
}

Requester::Requester(Account account, Flag cancel, Flag cancel_long)
    : account_(account),
      cancel_(cancel ? std::move(cancel) : NewFlag()),
      cancel_long_(cancel_long ? std::move(cancel_long) : NewFlag()) {}

void Requester::Cancel() {
  cancel_->store(true, std::memory_order_relaxed);
  cancel_long_->store(true, std::memory_order_relaxed);
}

std::unordered_set<uint64_t>& Requester::IdsOf(Job::HeldId kind) {
  switch (kind) {
    case Job::HeldId::kBatch: return batch_ids_;
    case Job::HeldId::kExplain: return explain_ids_;
    case Job::HeldId::kGenerate:
    case Job::HeldId::kNone:
      break;
  }
  return generate_ids_;
}

RequestHandler::RequestHandler(Pool& pool, Admission& admission, ServerStats& stats,
                               JobPool& jobs, size_t max_batch,
                               std::function<MetricsSnapshot()> snapshot)
    : pool_(pool),
      admission_(admission),
      stats_(stats),
      jobs_(jobs),
      max_batch_(max_batch),
      snapshot_(std::move(snapshot)) {}

std::optional<std::string> RequestHandler::Busy(size_t cost, size_t bytes) const {
  if (!admission_.MayStartNow(cost)) {
    return "busy: the daemon has " + std::to_string(admission_.in_flight()) +
           " puzzles in flight, its limit is " + std::to_string(admission_.max_in_flight()) +
           " (--max-in-flight); try again shortly";
  }
  if (!admission_.MayHoldNow(bytes)) {
    return "busy: the daemon holds " + std::to_string(admission_.memory()) +
           " bytes of requests and answers, its budget is " +
           std::to_string(admission_.max_memory()) + " (--max-memory); try again shortly";
  }
  return std::nullopt;
}

std::optional<RequestRefusal> RequestHandler::Accept(Requester& requester, Job& job,
                                                     wire::RequestKind kind) {
  Job::HeldId id_kind = Job::HeldId::kNone;
  Job::Asked asked = Job::Asked::kOther;
  uint64_t id = 0;
  switch (kind) {
    case wire::RequestKind::kSolve:
      id_kind = Job::HeldId::kBatch;
      id = job.request.solve().batch_id();
      asked = Job::Asked::kBatch;
      break;
    case wire::RequestKind::kExplain:
      id_kind = Job::HeldId::kExplain;
      id = job.request.explain().request_id();
      asked = Job::Asked::kExplain;
      break;
    case wire::RequestKind::kGenerate:
      if (auto refusal = CheckGenerateRequest(job.request.generate(), max_batch_)) {
        return RequestRefusal{wire::ProtocolFault::BAD_GENERATE_REQUEST, std::move(*refusal)};
      }
      // Held by the request until its last chunk is about to be delivered (or it is dropped).
      id_kind = Job::HeldId::kGenerate;
      id = job.request.generate().request_id();
      break;
    case wire::RequestKind::kStats:
      // The counts as they are now, batches still in flight not included (as sudoku.proto
      // says). Charged like any request, so that a requester sending such requests without
      // taking the answers is stopped like any other.
      job.response.Clear();
      FillStats(snapshot_(), job.response.mutable_stats());
      job.at_once = true;
      break;
    case wire::RequestKind::kMalformed:
    case wire::RequestKind::kNone:
      // wire::CheckRequest() faults these before they get here.
      return RequestRefusal{wire::ProtocolFault::MALFORMED, "no request to serve"};
  }
  if (id_kind != Job::HeldId::kNone && !requester.TakeId(id_kind, id)) {
    switch (id_kind) {
      case Job::HeldId::kBatch:
        return RequestRefusal{wire::ProtocolFault::BAD_SOLVE_REQUEST,
                              "batch " + std::to_string(id) +
                                  " is already in flight on this connection; batch ids must be "
                                  "unique among unanswered batches"};
      case Job::HeldId::kExplain:
        return RequestRefusal{wire::ProtocolFault::BAD_EXPLAIN_REQUEST,
                              "explain request " + std::to_string(id) +
                                  " is already in flight on this connection; request ids must "
                                  "be unique among unanswered explain requests"};
      case Job::HeldId::kGenerate:
      case Job::HeldId::kNone:
        return RequestRefusal{wire::ProtocolFault::BAD_GENERATE_REQUEST,
                              "generate request " + std::to_string(id) +
                                  " is already in flight on this connection; request ids must "
                                  "be unique among unfinished generate requests"};
    }
  }
  job.kind = kind;
  job.asked = asked;
  job.held_id_kind = id_kind;
  job.held_id = id;
  job.cost = CostOf(job.request, kind);
  job.long_work = IsLongWork(job.request, kind);
  job.received = Job::Clock::now();
  admission_.Charge(requester.in_flight(), job.cost);
  requester.Hold(job.cost);
  job.working = true;
  return std::nullopt;
}

bool RequestHandler::WorthSolvingHere(const Job& job) const {
  const wire::SolveRequest& request = job.request.solve();
  return job.kind == wire::RequestKind::kSolve && !job.long_work &&
         wire::PuzzleCount(request) <= kSolveHerePuzzles &&
         request.solution_limit() <= kSolveHereSolutionLimit && pool_.busy() == 0;
}

void RequestHandler::DoWork(const Requester& requester, Job& job, bool frame) {
  const auto start = Job::Clock::now();
  const std::atomic<bool>& cancel = requester.CancelFlagFor(job);
  job.skipped = cancel.load(std::memory_order_relaxed);
  job.complete = !job.skipped &&
                 DoRequest(job.request, job.kind, cancel, &job.response, &job.counts);
  job.solve_seconds = std::chrono::duration<double>(Job::Clock::now() - start).count();
  if (job.complete && frame) wire::SetFrame(job.response, &job.frame);
}

std::string RequestHandler::WorkNow(const Requester& requester, Job& job, bool frame) {
  try {
    DoWork(requester, job, frame);
  } catch (const std::exception& e) {
    return e.what();
  }
  return std::string();
}

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;

template <typename Task>
awaitable<std::string> RequestHandler::OnPool(asio::any_io_executor executor, Task task,
                                              Pool::Cost cost, const Requester& requester,
                                              uint64_t weight) {
  std::string failure;
  try {
    co_await pool_.Run(executor, std::move(task), use_awaitable, cost, requester.account(), weight);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  co_return failure;
}

awaitable<std::string> RequestHandler::Work(asio::any_io_executor executor,
                                            const Requester& requester, Job& job, bool frame) {
  // Plain pointers into this frame, which outlives the work.
  Job* const running = &job;
  const Requester* const who = &requester;
  const int puzzles =
      job.kind == wire::RequestKind::kSolve ? wire::PuzzleCount(job.request.solve()) : 0;
  const int piece = job.long_work ? kLongBatchPiece : kBoundedBatchPiece;
  const Pool::Cost lane = job.long_work ? Pool::Cost::kLong : Pool::Cost::kBounded;
  if (puzzles > piece) {
    // A piece at a time, each its own turn in its lane (kBoundedBatchPiece, kLongBatchPiece).
    const auto start = Job::Clock::now();
    const std::atomic<bool>* const cancel = &requester.CancelFlagFor(job);
    const wire::SolveRequest* const request = &job.request.solve();
    wire::SolveResponse* const response = job.response.mutable_solve();
    job.complete = false;
    job.skipped = false;
    bool solved = true;
    for (int begin = 0; solved && begin < puzzles; begin += piece) {
      const int end = std::min(puzzles, begin + piece);
      const std::string failure = co_await OnPool(
          executor,
          [request, response, cancel, begin, end, puzzles, running, frame, &solved] {
            if (begin == 0) {
              // Its requester gone by the time its first turn came: never started.
              running->skipped = cancel->load(std::memory_order_relaxed);
              if (running->skipped) {
                solved = false;
                return;
              }
              StartBatch(*request, response);
            }
            solved = SolveBatchRange(*request, begin, end, *cancel, response);
            if (!solved || end < puzzles) return;
            FinishBatch(*request, response, &running->counts);
            running->complete = true;
            if (frame) wire::SetFrame(running->response, &running->frame);
          },
          lane, requester, static_cast<uint64_t>(end - begin));
      if (!failure.empty()) co_return failure;
    }
    job.solve_seconds = std::chrono::duration<double>(Job::Clock::now() - start).count();
    co_return std::string();
  }
  co_return co_await OnPool(
      executor, [running, who, frame] { DoWork(*who, *running, frame); }, lane, requester,
      job.cost);
}

awaitable<std::string> RequestHandler::Generate(asio::any_io_executor executor,
                                                const Requester& requester, const Job& request,
                                                uint32_t begin, uint32_t end, Job& chunk,
                                                bool frame) {
  const wire::GenerateRequest* const generate = &request.request.generate();
  Job* const job = &chunk;
  const std::atomic<bool>* const cancel = &requester.long_cancel_flag();
  co_return co_await OnPool(
      executor,
      [job, generate, begin, end, cancel, frame] {
        job->complete =
            GenerateChunk(*generate, begin, end, *cancel, job->response.mutable_generate());
        if (job->complete && frame) wire::SetFrame(job->response, &job->frame);
      },
      Pool::Cost::kLong, requester, end - begin);
}

void RequestHandler::Generated(Job& request, Job& chunk, size_t puzzles, bool last) {
  chunk.cost = puzzles;
  admission_.WorkDone(puzzles);
  stats_.puzzles_generated += puzzles;
  if (!last) return;
  ++stats_.generates;
  chunk.held_id_kind = std::exchange(request.held_id_kind, Job::HeldId::kNone);
  chunk.held_id = request.held_id;
}

void RequestHandler::GenerateCancelled() { ++stats_.generates_cancelled; }

void RequestHandler::WorkDone(Job& job) {
  if (!job.working) return;
  job.working = false;
  admission_.WorkDone(job.cost);
}

void RequestHandler::ReleaseId(Requester& requester, Job& job) {
  const Job::HeldId kind = std::exchange(job.held_id_kind, Job::HeldId::kNone);
  if (kind != Job::HeldId::kNone) requester.FreeId(kind, job.held_id);
}

void RequestHandler::Ended(Requester& requester, Job& job, bool delivered) {
  ReleaseId(requester, job);
  if (job.skipped) ++stats_.departed_dropped;
  switch (job.asked) {
    case Job::Asked::kOther:
      return;
    case Job::Asked::kExplain:
      ++(delivered ? stats_.explains : stats_.explains_cancelled);
      return;
    case Job::Asked::kBatch:
      if (!delivered) {
        ++stats_.batches_cancelled;
        return;
      }
      ++stats_.batches;
      stats_.puzzles.Add(job.counts);
      stats_.batch_solve_seconds.Observe(job.solve_seconds);
      return;
  }
}

void RequestHandler::Release(Requester& requester, size_t cost, bool working) {
  requester.Drop(cost);
  admission_.Release(requester.in_flight(), cost, working);
}

awaitable<std::string> RequestHandler::Serve(asio::any_io_executor executor, Requester& requester,
                                             Job& job) {
  const std::string failure = co_await Work(executor, requester, job, /*frame=*/false);
  const bool answered = failure.empty() && job.complete;
  if (job.kind == wire::RequestKind::kGenerate && !answered) ++stats_.generates_cancelled;
  if (answered) {
    WorkDone(job);
    if (job.kind == wire::RequestKind::kGenerate) {
      stats_.puzzles_generated += job.cost;
      ++stats_.generates;
    }
  }
  Ended(requester, job, answered);
  Release(requester, job.cost, job.working);
  job.working = false;
  co_return failure;
}

void RequestHandler::DroppedForDeparture(size_t requests, const std::string& why) {
  stats_.departed_dropped += requests;
  ClientCausedLog().Log("requester left", LogLevel::kNotice, why);
}

std::string RequestHandler::InternalError(const Job& job, const std::string& failure) {
  // Named as the requester named it: a batch by its batch_id, the others by their request_id.
  std::string what;
  switch (job.kind) {
    case wire::RequestKind::kExplain:
      what = "explaining request " + std::to_string(job.request.explain().request_id());
      break;
    case wire::RequestKind::kGenerate:
      what = "generating for request " + std::to_string(job.request.generate().request_id());
      break;
    default:
      what = "solving batch " + std::to_string(job.request.solve().batch_id());
      break;
  }
  return "internal error while " + what + ": " + failure;
}

}  // namespace sudoku::daemon
