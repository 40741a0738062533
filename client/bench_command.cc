#include "client/bench_command.h"

#include <utility>  // before Asio: asio issue 944

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
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
#include "client/result_format.h"
#include "client/session.h"
#include "proto/framing.h"
#include "proto/wake_up.h"
#include "solver/solver.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
namespace po = boost::program_options;
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxBatch = wire::kDefaultMaxBatch;  // the daemon's default --max-batch
constexpr size_t kMaxInFlight = 1024;
constexpr size_t kMaxConnections = 1024;
constexpr uint64_t kMaxCount = uint64_t{1} << 40;
constexpr double kMaxDuration = 86400;
constexpr double kMaxRate = 1e7;

// After the last request, how long answers are awaited before the rest count as unanswered.
constexpr auto kDrainTimeout = std::chrono::seconds(30);

constexpr const char* kUsage = R"(usage: sudoku-client bench [options] FILE...

Load-tests sudokud: replays the puzzles of the FILEs ('-' for standard input; the first
1000000 puzzles) over --connections connections for --duration (10s, 2m) or --requests batches, then
reports batches/s, puzzles/s, the latency of each batch's round trip (p50, p90, p99, p99.9,
max), errors by kind and bytes each way. With --batches-per-second, latency counts from when
each batch was due. Exit status: 0 when nothing failed, 1 on errors or wrong answers, 2 on a usage
or input error.

Options)";

// One batch of the replayed puzzles, its request built once.
struct Template {
  std::string frame;
  size_t puzzles = 0;
  // --verify: the puzzles sent, end to end (81 characters each, or 729 for pencilmarks), and
  // where each one ends in `texts`.
  std::string texts;
  std::vector<uint32_t> ends;
};

std::vector<Template> LoadTemplates(const BenchOptions& options, std::istream& in) {
  Batcher batcher(options.inputs, options.batch_size, options.solution_limit, &in);
  batcher.CheckInputs();
  std::vector<Template> templates;
  Batch batch;
  size_t puzzles = 0;
  while (puzzles < kMaxReplayPuzzles && batcher.Fill(templates.size(), &batch)) {
    if (batch.sent == 0) continue;  // layout errors only: nothing to send
    Template& t = templates.emplace_back();
    t.frame = batch.frame;
    t.puzzles = batch.sent;
    if (options.verify) {
      for (size_t i = 0; i < batch.size; ++i) {
        const PuzzleRecord& record = batch.records[i];
        if (!record.error) {
          t.texts.append(record.text());
          t.ends.push_back(static_cast<uint32_t>(t.texts.size()));
        }
      }
    }
    puzzles += batch.sent;
  }
  if (templates.empty()) {
    std::string names;
    for (const std::string& name : batcher.DisplayNames()) {
      names += (names.empty() ? "'" : ", '") + name + "'";
    }
    throw ClientError("no puzzles to replay in " + names);
  }
  return templates;
}

// What bench runs over the session: the templates replayed in turn, paced by --batches-per-second,
// each answer timed (and checked with --verify). A broken connection's batches count as
// unanswered, its break as an error of its kind; the session connects again while time remains.
class BenchWork : public SessionWork {
 public:
  BenchWork(const asio::any_io_executor& executor, const BenchOptions& options,
            const std::vector<Template>& templates, BenchReport* report)
      : executor_(executor),
        options_(options),
        templates_(templates),
        report_(report),
        deadline_(executor),
        drain_(executor),
        session_(executor, SessionFor(options), this) {
    for (size_t i = 0; i < options.connections; ++i) {
      lanes_.push_back(std::make_unique<LaneState>(executor));
    }
  }

  Session& session() { return session_; }

