#include "daemon/server.h"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <span>
#include <sstream>
#include <string_view>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "daemon/generate.h"
#include "daemon/log.h"
#include "proto/sudoku.pb.h"
#include "solver/solver.h"

namespace sudoku::daemon {

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;
using asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using Kind = wire::ProtocolFault::Kind;

namespace {

// The first read of a connection, and the least any read asks for. Small, so that idle
// connections cost little; a frame known to be larger is read in one go.
constexpr size_t kReadChunk = 16 << 10;
// The most one read asks for: a frame that declares a large body gets memory as its bytes
// arrive, not all at once on the word of its header.
constexpr size_t kMaxReadChunk = 1 << 20;
// A read buffer grown past this by a large frame is given back once it is empty.
constexpr size_t kMaxIdleReadBuffer = 1 << 20;
// One write gathers at most this many responses.
constexpr size_t kMaxGather = 64;
// After its last response a connection is shut down for sending and kept open this long, reading
// and discarding, so that the peer can read everything before the close (closing a socket with
// unread input makes the kernel send a reset, which can destroy responses not yet read).
constexpr auto kLinger = std::chrono::seconds(2);
// After a drain timeout, how long to wait for cancelled batches to notice before giving up on
// them (a single puzzle cannot be interrupted).
constexpr auto kAbandonAfter = std::chrono::seconds(1);
// Batch objects kept for reuse, and the largest batch whose object is kept (bigger ones would
// pin their memory).
constexpr size_t kMaxFreeBatches = 8;
constexpr int kMaxRecycledPuzzles = 4096;

std::string EndpointText(const tcp::endpoint& endpoint) {
  std::ostringstream out;
  out << endpoint;
  return out.str();
}

// Logs what escaped a coroutine; the connection's own handler also tears it down.
void LogException(const std::string& where, std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    Log(LogLevel::kError, where + ": " + e.what());
  } catch (...) {
    Log(LogLevel::kError, where + ": unknown exception");
  }
}

}  // namespace

// The bytes read from one connection and not consumed yet. Unlike asio::streambuf, which
// doubles, it grows by half (or to what is asked, if more) and leaves new memory untouched until
// bytes land in it: with many connections each holding a large frame, that saves about a third
// of the daemon's memory.
class ReadBuffer {
 public:
  std::string_view data() const { return {storage_.get() + begin_, end_ - begin_}; }
  size_t size() const { return end_ - begin_; }
  size_t capacity() const { return capacity_; }

  // Room for `n` more bytes after the data.
  asio::mutable_buffer Prepare(size_t n) {
    if (capacity_ - end_ < n) {
      if (capacity_ - size() >= n) {
        std::memmove(storage_.get(), storage_.get() + begin_, size());
      } else {
        const size_t capacity = std::max(size() + n, capacity_ + capacity_ / 2);
        auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
        if (size() > 0) std::memcpy(bigger.get(), storage_.get() + begin_, size());
        storage_ = std::move(bigger);
        capacity_ = capacity;
      }
      end_ -= begin_;
      begin_ = 0;
    }
    return asio::buffer(storage_.get() + end_, n);
  }
  void Commit(size_t n) { end_ += n; }
  void Consume(size_t n) {
    begin_ += n;
    if (begin_ == end_) begin_ = end_ = 0;
  }
  // Gives the memory back.
  void Reset() {
    storage_.reset();
    capacity_ = begin_ = end_ = 0;
  }

 private:
  std::unique_ptr<char[]> storage_;
  size_t capacity_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
};

// A lone small batch is solved on the event loop when the solver threads are idle: waking an
// arena thread and being woken back costs two thread hand-offs, measured at 10 to 80 usec on a
// 2-vCPU VM, where solving a puzzle takes 1 to 10 usec. Under load (anything on the arena) batches
// go to the arena as usual, so the event loop never becomes the solver. Small and with at most
// two solutions wanted, so that the loop is held for microseconds only.
constexpr int kSolveHerePuzzles = 4;
constexpr uint32_t kSolveHereSolutionLimit = 2;

// One SolveRequest on its way through the daemon, or one ProtocolFault to send.
struct Server::Batch {
  wire::Request request;
  wire::Response response;
  std::string frame;     // the framed response, built on the arena
  BatchCounts counts;
  size_t cost = 0;       // puzzles charged against the in-flight limits (at least 1)
  bool complete = false; // solved to the end (not cancelled)
  bool fault = false;    // a ProtocolFault: the connection closes once it is written
  bool stats = false;    // a StatsResponse
  Clock::time_point received;  // when its frame was read, for the latency histogram
  double solve_seconds = 0;    // time on the pool
};

