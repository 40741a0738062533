#include "client/solve_command.h"

#include <unistd.h>

#include <utility>  // before Asio: asio issue 944

#include <chrono>
#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/program_options.hpp>

#include "client/async_signal.h"
#include "client/batcher.h"
#include "client/client_error.h"
#include "client/connection.h"
#include "client/flags.h"
#include "client/ordered_output.h"
#include "client/progress.h"
#include "client/result_format.h"
#include "proto/framing.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
namespace po = boost::program_options;

constexpr size_t kMaxBatch = 100000;  // 8.3 MB requests, well inside the 16 MiB frame cap
constexpr size_t kMaxInFlight = 1024;
constexpr size_t kMaxConnections = 1024;
constexpr std::chrono::milliseconds kMaxTimeout = std::chrono::hours(24);

// Batches issued ahead of the output, per batch the connections can have in flight. Twice the
// in-flight capacity lets fast connections keep working while one batch is late, and caps what
// waits in OrderedOutput.
constexpr size_t kWindowPerInFlight = 2;

constexpr const char* kUsage = R"(usage: sudoku-client solve [options] [FILE...]

Solves the puzzles in each FILE (standard input when there is none, or for '-') through
sudokud and writes one line per puzzle to standard output, in input order:
  the 81-digit solution, 'multiple', 'unsolvable', or 'invalid: WHERE: REASON'.
A summary goes to standard error. Input: one 81-character puzzle per line ('1'-'9' givens,
'.', '0', '_' or '-' blanks), or 9-line grids with spaces, '|' and '+---+' rulers; blank lines
and '#' comments are skipped.
Exit status: 0 when every puzzle was solved, 1 when some were not, 2 on a usage, input or
connection error.

Options)";

// Reconnecting: a connection slot gives up after this many breaks in a row without one batch
// answered, waiting kFirstBackoff, then twice as long each time (at most kMaxBackoff) before the
// next attempt; a batch is given up after this many connections broke with it unanswered (a
// batch that kills every daemon it reaches must not go round for ever).
constexpr unsigned kMaxBreaksInARow = 5;
constexpr unsigned kMaxLossesPerBatch = 8;
constexpr auto kFirstBackoff = std::chrono::milliseconds(50);
constexpr auto kMaxBackoff = std::chrono::seconds(1);

// One connection slot: a connection, replaced when it breaks, and the batches it has in flight.
struct Lane {
  Lane(const asio::any_io_executor& executor, size_t index)
      : index(index), slot_freed(executor), stopped(executor), backoff(executor),
        deadline(executor) {}

  const size_t index;
  std::unique_ptr<Connection> connection;
  std::unordered_map<uint64_t, std::unique_ptr<Batch>> pending;  // by batch id
  AsyncSignal slot_freed;  // a response arrived, or the connection broke
  AsyncSignal stopped;     // the writer or the reader of `connection` returned
  asio::steady_timer backoff;
  asio::steady_timer deadline;  // --timeout: when `connection` counts as broken
  // The last answer, or the moment `pending` stopped being empty, whichever is later.
  std::chrono::steady_clock::time_point last_progress;
  uint64_t generation = 0;  // which `connection` a watch belongs to
  int running = 0;          // writer and reader coroutines on `connection`
  bool broken = false;      // `connection` failed: its writer and reader wind down
  bool writer_done = false;
  bool answered = false;    // `connection` answered at least one batch
  // The daemon closed `connection` for sending nothing (IDLE_TIMEOUT, REQUEST_TIMEOUT) while it
  // had no batch out: the input was slow, not the daemon, so it is no break.
  bool closed_idle = false;
  std::exception_ptr error;  // why `connection` broke (a ConnectionLost)
};

// "30s", "1500ms": a duration as --timeout takes it.
std::string DurationText(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
}

