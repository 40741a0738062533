// Connection's request side (see connection.h): each kind of request's handler, what it charges
// against the budgets (Admission, with the costs of daemon/request_work.h), its work on the
// solver Pool and its answer handed to the writer, and the ids it holds meanwhile. The socket's
// side (reader, writer, watchdog, the stop path) is in connection.cc.
#include "daemon/connection.h"

#include <algorithm>
#include <exception>

#include <boost/asio/use_awaitable.hpp>

#include "daemon/admission.h"
#include "daemon/request_work.h"
#include "proto/codec.h"

namespace sudoku::daemon {

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;

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
  job->complete = false;
  job->fault = false;
  job->at_once = false;
  job->long_work = false;
  job->asked = Job::Asked::kOther;
  job->held_id_kind = Job::HeldId::kNone;
  job->cost = 0;
  job->working = false;
  free_.push_back(std::move(job));
}

bool Connection::SolveHere(const wire::SolveRequest& request) const {
  return wire::PuzzleCount(request) <= kSolveHerePuzzles &&
         request.solution_limit() <= kSolveHereSolutionLimit && context_.pool.busy() == 0;
}

void Connection::Charge(Job& job) {
  context_.admission.Charge(in_flight_, job.cost);
  in_flight_ += job.cost;
  job.working = true;
}

void Connection::WorkDone(Job& job) {
  if (!job.working) return;
  job.working = false;
  context_.admission.WorkDone(job.cost);
}

void Connection::Release(size_t cost, bool working) {
  in_flight_ -= cost;
  context_.admission.Release(in_flight_, cost, working);
  Wake();
}

bool Connection::HoldId(Job& job, Job::HeldId kind, uint64_t id) {
  std::unordered_set<uint64_t>& ids =
      kind == Job::HeldId::kBatch ? batch_ids_
                                  : kind == Job::HeldId::kExplain ? explain_ids_ : generate_ids_;
  if (ids.insert(id).second) {
    job.held_id_kind = kind;
    job.held_id = id;
    return true;
  }
  const std::string frame = "frame " + std::to_string(frames_) + ": ";
  switch (kind) {
    case Job::HeldId::kBatch:
      Fault(wire::ProtocolFault::BAD_SOLVE_REQUEST,
            frame + "batch " + std::to_string(id) +
                " is already in flight on this connection; batch ids must be unique among "
                "unanswered batches");
      break;
    case Job::HeldId::kExplain:
      Fault(wire::ProtocolFault::BAD_EXPLAIN_REQUEST,
            frame + "explain request " + std::to_string(id) +
                " is already in flight on this connection; request ids must be unique among "
                "unanswered explain requests");
      break;
    case Job::HeldId::kGenerate:
    case Job::HeldId::kNone:
      Fault(wire::ProtocolFault::BAD_GENERATE_REQUEST,
            frame + "generate request " + std::to_string(id) +
                " is already in flight on this connection; request ids must be unique among "
                "unfinished generate requests");
      break;
  }
  return false;
}

void Connection::ReleaseId(Job& job) {
  switch (std::exchange(job.held_id_kind, Job::HeldId::kNone)) {
    case Job::HeldId::kNone: return;
    case Job::HeldId::kBatch: batch_ids_.erase(job.held_id); return;
    case Job::HeldId::kExplain: explain_ids_.erase(job.held_id); return;
    case Job::HeldId::kGenerate: generate_ids_.erase(job.held_id); return;
  }
}

void Connection::Ended(Job& job, bool written) {
  ReleaseId(job);
  ServerStats& stats = context_.stats;
  switch (job.asked) {
    case Job::Asked::kOther:
      return;
    case Job::Asked::kExplain:
      if (written) ++stats.explains;
      return;
    case Job::Asked::kBatch:
      if (!written) {
        ++stats.batches_cancelled;
        return;
      }
      ++stats.batches;
      stats.puzzles.Add(job.counts);
      stats.batch_solve_seconds.Observe(job.solve_seconds);
      return;
  }
}

bool Connection::HandleRequest(std::unique_ptr<Job> job, wire::RequestKind kind) {
  switch (kind) {
    case wire::RequestKind::kSolve: return HandleSolve(std::move(job));
    case wire::RequestKind::kStats: return HandleStats(std::move(job));
    case wire::RequestKind::kExplain: return HandleExplain(std::move(job));
    case wire::RequestKind::kGenerate: return HandleGenerate(std::move(job));
    case wire::RequestKind::kMalformed:
    case wire::RequestKind::kNone:
      break;  // CheckRequest() answered them with a fault
  }
  context_.jobs.Recycle(std::move(job));
  return false;
}