// One client. Its coroutines (reader, writer, idle watch, one per batch in flight) each hold a
// shared_ptr to it, so its state outlives every batch still on the arena, even after the socket
// is gone.
class Server::Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Server& server, tcp::socket socket, std::string peer)
      : server_(server),
        socket_(std::move(socket)),
        peer_(std::move(peer)),
        gate_(socket_.get_executor()),
        wake_(socket_.get_executor()),
        linger_(socket_.get_executor()),
        idle_(socket_.get_executor()),
        last_activity_(Clock::now()) {
    server_.connections_.insert(this);
  }

  ~Connection() { server_.ConnectionClosed(this); }

  // Serves the connection: counts it against --max-connections until it closes.
  void Start() {
    counted_ = true;
    ++server_.served_;
    ++server_.stats_.connections;
    Spawn(&Connection::Reader);
    Spawn(&Connection::Writer);
    if (server_.options_.idle_timeout.count() > 0) Spawn(&Connection::IdleWatch);
  }

  // Sends `kind` and closes without reading a request.
  void Refuse(Kind kind, const std::string& message) {
    Fault(kind, message);
    Spawn(&Connection::Reader);  // only discards, until the peer closes
    Spawn(&Connection::Writer);
  }

  // The drain: no further request is read; what was accepted is answered, then the connection
  // closes.
  void StopReading() {
    if (read_done_) return;
    read_done_ = true;
    server_.LeaveAdmissionQueue(this);
    gate_.cancel();
    wake_.cancel();
  }

  // Drops everything and closes now. Batches on the arena are cancelled and their results
  // discarded when they come back.
  void Abort() {
    if (aborted_) return;
    aborted_ = true;
    read_done_ = true;
    cancel_.store(true, std::memory_order_relaxed);
    DropQueued();
    server_.LeaveAdmissionQueue(this);
    Close();
  }

  // Capacity was released; a reader waiting for it checks again.
  void WakeGate() { gate_.cancel(); }

  bool counted() const { return counted_; }
  size_t in_flight() const { return in_flight_; }
  size_t batches_in_flight() const {
    size_t queued = 0;
    for (const auto& batch : queue_) queued += batch->fault || batch->stats ? 0 : 1;
    return solving_ + queued;
  }

  bool queued_for_admission = false;  // in Server::admission_queue_

 private:
  void Spawn(awaitable<void> (Connection::*coroutine)(std::shared_ptr<Connection>)) {
    auto self = shared_from_this();
    asio::co_spawn(socket_.get_executor(), (this->*coroutine)(self),
                   [self](std::exception_ptr error) {
                     if (!error) return;
                     LogException(self->peer_, error);
                     self->Abort();
                   });
  }

  bool accepting() const { return !read_done_; }
  void Touch() { last_activity_ = Clock::now(); }

  // Each coroutine takes `self` only to keep the connection alive while it runs.
  awaitable<void> Reader(std::shared_ptr<Connection> self);
  awaitable<void> Writer(std::shared_ptr<Connection> self);
  awaitable<void> IdleWatch(std::shared_ptr<Connection> self);
  awaitable<void> RunBatch(std::shared_ptr<Connection> self, std::unique_ptr<Batch> batch);
  void Solve(Batch* job);
  // After Solve(): queues the response for the writer, or drops it (connection gone, cancelled),
  // or faults the connection (`failure`: what Solve() threw).
  void Solved(std::unique_ptr<Batch> batch, const std::string& failure);
  // Whether `request` is solved on the event loop (see kSolveHerePuzzles).
  bool SolveHere(const wire::SolveRequest& request) const {
    return PuzzleCount(request) <= kSolveHerePuzzles &&
           request.solution_limit() <= kSolveHereSolutionLimit && server_.pool_.busy() == 0;
  }
  // Generates a GenerateRequest's puzzles a chunk at a time, queueing each chunk's response.
  awaitable<void> RunGenerate(std::shared_ptr<Connection> self, std::unique_ptr<Batch> request);
  bool HandleGenerate(const std::string& where, std::unique_ptr<Batch> request);
  // Waits until this connection and the daemon are both below their in-flight limits. False
  // when reading stopped meanwhile.
  awaitable<bool> WaitForCapacity();
  // Handles one whole frame body: a batch sent to the arena, or a fault. False when it faulted.
  bool HandleFrame(std::string_view body);
  void EndOfInput();

  void Fault(Kind kind, const std::string& message);
  void Release(size_t cost) {
    in_flight_ -= cost;
    server_.ReleaseCapacity(cost);
    gate_.cancel();
  }
  void DropQueued() {
    for (auto& batch : queue_) {
      Release(batch->cost);
      server_.Recycle(std::move(batch));
    }
    queue_.clear();
  }
  void Close() {
    if (closed_) return;
    closed_ = true;
    read_done_ = true;
    boost::system::error_code ignored;
    socket_.close(ignored);
    gate_.cancel();
    wake_.cancel();
    linger_.cancel();
    idle_.cancel();
  }

  Server& server_;
  tcp::socket socket_;
  const std::string peer_;
  ReadBuffer input_;
  uint64_t frames_ = 0;  // whole frames read, for messages ("frame 3 ...")

  asio::steady_timer gate_;    // the reader waits here for in-flight capacity
  asio::steady_timer wake_;    // the writer waits here for responses
  asio::steady_timer linger_;  // the writer waits here for the peer to close
  asio::steady_timer idle_;
  Clock::time_point last_activity_;

  std::deque<std::unique_ptr<Batch>> queue_;  // responses waiting for the writer
  std::atomic<bool> cancel_{false};           // read by the arena: stop solving this connection's batches
  size_t in_flight_ = 0;                      // puzzles admitted and not yet written or dropped
  size_t solving_ = 0;                        // batches on the arena

  bool counted_ = false;      // counts against --max-connections
  bool read_done_ = false;    // no further request will be read (end of input, drain, fault)
  bool peer_closed_ = false;  // the peer has shut down its side
  bool faulted_ = false;      // a fault is queued; nothing else will be written
  bool writing_ = false;      // the writer waits for a write to complete
  bool aborted_ = false;      // everything dropped
  bool closed_ = false;       // the socket is closed
};

