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

#include "client/batcher.h"
#include "client/client_error.h"
#include "client/connection.h"
#include "client/endpoint.h"
#include "client/flags.h"
#include "client/ordered_output.h"
#include "client/output_preallocation.h"
#include "client/progress.h"
#include "client/result_format.h"
#include "client/session.h"
#include "proto/codec.h"
#include "proto/framing.h"
#include "proto/wake_up.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
namespace po = boost::program_options;

// The daemon's default --max-batch: 5.4 MB requests, well inside the 16 MiB frame cap.
constexpr size_t kMaxBatch = wire::kDefaultMaxBatch;
constexpr size_t kMaxInFlight = 1024;
constexpr size_t kMaxConnections = 1024;

// Batches issued ahead of the output, per batch the connections can have in flight. Twice the
// in-flight capacity lets fast connections keep working while one batch is late, and caps what
// waits in OrderedOutput.
constexpr size_t kWindowPerInFlight = 2;

constexpr const char* kUsage = R"(usage: sudoku-client solve [options] [FILE...]

Solves the puzzles in each FILE (standard input when there is none, or for '-') through
sudokud and writes one line per puzzle to standard output, in input order:
  the 81-digit solution, 'multiple', 'unsolvable', or 'invalid: WHERE: REASON'.
A summary goes to standard error. Input: one 81-character puzzle per line ('1'-'9' givens,
'.', '0', '_', '-' or '*' blanks), 9-line grids with spaces, '|' and '+---+' rulers, or
9-line candidate grids (HoDoKu's "Copy PM grid"); blank lines and '#' comments are skipped.
Exit status: 0 when every puzzle was solved, 1 when some were not, 2 on a usage, input or
connection error.

Options)";

// A batch is given up after this many connections broke with it unanswered (a batch that kills
// every daemon it reaches must not go round for ever).
constexpr unsigned kMaxLossesPerBatch = 8;

// What solve runs over the session: batches from the Batcher, issued only within a window ahead
// of the output; a broken connection's unanswered batches go up for resending (any lane takes
// them first); answers go to OrderedOutput. Any other error stops everything: Session::Fail()
// closes every connection and wakes every waiter so that each coroutine returns and
// io_context::run() ends.
class SolveWork : public SessionWork {
 public:
  SolveWork(const asio::any_io_executor& executor, const SolveOptions& options, Batcher* batcher,
            OrderedOutput* output, std::vector<std::string> prefixes, ProgressMeter* progress)
      : options_(options),
        batcher_(batcher),
        output_(output),
        prefixes_(std::move(prefixes)),
        progress_(progress),
        window_size_(options.connections * options.in_flight * kWindowPerInFlight),
        changed_(executor),
        pending_(options.connections),
        session_(executor, SessionOptionsFrom(options), this) {
    if (progress_ != nullptr) total_bytes_ = batcher_->TotalBytes();
  }

  Session& session() { return session_; }
  const Summary& summary() const { return summary_; }
  // Batches issued; all of them are written once the run ends without error.
  uint64_t issued() const { return next_sequence_; }
  // Batches sent again after their connection broke.
  uint64_t resent() const { return resent_; }
  // Batches sent again because a draining daemon had not read them.
  uint64_t moved() const { return moved_; }

  // The next batch for `lane` to send: one to resend first, else a new one once the window
  // allows. Null when the lane should stop: its connection broke, the run failed, or every batch
  // is answered. Batches with nothing to send (layout errors only) are delivered on the way.
  asio::awaitable<const std::string*> Next(Lane& lane) override {
    while (true) {
      while (!session_.over() && lane.sending() && resend_.empty() &&
             (input_done_ ? output_->next() < next_sequence_
                          : next_sequence_ >= output_->next() + window_size_)) {
        co_await changed_.Wait();
      }
      if (session_.over() || !lane.sending()) co_return nullptr;
      std::unique_ptr<Batch> batch;
      if (!resend_.empty()) {
        batch = std::move(resend_.begin()->second);
        resend_.erase(resend_.begin());
        ++(batch->unread ? moved_ : resent_);
        batch->unread = false;
      } else {
        if (input_done_) co_return nullptr;  // and everything is answered
        batch = TakeBatch();
        if (!batcher_->Fill(next_sequence_, batch.get())) {
          input_done_ = true;
          Recycle(std::move(batch));
          changed_.Notify();  // writers waiting for the window wait for the end instead
          continue;
        }
        ++next_sequence_;
        issued_puzzles_ += batch->size;
        if (batch->sent == 0) {
          Deliver(*batch, nullptr);
          Recycle(std::move(batch));
          continue;
        }
      }
      const std::string* frame = &batch->frame;
      batch->frame_number = lane.frames_sent + 1;
      pending_[lane.index].emplace(batch->sequence, std::move(batch));
      co_return frame;
    }
  }

