#include "client/bench_command.h"

#include <utility>  // before Asio: asio issue 944

#include <algorithm>
#include <array>
#include <chrono>
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

#include "client/async_signal.h"
#include "client/batcher.h"
#include "client/client_error.h"
#include "client/connection.h"
#include "client/flags.h"
#include "client/result_format.h"
#include "proto/framing.h"
#include "solver/solver.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
namespace po = boost::program_options;
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxBatch = 100000;
constexpr size_t kMaxInFlight = 1024;
constexpr size_t kMaxConnections = 1024;
constexpr uint64_t kMaxCount = uint64_t{1} << 40;
constexpr double kMaxDuration = 86400;
constexpr double kMaxRate = 1e7;

// After the last request, how long answers are awaited before the rest count as unanswered.
constexpr auto kDrainTimeout = std::chrono::seconds(30);
// A connection slot stops after this many breaks in a row without an answer.
constexpr unsigned kMaxBreaksInARow = 5;
constexpr auto kFirstBackoff = std::chrono::milliseconds(50);
constexpr auto kMaxBackoff = std::chrono::seconds(1);

constexpr const char* kUsage = R"(usage: sudoku-client bench [options] FILE...

Load-tests sudokud: replays the puzzles of the FILEs ('-' for standard input; the first
1000000 puzzles) over --connections connections for --duration (10s, 2m) or --count batches, then
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

struct BenchLane {
  BenchLane(const asio::any_io_executor& executor, size_t index)
      : index(index), slot_freed(executor), stopped(executor), pacer(executor) {}

  const size_t index;
  std::unique_ptr<Connection> connection;
  // When each outstanding batch was sent (or due), by batch id: the daemon may answer a
  // connection's batches in any order, and answers to the same batch are alike.
  std::unordered_map<uint64_t, std::deque<Clock::time_point>> pending;
  std::deque<uint64_t> echo_order;  // --echo: the ids in the order they were sent
  size_t outstanding = 0;
  AsyncSignal slot_freed;
  AsyncSignal stopped;
  asio::steady_timer pacer;
  Clock::time_point next_due;
  int running = 0;
  bool broken = false;
  bool writer_done = false;
  bool answered = false;
  std::string error_kind;  // why the connection broke, for the report
};

class BenchSession {
 public:
  BenchSession(const asio::any_io_executor& executor, const BenchOptions& options,
               const std::vector<Template>& templates, BenchReport* report)
      : executor_(executor),
        options_(options),
        templates_(templates),
        report_(report),
        deadline_(executor),
        drain_(executor) {}

