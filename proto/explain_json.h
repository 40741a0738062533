// The explanation and the rating as JSON, written once for the two ends that print them:
// `sudoku-client explain --json` and the daemon's /api/explain give the same bytes, and
// /api/solve's "rating" is the same object as an explanation's.
//
// Thread-safety: reentrant functions.
#ifndef SUDOKU_PROTO_EXPLAIN_JSON_H_
#define SUDOKU_PROTO_EXPLAIN_JSON_H_

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "proto/sudoku.pb.h"

namespace sudoku::wire {

// Keys come out in the order written, the order the documentation lists them in.
using OrderedJson = nlohmann::ordered_json;

// The name of a wire Level or Technique number ("intermediate", "x-wing"), or "unknown" for a
// number the solver does not have (a newer daemon's).
std::string LevelName(int level);
std::string TechniqueName(int technique);

// The name of a wire HodokuLevel number ("hard"), or "unknown".
std::string HodokuLevelName(int level);

// One puzzle's rating as the wire carries it (wire numbers for the levels and the technique).
struct RatingColumns {
  int level = 0;
  int hardest = 0;
  uint32_t steps = 0;
  uint32_t guesses = 0;
  uint32_t logic_guesses = 0;
  int hodoku_level = 0;
  uint32_t hodoku_score = 0;
  uint32_t se_tenths = 0;  // 23 = 2.3
  uint32_t se_pearl_tenths = 0;
  uint32_t se_diamond_tenths = 0;
};

// Puzzle `index` of a SolveResponse with its rating columns.
RatingColumns RatingOf(const SolveResponse& response, int index);

// {"level", "hardest", "steps", "guesses", "logic_guesses", "hodoku_level", "hodoku_score",
// "se", "se_pearl", "se_diamond"}: how hard a puzzle is, as the logical solver found it (`level`
// on QQWing's scale, `hardest`, `logic_guesses` its trial steps, `hodoku_level` and
// `hodoku_score` on HoDoKu's scale, `se` the Sudoku Explainer rating as a number with one
// decimal, `se_pearl` and `se_diamond` SE's EP and ED) and as the search did (`guesses`).
OrderedJson RatingJson(const RatingColumns& rating);

// The explanation `response` (SOLVED or MULTIPLE) of `puzzle` (81 characters, a valid puzzle):
// {"puzzle", "verdict", "steps": [{"step", "technique", "hodoku_name", "se_name", "text",
// "placements", "eliminations", "units", "cells", "digits", "variant", "links", "candidates"}],
// "solution", "rating"}, where "hodoku_name" and "se_name" are the technique as HoDoKu and
// Sudoku Explainer name it (solver/explain_text.h; "se_name" null where SE has no such
// technique), and
// "links" is the chain, [{"from": {"digit": 4, "cells": ["r2c3"]}, "to": {...}, "strong":
// true}] (sudoku.proto, ExplainStep.links, says what a link means), and "candidates" (the
// digits still possible in each cell before the step, 81 strings) is there only when
// `candidates` is true. Throws BadStep (proto/explain_wire.h) naming the step ("step 3:
// candidate 729 is out of range (0-728)") when a step is not one the solver could have taken,
// and std::invalid_argument when `puzzle` is not valid.
OrderedJson ExplanationJson(const ExplainResponse& response, std::string_view puzzle,
                            bool candidates);

}  // namespace sudoku::wire

#endif  // SUDOKU_PROTO_EXPLAIN_JSON_H_