  bool Take(Lane& lane, const wire::Response& response) override {
    const std::string peer = lane.connection->PeerName();
    if (!response.has_solve()) {
      throw ClientError("bad response from " + peer + ": neither a result nor a fault");
    }
    auto& pending = pending_[lane.index];
    const auto found = pending.find(response.solve().batch_id());
    if (found == pending.end()) {
      throw ClientError("bad response from " + peer + ": batch " +
                        std::to_string(response.solve().batch_id()) + " was not sent");
    }
    std::unique_ptr<Batch> batch = std::move(found->second);
    pending.erase(found);
    try {
      Deliver(*batch, &response.solve());
    } catch (const OutputError&) {
      throw;
    } catch (const ClientError& error) {
      throw ClientError("bad response from " + peer + ": " + error.what());
    }
    Recycle(std::move(batch));
    return true;
  }

  // A broken connection's batches go to whichever connection is free first.
  void ConnectionEnded(Lane& lane) override {
    auto& pending = pending_[lane.index];
    if (lane.error == nullptr || session_.failed()) return;
    for (auto& [sequence, batch] : pending) {
      if (!lane.turned_away && ++batch->lost >= kMaxLossesPerBatch) {
        session_.Fail(std::make_exception_ptr(ClientError(
            session_.EveryEndpointFailed() + " (batch " + std::to_string(sequence) + " was lost " +
            std::to_string(batch->lost) + " times; giving up)")));
        return;
      }
      resend_.emplace(sequence, std::move(batch));
    }
    pending.clear();
    changed_.Notify();
  }

  // A draining daemon's unread batches go to whichever connection is free first, none the worse
  // for it (they were not lost: nothing was done with them).
  void TakeBackUnread(Lane& lane, uint64_t last_read) override {
    auto& pending = pending_[lane.index];
    for (auto it = pending.begin(); it != pending.end();) {
      if (it->second->frame_number <= last_read) {
        ++it;
        continue;
      }
      it->second->unread = true;
      resend_.emplace(it->first, std::move(it->second));
      it = pending.erase(it);
    }
    changed_.Notify();
  }

  void Wake(Lane*) override { changed_.Notify(); }

  std::string Written() const override {
    if (written_ == 0) return {};
    return AnswersWritten(written_);
  }

  // The answers written to the output, in input order (those held back behind a late batch are
  // not), and where they stop: the input and line of the last one.
  uint64_t written() const { return written_; }
  const std::optional<std::pair<uint32_t, uint64_t>>& last_written() const {
    return last_written_;
  }

 private:
  void Deliver(const Batch& batch, const wire::SolveResponse* response) {
    std::string text = output_->TakeBuffer();
    AppendResults(batch, response, prefixes_, &summary_, &text, options_.format);
    // What the batch holds, until the output has written it (Put() writes in order).
    Extent& extent = extents_[batch.sequence];
    extent.answers = batch.size;
    if (batch.size > 0) {
      extent.last.emplace(batch.inputs[batch.size - 1], batch.records[batch.size - 1].first_line);
    }
    output_->Put(batch.sequence, std::move(text));
    for (auto it = extents_.begin(); it != extents_.end() && it->first < output_->next();
         it = extents_.erase(it)) {
      written_ += it->second.answers;
      if (it->second.last) last_written_ = it->second.last;
    }
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
      progress_->Update(summary_.total(), expected, std::chrono::steady_clock::now());
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

  const SolveOptions& options_;
  Batcher* batcher_;
  OrderedOutput* output_;
  std::vector<std::string> prefixes_;
  ProgressMeter* progress_;  // null: no progress bar
  uint64_t total_bytes_ = 0;
  const size_t window_size_;
  // Notified when the output moves on, the input ends, or a batch awaits resending.
  WakeUp changed_;
  // Per lane, the batches out on its connection, by batch id.
  std::vector<std::unordered_map<uint64_t, std::unique_ptr<Batch>>> pending_;
  std::map<uint64_t, std::unique_ptr<Batch>> resend_;  // by sequence: the oldest goes first
  uint64_t resent_ = 0;
  uint64_t moved_ = 0;
  std::vector<std::unique_ptr<Batch>> spare_;
  uint64_t next_sequence_ = 0;
  uint64_t issued_puzzles_ = 0;
  bool input_done_ = false;
  Summary summary_;
  // Per batch delivered and not yet written: its answers and the input and line of its last.
  struct Extent {
    size_t answers = 0;
    std::optional<std::pair<uint32_t, uint64_t>> last;
  };
  std::map<uint64_t, Extent> extents_;
  uint64_t written_ = 0;
  std::optional<std::pair<uint32_t, uint64_t>> last_written_;
  Session session_;  // last: its lanes refer to the work above
};

}  // namespace