  asio::awaitable<void> Run() {
    start_ = Clock::now();
    for (size_t i = 0; i < options_.connections; ++i) {
      lanes_.push_back(std::make_unique<BenchLane>(executor_, i));
      if (options_.rate > 0) {
        lanes_.back()->next_due = start_ + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(i / options_.rate));
      }
    }
    running_ = lanes_.size();
    for (auto& lane : lanes_) asio::co_spawn(executor_, Drive(*lane), Guard());
    if (options_.count == 0) {
      deadline_.expires_after(std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(options_.duration_seconds)));
      boost::system::error_code cancelled;
      co_await deadline_.async_wait(asio::redirect_error(asio::use_awaitable, cancelled));
      if (!cancelled) StopSending();
    }
  }

  std::function<void(std::exception_ptr)> Guard() {
    return [this](std::exception_ptr error) {
      if (error && !error_) {
        error_ = error;
        Abort();
      }
    };
  }

  std::exception_ptr error() const { return error_; }
  void Finish() {
    const Clock::time_point end = last_answer_ > first_send_ ? last_answer_ : first_send_;
    report_->seconds = std::chrono::duration<double>(end - first_send_).count();
  }

 private:
  asio::awaitable<void> Drive(BenchLane& lane) {
    size_t endpoint = lane.index % options_.endpoints.size();
    unsigned breaks = 0;
    while (!stop_sending_ && !aborted_) {
      lane.connection = std::make_unique<Connection>(executor_, options_.endpoints[endpoint]);
      lane.broken = lane.writer_done = lane.answered = false;
      lane.error_kind.clear();
      try {
        co_await lane.connection->Connect();
      } catch (const ConnectionLost&) {
        lane.error_kind = "connect";
      }
      if (lane.error_kind.empty()) {
        lane.running = 2;
        asio::co_spawn(executor_, Write(lane), LaneGuard(lane));
        asio::co_spawn(executor_, Read(lane), LaneGuard(lane));
        while (lane.running > 0) co_await lane.stopped.Wait();
      }
      report_->bytes_sent += lane.connection->bytes_sent();
      report_->bytes_received += lane.connection->bytes_received();
      lane.connection->Close();
      if (lane.outstanding > 0) report_->errors["unanswered batches"] += lane.outstanding;
      lane.pending.clear();
      lane.echo_order.clear();
      lane.outstanding = 0;
      if (lane.error_kind.empty()) break;  // done
      ++report_->errors[lane.error_kind];
      breaks = lane.answered ? 1 : breaks + 1;
      if (breaks >= kMaxBreaksInARow) break;
      endpoint = (endpoint + 1) % options_.endpoints.size();
      lane.pacer.expires_after(std::min<Clock::duration>(kFirstBackoff * (1 << (breaks - 1)),
                                                         kMaxBackoff));
      boost::system::error_code ignored;
      co_await lane.pacer.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    }
    if (--running_ == 0) {
      deadline_.cancel();
      drain_.cancel();
    }
  }

  std::function<void(std::exception_ptr)> LaneGuard(BenchLane& lane) {
    return [this, &lane](std::exception_ptr error) {
      if (error) {
        try {
          std::rethrow_exception(error);
        } catch (const ConnectionLost&) {
          if (lane.error_kind.empty()) lane.error_kind = "connection lost";
        } catch (const ClientError&) {
          if (lane.error_kind.empty()) lane.error_kind = "bad response";
        } catch (...) {
          if (!error_) error_ = error;
          Abort();
        }
        lane.broken = true;
        lane.connection->Close();
        lane.slot_freed.Notify();
        lane.pacer.cancel();
      }
      --lane.running;
      lane.stopped.Notify();
    };
  }

  void StopSending() {
    if (stop_sending_) return;
    stop_sending_ = true;
    for (auto& lane : lanes_) {
      lane->slot_freed.Notify();
      lane->pacer.cancel();
    }
    asio::co_spawn(executor_, Drain(), Guard());
  }

  // Past the drain time-out, what is still unanswered is given up.
  asio::awaitable<void> Drain() {
    if (running_ == 0) co_return;  // nothing to wait for (and nobody left to cancel the timer)
    drain_.expires_after(kDrainTimeout);
    boost::system::error_code cancelled;
    co_await drain_.async_wait(asio::redirect_error(asio::use_awaitable, cancelled));
    if (!cancelled) Abort();
  }

  void Abort() {
    aborted_ = true;
    stop_sending_ = true;
    for (auto& lane : lanes_) {
      if (lane->connection != nullptr) lane->connection->Close();
      lane->slot_freed.Notify();
      lane->stopped.Notify();
      lane->pacer.cancel();
    }
    deadline_.cancel();
  }

  asio::awaitable<void> Write(BenchLane& lane) {
    const auto period = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(options_.rate > 0 ? options_.connections / options_.rate : 0));
    while (true) {
      while (!stop_sending_ && !lane.broken && lane.outstanding >= options_.in_flight) {
        co_await lane.slot_freed.Wait();
      }
      if (stop_sending_ || lane.broken) break;
      Clock::time_point due = Clock::now();
      if (options_.rate > 0) {
        if (lane.next_due > due) {
          lane.pacer.expires_at(lane.next_due);
          boost::system::error_code ignored;
          co_await lane.pacer.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
          if (stop_sending_ || lane.broken) break;
        }
        due = lane.next_due;
        lane.next_due += period;
      }
      const uint64_t id = next_template_++ % templates_.size();
      if (issued_++ == 0) first_send_ = due;
      if (options_.count > 0 && issued_ == options_.count) StopSending();
      lane.pending[id].push_back(due);
      if (options_.echo) {
        lane.echo_order.push_back(id);
        lane.slot_freed.Notify();  // the reader waits for something to read back
      }
      ++lane.outstanding;
      co_await lane.connection->Send(templates_[id].frame);
    }
    if (lane.broken) co_return;
    lane.writer_done = true;
    if (lane.outstanding == 0) lane.connection->Close();
  }

  asio::awaitable<void> Read(BenchLane& lane) {
    wire::Response response;
    const std::string peer = lane.connection->PeerName();
    while (!lane.broken && !(lane.writer_done && lane.outstanding == 0)) {
      uint64_t id = 0;
      bool got = false;
      if (options_.echo) {
        if (lane.echo_order.empty()) {
          co_await lane.slot_freed.Wait();  // nothing sent yet
          continue;
        }
        id = lane.echo_order.front();
        got = co_await lane.connection->ReceiveBytes(templates_[id].frame.size());
        if (got) lane.echo_order.pop_front();
      } else {
        got = co_await lane.connection->Receive(&response);
      }
      if (!got) {
        if (lane.broken || (lane.writer_done && lane.outstanding == 0)) break;
        throw ConnectionLost(peer + " closed the connection");
      }
      const Clock::time_point now = Clock::now();
      if (!options_.echo) {
        if (response.has_fault()) {
          std::string kind = wire::ProtocolFault::Kind_Name(response.fault().kind());
          if (kind.empty()) kind = std::to_string(response.fault().kind());
          lane.error_kind = "fault " + kind;
          throw ConnectionLost(DescribeFault(peer, response.fault()));
        }
        if (!response.has_solve()) throw ClientError("neither a result nor a fault");
        id = response.solve().batch_id();
      }
      const auto found = lane.pending.find(id);
      if (found == lane.pending.end() || found->second.empty()) {
        throw ClientError("batch " + std::to_string(id) + " was not sent");
      }
      const Clock::time_point due = found->second.front();
      found->second.pop_front();
      --lane.outstanding;
      lane.answered = true;
      last_answer_ = now;
      report_->latency.Record(static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(now - due).count()));
      ++report_->batches;
      report_->puzzles += templates_[id].puzzles;
      if (options_.verify) Verify(templates_[id], response.solve());
      lane.slot_freed.Notify();
    }
    lane.connection->Close();
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
  BenchReport* report_;
  asio::steady_timer deadline_;
  asio::steady_timer drain_;
  std::vector<std::unique_ptr<BenchLane>> lanes_;
  size_t running_ = 0;
  uint64_t next_template_ = 0;
  uint64_t issued_ = 0;
  bool stop_sending_ = false;
  bool aborted_ = false;
  Clock::time_point start_, first_send_, last_answer_;
  std::exception_ptr error_;
};

