#include "client/explain_command.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>

#include <boost/program_options.hpp>

#include "client/client_error.h"
#include "client/flags.h"
#include "client/connection.h"
#include "client/endpoint.h"
#include "client/session.h"
#include "client/explain_format.h"
#include "client/json_output.h"
#include "client/solve_command.h"
#include "proto/result_json.h"
#include "solver/puzzle_reader.h"

namespace sudoku::client {
namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = R"(usage: sudoku-client explain [options] PUZZLE|FILE

Explains how one puzzle solves, step by step, as a person would solve it: each step names its
technique (singles, pointing, claiming, naked and hidden pairs, triples and quads, x-wing,
swordfish, jellyfish, skyscraper, two-string kite, empty rectangle, w-, xy- and xyz-wings, unique
and hidden rectangles, bug+1, finned and sashimi fish, simple colouring, x-, xy- and
alternating inference chains, als-xz, forcing chains), the cells
(r3c5 = row 3, column 5) and the digits it places or removes; chains in Eureka notation.
Where none applies, a trial follows a candidate to a contradiction and removes it; a puzzle
with several solutions may need a digit chosen, and says so. No step reads the solution.
Ends with the solution and the ratings: QQWing's level (simple, easy, intermediate, expert),
HoDoKu's level (easy, medium, hard, unfair, extreme) and score, and the Sudoku Explainer rating.
PUZZLE is 81 characters ('1'-'9' givens, '.', '0', '_', '-' or '*' blanks); FILE (or '-' for
standard input) holds one puzzle in any layout the solve command reads.
Exit status: 0 when the puzzle has one solution, 1 when it has several (explained along the
first), none, or is invalid, 2 on a usage, input or connection error.

Options)";

constexpr std::string_view kPuzzleCharacters = "123456789.0_-*";

// The puzzle to send and how to name a place in it.
struct Input {
  std::string puzzle;
  LocateError locate;
  // When the puzzle could not be read: where ("a.txt, line 2") and why.
  struct LayoutError {
    std::string where;
    std::string reason;
  };
  std::optional<LayoutError> layout_error;
};

Input FromArgument(const std::string& text) {
  Input input;
  input.puzzle = text;
  input.locate = [](uint32_t position) {
    return position == 0 ? std::string("argument") : "argument, column " + std::to_string(position);
  };
  return input;
}

Input FromStream(std::istream& stream, const std::string& name) {
  PuzzleReader reader(&stream);
  auto record = std::make_shared<PuzzleRecord>();
  if (!reader.Next(record.get())) {
    if (stream.bad()) throw ClientError("cannot read '" + name + "': read error");
    throw ClientError("'" + name + "' holds no puzzle");
  }
  PuzzleRecord second;
  if (reader.Next(&second)) {
    throw ClientError("'" + name + "' holds more than one puzzle (the second starts at line " +
                      std::to_string(second.error ? second.error.line : second.first_line) +
                      "); explain takes one");
  }
  Input input;
  if (record->error) {
    input.layout_error = {name + ", " + Locate(record->error), Describe(record->error)};
    return input;
  }
  input.puzzle.assign(record->text());
  input.locate = [record, name](uint32_t position) {
    return name + ", " +
           (position == 0 ? LocateRecord(*record)
                          : LocateCell(*record, static_cast<int>(position) - 1));
  };
  return input;
}

Input ReadInput(const std::string& argument, std::istream& in) {
  if (argument == "-") return FromStream(in, "stdin");
  std::error_code ignored;
  if (std::filesystem::exists(argument, ignored)) {
    if (std::filesystem::is_directory(argument, ignored)) {
      throw ClientError("cannot open '" + argument + "': " + std::strerror(EISDIR));
    }
    std::ifstream file(argument, std::ios::binary);
    if (!file.is_open()) {
      throw ClientError("cannot open '" + argument + "': " + std::strerror(errno ? errno : EACCES));
    }
    return FromStream(file, argument);
  }
  // Not a file: the puzzle itself, unless it does not look like one at all (a mistyped name).
  const bool puzzle_like = argument.size() == static_cast<size_t>(kCells) ||
                           argument.find_first_not_of(kPuzzleCharacters) == std::string::npos;
  if (!puzzle_like) {
    throw ClientError("cannot open '" + argument + "': " + std::strerror(ENOENT) +
                      " (and it is not an 81-character puzzle)");
  }
  return FromArgument(argument);
}

}  // namespace

bool ParseExplainOptions(const std::vector<std::string>& args, ExplainOptions* options,
                         std::ostream& out) {
  std::vector<std::string> connect;
  std::vector<std::string> inputs;
  SessionFlags session_flags = DefaultSessionFlags(options->timeout, options->retry_for);
  // The default in the description is the one ParseEndpoints() takes, so that --help cannot
  // drift from it.
  const std::string connect_help =
      "where sudokud listens (default " + std::string(kDefaultEndpoint) + ")";
  po::options_description flags(kUsage);
  flags.add_options()("connect", po::value(&connect)->value_name("HOST:PORT"),
                      connect_help.c_str())(
      "candidates", "draw the candidate grid before each step")(
      "json", "write the explanation as one JSON object")("help,h", "print this help");
  AddSessionFlags(&flags, &session_flags);
  const auto parsed = ParseCommandLine(args, flags, "explain", &inputs, out);
  if (!parsed) return false;
  const po::variables_map& values = *parsed;
  if (inputs.size() != 1) {
    throw ClientError("explain takes one PUZZLE or FILE, got " + std::to_string(inputs.size()) +
                      " (see: sudoku-client explain --help)");
  }
  options->endpoints = ParseEndpoints(connect);
  ParseSessionFlags(session_flags, options);
  options->candidates = values.count("candidates") > 0;
  options->json = values.count("json") > 0;
  options->input = inputs[0];
  return true;
}

int RunExplain(const ExplainOptions& options, std::istream& in, std::ostream& out,
               std::ostream& err) {
  try {
    const Input input = ReadInput(options.input, in);
    if (input.layout_error) {
      const auto& [where, reason] = *input.layout_error;
      out << (options.json ? JsonLine(wire::InvalidJson("", where, reason))
                           : "invalid: " + where + ": " + reason + "\n");
      return kExitUnsolved;
    }
    wire::Request request;
    request.mutable_explain()->set_request_id(1);
    request.mutable_explain()->set_puzzle(input.puzzle);

    ExplainOptions run_options = options;
    std::optional<StatusLine> status_line;
    ReportWaitsTo(err, IsTerminal(err), &run_options, &status_line);
    SessionOptions session = SessionOptionsFrom(run_options);
    session.requests_noun = "requests";
    const SingleAnswer answer = RequestOnce(
        session, request, [](const wire::Response& r) { return r.has_explain(); },
        "an explanation");
    const wire::Response& response = answer.response;

    std::string text;
    try {
      text = FormatExplanation(response.explain(), input.puzzle, input.locate, options.candidates,
                               options.json);
    } catch (const ClientError& error) {
      throw ClientError("bad response from " + answer.peer + ": " + error.what());
    }
    out << text;
    out.flush();
    return response.explain().verdict() == wire::SOLVED ? kExitSolved : kExitUnsolved;
  } catch (...) {
    out.flush();
    ReportError(err);
    return kExitError;
  }
}

int ExplainMain(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                std::ostream& err) {
  ExplainOptions options;
  try {
    if (!ParseExplainOptions(args, &options, out)) return kExitSolved;
  } catch (const ClientError& error) {
    err << "sudoku-client: " << error.what() << "\n";
    return kExitError;
  }
  return RunExplain(options, in, out, err);
}

}  // namespace sudoku::client