std::string What(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

// One run of the command. Per lane, a driver coroutine connects, runs a writer (takes batches and
// sends them) and a reader (takes responses and hands their lines to the output), and when the
// connection breaks, puts its unanswered batches up for resending (any lane takes them first) and
// connects again, to the next endpoint in turn. Any other error stops everything: Fail() closes
// every connection and wakes every waiter so that each coroutine returns and io_context::run()
// ends.
class SolveSession {
 public:
  SolveSession(const asio::any_io_executor& executor, const SolveOptions& options,
               Batcher* batcher, OrderedOutput* output, std::vector<std::string> prefixes,
               ProgressMeter* progress)
      : executor_(executor),
        options_(options),
        batcher_(batcher),
        output_(output),
        prefixes_(std::move(prefixes)),
        progress_(progress),
        window_size_(options.connections * options.in_flight * kWindowPerInFlight),
        changed_(executor),
        endpoint_errors_(options.endpoints.size()) {
    if (progress_ != nullptr) total_bytes_ = batcher_->TotalBytes();
  }

  // The completion handler of the session's own coroutines.
  auto Guard() {
    return [this](std::exception_ptr error) {
      if (error) Fail(error);
    };
  }

  asio::awaitable<void> Run() {
    for (size_t i = 0; i < options_.connections; ++i) {
      lanes_.push_back(std::make_unique<Lane>(executor_, i));
    }
    lanes_alive_ = lanes_.size();
    for (auto& lane : lanes_) asio::co_spawn(executor_, Drive(*lane), Guard());
    co_return;
  }

  void Fail(std::exception_ptr error) {
    if (error_) return;
    error_ = error;
    for (auto& lane : lanes_) {
      if (lane->connection != nullptr) lane->connection->Close();
      lane->slot_freed.Notify();
      lane->stopped.Notify();
      lane->backoff.cancel();
      lane->deadline.cancel();
    }
    changed_.Notify();
  }

  bool failed() const { return error_ != nullptr; }
  std::exception_ptr error() const { return error_; }
  const Summary& summary() const { return summary_; }
  // Batches issued; all of them are written once the run ends without error.
  uint64_t issued() const { return next_sequence_; }
  // Batches sent again after their connection broke.
  uint64_t resent() const { return resent_; }

 private:
  // How the lane's writer or reader ended: a broken connection breaks the lane only.
  auto LaneGuard(Lane& lane) {
    return [this, &lane](std::exception_ptr error) {
      if (error) {
        try {
          std::rethrow_exception(error);
        } catch (const ConnectionLost&) {
          if (lane.error == nullptr) lane.error = error;
          lane.broken = true;
          lane.connection->Close();
          lane.slot_freed.Notify();
          changed_.Notify();  // the writer may wait for work
        } catch (...) {
          Fail(error);
        }
      }
      --lane.running;
      lane.stopped.Notify();
    };
  }

  asio::awaitable<void> Drive(Lane& lane) {
    size_t endpoint = lane.index % options_.endpoints.size();
    unsigned breaks = 0;
    while (!failed()) {
      lane.connection = std::make_unique<Connection>(executor_, options_.endpoints[endpoint]);
      lane.broken = false;
      lane.writer_done = false;
      lane.answered = false;
      lane.closed_idle = false;
      lane.error = nullptr;
      try {
        co_await lane.connection->Connect();
      } catch (const ConnectionLost&) {
        lane.error = std::current_exception();
      }
      if (failed()) co_return;
      if (lane.error == nullptr) {
        lane.running = 2;
        asio::co_spawn(executor_, Write(lane), LaneGuard(lane));
        asio::co_spawn(executor_, Read(lane), LaneGuard(lane));
        asio::co_spawn(executor_, Watch(lane, ++lane.generation), Guard());
        while (lane.running > 0) co_await lane.stopped.Wait();
        lane.deadline.cancel();
        if (failed() || lane.error == nullptr) co_return;  // done, or the run stopped
      }
      // The connection broke: its batches go to whichever connection is free first.
      lane.connection->Close();
      endpoint_errors_[endpoint] = What(lane.error);
      for (auto& [sequence, batch] : lane.pending) {
        if (++batch->lost >= kMaxLossesPerBatch) {
          Fail(std::make_exception_ptr(ClientError(
              EveryEndpointFailed() + " (batch " + std::to_string(sequence) + " was lost " +
              std::to_string(batch->lost) + " times; giving up)")));
          co_return;
        }
        resend_.emplace(sequence, std::move(batch));
      }
      lane.pending.clear();
      changed_.Notify();
      if (lane.closed_idle) {
        breaks = 0;
        continue;  // connect again at once: the input may be about to go on
      }
      breaks = lane.answered ? 1 : breaks + 1;
      if (breaks >= kMaxBreaksInARow) {
        if (--lanes_alive_ == 0) Fail(std::make_exception_ptr(ClientError(EveryEndpointFailed())));
        co_return;
      }
      endpoint = (endpoint + 1) % options_.endpoints.size();
      lane.backoff.expires_after(std::min<std::chrono::steady_clock::duration>(
          kFirstBackoff * (1 << (breaks - 1)), kMaxBackoff));
      boost::system::error_code ignored;
      co_await lane.backoff.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    }
  }

  // The last error of each endpoint tried, in the order of --connect.
  std::string EveryEndpointFailed() const {
    std::string text;
    for (const std::string& error : endpoint_errors_) {
      if (error.empty()) continue;
      if (!text.empty()) text += "; ";
      text += error;
    }
    return text;
  }

  // The progress deadline: a daemon that accepted batches and went silent (stopped, wedged,
  // behind a dead route) breaks the connection after --timeout, as a reset would, so that the
  // batches go elsewhere or the run ends with a message instead of waiting for ever.
  asio::awaitable<void> Watch(Lane& lane, uint64_t generation) {
    const std::string peer = lane.connection->PeerName();
    boost::system::error_code ignored;
    while (!failed() && lane.generation == generation && lane.running > 0 && !lane.broken) {
      const auto now = std::chrono::steady_clock::now();
      if (!lane.pending.empty() && now - lane.last_progress >= options_.timeout) {
        const std::string timeout = DurationText(options_.timeout);
        lane.error = std::make_exception_ptr(ConnectionLost(
            peer + " answered nothing for " + timeout + " with " +
            std::to_string(lane.pending.size()) + " batches out (--timeout " + timeout + ")"));
        lane.broken = true;
        lane.connection->Close();
        lane.slot_freed.Notify();
        changed_.Notify();
        co_return;
      }
      lane.deadline.expires_at(lane.pending.empty() ? now + options_.timeout
                                                    : lane.last_progress + options_.timeout);
      co_await lane.deadline.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    }
  }

  asio::awaitable<void> Write(Lane& lane) {
    while (true) {
      while (!failed() && !lane.broken && lane.pending.size() >= options_.in_flight) {
        co_await lane.slot_freed.Wait();
      }
      std::unique_ptr<Batch> batch = co_await NextBatch(lane);
      if (batch == nullptr) break;
      Batch& sent = *batch;
      if (lane.pending.empty()) lane.last_progress = std::chrono::steady_clock::now();
      lane.pending.emplace(sent.sequence, std::move(batch));
      co_await lane.connection->Send(sent.frame);
    }
    if (failed() || lane.broken) co_return;
    lane.writer_done = true;
    // The reader may be waiting for a response that will never come.
    if (lane.pending.empty()) lane.connection->Close();
  }

  asio::awaitable<void> Read(Lane& lane) {
    wire::Response response;
    const std::string peer = lane.connection->PeerName();
    while (!failed() && !lane.broken && !(lane.writer_done && lane.pending.empty())) {
      if (!co_await lane.connection->Receive(&response)) {
        if (failed() || lane.broken || (lane.writer_done && lane.pending.empty())) break;
        throw ConnectionLost(peer + " closed the connection with " +
                             std::to_string(lane.pending.size()) +
                             " batches unanswered (see its log)");
      }
      lane.last_progress = std::chrono::steady_clock::now();
      if (response.has_fault()) {
        const std::string fault = DescribeFault(peer, response.fault());
        lane.closed_idle = lane.pending.empty() && ClosedForIdling(response.fault());
        if (IsRetryable(response.fault())) throw ConnectionLost(fault);
        throw ClientError(fault);
      }
      if (!response.has_solve()) {
        throw ClientError("bad response from " + peer + ": neither a result nor a fault");
      }
      const auto found = lane.pending.find(response.solve().batch_id());
      if (found == lane.pending.end()) {
        throw ClientError("bad response from " + peer + ": batch " +
                          std::to_string(response.solve().batch_id()) + " was not sent");
      }
      std::unique_ptr<Batch> batch = std::move(found->second);
      lane.pending.erase(found);
      try {
        Deliver(*batch, &response.solve());
      } catch (const OutputError&) {
        throw;
      } catch (const ClientError& error) {
        throw ClientError("bad response from " + peer + ": " + error.what());
      }
      lane.answered = true;
      Recycle(std::move(batch));
      lane.slot_freed.Notify();
    }
    lane.connection->Close();
  }

  // The next batch for `lane` to send: one to resend first, else a new one once the window
  // allows. Null when the lane should stop: its connection broke, the run failed, or every batch
  // is answered. Batches with nothing to send (layout errors only) are delivered on the way.
  asio::awaitable<std::unique_ptr<Batch>> NextBatch(Lane& lane) {
    while (true) {
      while (!failed() && !lane.broken && resend_.empty() &&
             (input_done_ ? output_->next() < next_sequence_
                          : next_sequence_ >= output_->next() + window_size_)) {
        co_await changed_.Wait();
      }
      if (failed() || lane.broken) co_return nullptr;
      if (!resend_.empty()) {
        std::unique_ptr<Batch> batch = std::move(resend_.begin()->second);
        resend_.erase(resend_.begin());
        ++resent_;
        co_return batch;
      }
      if (input_done_) co_return nullptr;  // and everything is answered
      std::unique_ptr<Batch> batch = TakeBatch();
      if (!batcher_->Fill(next_sequence_, batch.get())) {
        input_done_ = true;
        Recycle(std::move(batch));
        changed_.Notify();  // writers waiting for the window wait for the end instead
        continue;
      }
      ++next_sequence_;
      issued_puzzles_ += batch->size;
      if (batch->sent > 0) co_return batch;
      Deliver(*batch, nullptr);
      Recycle(std::move(batch));
    }
  }

  void Deliver(const Batch& batch, const wire::SolveResponse* response) {
    std::string text = output_->TakeBuffer();
    AppendResults(batch, response, prefixes_, &summary_, &text, options_.format);
    output_->Put(batch.sequence, std::move(text));
    changed_.Notify();
    if (progress_ != nullptr) {
      uint64_t expected = issued_puzzles_;
      if (!input_done_ && total_bytes_ > 0) {
        const uint64_t read = batcher_->BytesRead();
        if (read > 0) {
          expected = static_cast<uint64_t>(static_cast<double>(issued_puzzles_) *
                                           static_cast<double>(total_bytes_) /
                                           static_cast<double>(read));
        }
      } else if (!input_done_) {
        expected = 0;
      }
      progress_->Update(summary_.puzzles, expected, std::chrono::steady_clock::now());
    }
  }

  // Batches are reused so that their records and frames keep their storage.
  std::unique_ptr<Batch> TakeBatch() {
    if (spare_.empty()) return std::make_unique<Batch>();
    std::unique_ptr<Batch> batch = std::move(spare_.back());
    spare_.pop_back();
    return batch;
  }
  void Recycle(std::unique_ptr<Batch> batch) { spare_.push_back(std::move(batch)); }

  asio::any_io_executor executor_;
  const SolveOptions& options_;
  Batcher* batcher_;
  OrderedOutput* output_;
  std::vector<std::string> prefixes_;
  ProgressMeter* progress_;  // null: no progress bar
  uint64_t total_bytes_ = 0;
  const size_t window_size_;
  // Notified when the output moves on, the input ends, or a batch awaits resending.
  AsyncSignal changed_;

  std::vector<std::unique_ptr<Lane>> lanes_;
  size_t lanes_alive_ = 0;
  std::vector<std::string> endpoint_errors_;  // by index in options_.endpoints
  std::map<uint64_t, std::unique_ptr<Batch>> resend_;  // by sequence: the oldest goes first
  uint64_t resent_ = 0;
  std::vector<std::unique_ptr<Batch>> spare_;
  uint64_t next_sequence_ = 0;
  uint64_t issued_puzzles_ = 0;
  bool input_done_ = false;
  Summary summary_;
  std::exception_ptr error_;
};

}  // namespace

