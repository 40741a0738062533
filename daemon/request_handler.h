// The daemon's one request handler, for every listener that takes requests: the protocol's
// connections (daemon/connection.h) and the JSON API (daemon/web_api.h). A listener decodes a
// request into a wire::Request and hands it here; the handler holds no socket. What it decides
// is written once, for both:
//   - whether a request is taken: a generation's count against --max-batch, its id unique among
//     its requester's requests in flight (RequestRefusal otherwise);
//   - what it costs against the budgets (Admission: puzzles in flight, the requester's share)
//     and whether it is long work (request_work.h's CostOf and IsLongWork);
//   - its work on the solver Pool, at its cost, cancelled when its requester goes;
//   - its counts (ServerStats): answered, cancelled, generated.
// The listeners differ in one policy, kept explicit: a protocol connection that finds no room
// waits for it (Admission::TryAdmit, and the socket is left unread), an API request is refused
// at once with 503 (RequestHandler::Busy). How an answer reaches its requester (frames queued
// for a writer, one HTTP response) is the listener's.
//
// Thread-safety: a RequestHandler and its Requesters live on the daemon's io_context thread;
// every member function must be called from there. Only the work runs on the Pool, and it
// touches nothing but its own Job and its requester's cancel flags.
#ifndef SUDOKU_DAEMON_REQUEST_HANDLER_H_
#define SUDOKU_DAEMON_REQUEST_HANDLER_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include "daemon/admission.h"
#include "daemon/metrics.h"
#include "daemon/pool.h"
#include "daemon/request_work.h"
#include "proto/codec.h"
#include "proto/sudoku.pb.h"

namespace sudoku::daemon {

// One request (a batch, an explanation, a GenerateRequest, a Stats request), or a chunk of a
// GenerateRequest's answer, on its way through the daemon, or one ProtocolFault to send.
struct Job {
  using Clock = std::chrono::steady_clock;

  wire::Request request;
  wire::RequestKind kind = wire::RequestKind::kNone;  // set by RequestHandler::Accept()
  wire::Response response;
  std::string frame;      // the framed response, built on the arena (the protocol's)
  wire::VerdictTally counts;
  size_t cost = 0;        // puzzles charged against the in-flight limits (at least 1)
  // Its cost still counts in the daemon-wide total of work not yet done (Admission): from
  // Charge() until its answer is ready, or it is dropped.
  bool working = false;
  size_t memory = 0;      // bytes of `frame` charged against --max-memory while queued
  bool complete = false;  // worked to the end (not cancelled)
  // Its requester was gone (its cancel flag set) when its turn came: its work never started.
  bool skipped = false;
  bool fault = false;     // a ProtocolFault: the connection closes once it is written
  bool at_once = false;   // answered on the event loop as it was read (Stats): not a batch
  // Work of unbounded cost (Pool::Cost::kLong): cancelled when the requester leaves.
  bool long_work = false;
  // What the requester asked for, counted once its answer is delivered (answered) or dropped
  // (cancelled): a batch, an explanation, or neither (a fault, stats, a generated chunk).
  enum class Asked : uint8_t { kOther, kBatch, kExplain };
  Asked asked = Asked::kOther;
  // The request id this job holds among its requester's ids in flight, freed once its answer
  // is about to be delivered or is dropped: a batch's batch_id, an explanation's request_id,
  // or on a generated chunk that ends its request, the request's request_id.
  enum class HeldId : uint8_t { kNone, kBatch, kExplain, kGenerate };
  HeldId held_id_kind = HeldId::kNone;
  uint64_t held_id = 0;
  Clock::time_point received;  // when its request was read, for the latency histogram
  double solve_seconds = 0;    // time on the pool
};

// Job objects are reused so that the protobuf messages keep their capacity: in a steady state no
// allocation is made per puzzle.
class JobPool {
 public:
  std::unique_ptr<Job> New();
  void Recycle(std::unique_ptr<Job> job);

