#include "client/generate_command.h"

#include <utility>  // before Asio: asio issue 944

#include <algorithm>
#include <charconv>
#include <chrono>
#include <exception>
#include <optional>
#include <random>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/program_options.hpp>
#include <fmt/format.h>

#include "client/client_error.h"
#include "client/flags.h"
#include "client/connection.h"
#include "client/endpoint.h"
#include "client/result_format.h"
#include "client/session.h"
#include "client/solve_command.h"
#include "proto/explain_wire.h"
#include "proto/framing.h"
#include "solver/generator.h"

namespace sudoku::client {
namespace {

namespace asio = boost::asio;
namespace po = boost::program_options;

// A count this large takes hours even at the daemon's pace; more is surely a typo.
constexpr uint64_t kMaxCount = 100'000'000;

constexpr const char* kUsage = R"(usage: sudoku-client generate [options]

Asks sudokud for new puzzles, each with exactly one solution (checked by the solver), and writes
them to standard output, one per line: 81 characters, '1'-'9' for clues and '.' for blanks.
The same --seed and options always give the same puzzles. A summary goes to standard error.
Exit status: 0 when every puzzle was made, 1 when some could not be (standard error says why),
2 on a usage or connection error.

Options)";

// An SE rating in tenths, from "4" or "4.2".
uint32_t ParseSe(const char* flag, const std::string& text) {
  const std::optional<uint32_t> tenths = rating::ParseSe(text);
  if (!tenths) {
    throw ClientError(std::string(flag) +
                      " expects a rating from 1.0 to 11.9 with at most one decimal, got " +
                      Quoted(text));
  }
  return *tenths;
}

uint64_t ParseNumber(const char* flag, const std::string& text, uint64_t min, uint64_t max) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < min ||
      value > max) {
    throw ClientError(std::string(flag) + " expects a whole number from " + std::to_string(min) +
                      " to " + std::to_string(max) + ", got " + Quoted(text));
  }
  return value;
}

struct GenerateSummary {
  uint64_t generated = 0;
  uint64_t failed = 0;
  uint64_t short_of_target = 0;  // generated with more clues than --clues
  uint32_t fewest = 0, most = 0;
  uint64_t clue_total = 0;
};

// What generate runs over the session: the requests one after another on one connection, each
// response's puzzles written as they arrive. One request at a time is enough: the daemon streams
// a request's chunks without waiting for us. When the connection breaks, the rest of the request
// goes again (puzzle N of a seed is the same whatever the request), so every puzzle is written
// once, in order.
class GenerateWork : public SessionWork {
 public:
  GenerateWork(const asio::any_io_executor& executor, const GenerateCommandOptions& options,
               uint64_t seed, std::ostream& out, std::ostream& err, GenerateSummary* summary)
      : options_(options),
        out_(out),
        err_(err),
        summary_(summary),
        session_(executor, SessionFor(options), this) {
    wire::GenerateRequest* generate = request_.mutable_generate();
    generate->set_seed(seed);
    generate->set_clues(options.clues);
    generate->set_symmetric(options.symmetric);
    generate->set_minimal(options.minimal);
    // wire::Level mirrors logic::Level value for value (static_asserts in daemon/generate.cc).
    if (options.difficulty) {
      generate->set_difficulty(static_cast<wire::Level>(*options.difficulty));
    }
    if (options.hodoku_level) {
      generate->set_hodoku_level(static_cast<wire::HodokuLevel>(*options.hodoku_level));
    }
    generate->set_se_min(options.se_min);
    generate->set_se_max(options.se_max);
    if (options.needs) generate->set_needs(wire::TechniqueToWire(*options.needs));
  }

  Session& session() { return session_; }

  // The request, or what is left of it after a broken connection.
  asio::awaitable<const std::string*> Next(Lane& lane) override {
    if (session_.over() || !lane.sending() || first_ >= options_.count) co_return nullptr;
    wire::GenerateRequest* generate = request_.mutable_generate();
    generate->set_request_id(id_);
    generate->set_first_index(first_ + next_);
    generate->set_count(Count() - next_);
    resumed_at_ = next_;
    frame_.clear();
    wire::AppendFrame(request_, &frame_);
    co_return &frame_;
  }

