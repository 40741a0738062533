// sudoku-client: the command-line client of sudokud.
#include <iostream>
#include <string>
#include <vector>

#include "client/bench_command.h"
#include "client/explain_command.h"
#include "client/generate_command.h"
#include "client/solve_command.h"
#include "proto/version.h"

namespace {

constexpr const char* kUsage = R"(usage: sudoku-client COMMAND [options] [FILE...]

Commands:
  solve    solve puzzles through sudokud, one result line per puzzle in input order
  explain  explain how one puzzle solves, step by step, and rate it
  generate make new puzzles with exactly one solution through sudokud, one per line
  bench    load-test sudokud: throughput, latency percentiles, errors (as wrk and ghz report)

Run 'sudoku-client COMMAND --help' for a command's options, 'sudoku-client --version' for
the version.
)";

}  // namespace

int main(int argc, char** argv) {
  // Results are written in large blocks; C stdio is not used alongside.
  std::ios::sync_with_stdio(false);
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return sudoku::client::kExitError;
  }
  const std::string& command = args[0];
  if (command == "solve") {
    return sudoku::client::SolveMain({args.begin() + 1, args.end()}, std::cin, std::cout,
                                     std::cerr);
  }
  if (command == "explain") {
    return sudoku::client::ExplainMain({args.begin() + 1, args.end()}, std::cin, std::cout,
                                       std::cerr);
  }
  if (command == "generate") {
    return sudoku::client::GenerateMain({args.begin() + 1, args.end()}, std::cout, std::cerr);
  }
  if (command == "bench") {
    return sudoku::client::BenchMain({args.begin() + 1, args.end()}, std::cin, std::cout,
                                     std::cerr);
  }
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version") {
    std::cout << sudoku::VersionLine("sudoku-client") << "\n";
    return 0;
  }
  std::cerr << "sudoku-client: unknown command '" << command
            << "' (the commands: solve, explain, generate, bench; see: sudoku-client --help)\n";
  return sudoku::client::kExitError;
}
