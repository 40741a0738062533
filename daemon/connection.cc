// Connection's socket side (see connection.h): its start and one stop path, the reader (TLS,
// frames within the budgets), the writer, the watchdog and faults. The request side (each kind's
// handler, its charge, its work on the Pool) is in connection_requests.cc.
#include "daemon/connection.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <algorithm>
#include <exception>
#include <span>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "daemon/admission.h"
#include "daemon/log.h"
#include "daemon/request_work.h"
#include "proto/codec.h"
#include "proto/flag_values.h"
#include "proto/framing.h"
#include "proto/tls_files.h"

namespace sudoku::daemon {

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;

namespace {

// One write gathers at most this many responses.
constexpr size_t kMaxGather = 64;
// After its last response a connection is shut down for sending and kept open this long, reading
// and discarding, so that the peer can read everything before the close (closing a socket with
// unread input makes the kernel send a reset, which can destroy responses not yet read).
constexpr auto kLinger = std::chrono::seconds(2);

// A frame this large is decoded on the solver threads, not on the event loop: a batch of 65,536
// puzzles as text takes tens of milliseconds to decode (a string allocated per puzzle), and
// with dozens of clients sending such batches, decoding them took half of the event loop's
// time, so that accepts, health probes and everyone's small batches waited seconds for a turn.
// A small frame decodes in microseconds, less than the hand-off to a solver thread and back.
constexpr size_t kDecodeOnPoolBytes = 256 << 10;

}  // namespace

Connection::Connection(const ConnectionContext& context, Stream stream, std::string peer,
                       uint64_t source)
    : context_(context),
      stream_(std::move(stream)),
      peer_(std::move(peer)),
      wake_(stream_.get_executor()),
      deadline_(stream_.get_executor()),
      last_activity_(Clock::now()),
      connected_(last_activity_),
      requester_(Account(source, context.pool.NewOwner())) {
  secured_ = !stream_.tls();
  // A TLS record arriving slowly is progress: the connection is not idle meanwhile.
  stream_.OnRawReceive([this] { Touch(); });
  context_.connections.Add(this);
}

Connection::~Connection() {
  LeaveActivityOrder();
  context_.admission.MemoryChanged(memory_, 0);
  context_.admission.Leave(this);
  context_.connections.Closed(this);
}

void Connection::Start() {
  counted_ = true;
  activity_entry_ = context_.connections.Serve(this);
  in_activity_order_ = true;
  last_activity_ = Clock::now();
  ++context_.stats.connections;
  Spawn(Reader(shared_from_this()));
  Spawn(Writer(shared_from_this()));
  Spawn(Watchdog(shared_from_this()));
}

void Connection::Refuse(Kind kind, const std::string& message) {
  Fault(kind, message);
  Spawn(Reader(shared_from_this()));  // only discards, until the peer closes
  Spawn(Writer(shared_from_this()));
  Spawn(Watchdog(shared_from_this()));  // ends the linger
}

void Connection::Touch() {
  last_activity_ = Clock::now();
  if (in_activity_order_) context_.connections.MarkActive(activity_entry_);
}

void Connection::LeaveActivityOrder() {
  if (!in_activity_order_) return;
  context_.connections.LeaveActivityOrder(activity_entry_);
  in_activity_order_ = false;
}

bool Connection::Evictable() const {
  // A frame begun and not finished was not accepted: closing its connection loses nothing the
  // daemon took on, and a stalled sender is as idle as a silent one. A request read whole and
  // waiting for capacity was sent in full: that connection stays.
  return counted_ && reading() && !held_back_ && requester_.in_flight() == 0 && solving_ == 0 &&
         queue_.empty();
}

void Connection::Evict(const std::string& message) {
  Fault(wire::ProtocolFault::TOO_MANY_CONNECTIONS, message);
  LeaveActivityOrder();
  counted_ = false;
  context_.connections.FreeSlot();
}

size_t Connection::batches_in_flight() const {
  size_t queued = 0;
  for (const auto& job : queue_) queued += job->fault || job->at_once ? 0 : 1;
  return solving_ + queued + batches_writing_;
}

void Connection::Advance(Stage stage) {
  if (stage <= stage_) return;
  stage_ = stage;
  LeaveActivityOrder();
  context_.admission.Leave(this);
  if (stage >= Stage::kFaulted) {
    requester_.Cancel();
    DropQueued();
  }
  if (stage == Stage::kClosed) {
    stream_.Close();
    deadline_.cancel();
    // Its descriptor is closed, so its slot is free now: a cancelled batch still queued behind
    // long work keeps this object until a solver thread gets to it, which must not keep a
    // newcomer out.
    if (counted_) {
      counted_ = false;
      context_.connections.FreeSlot();
    }
  }
  Wake();
}

void Connection::Drain(const DrainNotice& notice) {
  if (reading()) {
    std::unique_ptr<Job> job = context_.requests.jobs().New();
    job->at_once = true;
    job->cost = 0;
    job->response.Clear();
    wire::Draining& draining = *job->response.mutable_draining();
    draining.set_last_frame(frames_taken_);
    draining.set_drain_timeout_ms(static_cast<uint64_t>(notice.timeout.count()));
    const std::string timeout = DurationText(notice.timeout);
    const std::string last = std::to_string(frames_taken_);
    draining.set_message(
        "sudokud is stopping (" + notice.reason + "): " +
        (frames_taken_ == 0 ? "it reads no frame of this connection"
                            : "it answers frames 1-" + last + " of this connection (within " +
                                  "--drain-timeout " + timeout + ") and reads none after frame " +
                                  last));
    wire::SetFrame(job->response, &job->frame);
    // Ahead of the answers queued: the client learns at once what to send elsewhere.
    Queue(std::move(job), /*ahead=*/true);
  }
  Advance(Stage::kAnswering);
}

void Connection::Spawn(awaitable<void> coroutine) {
  auto self = shared_from_this();
  asio::co_spawn(stream_.get_executor(), std::move(coroutine),
                 LogEscape([self] { return self->peer_; }, [self] { self->Abort(); }));
}

void Connection::UpdateMemory() {
  const size_t now =
      input_.capacity() + answer_bytes_ + waiting_request_bytes_ + stream_.memory();
  if (now == memory_) return;
  context_.admission.MemoryChanged(memory_, now);
  memory_ = now;
}

awaitable<void> Connection::Reader([[maybe_unused]] std::shared_ptr<Connection> self) {
  const ServerOptions& options = context_.options;
  boost::system::error_code error;
  if (!secured_ && !co_await Secure()) co_return;
  while (reading()) {
    // Whole frames already buffered are handled before reading more.
    const FrameScan scan = ScanFrame(input_.data(), options.max_frame_bytes, frames_ + 1);
    if (scan.status == FrameScan::Status::kFault) {
      Fault(scan.fault_kind, scan.fault_message);
      break;
    }
    if (scan.status == FrameScan::Status::kWhole) {
      // Decoding takes about as much memory again as the frame: it waits for room in the memory
      // budget as a read would (unless nothing else is held, when nothing could make room).
      if (context_.admission.memory() > memory_ &&
          !context_.admission.MayTakeMemory(this, memory_, scan.frame_bytes)) {
        co_await wake_.Wait();
        continue;
      }
      ++frames_;
      Touch();
      std::unique_ptr<Job> job = context_.requests.jobs().New();
      wire::RequestKind kind = wire::RequestKind::kNone;
      std::optional<wire::ProtocolFault> fault;
      // What it reads is this coroutine's (its frame outlives the work) or copied: a decode on
      // the solver threads may finish after the Server is gone, when the daemon stops.
      const auto decode = [&fault, &kind, request = &job->request, frame = frames_,
                           max_batch = options.max_batch,
                           body = input_.data().substr(scan.prefix_bytes,
                                                       scan.frame_bytes - scan.prefix_bytes)] {
        fault = wire::CheckRequest(body, frame, max_batch, request, &kind);
      };
      if (scan.frame_bytes < kDecodeOnPoolBytes) {
        decode();
      } else {
        // The buffer stays as it is meanwhile: only this coroutine changes it.
        // Weighed as the puzzles a frame of text of that size holds, as a batch is weighed.
        co_await context_.pool.Run(stream_.get_executor(), decode, use_awaitable,
                                   Pool::Cost::kBounded, requester_.account(),
                                   scan.frame_bytes / 83 + 1);
        Touch();
        if (!reading()) {
          context_.requests.jobs().Recycle(std::move(job));
          continue;
        }
      }
      input_.Consume(scan.frame_bytes);
      // The next frame's first bytes came with the last read at the latest: its time starts
      // there, not at the first byte of the frame just handled.
      if (input_.size() > 0) StartFrame(last_read_);
      if (fault) {
        context_.requests.jobs().Recycle(std::move(job));
        Fault(fault->kind(), fault->message());
        break;
      }
      // Decoded, so its cost is known, and nothing of it is solved before there is room for
      // that cost: what is in flight stays within the limits (see Admission::TryAdmit). While
      // it waits, the decoded request counts against --max-memory.
      waiting_request_bytes_ = job->request.SpaceUsedLong();
      UpdateMemory();
      const Admitted admitted =
          co_await WaitForCapacity(CostOf(job->request, kind), IsLongWork(job->request, kind));
      waiting_request_bytes_ = 0;
      UpdateMemory();
      if (admitted != Admitted::kAdmitted) {
        if (admitted == Admitted::kDropped) {
          context_.requests.DroppedForDeparture(
              1, peer_ + ": the peer closed its side while frame " + std::to_string(frames_) +
              " (work of unbounded cost) waited for room; dropped it before its work started");
        }
        context_.requests.jobs().Recycle(std::move(job));
        if (admitted == Admitted::kDropped) continue;
        break;
      }
      frames_taken_ = frames_;
      if (!HandleRequest(std::move(job), kind)) break;
      continue;
    }
    // At a limit, the socket is left unread: TCP then pushes back on the sender.
    if (co_await WaitForCapacity(1) != Admitted::kAdmitted) break;
    // An answer solved here waits for the writer, whose wake-up is posted: let it write first,
    // before this read's first attempt (which finds nothing yet) costs the answer a system call.
    if (!queue_.empty()) co_await asio::post(stream_.get_executor(), use_awaitable);
    if (input_.size() == 0 && input_.capacity() > kMaxIdleReadBuffer) {
      input_.Reset();
      UpdateMemory();
    }
    if (input_.capacity() == 0) {
      // No buffer until there is something to read: an idle connection holds no memory.
      stream_.ReleaseReadBuffer();
      UpdateMemory();
      co_await stream_.WaitRead(error);
      if (error) break;
      if (!reading()) continue;
    }
    size_t want = ReadSize(input_, scan);
    if (const size_t growth = input_.GrowthFor(want, scan.frame_bytes);
        growth > 0 && !context_.admission.MayTakeMemory(this, memory_, growth)) {
      // Over the memory budget and holding more than its share: read only into the room the
      // buffer has, if any, else wait until memory comes back.
      want = input_.capacity() - input_.size();
      if (want == 0) {
        co_await wake_.Wait();
        continue;
      }
    }
    const asio::mutable_buffer room = input_.Prepare(want, scan.frame_bytes);
    UpdateMemory();
    const size_t n = co_await stream_.ReadSome(room, error);
    UpdateMemory();  // TLS: its read buffer may have come or gone
    if (error) break;
    if (input_.size() == 0 && n > 0) {
      StartFrame(Clock::now());
      if (const auto limit = context_.options.frame_timeout;
          limit.count() > 0 && frame_started_ + limit < watchdog_expiry_) {
        deadline_.cancel();  // the watchdog sleeps past this frame's deadline
      }
    }
    input_.Commit(n);
    if (n > 0) last_read_ = Clock::now();
    context_.stats.bytes_received += n;
    Touch();
  }
  // Not accepting requests any more. Keep reading and discarding until the peer closes (or the
  // writer's linger ends and closes the socket), so that our close never resets a connection
  // whose peer has not read everything yet.
  while (!error && stage_ != Stage::kClosed) {
    input_.Consume(input_.size());
    const asio::mutable_buffer room = input_.Prepare(kReadChunk);
    UpdateMemory();
    co_await stream_.ReadSome(room, error);
  }
  if (error == asio::error::eof) {
    EndOfInput();
  } else if (error && error != asio::error::operation_aborted && stage_ != Stage::kClosed) {
    // Reset by the peer, or the like: nobody is left to answer. A TLS record that does not
    // decrypt is forged or corrupted on the way: OpenSSL's alert has told the peer, the log
    // tells the operator.
    if (error.category() == asio::error::get_ssl_category()) {
      ClientCausedLog().Log("TLS record error", LogLevel::kNotice,
                            peer_ + ": TLS error: " + TlsErrorReason(error) +
                                "; closing the connection");
    }
    Abort();
  }
  input_.Reset();
  UpdateMemory();
}

awaitable<bool> Connection::Secure() {
  boost::system::error_code error;
  const bool tls = co_await stream_.PeerSpeaksTls(error);
  if (stage_ == Stage::kClosed) co_return false;
  if (error) {  // closed (or reset) before sending anything: nobody to tell
    Abort();
    co_return false;
  }
  if (!tls) {
    // Most likely sudoku-client without --tls: tell it in the protocol it speaks.
    stream_.Demote();
    secured_ = true;
    Fault(wire::ProtocolFault::NOT_THIS_PROTOCOL,
          "this port speaks sudokud's protocol over TLS, not in plaintext; connect with TLS "
          "(sudoku-client --tls)");
    co_return true;  // the reader discards what comes until the peer closes
  }
  // Each step's computation on the Pool's handshake thread, this connection's turn among the
  // others' by the CPU they have used: never on the event loop.
  const auto offload = [this](std::function<void()> step) -> awaitable<void> {
    co_await context_.pool.Run(stream_.get_executor(), std::move(step), use_awaitable,
                               Pool::Cost::kHandshake, requester_.account());
  };
  co_await stream_.Handshake(error, offload);
  if (stage_ == Stage::kClosed) co_return false;
  if (error) {
    // Nothing can be said to the peer: OpenSSL has sent its alert, which is all a TLS client
    // can read before the handshake is done.
    const HandshakeFailure failure = stream_.Failure(error);
    ++context_.stats.tls_refused;
    ClientCausedLog().Log(failure.kind, LogLevel::kNotice,
                          peer_ + ": refused: " + failure.message + "; closing the connection");
    Abort();
    co_return false;
  }
  if (const std::string subject = stream_.PeerSubject(); !subject.empty()) {
    peer_ += " (" + subject + ")";
  }
  stream_.ReleaseIdle();  // the handshake's records are sent
  UpdateMemory();
  secured_ = true;
  Wake();
  co_return true;
}

bool Connection::CheckPeerStillThere() {
  tcp_info info{};
  socklen_t size = sizeof info;
  if (::getsockopt(stream_.socket().native_handle(), IPPROTO_TCP, TCP_INFO, &info, &size) != 0 ||
      info.tcpi_state == TCP_ESTABLISHED) {
    return true;
  }
  const bool request_waiting = waiting_request_bytes_ > 0;
  if (info.tcpi_state == TCP_CLOSE_WAIT) {
    // Its side closed (a FIN; data sent before it is still to be read): as at an end of input,
    // bounded work is answered and work of unbounded cost is not done for a peer that may be
    // gone. The request waiting, if such work, is dropped by WaitForCapacity.
    if (!requester_.long_cancelled()) {
      requester_.CancelLong();
      Wake();
    }
    return false;
  }
  // Reset, or closed both ways: nobody is left to answer.
  if (request_waiting || solving_ > 0) {
    context_.requests.DroppedForDeparture(
        request_waiting ? 1 : 0,
        peer_ + ": the peer reset the connection while " +
            (request_waiting ? "frame " + std::to_string(frames_) + " waited for room" +
                                   (solving_ > 0 ? " and " : "")
                             : std::string()) +
            (solving_ > 0 ? std::to_string(solving_) + " requests waited for or had their turn"
                          : std::string()) +
            "; dropping what has not started");
  }
  Abort();
  return false;
}

// The peer has shut down its sending side: answer what was accepted, then close. A partial frame
// left over is reported.
void Connection::EndOfInput() {
  peer_closed_ = true;
  // A peer that only stopped sending cannot be told from one that left: both end their side.
  // Bounded work is answered either way; work of unbounded cost is not done for a peer that may
  // be gone (sudoku.proto says so), so leaving frees what it held at once.
  requester_.CancelLong();
  if (long_solving_ > 0) {
    ClientCausedLog().Log("peer left long work", LogLevel::kNotice,
                          peer_ + ": the peer closed its side with " +
                              std::to_string(long_solving_) +
                              " requests of unbounded cost in flight (solution limit above 2, "
                              "rate, generate, explain); cancelling them");
  }
  if (reading() && input_.size() > 0) {
    Fault(wire::ProtocolFault::MALFORMED,
          UnfinishedFrameMessage(input_.data(), context_.options.max_frame_bytes, frames_ + 1));
  }
  Advance(Stage::kAnswering);
  Wake();  // a writer lingering for the peer's close stops waiting
}

awaitable<void> Connection::Writer([[maybe_unused]] std::shared_ptr<Connection> self) {
  boost::system::error_code error;
  std::vector<std::unique_ptr<Job>> writing;
  std::vector<asio::const_buffer> buffers;
  bool last = false;
  while (stage_ != Stage::kClosed && !secured_) co_await wake_.Wait();
  while (!last) {
    while (stage_ != Stage::kClosed && queue_.empty() && !(!reading() && solving_ == 0)) {
      co_await wake_.Wait();
    }
    if (stage_ == Stage::kClosed) co_return;
    if (queue_.empty() && pending_fault_) {
      // Everything accepted before the fault is answered: the fault goes last.
      Advance(Stage::kFaulted);
      Queue(std::move(pending_fault_));
    }
    if (queue_.empty()) break;  // nothing more will come
    while (!queue_.empty() && writing.size() < kMaxGather && !last) {
      last = queue_.front()->fault;
      batches_writing_ += last || queue_.front()->at_once ? 0 : 1;
      // The batch_id is free once its answer is about to be written, not once the write is seen
      // to complete: the peer may read the answer and send that id again before this coroutine
      // resumes, and the reader may take that frame first.
      context_.requests.ReleaseId(requester_, *queue_.front());
      writing.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    buffers.clear();
    for (const auto& job : writing) buffers.push_back(asio::buffer(job->frame));
    // Written piece by piece so that each piece the peer takes counts as activity: only a peer
    // that reads nothing at all for --idle-timeout is dropped, however slowly it reads.
    writing_ = true;
    last_write_progress_ = Clock::now();
    if (const auto stall = context_.options.write_stall_timeout;
        stall.count() > 0 && last_write_progress_ + stall < watchdog_expiry_) {
      deadline_.cancel();  // the watchdog sleeps past this write's stall deadline
    }
    size_t sent = 0;
    error.clear();
    for (size_t first = 0; first < buffers.size() && !error;) {
      size_t n = co_await stream_.WriteSome(std::span(buffers).subspan(first), error);
      Touch();
      if (n > 0) last_write_progress_ = last_activity_;
      sent += n;
      while (first < buffers.size() && n >= buffers[first].size()) n -= buffers[first++].size();
      if (first < buffers.size()) buffers[first] += n;
    }
    writing_ = false;
    context_.stats.bytes_sent += sent;
    const auto written = Clock::now();
    for (auto& job : writing) {
      if (!error && !job->fault && !job->at_once) {
        context_.stats.batch_latency_seconds.Observe(
            std::chrono::duration<double>(written - job->received).count());
      }
      // A failed write may have sent some of these whole, but to a peer that is gone or broken:
      // only a write that completed counts its answers as answered.
      Finished(std::move(job), !error);
    }
    writing.clear();
    batches_writing_ = 0;
    if (error) {
      Abort();
      co_return;
    }
    if (queue_.empty()) {
      // Nothing more to write for now: a quiet connection keeps no write buffers (TLS).
      stream_.ReleaseIdle();
      UpdateMemory();
    }
    Touch();
  }
  // Everything is answered (or the fault is sent): end our side, let the peer read it all. The
  // watchdog closes the socket when the linger ends; the peer's close ends it sooner.
  stream_.ShutdownSend(error);
  linger_until_ = Clock::now() + kLinger;
  deadline_.cancel();
  while (!peer_closed_ && stage_ != Stage::kClosed) co_await wake_.Wait();
  Abort();
}

void Connection::StartFrame(Clock::time_point when) {
  frame_started_ = when;
  frame_socket_bytes_ = stream_.bytes_received();
  frame_buffered_bytes_ = input_.size();
}

Connection::Clock::duration Connection::ProgressAllowance() const {
  // What the socket brought counts, not what has been decrypted: a TLS record arrives whole
  // before any of it can be read, and a slow sender's 16 KiB record takes seconds to.
  const uint64_t received = stream_.bytes_received();
  uint64_t progress = std::max<uint64_t>(
      input_.size(), frame_buffered_bytes_ + (received - frame_socket_bytes_));
  if (frames_ == 0) progress = std::max(progress, received);  // since connecting
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
      static_cast<double>(progress) / static_cast<double>(kMinFrameRate)));
}