awaitable<void> Server::Connection::Reader([[maybe_unused]] std::shared_ptr<Connection> self) {
  const ServerOptions& options = server_.options_;
  boost::system::error_code error;
  size_t want = kReadChunk;
  while (accepting()) {
    // Whole frames already buffered are handled before reading more.
    const std::string_view buffered = input_.data();
    const wire::FrameHeader header = wire::DecodeFrameHeader(buffered, options.max_frame_bytes);
    using Status = wire::FrameHeader::Status;
    if (header.status == Status::kTooLarge) {
      Fault(wire::ProtocolFault::FRAME_TOO_LARGE,
            "frame " + std::to_string(frames_ + 1) + " of " + std::to_string(header.body_bytes) +
                " bytes exceeds --max-frame-bytes " + std::to_string(options.max_frame_bytes));
      break;
    }
    if (header.status == Status::kMalformed) {
      Fault(wire::ProtocolFault::MALFORMED,
            "frame " + std::to_string(frames_ + 1) + ": the length prefix is not a varint (" +
                std::to_string(wire::kMaxLengthPrefixBytes) + " bytes without an end)");
      break;
    }
    if (header.status == Status::kComplete) {
      const size_t frame_bytes = header.prefix_bytes + header.body_bytes;
      if (buffered.size() >= frame_bytes) {
        // Nothing is parsed before there is room for it: a connection waiting here holds one
        // raw frame, and what is in flight stays within a batch of the limits.
        if (!co_await WaitForCapacity()) break;
        ++frames_;
        Touch();
        const bool ok = HandleFrame(buffered.substr(header.prefix_bytes, header.body_bytes));
        input_.Consume(frame_bytes);
        if (!ok) break;
        continue;
      }
      want = std::clamp(frame_bytes - buffered.size(), kReadChunk, kMaxReadChunk);
    } else {
      want = kReadChunk;
    }
    // Whatever room the buffer already has is offered too: a peer sending large frames is then
    // read in one system call per frame, not one for the header's chunk and one for the rest.
    want = std::max(want, std::min(input_.capacity() - input_.size(), kMaxReadChunk));
    // At a limit, the socket is left unread: TCP then pushes back on the sender.
    if (!co_await WaitForCapacity()) break;
    // An answer solved here waits for the writer, whose wake-up is posted: let it write first,
    // before this read's first attempt (which finds nothing yet) costs the answer a system call.
    if (!queue_.empty()) co_await asio::post(socket_.get_executor(), use_awaitable);
    if (input_.size() == 0 && input_.capacity() > kMaxIdleReadBuffer) input_.Reset();
    const size_t n = co_await socket_.async_read_some(
        input_.Prepare(want), asio::redirect_error(use_awaitable, error));
    if (error) break;
    input_.Commit(n);
    server_.stats_.bytes_received += n;
    Touch();
  }
  // Not accepting requests any more. Keep reading and discarding until the peer closes (or the
  // writer's linger ends and closes the socket), so that our close never resets a connection
  // whose peer has not read everything yet.
  while (!error && !closed_) {
    input_.Consume(input_.size());
    co_await socket_.async_read_some(input_.Prepare(kReadChunk),
                                     asio::redirect_error(use_awaitable, error));
  }
  if (error == asio::error::eof) {
    EndOfInput();
  } else if (error && error != asio::error::operation_aborted && !closed_) {
    // Reset by the peer, or the like: nobody is left to answer.
    Abort();
  }
  input_.Reset();
}