  bool Take(Lane& lane, const wire::Response& response) override {
    const std::string peer = lane.connection->PeerName();
    const wire::GenerateResponse& chunk = response.generate();
    const auto bad = [&](const std::string& what) {
      return ClientError("bad response from " + peer + ": " + what);
    };
    if (!response.has_generate()) throw bad("neither generated puzzles nor a fault");
    const uint32_t count = Count();
    const uint32_t sent = count - resumed_at_;  // puzzles in the request as sent
    const uint32_t next = next_ - resumed_at_;  // the next one due, counted in that request
    if (chunk.request_id() != id_ || chunk.first() != next || chunk.covered() > sent - next) {
      throw bad("generate response for request " + std::to_string(chunk.request_id()) +
                ", puzzles " + std::to_string(chunk.first()) + "+" +
                std::to_string(chunk.covered()) + " when request " + std::to_string(id_) +
                ", puzzle " + std::to_string(next) + " was due");
    }
    const auto made = static_cast<size_t>(chunk.clues_size());
    if (chunk.puzzles().size() != made * kCells ||
        made + static_cast<size_t>(chunk.failures_size()) != chunk.covered()) {
      throw bad(std::to_string(chunk.puzzles().size()) + " puzzle bytes, " +
                std::to_string(made) + " clue counts and " +
                std::to_string(chunk.failures_size()) + " failures for " +
                std::to_string(chunk.covered()) + " puzzles");
    }
    lines_.clear();
    for (size_t i = 0; i < made; ++i) {
      lines_.append(chunk.puzzles(), i * kCells, kCells);
      lines_.push_back('\n');
      const uint32_t clues = chunk.clues(static_cast<int>(i));
      summary_->fewest = summary_->generated == 0 ? clues : std::min(summary_->fewest, clues);
      summary_->most = std::max(summary_->most, clues);
      summary_->clue_total += clues;
      ++summary_->generated;
      if (options_.clues != 0 && clues > options_.clues) ++summary_->short_of_target;
    }
    out_ << lines_;
    for (const auto& failure : chunk.failures()) {
      ++summary_->failed;
      err_ << "sudoku-client: puzzle " << first_ + resumed_at_ + failure.index() + 1 << ": "
           << failure.message() << "\n";
    }
    next_ += chunk.covered();
    if (!chunk.last()) return false;
    if (next_ != count) {
      throw bad("generate request " + std::to_string(id_) + " ended after " +
                std::to_string(next_ - resumed_at_) + " of " + std::to_string(sent) +
                " puzzles");
    }
    first_ += count;
    next_ = 0;
    ++id_;
    return true;
  }

  void ConnectionEnded(Lane&) override {}  // Next() sends the rest of the request
  void TakeBackUnread(Lane&, uint64_t) override {}  // so it does here
  void Wake(Lane*) override {}

 private:
  static SessionOptions SessionFor(const GenerateCommandOptions& options) {
    SessionOptions session = SessionOptionsFrom(options);
    session.endpoints = {options.endpoint};
    session.requests_noun = "requests";
    return session;
  }

  // Puzzles in the current request.
  uint32_t Count() const {
    return static_cast<uint32_t>(std::min(kRequestPuzzles, options_.count - first_));
  }

  const GenerateCommandOptions& options_;
  std::ostream& out_;
  std::ostream& err_;
  GenerateSummary* summary_;
  wire::Request request_;
  std::string frame_;
  std::string lines_;
  uint64_t id_ = 0;          // the current request
  uint64_t first_ = 0;       // its first puzzle
  uint32_t next_ = 0;        // its next puzzle due
  uint32_t resumed_at_ = 0;  // its first puzzle in the request last sent
  Session session_;          // last: its lanes refer to the work above
};

std::string FormatSummary(const GenerateCommandOptions& options, uint64_t seed,
                          const GenerateSummary& summary, double seconds) {
  const double mean =
      summary.generated > 0 ? static_cast<double>(summary.clue_total) / summary.generated : 0;
  std::string line = fmt::format(
      "generated {}, failed {}, seed {}, clues {}-{} (mean {:.1f}), {:.3f} s, {} puzzles/s",
      summary.generated, summary.failed, seed, summary.fewest, summary.most, mean, seconds,
      RateText(seconds > 0 ? static_cast<double>(summary.generated) / seconds : 0.0));
  if (summary.short_of_target > 0) {
    line += "\n--clues " + std::to_string(options.clues) + " not reached for " +
            std::to_string(summary.short_of_target) + " puzzles: they keep as few clues as " +
            "removal got to (the most: " + std::to_string(summary.most) + ")";
  }
  return line;
}

}  // namespace

