// Puzzle sets for the microbenchmarks: the public sets beside the checkout when present, else
// the repository's small bench fixture.
//
// Thread-safety: Sets() builds its result once (a function-local static) and is read-only after.
#ifndef SUDOKU_TESTS_BENCH_BENCH_PUZZLES_H_
#define SUDOKU_TESTS_BENCH_BENCH_PUZZLES_H_

#include <string>
#include <vector>

#include "solver/solver.h"

namespace sudoku::bench {

struct PuzzleSet {
  std::string name;                // file name without directory and extension
  std::vector<std::string> texts;  // as read, shuffled with a fixed seed
  std::vector<Grid> grids;         // the same, parsed
};

// The sets to time, in a fixed order.
const std::vector<PuzzleSet>& Sets();

}  // namespace sudoku::bench

#endif  // SUDOKU_TESTS_BENCH_BENCH_PUZZLES_H_