bool Connection::AnswerAtOnce(std::unique_ptr<Job> job, wire::RequestKind kind) {
  wire::SetFrame(job->response, &job->frame);
  job->at_once = true;
  job->cost = CostOf(job->request, kind);
  Charge(*job);
  Queue(std::move(job));
  return true;
}

bool Connection::HandleStats(std::unique_ptr<Job> job) {
  // The counts as they are now, batches still in flight not included (as sudoku.proto says).
  job->response.Clear();
  FillStats(context_.snapshot(), job->response.mutable_stats());
  return AnswerAtOnce(std::move(job), wire::RequestKind::kStats);
}

bool Connection::HandleSolve(std::unique_ptr<Job> job) {
  const wire::SolveRequest& solve = job->request.solve();
  if (!HoldId(*job, Job::HeldId::kBatch, solve.batch_id())) {
    context_.jobs.Recycle(std::move(job));
    return false;
  }
  job->asked = Job::Asked::kBatch;
  job->cost = CostOf(job->request, wire::RequestKind::kSolve);
  job->received = Clock::now();
  Charge(*job);
  // Counted now, not when the coroutine starts, so that the writer never sees "input ended,
  // nothing solving" while this batch is on its way to the arena.
  ++solving_;
  if (SolveHere(solve)) {
    std::string failure;
    try {
      SolveJob(job.get());
    } catch (const std::exception& e) {
      failure = e.what();
    }
    Solved(std::move(job), failure);
    return !discarding();
  }
  job->long_work = IsLongWork(job->request, wire::RequestKind::kSolve);
  RunOnPool(std::move(job), &Connection::SolveJob);
  return true;
}

bool Connection::HandleExplain(std::unique_ptr<Job> job) {
  if (!HoldId(*job, Job::HeldId::kExplain, job->request.explain().request_id())) {
    context_.jobs.Recycle(std::move(job));
    return false;
  }
  job->asked = Job::Asked::kExplain;
  job->cost = CostOf(job->request, wire::RequestKind::kExplain);
  job->received = Clock::now();
  Charge(*job);
  ++solving_;  // as for a batch (HandleSolve)
  job->long_work = IsLongWork(job->request, wire::RequestKind::kExplain);
  RunOnPool(std::move(job), &Connection::ExplainJob);
  return true;
}

bool Connection::HandleGenerate(std::unique_ptr<Job> request) {
  const wire::GenerateRequest& generate = request->request.generate();
  if (const auto refusal = CheckGenerateRequest(generate, context_.options.max_batch)) {
    context_.jobs.Recycle(std::move(request));
    Fault(wire::ProtocolFault::BAD_GENERATE_REQUEST,
          "frame " + std::to_string(frames_) + ": " + *refusal);
    return false;
  }
  // Held by the request until its last chunk is about to be written (or the rest is dropped).
  if (!HoldId(*request, Job::HeldId::kGenerate, generate.request_id())) {
    context_.jobs.Recycle(std::move(request));
    return false;
  }
  // Charged like a batch of `count` puzzles; each chunk's share is released once it is written.
  request->cost = CostOf(request->request, wire::RequestKind::kGenerate);
  Charge(*request);
  ++solving_;
  ++long_solving_;
  Spawn(RunGenerate(shared_from_this(), std::move(request)));
  return true;
}