  asio::awaitable<void> Run() {
    start_ = Clock::now();
    if (options_.rate > 0) {
      for (size_t i = 0; i < lanes_.size(); ++i) {
        lanes_[i]->next_due = start_ + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(i / options_.rate));
      }
    }
    asio::co_spawn(executor_, RunSession(), session_.Guard());
    if (options_.count == 0) {
      deadline_.expires_after(std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(options_.duration_seconds)));
      boost::system::error_code cancelled;
      co_await deadline_.async_wait(asio::redirect_error(asio::use_awaitable, cancelled));
      if (!cancelled) StopSending();
    }
  }

  void Finish() {
    const Clock::time_point end = last_answer_ > first_send_ ? last_answer_ : first_send_;
    report_->seconds = std::chrono::duration<double>(end - first_send_).count();
  }

  asio::awaitable<const std::string*> Next(Lane& lane) override {
    LaneState& state = *lanes_[lane.index];
    if (stop_sending_ || !lane.sending()) co_return nullptr;
    Clock::time_point due = Clock::now();
    if (options_.rate > 0) {
      if (state.next_due > due) {
        state.pacer.expires_at(state.next_due);
        boost::system::error_code ignored;
        co_await state.pacer.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
        if (stop_sending_ || !lane.sending()) co_return nullptr;
      }
      due = state.next_due;
      state.next_due += Period();
    }
    // The next batch in turn. The daemon refuses a batch_id still in flight on its connection,
    // so a batch this connection has out already goes again under another id: copy k of
    // template t is batch k * templates + t.
    const uint64_t index = next_template_++ % templates_.size();
    uint64_t id = index;
    while (!state.pending[id].empty()) id += templates_.size();
    if (issued_++ == 0) first_send_ = due;
    if (options_.count > 0 && issued_ == options_.count) StopSending();
    state.pending[id].push_back(Sent{due, lane.frames_sent + 1});
    if (options_.echo) {
      state.echo_order.push_back(id);
      lane.slot_freed.Notify();  // the reader waits for something to read back
    }
    co_return &Frame(id);
  }

  // The request of batch `id`: its template's, or a copy under its own batch_id, made once.
  const std::string& Frame(uint64_t id) {
    const Template& sent = TemplateOf(id);
    if (id < templates_.size()) return sent.frame;
    std::string& copy = copies_[id];
    if (copy.empty()) {
      const wire::FrameHeader header = wire::DecodeFrameHeader(sent.frame, sent.frame.size());
      wire::Request request;
      wire::ParseFrameBody(std::string_view(sent.frame).substr(header.prefix_bytes), &request);
      request.mutable_solve()->set_batch_id(id);
      wire::AppendFrame(request, &copy);
    }
    return copy;
  }

  const Template& TemplateOf(uint64_t id) const { return templates_[id % templates_.size()]; }

  // --echo: the bytes of the next frame sent, read back.
  asio::awaitable<bool> Receive(Lane& lane, wire::Response* response) override {
    if (!options_.echo) co_return co_await SessionWork::Receive(lane, response);
    LaneState& state = *lanes_[lane.index];
    while (state.echo_order.empty()) {  // nothing sent yet
      if (session_.over() || lane.broken || (lane.writer_done && lane.outstanding == 0)) {
        co_return false;
      }
      co_await lane.slot_freed.Wait();
    }
    const uint64_t id = state.echo_order.front();
    const bool got = co_await lane.connection->ReceiveBytes(Frame(id).size());
    if (got) {
      state.echo_order.pop_front();
      state.echoed = id;
      response->Clear();
    }
    co_return got;
  }

  bool Take(Lane& lane, const wire::Response& response) override {
    LaneState& state = *lanes_[lane.index];
    uint64_t id = state.echoed;
    if (!options_.echo) {
      if (!response.has_solve()) throw ClientError("neither a result nor a fault");
      id = response.solve().batch_id();
    }
    const Clock::time_point now = Clock::now();
    const auto found = state.pending.find(id);
    if (found == state.pending.end() || found->second.empty()) {
      throw ClientError("batch " + std::to_string(id) + " was not sent");
    }
    const Clock::time_point due = found->second.front().due;
    found->second.pop_front();
    last_answer_ = now;
    report_->latency.Record(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now - due).count()));
    ++report_->batches;
    report_->puzzles += TemplateOf(id).puzzles;
    if (options_.verify) Verify(TemplateOf(id), response.solve());
    return true;
  }

  void Fault(Lane& lane, const wire::ProtocolFault& fault) override {
    std::string kind = wire::ProtocolFault::Kind_Name(fault.kind());
    if (kind.empty()) kind = std::to_string(fault.kind());
    lanes_[lane.index]->error_kind = "fault " + kind;
    lane.turned_away = fault.kind() == wire::ProtocolFault::TOO_MANY_CONNECTIONS;
    throw ConnectionLost(DescribeFault(lane.connection->PeerName(), fault));
  }

  bool BadResponseBreaksOnlyTheConnection() const override { return true; }
  bool WantsConnection() const override { return !stop_sending_; }

  void ConnectionEnded(Lane& lane) override {
    LaneState& state = *lanes_[lane.index];
    report_->bytes_sent += lane.connection->bytes_sent();
    report_->bytes_received += lane.connection->bytes_received();
    if (lane.outstanding > 0) report_->errors["unanswered batches"] += lane.outstanding;
    state.pending.clear();
    state.echo_order.clear();
    if (lane.error != nullptr) {
      std::string kind = std::move(state.error_kind);
      if (kind.empty()) kind = ErrorKind(lane);
      ++report_->errors[kind];
    }
    state.error_kind.clear();
  }

  // A draining daemon's unread batches are not sent again (bench replays its templates, it owes
  // no one an answer): they are counted, as a broken connection's are.
  void TakeBackUnread(Lane& lane, uint64_t last_read) override {
    uint64_t unread = 0;
    for (auto& [id, sent] : lanes_[lane.index]->pending) {
      unread += std::erase_if(sent, [last_read](const Sent& batch) {
        return batch.frame > last_read;
      });
    }
    if (unread > 0) report_->errors["unread by a draining daemon"] += unread;
  }

  void Wake(Lane* lane) override {
    if (lane != nullptr) lanes_[lane->index]->pacer.cancel();
  }

 private:
  // A batch out: when it was sent (or due), and which frame of its connection it went out as.
  struct Sent {
    Clock::time_point due;
    uint64_t frame = 0;
  };
  struct LaneState {
    explicit LaneState(const asio::any_io_executor& executor) : pacer(executor) {}
    // When each outstanding batch was sent (or due), by batch id: the daemon may answer a
    // connection's batches in any order.
    std::unordered_map<uint64_t, std::deque<Sent>> pending;
    std::deque<uint64_t> echo_order;  // --echo: the ids in the order they were sent
    uint64_t echoed = 0;              // --echo: the id just read back
    asio::steady_timer pacer;
    Clock::time_point next_due;
    std::string error_kind;  // why the connection broke, when a fault says
  };

  static SessionOptions SessionFor(const BenchOptions& options) {
    SessionOptions session = SessionOptionsFrom(options);
    session.fail_when_every_lane_gives_up = false;  // the report counts the errors
    return session;
  }

  static std::string ErrorKind(const Lane& lane) {
    if (lane.connect_failed) return "connect";
    if (lane.timed_out) return "timeout";
    try {
      std::rethrow_exception(lane.error);
    } catch (const ConnectionLost&) {
      return "connection lost";
    } catch (...) {
      return "bad response";
    }
  }

  Clock::duration Period() const {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
        options_.rate > 0 ? static_cast<double>(options_.connections) / options_.rate : 0));
  }

  asio::awaitable<void> RunSession() {
    co_await session_.Run();
    deadline_.cancel();
    drain_.cancel();
    running_ = false;
  }

  void StopSending() {
    if (stop_sending_) return;
    stop_sending_ = true;
    for (auto& lane : session_.lanes()) {
      lane->slot_freed.Notify();
      lanes_[lane->index]->pacer.cancel();
    }
    asio::co_spawn(executor_, Drain(), session_.Guard());
  }

  // Past the drain time-out, what is still unanswered is given up.
  asio::awaitable<void> Drain() {
    if (!running_) co_return;  // nothing to wait for (and nobody left to cancel the timer)
    drain_.expires_after(kDrainTimeout);
    boost::system::error_code cancelled;
    co_await drain_.async_wait(asio::redirect_error(asio::use_awaitable, cancelled));
    if (!cancelled) {
      stop_sending_ = true;
      session_.Stop();
      deadline_.cancel();
    }
  }

  void Verify(const Template& sent, const wire::SolveResponse& response) {
    auto wrong = [this](uint64_t puzzles, const std::string& why) {
      report_->wrong += puzzles;
      if (report_->first_wrong.empty()) report_->first_wrong = why;
    };
    const std::string batch = "batch " + std::to_string(response.batch_id());
    if (static_cast<size_t>(response.verdicts_size()) != sent.puzzles) {
      wrong(sent.puzzles, batch + ": " + std::to_string(response.verdicts_size()) +
                              " verdicts for " + std::to_string(sent.puzzles) + " puzzles");
      return;
    }
    const SolutionColumn solutions(response);
    std::array<char, kCells> unpacked;
    size_t offset = 0;
    for (size_t i = 0; i < sent.puzzles; ++i) {
      const wire::Verdict verdict = response.verdicts(static_cast<int>(i));
      if (verdict != wire::SOLVED && verdict != wire::MULTIPLE) continue;  // nothing to check
      const size_t start = i == 0 ? 0 : sent.ends[i - 1];
      const std::string_view puzzle =
          std::string_view(sent.texts).substr(start, sent.ends[i] - start);
      if (solutions.bytes.size() < offset + solutions.bytes_each) {
        wrong(1, batch + ", puzzle " + std::to_string(i + 1) + ": no solution sent");
        continue;
      }
      const std::string why = CheckSolution(puzzle, solutions.At(offset, unpacked));
      offset += solutions.bytes_each;
      if (why.empty()) {
        ++report_->verified;
      } else {
        wrong(1, batch + ", puzzle " + std::to_string(i + 1) + ": " + why);
      }
    }
  }

  asio::any_io_executor executor_;
  const BenchOptions& options_;
  const std::vector<Template>& templates_;
  std::unordered_map<uint64_t, std::string> copies_;  // by batch_id, those past the templates
  BenchReport* report_;
  asio::steady_timer deadline_;
  asio::steady_timer drain_;
  std::vector<std::unique_ptr<LaneState>> lanes_;  // by lane index
  bool running_ = true;  // the session's lanes have not all stopped
  uint64_t next_template_ = 0;
  uint64_t issued_ = 0;
  bool stop_sending_ = false;
  Clock::time_point start_, first_send_, last_answer_;
  Session session_;  // last: its lanes refer to the work above
};

}  // namespace

