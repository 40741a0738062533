// `sudoku-client explain PUZZLE|FILE`: asks sudokud for the logical solution of one puzzle and
// prints it step by step (formats in explain_format.h).
//
// The argument is read as a file when a file of that name exists ('-' is standard input; any
// layout the solve command reads, holding exactly one puzzle), and as the puzzle text otherwise.
//
// Thread-safety: RunExplain() runs its own single-threaded io_context; call it from one thread.
#ifndef SUDOKU_CLIENT_EXPLAIN_COMMAND_H_
#define SUDOKU_CLIENT_EXPLAIN_COMMAND_H_

#include <chrono>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "client/endpoint.h"
#include "client/flags.h"
#include "client/session.h"

namespace sudoku::client {

struct ExplainOptions : CommandSessionOptions {
  std::vector<Endpoint> endpoints;  // the first, then the next in turn if it fails
  bool candidates = false;          // draw the candidate grid before each step
  bool json = false;
  std::string input;  // the puzzle text, a file name, or "-"
};

// Parses the arguments after "explain". Returns false after printing help to `out` (--help);
// throws ClientError on a usage error.
bool ParseExplainOptions(const std::vector<std::string>& args, ExplainOptions* options,
                         std::ostream& out);

// Runs the command; returns 0 when the puzzle has one solution and was explained, 1 when it has
// several (explained along the first), none, or is invalid, 2 on a usage, input or connection
// error (printed to `err` as "sudoku-client: <what>").
int RunExplain(const ExplainOptions& options, std::istream& in, std::ostream& out,
               std::ostream& err);

// The whole subcommand: parse, then run.
int ExplainMain(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                std::ostream& err);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_EXPLAIN_COMMAND_H_
