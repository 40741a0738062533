// `sudoku-client solve`: streams puzzles from files or stdin through sudokud and writes one result
// line per puzzle, in input order, to stdout (formats in result_format.h), then a summary to
// stderr.
//
// How: the input is cut into batches (Batcher); each of --connections connections keeps up to
// --in-flight batches outstanding; results are put back in order (OrderedOutput). Batches are
// issued only within a window ahead of the output, so memory stays bounded whatever the input
// size and however late one batch is. A connection that breaks is replaced (the next --connect
// address in turn, with bounded attempts and backoff) and its unanswered batches are sent again
// on whichever connection is free first: the output stays complete, in order, without
// duplicates.
//
// Thread-safety: RunSolve() runs its own single-threaded io_context; call it from one thread.
#ifndef SUDOKU_CLIENT_SOLVE_COMMAND_H_
#define SUDOKU_CLIENT_SOLVE_COMMAND_H_

#include <cstddef>
#include <cstdint>
#include <istream>
#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "client/endpoint.h"
#include "client/progress.h"
#include "client/result_format.h"
#include "client/flags.h"
#include "client/session.h"
#include "solver/puzzle_reader.h"

namespace sudoku::client {

struct SolveOptions : CommandSessionOptions {
  std::vector<Endpoint> endpoints;  // connections are spread over them in turn
  uint32_t solution_limit = 1;      // 2 = --unique
  size_t batch_size = 2000;
  size_t in_flight = 4;             // per connection
  size_t connections = 2;
  bool rate = false;                // --rate: append the rating to each solution line
  // --rate-only: the ratings of one path alone (the other's columns are left out)
  wire::RatingScope rating_scope = wire::ALL_RATINGS;
  std::vector<std::string> inputs;  // empty or "-" = stdin
  ProgressMode progress = ProgressMode::kAuto;
  bool stderr_is_tty = false;       // set by SolveMain for the process's own stderr
  // Set by SolveMain for the process's own stdin: a prompt says that it is read.
  bool stdin_is_tty = false;
  // The descriptor the results go to, for OutputPreallocation: set by SolveMain for the
  // process's own standard output; -1 for any other stream.
  int output_fd = -1;
  InputFormat input_format = InputFormat::kAuto;  // kAuto: by extension, then content
  OutputFormat format = OutputFormat::kLine;
};

// Exit statuses.
inline constexpr int kExitSolved = 0;     // every puzzle solved
inline constexpr int kExitUnsolved = 1;   // some were multiple, unsolvable or invalid
inline constexpr int kExitError = 2;      // usage, input, connection or protocol error
// The run ended early (a connection or protocol error) after writing answers: the output holds
// the answers to the first puzzles, in order, and its last line on standard error says how many
// (PartialOutput()).
inline constexpr int kExitPartial = 3;

// "1 answer written", "78000 answers written".
std::string AnswersWritten(uint64_t answers);
// The last line of a run that ended early: "the output is partial: 78000 answers written, the
// last for line 78003 of big.txt; the puzzles after it have no answer".
std::string PartialOutput(uint64_t answers, const std::string& input, uint64_t line);

// Parses the arguments after "solve". Returns false after printing help to `out` (--help);
// throws ClientError on a usage error.
bool ParseSolveOptions(const std::vector<std::string>& args, SolveOptions* options,
                       std::ostream& out);

// Runs the command; returns the exit status. Errors are printed to `err` as
// "sudoku-client: <what> " and give kExitError.
int RunSolve(const SolveOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

// The whole subcommand: parse, then run.
int SolveMain(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
              std::ostream& err);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_SOLVE_COMMAND_H_