bool ParseSolveOptions(const std::vector<std::string>& args, SolveOptions* options,
                       std::ostream& out) {
  std::vector<std::string> connect;
  std::string limit;
  std::string batch = std::to_string(options->batch_size);
  std::string in_flight = std::to_string(options->in_flight);
  std::string connections = std::to_string(options->connections);
  SessionFlags session_flags = DefaultSessionFlags(options->timeout, options->retry_for);
  std::string format = Name(options->format);
  std::string input_format = Name(options->input_format);
  std::string rate_only;

  // The defaults in the descriptions are the options' own, so that --help cannot drift from them.
  const std::string connect_help =
      "where sudokud listens (default " + std::string(kDefaultEndpoint) + "); several "
      "addresses, comma-separated or with the flag repeated, share the connections";
  const std::string limit_help = "look for up to N solutions per puzzle (default " +
                                 std::to_string(options->solution_limit) + ": stop at the first)";
  const std::string batch_help = "puzzles per request (default " + batch + ")";
  const std::string in_flight_help =
      "requests outstanding per connection (default " + in_flight + ")";
  const std::string connections_help = "connections to the daemon (default " + connections + ")";

  po::options_description flags(kUsage);
  flags.add_options()
      ("connect", po::value(&connect)->value_name("HOST:PORT"), connect_help.c_str())
      ("unique", "check that each puzzle has exactly one solution (same as --limit 2)")
      ("limit", po::value(&limit)->value_name("N"), limit_help.c_str())
      ("batch", po::value(&batch)->value_name("B"), batch_help.c_str())
      ("in-flight", po::value(&in_flight)->value_name("K"), in_flight_help.c_str())
      ("connections", po::value(&connections)->value_name("C"), connections_help.c_str())
      ("rate", "append the rating to each solution: LEVEL HARDEST STEPS GUESSES HODOKU SCORE "
       "SE EP ED, e.g. 'intermediate pointing 57 0 medium 312 2.6 2.6 1.2' (QQWing's level, the "
       "hardest technique, the logical steps, the solver's guesses, HoDoKu's level and score, "
       "the Sudoku Explainer rating and its EP and ED)")
      ("rate-only", po::value(&rate_only)->value_name("PATH"),
       "rate by one solving path only, at that path's cost: hodoku (LEVEL HARDEST "
       "STEPS GUESSES HODOKU SCORE) or se (SE EP ED); implies --rate")
      ("format", po::value(&format)->value_name("FORMAT"),
       "output: line (default), grid (boxed 9x9 layout), json (an object per line) or csv")
      ("input-format", po::value(&input_format)->value_name("FORMAT"),
       "input: auto (default: by extension .sdm .sdk .csv, else by content), text (lines, "
       "9-line grids, 729-character pencilmarks), sdm, sdk or csv")
      ("progress", "draw a progress bar on standard error (default: when it is a terminal)")
      ("no-progress", "never draw the progress bar")
      ("help,h", "print this help");
  AddSessionFlags(&flags, &session_flags);
  const auto parsed = ParseCommandLine(args, flags, "solve", &options->inputs, out);
  if (!parsed) return false;
  const po::variables_map& values = *parsed;
  options->endpoints = ParseEndpoints(connect);
  options->batch_size = ParseCount("--batch", batch, kMaxBatch);
  options->in_flight = ParseCount("--in-flight", in_flight, kMaxInFlight);
  options->connections = ParseCount("--connections", connections, kMaxConnections);
  ParseSessionFlags(session_flags, options);
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
  options->rate = values.count("rate") > 0 || values.count("rate-only") > 0;
  if (values.count("rate-only")) {
    if (rate_only == "hodoku") {
      options->rating_scope = wire::HODOKU_PATH;
    } else if (rate_only == "se") {
      options->rating_scope = wire::SE_PATH;
    } else {
      throw ClientError("--rate-only expects hodoku or se, got " + Quoted(rate_only));
    }
  }
  if (values.count("limit")) {
    options->solution_limit =
        static_cast<uint32_t>(ParseCount("--limit", limit, wire::kMaxSolutionLimit));
  }
  return true;
}