bool ParseSolveOptions(const std::vector<std::string>& args, SolveOptions* options,
                       std::ostream& out) {
  std::vector<std::string> connect;
  std::string limit;
  std::string batch = std::to_string(options->batch_size);
  std::string in_flight = std::to_string(options->in_flight);
  std::string connections = std::to_string(options->connections);
  std::string timeout = DurationText(options->timeout);
  std::string format = Name(options->format);
  std::string input_format = Name(options->input_format);

  po::options_description flags(kUsage);
  flags.add_options()
      ("connect", po::value(&connect)->value_name("HOST:PORT"),
       "where sudokud listens (default 127.0.0.1:9810); several addresses, comma-separated or "
       "with the flag repeated, share the connections")
      ("unique", "check that each puzzle has exactly one solution (same as --limit 2)")
      ("limit", po::value(&limit)->value_name("N"),
       "look for up to N solutions per puzzle (default 1: stop at the first)")
      ("batch", po::value(&batch)->value_name("B"), "puzzles per request (default 2000)")
      ("in-flight", po::value(&in_flight)->value_name("K"),
       "requests outstanding per connection (default 4)")
      ("connections", po::value(&connections)->value_name("C"),
       "connections to the daemon (default 2)")
      ("timeout", po::value(&timeout)->value_name("DURATION"),
       "a connection with requests out that answers nothing for this long (e.g. 30s, 2m, "
       "500ms; default 30s) counts as broken: its requests go to another connection")
      ("rate", "append the rating to each solution: LEVEL HARDEST STEPS GUESSES, e.g. "
       "'intermediate pointing 57 0' (QQWing's level, the hardest technique, the logical steps, "
       "the solver's guesses)")
      ("format", po::value(&format)->value_name("FORMAT"),
       "output: line (default), grid (boxed 9x9 layout), json (an object per line) or csv")
      ("input-format", po::value(&input_format)->value_name("FORMAT"),
       "input: auto (default: by extension .sdm .sdk .csv, else by content), text (lines, "
       "9-line grids, 729-character pencilmarks), sdm, sdk or csv")
      ("progress", "draw a progress bar on standard error (default: when it is a terminal)")
      ("no-progress", "never draw the progress bar")
      ("help,h", "print this help");
  const auto parsed = ParseCommandLine(args, flags, "solve", &options->inputs, out);
  if (!parsed) return false;
  const po::variables_map& values = *parsed;
  options->endpoints = ParseEndpoints(connect);
  options->batch_size = ParseCount("--batch", batch, kMaxBatch);
  options->in_flight = ParseCount("--in-flight", in_flight, kMaxInFlight);
  options->connections = ParseCount("--connections", connections, kMaxConnections);
  options->timeout = ParseDuration("--timeout", timeout, kMaxTimeout);
  if (!ParseOutputFormat(format, &options->format)) {
    throw ClientError("--format expects line, grid, json or csv, got " + Quoted(format));
  }
  if (!ParseInputFormat(input_format, &options->input_format)) {
    throw ClientError("--input-format expects auto, text, sdm, sdk or csv, got " +
                      Quoted(input_format));
  }
  if (values.count("unique") && values.count("limit")) {
    throw ClientError("--unique and --limit cannot be used together (--unique is --limit 2)");
  }
  if (values.count("progress") && values.count("no-progress")) {
    throw ClientError("--progress and --no-progress cannot be used together");
  }
  if (values.count("progress")) options->progress = ProgressMode::kOn;
  if (values.count("no-progress")) options->progress = ProgressMode::kOff;
  if (values.count("unique")) options->solution_limit = 2;
  options->rate = values.count("rate") > 0;
  if (values.count("limit")) {
    options->solution_limit =
        static_cast<uint32_t>(ParseCount("--limit", limit, wire::kMaxSolutionLimit));
  }
  return true;
}