std::string Fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string Micros(uint64_t nanos) { return Fixed(static_cast<double>(nanos) / 1000, 1); }

std::string Megabytes(uint64_t bytes) { return Fixed(static_cast<double>(bytes) / 1e6, 1); }

double PerSecond(uint64_t n, double seconds) {
  return seconds > 0 ? static_cast<double>(n) / seconds : 0;
}

std::string JsonString(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      quoted += escaped;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

std::string Target(const BenchOptions& options) {
  std::string text = options.echo ? "echo server at " : "sudokud at ";
  for (size_t i = 0; i < options.endpoints.size(); ++i) {
    text += (i > 0 ? "," : "") + options.endpoints[i].ToString();
  }
  return text;
}

}  // namespace

std::string CheckSolution(std::string_view puzzle, std::string_view solution) {
  if (solution.size() != kCells) {
    return "the solution has " + std::to_string(solution.size()) + " cells, not 81";
  }
  auto cell = [](size_t i) {
    return "r" + std::to_string(i / 9 + 1) + "c" + std::to_string(i % 9 + 1);
  };
  for (size_t i = 0; i < kCells; ++i) {
    if (solution[i] < '1' || solution[i] > '9') {
      return "cell " + cell(i) + " is '" + std::string(1, solution[i]) + "', not a digit";
    }
    if (puzzle.size() == kCells && puzzle[i] >= '1' && puzzle[i] <= '9' &&
        puzzle[i] != solution[i]) {
      return "given " + std::string(1, puzzle[i]) + " at " + cell(i) + " changed to " +
             std::string(1, solution[i]);
    }
    if (puzzle.size() == kCandidateChars &&
        puzzle[i * 9 + static_cast<size_t>(solution[i] - '1')] != solution[i]) {
      return "digit " + std::string(1, solution[i]) + " at " + cell(i) +
             " is not among its candidates " + std::string(puzzle.substr(i * 9, 9));
    }
  }
  static constexpr const char* kUnits[] = {"row", "column", "box"};
  for (int unit = 0; unit < 3; ++unit) {
    for (int u = 0; u < 9; ++u) {
      unsigned seen = 0;
      for (int k = 0; k < 9; ++k) {
        const int row = unit == 0 ? u : unit == 1 ? k : u / 3 * 3 + k / 3;
        const int column = unit == 0 ? k : unit == 1 ? u : u % 3 * 3 + k % 3;
        const unsigned bit = 1u << (solution[static_cast<size_t>(row * 9 + column)] - '0');
        if (seen & bit) {
          return "digit " + std::string(1, solution[static_cast<size_t>(row * 9 + column)]) +
                 " twice in " + kUnits[unit] + " " + std::to_string(u + 1);
        }
        seen |= bit;
      }
    }
  }
  return "";
}