bool ParseBenchOptions(const std::vector<std::string>& args, BenchOptions* options,
                       std::ostream& out) {
  std::vector<std::string> connect;
  std::string connections, duration, requests, batch, in_flight, rate, limit;
  SessionFlags session_flags = DefaultSessionFlags(options->timeout, options->retry_for);
  // The defaults in the descriptions are the options' own, so that --help cannot drift from them.
  const std::string connect_help =
      "where sudokud listens (default " + std::string(kDefaultEndpoint) + "); several "
      "addresses, comma-separated or with the flag repeated, share the connections";
  const std::string connections_help =
      "connections (default " + std::to_string(options->connections) + ")";
  const std::string duration_help =
      "how long to send for, e.g. 30s or 2m (default " +
      DurationText(std::chrono::milliseconds(std::llround(options->duration_seconds * 1000))) +
      ")";
  const std::string batch_help =
      "puzzles per batch (default " + std::to_string(options->batch_size) + ")";
  const std::string in_flight_help =
      "batches outstanding per connection (default " + std::to_string(options->in_flight) + ")";
  po::options_description flags(kUsage);
  flags.add_options()
      ("connect", po::value(&connect)->value_name("HOST:PORT"), connect_help.c_str())
      ("connections", po::value(&connections)->value_name("C"), connections_help.c_str())
      ("duration", po::value(&duration)->value_name("DURATION"), duration_help.c_str())
      ("requests", po::value(&requests)->value_name("N"),
       "batches to send in all, instead of --duration (as ghz's --total)")
      ("batch", po::value(&batch)->value_name("B"), batch_help.c_str())
      ("in-flight", po::value(&in_flight)->value_name("K"), in_flight_help.c_str())
      ("batches-per-second", po::value(&rate)->value_name("R"),
       "batches per second over all connections (default: as fast as answers come)")
      ("unique", "ask for the proof of uniqueness (--limit 2)")
      ("verify", "check every answer: a valid grid that keeps the givens")
      ("json", "print the report as one JSON object")
      ("echo", "the peer is a TCP echo server: measure the bare round trip of the same bytes")
      ("help,h", "print this help");
  AddSessionFlags(&flags, &session_flags);
  const auto parsed = ParseCommandLine(args, flags, "bench", &options->inputs, out);
  if (!parsed) return false;
  const po::variables_map& values = *parsed;
  options->endpoints = ParseEndpoints(connect);
  if (values.count("connections")) {
    options->connections = ParseCount("--connections", connections, kMaxConnections);
  }
  if (values.count("duration") && values.count("requests")) {
    throw ClientError("--duration and --requests cannot be used together");
  }
  if (values.count("duration")) {
    options->duration_seconds =
        ParsePositiveDuration("--duration", duration, kMaxDuration);
  }
  if (values.count("requests")) options->count = ParseCount("--requests", requests, kMaxCount);
  if (values.count("batch")) options->batch_size = ParseCount("--batch", batch, kMaxBatch);
  if (values.count("in-flight")) {
    options->in_flight = ParseCount("--in-flight", in_flight, kMaxInFlight);
  }
  if (values.count("batches-per-second")) {
    options->rate =
        ParsePositive("--batches-per-second", rate, "a number of batches per second", kMaxRate);
  }
  if (values.count("unique")) options->solution_limit = 2;
  ParseSessionFlags(session_flags, options);
  options->verify = values.count("verify") > 0;
  options->json = values.count("json") > 0;
  options->echo = values.count("echo") > 0;
  if (options->echo && options->verify) {
    throw ClientError(
        "--echo and --verify cannot be used together (an echo server solves nothing)");
  }
  if (options->inputs.empty()) {
    throw ClientError("bench needs a FILE of puzzles to replay ('-' for standard input)");
  }
  return true;
}