int RunSolve(const SolveOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<ProgressMeter> progress;
  try {
    Batcher batcher(options.inputs, options.batch_size, options.solution_limit, &in,
                    options.input_format);
    batcher.set_rate(options.rate);
    batcher.CheckInputs();
    out << OutputHeader(options.format);
    OrderedOutput output(&out);
    if (WantProgress(options.progress, options.stderr_is_tty)) progress.emplace(&err, start);
    asio::io_context io(1);
    SolveSession session(io.get_executor(), options, &batcher, &output,
                         LocationPrefixes(batcher.DisplayNames()),
                         progress ? &*progress : nullptr);
    asio::co_spawn(io, session.Run(), session.Guard());
    io.run();
    if (progress) progress->Finish();
    if (session.failed()) std::rethrow_exception(session.error());
    if (output.next() != session.issued()) {
      throw std::logic_error("results of " + std::to_string(session.issued() - output.next()) +
                             " batches were not written");
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    if (session.resent() > 0) {
      err << "sudoku-client: " << session.resent()
          << " batches were sent again after their connection broke\n";
    }
    err << FormatSummary(session.summary(), seconds.count()) << "\n";
    return ExitStatus(session.summary());
  } catch (...) {
    out.flush();
    if (progress) progress->Finish();
    ReportError(err);
    return kExitError;
  }
}

int SolveMain(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
              std::ostream& err) {
  SolveOptions options;
  try {
    if (!ParseSolveOptions(args, &options, out)) return kExitSolved;
    options.stderr_is_tty = &err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
  } catch (const ClientError& error) {
    err << "sudoku-client: " << error.what() << "\n";
    return kExitError;
  }
  return RunSolve(options, in, out, err);
}

}  // namespace sudoku::client
