#include "client/solve_command.h"

#include <utility>  // before Asio: asio issue 944

#include <charconv>
#include <chrono>
#include <exception>
#include <memory>
#include <sstream>
#include <unordered_map>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/program_options.hpp>

#include "client/async_signal.h"
#include "client/batcher.h"
#include "client/client_error.h"
#include "client/connection.h"
#include "client/ordered_output.h"
#include "client/result_format.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
namespace po = boost::program_options;

constexpr size_t kMaxBatch = 100000;  // 8.3 MB requests, well inside the 16 MiB frame cap
constexpr size_t kMaxInFlight = 1024;
constexpr size_t kMaxConnections = 1024;
constexpr uint32_t kMaxSolutionLimit = 1000000;

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

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

uint64_t ParseCount(const char* flag, const std::string& text, uint64_t max) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 1 ||
      value > max) {
    throw ClientError(std::string(flag) + " expects a whole number from 1 to " +
                      std::to_string(max) + ", got " + Quoted(text));
  }
  return value;
}

// One connection and the batches it has in flight.
struct Lane {
  Lane(const asio::any_io_executor& executor, Endpoint endpoint)
      : connection(executor, std::move(endpoint)), slot_freed(executor) {}

  Connection connection;
  std::unordered_map<uint64_t, std::unique_ptr<Batch>> pending;  // by batch id
  AsyncSignal slot_freed;
  bool writer_done = false;
};

// One run of the command. Per lane, a writer coroutine takes batches and sends them while a
// reader coroutine takes responses and hands their lines to the output. The first error stops
// everything: Fail() closes every connection and wakes every waiter so that each coroutine
// returns and io_context::run() ends.
class SolveSession {
 public:
  SolveSession(const asio::any_io_executor& executor, const SolveOptions& options,
               Batcher* batcher, OrderedOutput* output, std::vector<std::string> prefixes)
      : executor_(executor),
        options_(options),
        batcher_(batcher),
        output_(output),
        prefixes_(std::move(prefixes)),
        window_size_(options.connections * options.in_flight * kWindowPerInFlight),
        window_(executor) {}

  // The completion handler of every coroutine of the session.
  auto Guard() {
    return [this](std::exception_ptr error) {
      if (error) Fail(error);
    };
  }

  asio::awaitable<void> Run() {
    for (size_t i = 0; i < options_.connections; ++i) {
      lanes_.push_back(std::make_unique<Lane>(
          executor_, options_.endpoints[i % options_.endpoints.size()]));
      co_await lanes_.back()->connection.Connect();
      if (failed()) co_return;
    }
    for (auto& lane : lanes_) {
      asio::co_spawn(executor_, Write(*lane), Guard());
      asio::co_spawn(executor_, Read(*lane), Guard());
    }
  }

  void Fail(std::exception_ptr error) {
    if (error_) return;
    error_ = error;
    for (auto& lane : lanes_) {
      lane->connection.Close();
      lane->slot_freed.Notify();
    }
    window_.Notify();
  }

  bool failed() const { return error_ != nullptr; }
  std::exception_ptr error() const { return error_; }
  const Summary& summary() const { return summary_; }
  // Batches issued; all of them are written once the run ends without error.
  uint64_t issued() const { return next_sequence_; }

 private:
  asio::awaitable<void> Write(Lane& lane) {
    while (true) {
      while (!failed() && lane.pending.size() >= options_.in_flight) co_await lane.slot_freed.Wait();
      std::unique_ptr<Batch> batch = co_await NextBatch();
      if (batch == nullptr) break;
      Batch& sent = *batch;
      lane.pending.emplace(sent.sequence, std::move(batch));
      co_await lane.connection.Send(sent.frame);
    }
    lane.writer_done = true;
    // The reader may be waiting for a response that will never come.
    if (lane.pending.empty()) lane.connection.Close();
  }