std::optional<Connection::Clock::time_point> Connection::FrameDeadline() const {
  if (!reading()) return std::nullopt;
  const ServerOptions& options = context_.options;
  std::optional<Clock::time_point> deadline;
  const Clock::duration progress = ProgressAllowance();
  if (input_.size() > 0 && options.frame_timeout.count() > 0) {
    deadline = frame_started_ + options.frame_timeout + progress;
  }
  if (frames_ == 0 && options.first_frame_timeout.count() > 0) {
    const auto first = connected_ + options.first_frame_timeout + progress;
    if (!deadline || first < *deadline) deadline = first;
  }
  return deadline;
}

awaitable<void> Connection::Watchdog([[maybe_unused]] std::shared_ptr<Connection> self) {
  const auto timeout = context_.options.idle_timeout;
  const bool idle_limit = timeout.count() > 0;
  const auto stall = context_.options.write_stall_timeout;
  const bool stall_limit = stall.count() > 0;
  boost::system::error_code ignored;
  while (stage_ != Stage::kClosed) {
    watchdog_expiry_ = linger_until_;
    if (idle_limit) watchdog_expiry_ = std::min(watchdog_expiry_, last_activity_ + timeout);
    if (stall_limit && writing_) {
      watchdog_expiry_ = std::min(watchdog_expiry_, last_write_progress_ + stall);
    }
    if (const auto deadline = FrameDeadline()) {
      watchdog_expiry_ = std::min(watchdog_expiry_, *deadline);
    }
    watchdog_expiry_ = std::min(watchdog_expiry_, next_departure_check_);
    deadline_.expires_at(watchdog_expiry_);
    co_await deadline_.async_wait(asio::redirect_error(use_awaitable, ignored));
    if (stage_ == Stage::kClosed) co_return;
    const auto now = Clock::now();
    if (now >= next_departure_check_) {
      next_departure_check_ = held_back_ ? now + kDepartureCheck : Clock::time_point::max();
      CheckPeerStillThere();
      if (stage_ == Stage::kClosed) co_return;
    }
    if (now >= linger_until_) {
      Abort();
      co_return;
    }
    if (stall_limit && writing_ && now >= last_write_progress_ + stall) {
      // The peer takes nothing of what is written (and, since the daemon stops reading a
      // connection whose answers pile up, it cannot be sending either). A fault could not reach
      // it: drop its work, give its capacity back and close.
      ClientCausedLog().Log("write stall", LogLevel::kNotice,
                            peer_ + ": the peer has read nothing for " +
                                SecondsText(stall) + " s (--write-stall-timeout " +
                                SecondsText(stall) + "); dropping the answers to " +
                                std::to_string(requester_.in_flight()) +
                                " puzzles and closing the connection");
      Abort();
      co_return;
    }
    if (const auto deadline = FrameDeadline(); deadline && now >= *deadline) {
      if (!secured_) {
        // A TLS handshake not finished: there is no channel to send a fault on.
        const std::string limit = SecondsText(context_.options.first_frame_timeout);
        ++context_.stats.tls_refused;
        ClientCausedLog().Log("TLS handshake timeout", LogLevel::kNotice,
                              peer_ + ": refused: no TLS handshake within " + limit +
                                  " s of connecting (--first-frame-timeout " + limit +
                                  "); closing the connection");
        Abort();
        co_return;
      }
      if (held_back_ || queued_for_admission || waiting_for_memory) {
        // Waiting for this connection's in-flight limit or the daemon's budgets: the socket is
        // left unread, so the frame's slowness is ours, not the peer's.
        StartFrame(now);
      } else if (frames_ == 0 &&
                 now >= connected_ + context_.options.first_frame_timeout + ProgressAllowance() &&
                 context_.options.first_frame_timeout.count() > 0) {
        const std::string limit = SecondsText(context_.options.first_frame_timeout);
        Fault(wire::ProtocolFault::REQUEST_TIMEOUT,
              "no whole request within " + limit + " s of connecting" +
                  (input_.size() == 0
                       ? " (--first-frame-timeout " + limit + ")"
                       : ", plus a second for every " + std::to_string(kMinFrameRate) +
                             " bytes received (--first-frame-timeout " + limit +
                             "); frame 1: " +
                             FrameProgress(input_.data(), context_.options.max_frame_bytes)));
      } else {
        const std::string limit = SecondsText(context_.options.frame_timeout);
        Fault(wire::ProtocolFault::REQUEST_TIMEOUT,
              "frame " + std::to_string(frames_ + 1) + " not whole within " + limit +
                  " s of its first byte, plus a second for every " +
                  std::to_string(kMinFrameRate) + " bytes received (--frame-timeout " + limit +
                  "); " +
                  FrameProgress(input_.data(), context_.options.max_frame_bytes));
      }
      continue;
    }
    if (!idle_limit) continue;
    if (solving_ > 0 || queued_for_admission || (writing_ && stall_limit)) {
      Touch();  // the peer is waiting for us, or the write stall is the limit
      continue;
    }
    if (now < last_activity_ + timeout) continue;
    if (!reading() || writing_) {
      // Already closing, or writing, and no byte moved for a whole timeout (a peer that does
      // not read): a fault could not reach it.
      Abort();
      co_return;
    }
    Fault(wire::ProtocolFault::IDLE_TIMEOUT,
          "nothing received for " + SecondsText(timeout) + " s (--idle-timeout " +
              SecondsText(timeout) + ")");
    Touch();
  }
}

