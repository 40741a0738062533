// `sudoku-client generate`: asks sudokud for new puzzles, each with exactly one solution, and
// writes them one per line (81 characters, '.' for a blank) to stdout as they stream in, then a
// summary to stderr.
//
// A count above kRequestPuzzles is cut into several requests over numbered ranges of the same
// seed, so the output does not depend on the cut (proto/sudoku.proto, "Generation").
//
// Thread-safety: RunGenerate() runs its own single-threaded io_context; call it from one thread.
#ifndef SUDOKU_CLIENT_GENERATE_COMMAND_H_
#define SUDOKU_CLIENT_GENERATE_COMMAND_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "client/endpoint.h"
#include "client/flags.h"
#include "client/session.h"
#include "solver/logic.h"
#include "solver/rating.h"

namespace sudoku::client {

// Puzzles per request: within the daemon's default --max-batch, and small enough that a request
// is a few seconds of work at most.
inline constexpr uint64_t kRequestPuzzles = 4096;

struct GenerateCommandOptions : CommandSessionOptions {
  Endpoint endpoint;
  uint64_t count = 1;
  std::optional<uint64_t> seed;  // none: a random one, printed in the summary
  uint32_t clues = 0;            // 0: no target
  bool symmetric = false;
  bool minimal = false;
  std::optional<logic::Level> difficulty;
  std::optional<rating::HodokuLevel> hodoku_level;
  uint32_t se_min = 0;  // SE rating in tenths; 0: no bound
  uint32_t se_max = 0;
  std::optional<logic::Technique> needs;  // a technique the explanation must take
};

// Parses the arguments after "generate". Returns false after printing help to `out` (--help);
// throws ClientError on a usage error.
bool ParseGenerateOptions(const std::vector<std::string>& args, GenerateCommandOptions* options,
                          std::ostream& out);

// Runs the command; returns 0 when every puzzle was made (those that could not get down to
// --clues are noted on stderr), 1 when some could not be made at all (stderr says which and
// why), 2 on a connection or protocol error.
int RunGenerate(const GenerateCommandOptions& options, std::ostream& out, std::ostream& err);

// The whole subcommand: parse, then run.
int GenerateMain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_GENERATE_COMMAND_H_
