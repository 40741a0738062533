// The logical solver's explanation steps as the wire carries them, both ways, written once for
// every end: the daemon writes them (daemon/request_work.cc), sudoku-client and the daemon's JSON
// API read them. sudoku.proto's ExplainStep numbers a candidate cell * 9 + digit - 1 (0-728) and
// a unit kind * 9 + index (0-26: rows, columns, boxes); the rest is plain cells (0-80) and
// digits (1-9), a variant and a chain's links (nodes as candidate numbers).
//
// Thread-safety: reentrant functions.
#ifndef SUDOKU_PROTO_EXPLAIN_WIRE_H_
#define SUDOKU_PROTO_EXPLAIN_WIRE_H_

#include <optional>
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

// The wire's number of a technique, and back (nullopt for a number the solver does not have,
// a newer daemon's). The numbers are fixed (sudoku.proto); the solver's order is difficulty.
Technique TechniqueToWire(logic::Technique technique);
std::optional<logic::Technique> TechniqueFromWire(int number);

// `step` as the wire carries it, into `out` (cleared first).
void StepToWire(const logic::Step& step, ExplainStep* out);

// The step `step` carries, every number checked, and its shape too: the units, cells, digits,
// placements, links and variant its technique has, so that logic::Describe() can trust them.
// Throws BadStep otherwise: "candidate 729 is out of range (0-728)", "unit 27 is out of range
// (0-26)", "cell 81 is out of range (0-80)", "digit 0 is not 1-9", "unknown technique 99",
// "variant 82 is out of range (0-81)", "link 2: a node of 4 candidates (1-3)", "link 1: a node
// of more than one digit", "link 1: a node whose cells are not ascending", "link 1: a grouped
// node outside one box and line", or "x-wing with 1 units, 0 cells, 1 digits, 0 placements,
// 0 links and variant 0".
logic::Step StepFromWire(const ExplainStep& step);

// Every step of `response`, as StepFromWire() reads each; BadStep names the first bad one by its
// number, from 1: "step 3: cell 81 is out of range (0-80)".
std::vector<logic::Step> StepsFromWire(const ExplainResponse& response);

}  // namespace sudoku::wire

#endif  // SUDOKU_PROTO_EXPLAIN_WIRE_H_