std::string NothingMeasured(const BenchReport& report) {
  std::string errors;
  for (const auto& [kind, count] : report.errors) {
    errors += (errors.empty() ? "" : ", ") + kind + " " + std::to_string(count);
  }
  return "bench measured nothing: no batch was answered (errors: " + errors +
         "); no report is printed";
}

int RunBench(const BenchOptions& options, std::istream& in, std::ostream& out, std::ostream& err,
             BenchReport* report_out) {
  try {
    const std::vector<Template> templates = LoadTemplates(options, in);
    BenchReport report;
    BenchOptions run_options = options;
    // The batch size the report shows is that of the largest batch sent: fewer puzzles than
    // --batch make smaller batches.
    size_t largest = 0;
    for (const Template& t : templates) largest = std::max(largest, t.puzzles);
    run_options.batch_size = std::min(options.batch_size, largest);
    std::optional<StatusLine> status_line;
    ReportWaitsTo(err, IsTerminal(err), &run_options, &status_line);
    asio::io_context io(1);
    BenchWork work(io.get_executor(), run_options, templates, &report);
    asio::co_spawn(io, work.Run(), work.session().Guard());
    io.run();
    if (work.session().error()) std::rethrow_exception(work.session().error());
    work.Finish();
    if (!work.session().gave_up().empty()) {
      err << "sudoku-client: " << work.session().gave_up() << "\n";
    }
    if (report.batches == 0 && !report.errors.empty()) {
      // Nothing was measured: a report of zeros would read as a result.
      err << "sudoku-client: " << NothingMeasured(report) << "\n";
      if (report_out != nullptr) *report_out = std::move(report);
      return 2;
    }
    out << (options.json ? FormatBenchJson(run_options, report)
                         : FormatBenchReport(run_options, report))
        << std::flush;
    const bool clean = report.errors.empty() && report.wrong == 0;
    if (report_out != nullptr) *report_out = std::move(report);
    return clean ? 0 : 1;
  } catch (...) {
    ReportError(err);
    return 2;
  }
}

int BenchMain(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
              std::ostream& err) {
  BenchOptions options;
  try {
    if (!ParseBenchOptions(args, &options, out)) return 0;
  } catch (const ClientError& error) {
    err << "sudoku-client: " << error.what() << "\n";
    return 2;
  }
  return RunBench(options, in, out, err);
}

}  // namespace sudoku::client
