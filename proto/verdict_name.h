// The lower-case word for a wire verdict, as the client's JSON output and the daemon's JSON API
// both spell it. Thread-safety: a pure function.
#ifndef SUDOKU_PROTO_VERDICT_NAME_H_
#define SUDOKU_PROTO_VERDICT_NAME_H_

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

}  // namespace sudoku::wire

#endif  // SUDOKU_PROTO_VERDICT_NAME_H_