awaitable<void> Connection::RunGenerate([[maybe_unused]] std::shared_ptr<Connection> self,
                                        std::unique_ptr<Job> request) {
  const wire::GenerateRequest& generate = request->request.generate();
  size_t unreleased = request->cost;
  for (uint32_t begin = 0; begin < generate.count();) {
    if (discarding() || cancel_long_.load(std::memory_order_relaxed)) break;
    const uint32_t end = std::min(generate.count(), begin + kGenerateChunk);
    std::unique_ptr<Job> chunk = context_.jobs.New();
    chunk->received = Clock::now();  // a chunk's latency: its generation and its write
    Job* job = chunk.get();
    std::string failure;
    try {
      co_await context_.pool.Run(
          stream_.get_executor(),
          [job, &generate, begin, end, cancel = &cancel_long_] {
            job->complete =
                GenerateChunk(generate, begin, end, *cancel, job->response.mutable_generate());
            if (job->complete) {
              wire::SetFrame(job->response, &job->frame);
            }
          },
          use_awaitable, Pool::Cost::kLong, owner_, end - begin);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    Touch();
    if (discarding() || (failure.empty() && !job->complete)) {
      context_.jobs.Recycle(std::move(chunk));
      break;
    }
    if (!failure.empty()) {
      context_.jobs.Recycle(std::move(chunk));
      Fault(wire::ProtocolFault::UNKNOWN, "internal error while generating for request " +
                                              std::to_string(generate.request_id()) + ": " +
                                              failure);
      break;
    }
    chunk->cost = end - begin;
    unreleased -= chunk->cost;
    // Generated: its share of the request leaves the work to do, and stays on this connection
    // until written.
    context_.admission.WorkDone(chunk->cost);
    context_.stats.puzzles_generated += chunk->cost;
    if (end == generate.count()) {
      ++context_.stats.generates;
      // The request's id goes with its last chunk, freed as that is written.
      chunk->held_id_kind = std::exchange(request->held_id_kind, Job::HeldId::kNone);
      chunk->held_id = request->held_id;
    }
    Queue(std::move(chunk));
    begin = end;
  }
  --solving_;
  --long_solving_;
  ReleaseId(*request);  // stopped before its last chunk
  Release(unreleased, /*working=*/true);
  context_.jobs.Recycle(std::move(request));
}

awaitable<bool> Connection::WaitForCapacity(size_t cost) {
  const size_t limit = context_.options.max_in_flight_per_connection;
  for (bool waited = false;; waited = true) {
    if (!reading()) {
      held_back_ = false;
      context_.admission.Leave(this);
      co_return false;
    }
    // A request larger than the connection's limit is taken when it holds nothing else.
    if ((in_flight_ == 0 || in_flight_ + cost <= limit) &&
        context_.admission.TryAdmit(this, in_flight_, cost)) {
      held_back_ = false;
      // The frame in the buffer waited on the daemon, not on the peer: its time starts again.
      if (waited && input_.size() > 0) frame_started_ = Clock::now();
      co_return true;
    }
    held_back_ = true;
    co_await wake_.Wait();
  }
}

// Solves `job`'s batch and frames its response; where is the caller's choice (see SolveHere).
void Connection::SolveJob(Job* job) {
  const auto start = Clock::now();
  job->complete = SolveBatch(job->request.solve(), job->long_work ? cancel_long_ : cancel_,
                             job->response.mutable_solve(), &job->counts);
  if (job->complete) {
    wire::SetFrame(job->response, &job->frame);
  }
  job->solve_seconds = std::chrono::duration<double>(Clock::now() - start).count();
}

void Connection::ExplainJob(Job* job) {
  job->complete =
      ExplainPuzzle(job->request.explain(), cancel_long_, job->response.mutable_explain());
  if (!job->complete) return;
  job->counts = wire::VerdictTally{};
  wire::SetFrame(job->response, &job->frame);
}

void Connection::RunOnPool(std::unique_ptr<Job> job, void (Connection::*work)(Job*)) {
  if (job->long_work) ++long_solving_;
  Spawn(RunJob(shared_from_this(), std::move(job), work));
}

awaitable<void> Connection::RunJob([[maybe_unused]] std::shared_ptr<Connection> self,
                                   std::unique_ptr<Job> job, void (Connection::*work)(Job*)) {
  Job* running = job.get();
  std::string failure;
  try {
    co_await context_.pool.Run(
        stream_.get_executor(), [this, running, work] { (this->*work)(running); }, use_awaitable,
        running->long_work ? Pool::Cost::kLong : Pool::Cost::kBounded, owner_, running->cost);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  Solved(std::move(job), failure);
}

void Connection::Solved(std::unique_ptr<Job> job, const std::string& failure) {
  --solving_;
  if (job->long_work) --long_solving_;
  Touch();
  if (discarding() || !job->complete) {
    Ended(*job, false);
    Release(job->cost, job->working);
    context_.jobs.Recycle(std::move(job));
    return;
  }
  if (!failure.empty()) {
    // Named as the peer named it: a batch by its batch_id, an explanation by its request_id.
    const std::string what =
        job->asked == Job::Asked::kExplain
            ? "explaining request " + std::to_string(job->request.explain().request_id())
            : "solving batch " + std::to_string(job->request.solve().batch_id());
    Ended(*job, false);
    Release(job->cost, job->working);
    context_.jobs.Recycle(std::move(job));
    Fault(wire::ProtocolFault::UNKNOWN, "internal error while " + what + ": " + failure);
    return;
  }
  // Counted as answered (or cancelled) only once the writer knows whether it was written.
  Queue(std::move(job));
}

}  // namespace sudoku::daemon