std::string AnswersWritten(uint64_t answers) {
  return std::to_string(answers) + (answers == 1 ? " answer" : " answers") + " written";
}

std::string PartialOutput(uint64_t answers, const std::string& input, uint64_t line) {
  return "the output is partial: " + AnswersWritten(answers) + ", the last for line " +
         std::to_string(line) + " of " + input + "; the puzzles after it have no answer";
}

int RunSolve(const SolveOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  SolveOptions run_options = options;
  std::optional<StatusLine> status_line;
  ReportWaitsTo(err, options.stderr_is_tty, &run_options, &status_line);
  std::optional<ProgressMeter> progress;
  asio::io_context io(1);
  // Once the run is under way: what was written, for a run that ends early.
  std::optional<SolveWork> work;
  std::vector<std::string> names;
  try {
    Batcher batcher(options.inputs, options.batch_size, options.solution_limit, &in,
                    options.input_format);
    batcher.set_rate(options.rate, options.rating_scope);
    // Line and grid results never show the puzzle: its cells need not be kept once it is packed.
    batcher.set_keep_cells(ShowsPuzzles(options.format));
    batcher.CheckInputs();
    out << OutputHeader(options.format);
    OutputPreallocation preallocation(options.output_fd);
    OrderedOutput output(&out, &preallocation);
    if (WantProgress(options.progress, options.stderr_is_tty)) {
      progress.emplace(&err, start, std::chrono::milliseconds(200),
                       status_line ? &*status_line : nullptr);
    }
    if (options.stdin_is_tty && batcher.ReadsStandardInput()) {
      err << "sudoku-client: reading puzzles from standard input, one per line (end with Ctrl-D)"
          << std::endl;
    }
    names = batcher.DisplayNames();
    work.emplace(io.get_executor(), run_options, &batcher, &output, LocationPrefixes(names),
                 progress ? &*progress : nullptr);
    asio::co_spawn(io, work->session().Run(), work->session().Guard());
    io.run();
    preallocation.Release();  // every result is written (each Put() flushes)
    if (progress) progress->Finish();
    if (work->session().failed()) std::rethrow_exception(work->session().error());
    const SolveWork& session = *work;
    if (output.next() != session.issued()) {
      throw std::logic_error("results of " + std::to_string(session.issued() - output.next()) +
                             " batches were not written");
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    if (session.resent() > 0) {
      err << "sudoku-client: " << session.resent()
          << " batches were sent again after their connection broke\n";
    }
    if (session.moved() > 0) {
      err << "sudoku-client: " << session.moved()
          << " batches not read by a draining daemon were sent again\n";
    }
    err << FormatSummary(session.summary(), seconds.count()) << "\n";
    return ExitStatus(session.summary());
  } catch (...) {
    out.flush();
    if (progress) progress->Finish();
    if (status_line) status_line->Clear();
    ReportError(err);
    // A run that ends early after writing answers says how far its output goes (unless writing
    // itself failed: then what reached the output is not known).
    bool output_failed = false;
    try {
      throw;
    } catch (const OutputError&) {
      output_failed = true;
    } catch (...) {
    }
    if (work && !output_failed && work->last_written()) {
      const auto& [input, line] = *work->last_written();
      err << "sudoku-client: "
          << PartialOutput(work->written(), input < names.size() ? names[input] : "?", line)
          << "\n";
      return kExitPartial;
    }
    return kExitError;
  }
}

int SolveMain(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
              std::ostream& err) {
  SolveOptions options;
  try {
    if (!ParseSolveOptions(args, &options, out)) return kExitSolved;
    options.stderr_is_tty = &err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
    options.stdin_is_tty = &in == &std::cin && ::isatty(STDIN_FILENO) == 1;
    if (&out == &std::cout) options.output_fd = STDOUT_FILENO;
  } catch (const ClientError& error) {
    err << "sudoku-client: " << error.what() << "\n";
    return kExitError;
  }
  return RunSolve(options, in, out, err);
}

}  // namespace sudoku::client