  asio::awaitable<void> Read(Lane& lane) {
    wire::Response response;
    const std::string peer = lane.connection.PeerName();
    while (!failed() && !(lane.writer_done && lane.pending.empty())) {
      if (!co_await lane.connection.Receive(&response)) {
        if (failed() || (lane.writer_done && lane.pending.empty())) break;
        throw ClientError(peer + " closed the connection with " +
                          std::to_string(lane.pending.size()) +
                          " batches unanswered (see its log)");
      }
      if (response.has_fault()) throw ClientError(DescribeFault(peer, response.fault()));
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
      } catch (const ClientError& error) {
        throw ClientError("bad response from " + peer + ": " + error.what());
      }
      Recycle(std::move(batch));
      lane.slot_freed.Notify();
    }
    lane.connection.Close();
  }

  // The next batch to send, once the window allows; null at the end of the input (or after a
  // failure). Batches with nothing to send (layout errors only) are delivered on the way.
  asio::awaitable<std::unique_ptr<Batch>> NextBatch() {
    while (true) {
      while (!failed() && !input_done_ && next_sequence_ >= output_->next() + window_size_) {
        co_await window_.Wait();
      }
      if (failed() || input_done_) co_return nullptr;
      std::unique_ptr<Batch> batch = TakeBatch();
      if (!batcher_->Fill(next_sequence_, batch.get())) {
        input_done_ = true;
        window_.Notify();  // other writers waiting for the window can stop too
        co_return nullptr;
      }
      ++next_sequence_;
      if (batch->sent > 0) co_return batch;
      Deliver(*batch, nullptr);
      Recycle(std::move(batch));
    }
  }

  void Deliver(const Batch& batch, const wire::SolveResponse* response) {
    std::string text;
    AppendResults(batch, response, prefixes_, &summary_, &text, options_.format);
    output_->Put(batch.sequence, std::move(text));
    window_.Notify();
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
  const size_t window_size_;
  AsyncSignal window_;  // notified when the output moves on or the input ends

  std::vector<std::unique_ptr<Lane>> lanes_;
  std::vector<std::unique_ptr<Batch>> spare_;
  uint64_t next_sequence_ = 0;
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
      ("batch", po::value(&batch)->value_name("B"), "puzzles per request (default 1000)")
      ("in-flight", po::value(&in_flight)->value_name("K"),
       "requests outstanding per connection (default 4)")
      ("connections", po::value(&connections)->value_name("C"),
       "connections to the daemon (default 2)")
      ("rate", "append the rating to each solution: LEVEL HARDEST STEPS GUESSES, e.g. "
       "'intermediate pointing 57 0' (QQWing's level, the hardest technique, the logical steps, "
       "the solver's guesses)")
      ("format", po::value(&format)->value_name("FORMAT"),
       "output: line (default), grid (boxed 9x9 layout), json (an object per line) or csv")
      ("input-format", po::value(&input_format)->value_name("FORMAT"),
       "input: auto (default: by extension .sdm .sdk .csv, else by content), text (lines, "
       "9-line grids, 729-character pencilmarks), sdm, sdk or csv")
      ("help,h", "print this help");
  po::options_description hidden;
  hidden.add_options()("input", po::value(&options->inputs));
  po::options_description all;
  all.add(flags).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);

  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    throw ClientError(std::string(error.what()) + " (see: sudoku-client solve --help)");
  }
  if (values.count("help")) {
    out << flags << "\n";
    return false;
  }
  options->endpoints = ParseEndpoints(connect);
  options->batch_size = ParseCount("--batch", batch, kMaxBatch);
  options->in_flight = ParseCount("--in-flight", in_flight, kMaxInFlight);
  options->connections = ParseCount("--connections", connections, kMaxConnections);
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
  if (values.count("unique")) options->solution_limit = 2;
  options->rate = values.count("rate") > 0;
  if (values.count("limit")) {
    options->solution_limit =
        static_cast<uint32_t>(ParseCount("--limit", limit, kMaxSolutionLimit));
  }
  return true;
}

int RunSolve(const SolveOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  try {
    Batcher batcher(options.inputs, options.batch_size, options.solution_limit, &in,
                    options.input_format);
    batcher.set_rate(options.rate);
    batcher.CheckInputs();
    out << OutputHeader(options.format);
    OrderedOutput output(&out);
    asio::io_context io(1);
    SolveSession session(io.get_executor(), options, &batcher, &output,
                         LocationPrefixes(batcher.DisplayNames()));
    asio::co_spawn(io, session.Run(), session.Guard());
    io.run();
    if (session.failed()) std::rethrow_exception(session.error());
    if (output.next() != session.issued()) {
      throw std::logic_error("results of " + std::to_string(session.issued() - output.next()) +
                             " batches were not written");
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    err << FormatSummary(session.summary(), seconds.count()) << "\n";
    return ExitStatus(session.summary());
  } catch (const ClientError& error) {
    out.flush();
    err << "sudoku-client: " << error.what() << "\n";
    return kExitError;
  } catch (const std::exception& error) {
    out.flush();
    err << "sudoku-client: internal error: " << error.what() << "\n";
    return kExitError;
  }
}

int SolveMain(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
              std::ostream& err) {
  SolveOptions options;
  try {
    if (!ParseSolveOptions(args, &options, out)) return kExitSolved;
  } catch (const ClientError& error) {
    err << "sudoku-client: " << error.what() << "\n";
    return kExitError;
  }
  return RunSolve(options, in, out, err);
}

}  // namespace sudoku::client