 private:
  std::vector<std::unique_ptr<Job>> free_;
};

// Who asked: a protocol connection for its whole life, or one HTTP API request. What it holds
// in flight (its share is measured by it), the ids of its requests in flight, the flags its
// work reads to stop, and the account its work's CPU time is charged to (see FairQueue): a
// connection's own within its source address; the API's requests from one address share one.
class Requester {
 public:
  using Flag = std::shared_ptr<std::atomic<bool>>;

  // `cancel` stops all its work (it is gone, or the daemon stops); `cancel_long` its long work
  // only (as when a protocol peer closes its side). Both new when not given.
  explicit Requester(Account account, Flag cancel = nullptr, Flag cancel_long = nullptr);

  Requester(const Requester&) = delete;
  Requester& operator=(const Requester&) = delete;

  size_t in_flight() const { return in_flight_; }
  const Account& account() const { return account_; }
  void Cancel();
  void CancelLong() { cancel_long_->store(true, std::memory_order_relaxed); }
  bool long_cancelled() const { return cancel_long_->load(std::memory_order_relaxed); }
  // The flag `job`'s work stops at.
  const std::atomic<bool>& CancelFlagFor(const Job& job) const {
    return job.long_work ? *cancel_long_ : *cancel_;
  }
  const std::atomic<bool>& long_cancel_flag() const { return *cancel_long_; }

 // Its accounts, kept by the RequestHandler: takes `id` of `kind` among its ids in flight
  // (false when there already), frees it; `cost` puzzles taken into flight, given back.
  bool TakeId(Job::HeldId kind, uint64_t id) { return IdsOf(kind).insert(id).second; }
  void FreeId(Job::HeldId kind, uint64_t id) { IdsOf(kind).erase(id); }
  void Hold(size_t cost) { in_flight_ += cost; }
  void Drop(size_t cost) { in_flight_ -= cost; }

 private:
  std::unordered_set<uint64_t>& IdsOf(Job::HeldId kind);

  const Account account_;
  const Flag cancel_;
  const Flag cancel_long_;
  size_t in_flight_ = 0;  // puzzles admitted and not yet answered or dropped
  // The ids of the requests accepted whose answers are not yet delivered (or dropped), one set
  // per kind: one sent again while its first is in flight is refused, so that each answer
  // names one request.
  std::unordered_set<uint64_t> batch_ids_;
  std::unordered_set<uint64_t> explain_ids_;
  std::unordered_set<uint64_t> generate_ids_;
};

// Why a request was not taken: the protocol sends it as a ProtocolFault of `kind`, the API as
// 400 with `message`.
struct RequestRefusal {
  wire::ProtocolFault::Kind kind;
  std::string message;
};

class RequestHandler {
 public:
  // All must outlive the handler. `max_batch` bounds a generation's count (--max-batch);
  // `snapshot` gives the counts and state for a Stats request.
  RequestHandler(Pool& pool, Admission& admission, ServerStats& stats, JobPool& jobs,
                 size_t max_batch, std::function<MetricsSnapshot()> snapshot);

  RequestHandler(const RequestHandler&) = delete;
  RequestHandler& operator=(const RequestHandler&) = delete;

  Admission& admission() { return admission_; }
  JobPool& jobs() { return jobs_; }
  // An owner of its own within its source, for a new Requester (Pool::NewOwner).
  uint64_t NewOwner() { return pool_.NewOwner(); }
  // The account of the JSON API's requests from `address`: one for them all.
  static Account ApiAccount(std::string_view address) { return Account(SourceOf(address), 0); }

  // The refusal of a requester that does not wait (an API request, 503 with the message), for
  // a request of `cost` puzzles holding `bytes`: the daemon's budgets (puzzles in flight,
  // memory) without room for it by Admission's rules; nullopt when it may start now.
  std::optional<std::string> Busy(size_t cost, size_t bytes) const;