bool ParseBenchOptions(const std::vector<std::string>& args, BenchOptions* options,
                       std::ostream& out) {
  std::vector<std::string> connect;
  std::string connections, duration, count, batch, in_flight, rate, limit;
  po::options_description flags(kUsage);
  flags.add_options()
      ("connect", po::value(&connect)->value_name("HOST:PORT"),
       "where sudokud listens (default 127.0.0.1:9810); several addresses, comma-separated or "
       "with the flag repeated, share the connections")
      ("connections", po::value(&connections)->value_name("C"), "connections (default 1)")
      ("duration", po::value(&duration)->value_name("DURATION"),
       "how long to send for, e.g. 30s or 2m (default 10s)")
      ("count", po::value(&count)->value_name("N"), "batches to send in all, instead of --duration")
      ("batch", po::value(&batch)->value_name("B"), "puzzles per batch (default 100)")
      ("in-flight", po::value(&in_flight)->value_name("K"),
       "batches outstanding per connection (default 1)")
      ("batches-per-second", po::value(&rate)->value_name("R"),
       "batches per second over all connections (default: as fast as answers come)")
      ("unique", "ask for the proof of uniqueness (--limit 2)")
      ("verify", "check every answer: a valid grid that keeps the givens")
      ("json", "print the report as one JSON object")
      ("echo", "the peer is a TCP echo server: measure the bare round trip of the same bytes")
      ("help,h", "print this help");
  const auto parsed = ParseCommandLine(args, flags, "bench", &options->inputs, out);
  if (!parsed) return false;
  const po::variables_map& values = *parsed;
  options->endpoints = ParseEndpoints(connect);
  if (values.count("connections")) {
    options->connections = ParseCount("--connections", connections, kMaxConnections);
  }
  if (values.count("duration") && values.count("count")) {
    throw ClientError("--duration and --count cannot be used together");
  }
  if (values.count("duration")) {
    options->duration_seconds =
        ParsePositiveDuration("--duration", duration, kMaxDuration);
  }
  if (values.count("count")) options->count = ParseCount("--count", count, kMaxCount);
  if (values.count("batch")) options->batch_size = ParseCount("--batch", batch, kMaxBatch);
  if (values.count("in-flight")) options->in_flight = ParseCount("--in-flight", in_flight, kMaxInFlight);
  if (values.count("batches-per-second")) {
    options->rate =
        ParsePositive("--batches-per-second", rate, "a number of batches per second", kMaxRate);
  }
  if (values.count("unique")) options->solution_limit = 2;
  options->verify = values.count("verify") > 0;
  options->json = values.count("json") > 0;
  options->echo = values.count("echo") > 0;
  if (options->echo && options->verify) {
    throw ClientError("--echo and --verify cannot be used together (an echo server solves nothing)");
  }
  if (options->inputs.empty()) {
    throw ClientError("bench needs a FILE of puzzles to replay ('-' for standard input)");
  }
  return true;
}