// The peer has shut down its sending side: answer what was accepted, then close. A partial frame
// left over is reported.
void Server::Connection::EndOfInput() {
  peer_closed_ = true;
  if (accepting() && input_.size() > 0) {
    const std::string_view buffered = input_.data();
    const wire::FrameHeader header =
        wire::DecodeFrameHeader(buffered, server_.options_.max_frame_bytes);
    std::string detail = header.status == wire::FrameHeader::Status::kComplete
                             ? std::to_string(buffered.size() - header.prefix_bytes) + " of " +
                                   std::to_string(header.body_bytes) + " body bytes received"
                             : "inside its length prefix";
    Fault(wire::ProtocolFault::MALFORMED, "the connection was closed in the middle of frame " +
                                              std::to_string(frames_ + 1) + " (" + detail + ")");
  }
  read_done_ = true;
  server_.LeaveAdmissionQueue(this);
  linger_.cancel();
  wake_.cancel();
}

bool Server::Connection::HandleFrame(std::string_view body) {
  std::unique_ptr<Batch> batch = server_.NewBatch();
  RequestKind kind;
  const size_t max_batch = server_.options_.max_batch;
  if (auto fault = CheckRequest(body, frames_, max_batch, &batch->request, &kind)) {
    server_.Recycle(std::move(batch));
    Fault(fault->kind(), fault->message());
    return false;
  }
  if (kind == RequestKind::kStats) {
    // Answered at once, from the counts as they are now. It costs one against the in-flight
    // limits, as an empty batch does, so that a peer sending Stats requests without reading
    // the answers is stopped like any other.
    batch->response.Clear();
    FillStats(server_.Snapshot(), batch->response.mutable_stats());
    batch->frame.clear();
    wire::AppendFrame(batch->response, &batch->frame);
    batch->stats = true;
    batch->cost = 1;
    in_flight_ += batch->cost;
    server_.in_flight_ += batch->cost;
    queue_.push_back(std::move(batch));
    wake_.cancel();
    return true;
  }
  if (kind == RequestKind::kGenerate) {
    return HandleGenerate("frame " + std::to_string(frames_), std::move(batch));
  }
  // A batch, or an explanation (one puzzle, with an empty batch).
  const wire::SolveRequest& solve = batch->request.solve();
  const auto puzzles = static_cast<size_t>(PuzzleCount(solve));
  // An empty batch still costs one, so that a flood of them stays bounded too.
  batch->cost = std::max<size_t>(puzzles, 1);
  batch->received = Clock::now();
  in_flight_ += batch->cost;
  server_.in_flight_ += batch->cost;
  // Counted now, not when the coroutine starts, so that the writer never sees "input ended,
  // nothing solving" while this batch is on its way to the arena.
  ++solving_;
  // An explanation runs the logical solver, far slower than a few puzzles: always on the arena.
  if (!batch->request.has_explain() && SolveHere(solve)) {
    std::string failure;
    try {
      Solve(batch.get());
    } catch (const std::exception& e) {
      failure = e.what();
    }
    Solved(std::move(batch), failure);
    return !faulted_;
  }
  asio::co_spawn(socket_.get_executor(), RunBatch(shared_from_this(), std::move(batch)),
                 [self = shared_from_this()](std::exception_ptr error) {
                   if (!error) return;
                   LogException(self->peer_, error);
                   self->Abort();
                 });
  return true;
}