void Connection::Fault(Kind kind, const std::string& message) {
  if (discarding() || pending_fault_) return;
  ++context_.stats.faults;
  ++context_.stats.faults_by_kind[static_cast<size_t>(kind)];
  const std::string& kind_name = wire::ProtocolFault::Kind_Name(kind);
  // Requests read whole before the fault were accepted: they are answered first, then the fault
  // is sent, then the connection closes. An internal error is no request's fault, and the
  // others' answers could not be trusted after it: it ends everything at once.
  // Work of unbounded cost is cancelled instead (below): only bounded work is waited for.
  const size_t owed = solving_ - long_solving_ + queue_.size() + batches_writing_;
  const bool answer_first = owed > 0 && kind != wire::ProtocolFault::UNKNOWN &&
                            stage_ <= Stage::kAnswering;
  ClientCausedLog().Log("protocol fault " + kind_name, LogLevel::kNotice,
                        peer_ + ": protocol fault " + kind_name + ": " + message +
                            (answer_first ? "; answering the requests accepted before it, then "
                                            "closing the connection"
                                          : "; closing the connection"));
  std::unique_ptr<Job> fault = context_.requests.jobs().New();
  fault->fault = true;
  fault->cost = 0;
  fault->response.Clear();
  fault->response.mutable_fault()->set_kind(kind);
  fault->response.mutable_fault()->set_message(message);
  wire::SetFrame(fault->response, &fault->frame);
  if (answer_first) {
    // Work of unbounded cost is not done for a peer that broke the protocol: cancelled, as when
    // a peer closes its side (see EndOfInput).
    requester_.CancelLong();
    pending_fault_ = std::move(fault);
    Advance(Stage::kAnswering);  // the writer sends it once the rest is answered
    return;
  }
  Advance(Stage::kFaulted);
  Queue(std::move(fault));
}

}  // namespace sudoku::daemon