  // Takes `job`'s request, of `kind` as wire::CheckRequest() found it, for `requester`: checks
  // what the wire cannot (a generation against --max-batch, an id in flight already), then
  // charges its cost (CostOf) to the requester and the daemon and marks it long work or not. A
  // Stats request gets its answer here. The refusal leaves `job` and the accounts untouched.
  std::optional<RequestRefusal> Accept(Requester& requester, Job& job, wire::RequestKind kind);

  // Whether an accepted batch is better solved on the calling thread (the event loop) than on
  // the Pool: small, wanting at most two solutions, and nothing on the Pool.
  bool WorthSolvingHere(const Job& job) const;
  // The work of an accepted request (DoRequest: a batch, an explanation, a generation in one
  // piece): fills job.response and sets job.complete (false when cancelled first); `frame`: the
  // response is also framed into job.frame (the protocol's). Returns what the work threw, empty
  // when nothing. WorkNow does it on the calling thread, Work on the Pool at the job's cost.
  std::string WorkNow(const Requester& requester, Job& job, bool frame);
  boost::asio::awaitable<std::string> Work(boost::asio::any_io_executor executor,
                                           const Requester& requester, Job& job, bool frame);
  // Puzzles [begin, end) of an accepted generation `request`, on the Pool, into `chunk`'s
  // response (and frame), `chunk.complete` set as by Work. Once generated, call Generated().
  boost::asio::awaitable<std::string> Generate(boost::asio::any_io_executor executor,
                                               const Requester& requester, const Job& request,
                                               uint32_t begin, uint32_t end, Job& chunk,
                                               bool frame);
  // `chunk` of `request` generated, holding `puzzles` of its cost (which becomes the chunk's):
  // they leave the work to do and are counted; the `last` chunk takes over the request's id.
  void Generated(Job& request, Job& chunk, size_t puzzles, bool last);
  // A GenerateRequest stopped before its last chunk was made (its connection gone or faulted,
  // the drain timed out): counted as cancelled.
  void GenerateCancelled();

  // `job`'s work is done (its answer is ready): its cost leaves the daemon-wide total and stays
  // on its requester until delivered.
  void WorkDone(Job& job);
  // The end of what the requester asked for in `job`: counted as answered when its answer was
  // delivered (`delivered`), else as cancelled (and as dropped for a departed requester when its
  // work never started); its id is free again.
  void Ended(Requester& requester, Job& job, bool delivered);
  // The id `job` holds may be used again (its answer is about to be delivered, or dropped).
  void ReleaseId(Requester& requester, Job& job);
  // Gives back `cost` puzzles delivered or dropped; `working`: their work was not done.
  void Release(Requester& requester, size_t cost, bool working);

  // The whole of an accepted request for a requester that takes its answer in one piece (an
  // API request): its work on the Pool, then counted and given back as the protocol's port
  // counts a request answered or cancelled. Returns what the work threw; job.complete says
  // whether it ran to its end.
  boost::asio::awaitable<std::string> Serve(boost::asio::any_io_executor executor,
                                            Requester& requester, Job& job);

  // "internal error while solving batch 3: WHAT", naming the request as its requester did.
  static std::string InternalError(const Job& job, const std::string& failure);

  // `requests` its requester left before their work started (read whole and waiting for room):
  // counted, and logged as `why`, rate-limited. (Those skipped on the Pool are counted by
  // Ended().)
  void DroppedForDeparture(size_t requests, const std::string& why);

 private:
  // WorkNow's work, throwing what it throws.
  static void DoWork(const Requester& requester, Job& job, bool frame);
  // Runs `task` on the Pool at `cost` for `requester`; returns what it threw, empty when nothing.
  template <typename Task>
  boost::asio::awaitable<std::string> OnPool(boost::asio::any_io_executor executor, Task task,
                                             Pool::Cost cost, const Requester& requester,
                                             uint64_t weight);

  Pool& pool_;
  Admission& admission_;
  ServerStats& stats_;
  JobPool& jobs_;
  const size_t max_batch_;
  const std::function<MetricsSnapshot()> snapshot_;
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_REQUEST_HANDLER_H_
