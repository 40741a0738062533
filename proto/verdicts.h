// The wire's verdicts as both ends report them: the lower-case word for each (the client's JSON
// output and the daemon's JSON API) and the tally of puzzles by verdict (the client's summary,
// the daemon's batch counts, its metrics and its StatsResponse), each written once.
//
// Thread-safety: VerdictName is a pure function; a VerdictTally is plain data.
#ifndef SUDOKU_PROTO_VERDICTS_H_
#define SUDOKU_PROTO_VERDICTS_H_

#include <cstdint>

#include "proto/sudoku.pb.h"

namespace sudoku::wire {

// "solved", "multiple", "unsolvable" or "invalid"; "unknown" for a value this build does not know.
inline const char* VerdictName(int verdict) {
  switch (verdict) {
    case SOLVED: return "solved";
    case MULTIPLE: return "multiple";
    case UNSOLVABLE: return "unsolvable";
    case INVALID: return "invalid";
  }
  return "unknown";
}

// How many puzzles ended in each verdict. Inline: the client counts every puzzle it prints.
struct VerdictTally {
  uint64_t solved = 0;
  uint64_t multiple = 0;
  uint64_t unsolvable = 0;
  uint64_t invalid = 0;  // with what the wire cannot carry: the client's layout errors

  // Counts `puzzles` puzzles of `verdict`, a wire Verdict. A value this build does not know
  // counts as invalid, so that total() still counts every puzzle.
  void Count(int verdict, uint64_t puzzles = 1) {
    switch (verdict) {
      case SOLVED: solved += puzzles; return;
      case MULTIPLE: multiple += puzzles; return;
      case UNSOLVABLE: unsolvable += puzzles; return;
    }
    invalid += puzzles;
  }

  void Add(const VerdictTally& other) {
    solved += other.solved;
    multiple += other.multiple;
    unsolvable += other.unsolvable;
    invalid += other.invalid;
  }

  // Every puzzle counted.
  uint64_t total() const { return solved + multiple + unsolvable + invalid; }

  bool operator==(const VerdictTally&) const = default;
};

}  // namespace sudoku::wire

#endif  // SUDOKU_PROTO_VERDICTS_H_
