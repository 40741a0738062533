// The logical solver's explanation steps as the wire carries them, both ways, written once for
// every end: the daemon writes them (daemon/request_work.cc), sudoku-client and the daemon's JSON
// API read them. sudoku.proto's ExplainStep numbers a candidate cell * 9 + digit - 1 (0-728) and
// a unit kind * 9 + index (0-26: rows, columns, boxes); the rest is plain cells (0-80) and
// digits (1-9).
//
// Thread-safety: reentrant functions.
#ifndef SUDOKU_PROTO_EXPLAIN_WIRE_H_
#define SUDOKU_PROTO_EXPLAIN_WIRE_H_

#include <stdexcept>
#include <vector>

#include "proto/sudoku.pb.h"
#include "solver/logic.h"

namespace sudoku::wire {

// Why a wire step cannot be a logic::Step: "candidate 729 is out of range (0-728)".
class BadStep : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `step` as the wire carries it, into `out` (cleared first).
void StepToWire(const logic::Step& step, ExplainStep* out);

// The step `step` carries, every number checked, and its shape too: the units, cells, digits
// and placements its technique has, so that logic::Describe() can trust them. Throws BadStep
// ("x-wing with 1 units, 0 cells, 1 digits and 0 placements") otherwise.
logic::Step StepFromWire(const ExplainStep& step);

// Every step of `response`, as StepFromWire() reads each; BadStep names the first bad one by its
// number, from 1: "step 3: cell 81 is out of range (0-80)".
std::vector<logic::Step> StepsFromWire(const ExplainResponse& response);

}  // namespace sudoku::wire

#endif  // SUDOKU_PROTO_EXPLAIN_WIRE_H_