bool Server::Connection::HandleGenerate(const std::string& where, std::unique_ptr<Batch> request) {
  const wire::GenerateRequest& generate = request->request.generate();
  const std::string refusal = CheckGenerateRequest(generate, server_.options_.max_batch);
  if (!refusal.empty()) {
    server_.Recycle(std::move(request));
    Fault(wire::ProtocolFault::BAD_GENERATE_REQUEST, where + ": " + refusal);
    return false;
  }
  // Charged like a batch of `count` puzzles; each chunk's share is released once it is written.
  request->cost = generate.count();
  in_flight_ += request->cost;
  server_.in_flight_ += request->cost;
  ++solving_;
  asio::co_spawn(socket_.get_executor(), RunGenerate(shared_from_this(), std::move(request)),
                 [self = shared_from_this()](std::exception_ptr error) {
                   if (!error) return;
                   LogException(self->peer_, error);
                   self->Abort();
                 });
  return true;
}

awaitable<void> Server::Connection::RunGenerate([[maybe_unused]] std::shared_ptr<Connection> self,
                                                std::unique_ptr<Batch> request) {
  const wire::GenerateRequest& generate = request->request.generate();
  size_t unreleased = request->cost;
  for (uint32_t begin = 0; begin < generate.count();) {
    if (aborted_ || faulted_ || closed_) break;
    const uint32_t end = std::min(generate.count(), begin + kGenerateChunk);
    std::unique_ptr<Batch> chunk = server_.NewBatch();
    chunk->received = Clock::now();  // a chunk's latency: its generation and its write
    Batch* job = chunk.get();
    std::string failure;
    try {
      co_await server_.pool_.Run(
          socket_.get_executor(),
          [job, &generate, begin, end, cancel = &cancel_] {
            job->complete = GenerateChunk(generate, begin, end, *cancel,
                                          job->response.mutable_generate());
            if (job->complete) {
              job->frame.clear();
              wire::AppendFrame(job->response, &job->frame);
            }
          },
          use_awaitable);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    Touch();
    if (aborted_ || faulted_ || closed_ || (failure.empty() && !job->complete)) {
      server_.Recycle(std::move(chunk));
      break;
    }
    if (!failure.empty()) {
      server_.Recycle(std::move(chunk));
      Fault(wire::ProtocolFault::UNKNOWN, "internal error while generating for request " +
                                              std::to_string(generate.request_id()) + ": " +
                                              failure);
      break;
    }
    chunk->cost = end - begin;
    unreleased -= chunk->cost;
    queue_.push_back(std::move(chunk));
    wake_.cancel();
    begin = end;
  }
  --solving_;
  Release(unreleased);
  server_.Recycle(std::move(request));
  wake_.cancel();
}

awaitable<bool> Server::Connection::WaitForCapacity() {
  const size_t limit = server_.options_.max_in_flight_per_connection;
  boost::system::error_code ignored;
  for (;;) {
    if (!accepting()) {
      server_.LeaveAdmissionQueue(this);
      co_return false;
    }
    if (in_flight_ < limit && server_.TryAdmit(this)) co_return true;
    gate_.expires_at(Clock::time_point::max());
    co_await gate_.async_wait(asio::redirect_error(use_awaitable, ignored));
  }
}

// Solves `job` and frames its response; where is the caller's choice (see SolveHere).
void Server::Connection::Solve(Batch* job) {
  const auto start = Clock::now();
  if (job->request.has_explain()) {  // one puzzle, costing 1 like an empty batch
    ExplainPuzzle(job->request.explain(), job->response.mutable_explain());
    job->counts = BatchCounts{};
    job->complete = true;
  } else {
    job->complete =
        SolveBatch(job->request.solve(), cancel_, job->response.mutable_solve(), &job->counts);
  }
  if (job->complete) {
    job->frame.clear();
    wire::AppendFrame(job->response, &job->frame);
  }
  job->solve_seconds = std::chrono::duration<double>(Clock::now() - start).count();
}

awaitable<void> Server::Connection::RunBatch([[maybe_unused]] std::shared_ptr<Connection> self,
                                             std::unique_ptr<Batch> batch) {
  Batch* job = batch.get();
  std::string failure;
  try {
    co_await server_.pool_.Run(socket_.get_executor(), [this, job] { Solve(job); },
                               use_awaitable);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  Solved(std::move(batch), failure);
}

void Server::Connection::Solved(std::unique_ptr<Batch> batch, const std::string& failure) {
  Batch* job = batch.get();
  --solving_;
  Touch();
  if (aborted_ || faulted_ || closed_ || !job->complete) {
    ++server_.stats_.batches_cancelled;
    Release(job->cost);
    server_.Recycle(std::move(batch));
    wake_.cancel();
    return;
  }
  if (!failure.empty()) {
    const uint64_t id = job->request.solve().batch_id();
    Release(job->cost);
    server_.Recycle(std::move(batch));
    Fault(wire::ProtocolFault::UNKNOWN,
          "internal error while solving batch " + std::to_string(id) + ": " + failure);
    return;
  }
  ++server_.stats_.batches;
  server_.stats_.puzzles.Add(job->counts);
  server_.stats_.batch_solve_seconds.Observe(job->solve_seconds);
  queue_.push_back(std::move(batch));
  wake_.cancel();
}

awaitable<void> Server::Connection::Writer([[maybe_unused]] std::shared_ptr<Connection> self) {
  boost::system::error_code error;
  std::vector<std::unique_ptr<Batch>> writing;
  std::vector<asio::const_buffer> buffers;
  bool last = false;
  while (!last) {
    while (!aborted_ && queue_.empty() && !(read_done_ && solving_ == 0)) {
      wake_.expires_at(Clock::time_point::max());
      co_await wake_.async_wait(asio::redirect_error(use_awaitable, error));
    }
    if (aborted_) co_return;
    if (queue_.empty()) break;  // nothing more will come
    while (!queue_.empty() && writing.size() < kMaxGather && !last) {
      last = queue_.front()->fault;
      writing.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    buffers.clear();
    for (const auto& batch : writing) buffers.push_back(asio::buffer(batch->frame));
    // Written piece by piece so that each piece the peer takes counts as activity: only a peer
    // that reads nothing at all for --idle-timeout is dropped, however slowly it reads.
    writing_ = true;
    size_t sent = 0;
    error.clear();  // the wake-up above left operation_aborted in it
    for (size_t first = 0; first < buffers.size() && !error;) {
      size_t n = co_await socket_.async_write_some(
          std::span(buffers).subspan(first), asio::redirect_error(use_awaitable, error));
      Touch();
      sent += n;
      while (first < buffers.size() && n >= buffers[first].size()) n -= buffers[first++].size();
      if (first < buffers.size()) buffers[first] += n;
    }
    writing_ = false;
    server_.stats_.bytes_sent += sent;
    const auto written = Clock::now();
    for (auto& batch : writing) {
      if (!error && !batch->fault && !batch->stats) {
        server_.stats_.batch_latency_seconds.Observe(
            std::chrono::duration<double>(written - batch->received).count());
      }
      Release(batch->cost);
      server_.Recycle(std::move(batch));
    }
    writing.clear();
    if (error) {
      Abort();
      co_return;
    }
    Touch();
  }
  // Everything is answered (or the fault is sent): end our side, let the peer read it all.
  socket_.shutdown(tcp::socket::shutdown_send, error);
  if (!peer_closed_ && !closed_) {
    linger_.expires_after(kLinger);
    co_await linger_.async_wait(asio::redirect_error(use_awaitable, error));
  }
  Close();
}

awaitable<void> Server::Connection::IdleWatch([[maybe_unused]] std::shared_ptr<Connection> self) {
  const auto timeout = server_.options_.idle_timeout;
  boost::system::error_code ignored;
  while (!closed_) {
    idle_.expires_at(last_activity_ + timeout);
    co_await idle_.async_wait(asio::redirect_error(use_awaitable, ignored));
    if (closed_) co_return;
    const auto now = Clock::now();
    if (solving_ > 0 || queued_for_admission) {
      last_activity_ = now;  // the peer is waiting for us, not idle
      continue;
    }
    if (now < last_activity_ + timeout) continue;
    if (writing_) {
      // A write has not moved for a whole timeout: the peer reads nothing (and, since the
      // daemon stops reading a connection whose answers pile up, it cannot be sending either).
      // A fault could not reach it: drop its work and close.
      LogLine(peer_ + ": the peer has read nothing for " + std::to_string(timeout.count()) +
              " s (--idle-timeout " + std::to_string(timeout.count()) +
              "); dropping the answers to " + std::to_string(in_flight_) +
              " puzzles and closing the connection");
      Abort();
      co_return;
    }
    if (read_done_) {
      // Already closing, and no byte moved for a whole timeout (a peer that does not read).
      Abort();
      co_return;
    }
    Fault(wire::ProtocolFault::IDLE_TIMEOUT,
          "nothing received for " + std::to_string(timeout.count()) + " s (--idle-timeout " +
              std::to_string(timeout.count()) + ")");
    Touch();
  }
}

void Server::Connection::Fault(Kind kind, const std::string& message) {
  if (faulted_ || aborted_) return;
  faulted_ = true;
  read_done_ = true;
  cancel_.store(true, std::memory_order_relaxed);
  ++server_.stats_.faults;
  ++server_.stats_.faults_by_kind[static_cast<size_t>(kind)];
  Log(LogLevel::kNotice, peer_ + ": protocol fault " + wire::ProtocolFault::Kind_Name(kind) +
                             ": " + message + "; closing the connection");
  DropQueued();
  server_.LeaveAdmissionQueue(this);
  std::unique_ptr<Batch> fault = server_.NewBatch();
  fault->fault = true;
  fault->cost = 0;
  fault->response.Clear();
  fault->response.mutable_fault()->set_kind(kind);
  fault->response.mutable_fault()->set_message(message);
  fault->frame.clear();
  wire::AppendFrame(fault->response, &fault->frame);
  queue_.push_back(std::move(fault));
  wake_.cancel();
  gate_.cancel();
}

Server::Server(asio::io_context& io, Pool& pool, const ServerOptions& options)
    : io_(io), pool_(pool), options_(options), acceptor_(io), drain_timer_(io), abandon_timer_(io) {}

Server::~Server() = default;

tcp::endpoint Server::Listen() {
  const tcp::endpoint& endpoint = options_.listen;
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(tcp::acceptor::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(asio::socket_base::max_listen_connections);
  return acceptor_.local_endpoint();
}

tcp::endpoint Server::Adopt(int socket) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getsockname(socket, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw boost::system::system_error(errno, boost::system::system_category(), "getsockname");
  }
  acceptor_.assign(address.ss_family == AF_INET6 ? tcp::v6() : tcp::v4(), socket);
  acceptor_.listen(asio::socket_base::max_listen_connections);  // a no-op if it listens already
  return acceptor_.local_endpoint();
}

void Server::Start() {
  asio::co_spawn(io_, Accept(), [](std::exception_ptr error) {
    if (error) LogException("accept loop", error);
  });
}

awaitable<void> Server::Accept() {
  boost::system::error_code error;
  asio::steady_timer backoff(io_);
  for (;;) {
    tcp::socket socket(io_);
    co_await acceptor_.async_accept(socket, asio::redirect_error(use_awaitable, error));
    if (!acceptor_.is_open()) co_return;
    if (error) {
      // Out of descriptors or memory: that lasts until something closes, so wait, do not spin.
      Log(LogLevel::kWarning, "cannot accept a connection: " + error.message());
      backoff.expires_after(std::chrono::milliseconds(100));
      co_await backoff.async_wait(asio::redirect_error(use_awaitable, error));
      continue;
    }
    socket.set_option(tcp::no_delay(true), error);  // a lone small batch must not wait for Nagle
    const tcp::endpoint remote = socket.remote_endpoint(error);
    auto connection = std::make_shared<Connection>(*this, std::move(socket),
                                                   error ? "unknown peer" : EndpointText(remote));
    if (served_ >= options_.max_connections) {
      connection->Refuse(wire::ProtocolFault::TOO_MANY_CONNECTIONS,
                         "the daemon already serves " + std::to_string(served_) +
                             " connections (--max-connections " +
                             std::to_string(options_.max_connections) + ")");
    } else {
      connection->Start();
    }
  }
}

void Server::Drain(const std::string& reason) {
  if (stopped_) return;
  if (draining_) {
    CancelRemaining("a second " + reason);
    return;
  }
  draining_ = true;
  // Closed before the log line says so: whoever reads the line may count on it.
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  size_t batches = 0;
  size_t puzzles = 0;
  InFlight(&batches, &puzzles);
  LogLine(reason + ": stopped accepting; draining " + std::to_string(connections_.size()) +
          " connections with " + std::to_string(batches) + " batches (" +
          std::to_string(puzzles) + " puzzles) in flight (--drain-timeout " +
          std::to_string(options_.drain_timeout.count()) + ")");
  for (Connection* connection : connections_) connection->StopReading();
  if (connections_.empty()) {
    Finish();
    return;
  }
  drain_timer_.expires_after(options_.drain_timeout);
  drain_timer_.async_wait([this](const boost::system::error_code& error) {
    if (!error) {
      CancelRemaining("the drain timeout (" + std::to_string(options_.drain_timeout.count()) +
                      " s)");
    }
  });
}

void Server::CancelRemaining(const std::string& why) {
  if (stopped_ || abandoned_) return;
  size_t batches = 0;
  size_t puzzles = 0;
  InFlight(&batches, &puzzles);
  Log(LogLevel::kWarning, "after " + why + ": cancelled " + std::to_string(batches) +
                              " batches (" + std::to_string(puzzles) + " puzzles) on " +
                              std::to_string(connections_.size()) + " connections");
  drain_timer_.cancel();
  // Abort() never destroys a connection on the spot (its coroutines hold it), so iterating is
  // safe.
  for (Connection* connection : connections_) connection->Abort();
  abandon_timer_.expires_after(kAbandonAfter);
  abandon_timer_.async_wait([this](const boost::system::error_code& error) {
    if (error || stopped_) return;
    abandoned_ = true;
    Log(LogLevel::kWarning,
        "abandoning " + std::to_string(pool_.busy()) +
            " batches still queued or solving (a puzzle cannot be interrupted)");
    io_.stop();
  });
}

void Server::ConnectionClosed(Connection* connection) {
  LeaveAdmissionQueue(connection);
  connections_.erase(connection);
  if (connection->counted()) --served_;
  if (draining_ && connections_.empty()) Finish();
}

void Server::Finish() {
  if (stopped_) return;
  stopped_ = true;
  drain_timer_.cancel();
  abandon_timer_.cancel();
  if (on_stopped_) on_stopped_();
}

bool Server::TryAdmit(Connection* connection) {
  const bool first_in_line =
      admission_queue_.empty() || admission_queue_.front() == connection;
  if (first_in_line && in_flight_ < options_.max_in_flight) {
    LeaveAdmissionQueue(connection);
    return true;
  }
  if (!connection->queued_for_admission) {
    connection->queued_for_admission = true;
    admission_queue_.push_back(connection);
  }
  return false;
}

void Server::LeaveAdmissionQueue(Connection* connection) {
  if (!connection->queued_for_admission) return;
  connection->queued_for_admission = false;
  const bool was_first = admission_queue_.front() == connection;
  admission_queue_.erase(std::find(admission_queue_.begin(), admission_queue_.end(), connection));
  if (was_first && !admission_queue_.empty()) admission_queue_.front()->WakeGate();
}

void Server::ReleaseCapacity(size_t cost) {
  in_flight_ -= cost;
  if (!admission_queue_.empty()) admission_queue_.front()->WakeGate();
}

std::unique_ptr<Server::Batch> Server::NewBatch() {
  if (free_batches_.empty()) return std::make_unique<Batch>();
  std::unique_ptr<Batch> batch = std::move(free_batches_.back());
  free_batches_.pop_back();
  return batch;
}

void Server::Recycle(std::unique_ptr<Batch> batch) {
  if (free_batches_.size() >= kMaxFreeBatches ||
      PuzzleCount(batch->request.solve()) > kMaxRecycledPuzzles) {
    return;
  }
  batch->complete = false;
  batch->fault = false;
  batch->stats = false;
  batch->cost = 0;
  free_batches_.push_back(std::move(batch));
}

void Server::InFlight(size_t* batches, size_t* puzzles) const {
  *batches = 0;
  *puzzles = 0;
  for (const Connection* connection : connections_) {
    *batches += connection->batches_in_flight();
    *puzzles += connection->in_flight();
  }
}

MetricsSnapshot Server::Snapshot() const {
  size_t batches = 0;
  size_t puzzles = 0;
  InFlight(&batches, &puzzles);
  return MetricsSnapshot{
      .stats = stats_,
      .connections_open = connections_.size(),
      .batches_in_flight = batches,
      .puzzles_in_flight = puzzles,
      .kernel = ActiveKernel().name,
      .threads = pool_.threads(),
      .uptime_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(),
  };
}

std::string Server::StatusText() const {
  size_t batches = 0;
  size_t puzzles = 0;
  InFlight(&batches, &puzzles);
  return std::to_string(connections_.size()) + " connections, " + std::to_string(batches) +
         " batches (" + std::to_string(puzzles) + " puzzles) in flight; " +
         std::to_string(stats_.batches) + " batches, " + std::to_string(stats_.puzzles.total()) +
         " puzzles answered; " + std::to_string(stats_.faults) + " protocol faults";
}

std::string Server::SummaryText() const {
  const BatchCounts& p = stats_.puzzles;
  return std::to_string(stats_.connections) + " connections, " + std::to_string(stats_.batches) +
         " batches, " + std::to_string(p.total()) + " puzzles (" + std::to_string(p.solved) +
         " solved, " + std::to_string(p.multiple) + " multiple, " + std::to_string(p.unsolvable) +
         " unsolvable, " + std::to_string(p.invalid) + " invalid), " +
         std::to_string(stats_.faults) + " protocol faults";
}

}  // namespace sudoku::daemon