bool ParseGenerateOptions(const std::vector<std::string>& args, GenerateCommandOptions* options,
                          std::ostream& out) {
  std::vector<std::string> connect;
  std::string count = std::to_string(options->count), seed, clues, difficulty, hodoku_level,
              se_min, se_max, needs;
  SessionFlags session_flags = DefaultSessionFlags(options->timeout, options->retry_for);
  // The defaults in the descriptions are the options' own, so that --help cannot drift from them.
  const std::string connect_help =
      "where sudokud listens (default " + std::string(kDefaultEndpoint) + ")";
  const std::string count_help = "puzzles to make (default " + count + ")";
  const std::string needs_help =
      "only puzzles whose explanation takes a step of TECHNIQUE, as explain names it: " +
      NeedsNames();
  po::options_description flags(kUsage);
  flags.add_options()("connect", po::value(&connect)->value_name("HOST:PORT"),
                      connect_help.c_str())(
      "count", po::value(&count)->value_name("N"), count_help.c_str())(
      "difficulty", po::value(&difficulty)->value_name("LEVEL"),
      "only puzzles of this level, as rated by the logical solver: simple, easy, "
      "intermediate or expert (QQWing's scale)")(
      "hodoku-level", po::value(&hodoku_level)->value_name("LEVEL"),
      "only puzzles of this HoDoKu level: easy, medium, hard, unfair or extreme")(
      "se-min", po::value(&se_min)->value_name("R"),
      "only puzzles rated R or more on the Sudoku Explainer scale (1.0-11.9)")(
      "se-max", po::value(&se_max)->value_name("R"),
      "only puzzles rated R or less on the Sudoku Explainer scale (1.0-11.9)")(
      "needs", po::value(&needs)->value_name("TECHNIQUE"), needs_help.c_str())(
      "clues", po::value(&clues)->value_name("K"),
      "remove clues down to K (17-81), or as close as removal gets")(
      "symmetric", "clues symmetric about the centre (180-degree rotation)")(
      "minimal", "no clue can be removed without a second solution appearing")(
      "seed", po::value(&seed)->value_name("S"),
      "seed of the puzzle sequence (default: a random one, shown in the summary)")(
      "help,h", "print this help");
  AddSessionFlags(&flags, &session_flags);
  std::vector<std::string> extra;
  const auto parsed = ParseCommandLine(args, flags, "generate", &extra, out);
  if (!parsed) return false;
  const po::variables_map& values = *parsed;
  if (!extra.empty()) {
    throw ClientError("generate takes no arguments besides its options, got " + Quoted(extra[0]) +
                      " (see: sudoku-client generate --help)");
  }
  const std::vector<Endpoint> endpoints = ParseEndpoints(connect);
  if (endpoints.size() != 1) {
    throw ClientError("generate uses one daemon; --connect names " +
                      std::to_string(endpoints.size()));
  }
  options->endpoint = endpoints[0];
  options->count = ParseNumber("--count", count, 1, kMaxCount);
  if (values.count("seed")) options->seed = ParseNumber("--seed", seed, 0, UINT64_MAX);
  if (values.count("clues")) {
    options->clues = static_cast<uint32_t>(ParseNumber("--clues", clues, kMinClues, kCells));
  }
  ParseSessionFlags(session_flags, options);
  options->symmetric = values.count("symmetric") > 0;
  options->minimal = values.count("minimal") > 0;
  if (values.count("difficulty")) {
    options->difficulty = logic::ParseLevel(difficulty);
    if (!options->difficulty) {
      throw ClientError("--difficulty expects simple, easy, intermediate or expert, got " +
                        Quoted(difficulty));
    }
  }
  if (values.count("hodoku-level")) {
    options->hodoku_level = rating::ParseHodokuLevel(hodoku_level);
    if (!options->hodoku_level) {
      throw ClientError("--hodoku-level expects easy, medium, hard, unfair or extreme, got " +
                        Quoted(hodoku_level));
    }
  }
  if (values.count("se-min")) options->se_min = ParseSe("--se-min", se_min);
  if (values.count("se-max")) options->se_max = ParseSe("--se-max", se_max);
  if (options->se_min != 0 && options->se_max != 0 && options->se_min > options->se_max) {
    throw ClientError("--se-min " + rating::SeText(options->se_min) + " is above --se-max " +
                      rating::SeText(options->se_max));
  }
  if (values.count("needs")) {
    options->needs = ParseNeeds(needs);
    if (!options->needs) {
      throw ClientError("--needs expects a technique (" + NeedsNames() + "), got " + Quoted(needs));
    }
  }
  return true;
}

int RunGenerate(const GenerateCommandOptions& options, std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t seed = options.seed
                            ? *options.seed
                            : std::random_device{}() * 0x100000000ULL + std::random_device{}();
  GenerateSummary summary;
  GenerateCommandOptions run_options = options;
  std::optional<StatusLine> status_line;
  ReportWaitsTo(err, IsTerminal(err), &run_options, &status_line);
  try {
    asio::io_context io(1);
    GenerateWork work(io.get_executor(), run_options, seed, out, err, &summary);
    asio::co_spawn(io, work.session().Run(), work.session().Guard());
    io.run();
    out.flush();
    if (work.session().failed()) std::rethrow_exception(work.session().error());
  } catch (...) {
    out.flush();
    ReportError(err);
    return kExitError;
  }
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  err << FormatSummary(options, seed, summary, seconds.count()) << "\n";
  return summary.failed > 0 ? kExitUnsolved : kExitSolved;
}

int GenerateMain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  GenerateCommandOptions options;
  try {
    if (!ParseGenerateOptions(args, &options, out)) return kExitSolved;
  } catch (const ClientError& error) {
    err << "sudoku-client: " << error.what() << "\n";
    return kExitError;
  }
  return RunGenerate(options, out, err);
}

}  // namespace sudoku::client