std::string FormatBenchReport(const BenchOptions& options, const BenchReport& report) {
  const double s = report.seconds;
  std::string text = Target(options) + ": " + std::to_string(options.connections) +
                     " connections, batch " + std::to_string(options.batch_size) +
                     ", in-flight " + std::to_string(options.in_flight) + ", " + Fixed(s, 2) +
                     " s\n";
  text += "  batches   " + std::to_string(report.batches) + " (" +
          Fixed(PerSecond(report.batches, s), 1) + "/s)\n";
  text += "  puzzles   " + std::to_string(report.puzzles) + " (" +
          Fixed(PerSecond(report.puzzles, s), 1) + "/s)\n";
  const LatencyHistogram& l = report.latency;
  text += "  latency   p50 " + Micros(l.Percentile(0.5)) + " us, p90 " +
          Micros(l.Percentile(0.9)) + " us, p99 " + Micros(l.Percentile(0.99)) + " us, p99.9 " +
          Micros(l.Percentile(0.999)) + " us, max " + Micros(l.max()) + " us (per batch)\n";
  text += "  bytes     sent " + Megabytes(report.bytes_sent) + " MB (" +
          Fixed(PerSecond(report.bytes_sent, s) / 1e6, 1) + " MB/s), received " +
          Megabytes(report.bytes_received) + " MB (" +
          Fixed(PerSecond(report.bytes_received, s) / 1e6, 1) + " MB/s)\n";
  if (options.verify) {
    text += "  verified  " + std::to_string(report.verified) + " solutions right, " +
            std::to_string(report.wrong) + " wrong";
    if (!report.first_wrong.empty()) text += " (first: " + report.first_wrong + ")";
    text += "\n";
  }
  text += "  errors    ";
  if (report.errors.empty()) text += "none";
  bool first = true;
  for (const auto& [kind, n] : report.errors) {
    text += (first ? "" : ", ") + kind + " " + std::to_string(n);
    first = false;
  }
  return text + "\n";
}

std::string FormatBenchJson(const BenchOptions& options, const BenchReport& report) {
  const double s = report.seconds;
  const LatencyHistogram& l = report.latency;
  std::string endpoints;
  for (const Endpoint& endpoint : options.endpoints) {
    endpoints += (endpoints.empty() ? "" : ",") + JsonString(endpoint.ToString());
  }
  std::string errors;
  for (const auto& [kind, n] : report.errors) {
    errors += (errors.empty() ? "" : ",") + JsonString(kind) + ":" + std::to_string(n);
  }
  std::string text = "{\"target\":" + JsonString(options.echo ? "echo" : "sudokud") +
                     ",\"endpoints\":[" + endpoints + "]" +
                     ",\"connections\":" + std::to_string(options.connections) +
                     ",\"batch\":" + std::to_string(options.batch_size) +
                     ",\"in_flight\":" + std::to_string(options.in_flight) +
                     ",\"seconds\":" + Fixed(s, 6) +
                     ",\"batches\":" + std::to_string(report.batches) +
                     ",\"puzzles\":" + std::to_string(report.puzzles) +
                     ",\"batches_per_second\":" + Fixed(PerSecond(report.batches, s), 1) +
                     ",\"puzzles_per_second\":" + Fixed(PerSecond(report.puzzles, s), 1) +
                     ",\"latency_us\":{\"p50\":" + Micros(l.Percentile(0.5)) +
                     ",\"p90\":" + Micros(l.Percentile(0.9)) +
                     ",\"p99\":" + Micros(l.Percentile(0.99)) +
                     ",\"p99_9\":" + Micros(l.Percentile(0.999)) + ",\"max\":" + Micros(l.max()) +
                     "},\"bytes_sent\":" + std::to_string(report.bytes_sent) +
                     ",\"bytes_received\":" + std::to_string(report.bytes_received);
  if (options.verify) {
    text += ",\"verified\":" + std::to_string(report.verified) +
            ",\"wrong\":" + std::to_string(report.wrong);
  }
  return text + ",\"errors\":{" + errors + "}}\n";
}

int RunBench(const BenchOptions& options, std::istream& in, std::ostream& out, std::ostream& err,
             BenchReport* report_out) {
  try {
    const std::vector<Template> templates = LoadTemplates(options, in);
    BenchReport report;
    asio::io_context io(1);
    BenchSession session(io.get_executor(), options, templates, &report);
    asio::co_spawn(io, session.Run(), session.Guard());
    io.run();
    if (session.error()) std::rethrow_exception(session.error());
    session.Finish();
    out << (options.json ? FormatBenchJson(options, report) : FormatBenchReport(options, report))
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
