// Results as JSON, written here once for every end that prints them (proto/README.md, "Results
// as JSON", is the schema): a solved puzzle (`sudoku-client solve --format json` and the daemon's
// /api/solve), an explanation (`sudoku-client explain --json` and /api/explain), the rating each
// of them carries, and the refusal of a puzzle that is not valid. The client's line and the
// API's answer for the same puzzle are the same object.
//
// Thread-safety: reentrant functions.
#ifndef SUDOKU_PROTO_RESULT_JSON_H_
#define SUDOKU_PROTO_RESULT_JSON_H_

#include <cstdint>
#include <optional>
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
  // Which ratings were worked out (SolveRequest.rating_scope): those of the path in HoDoKu's
  // order (level to hodoku_score) and SE's (se_tenths to se_diamond_tenths). `guesses`, the
  // search's, is there either way.
  bool hodoku_path = true;
  bool se_path = true;
};

// Puzzle `index` of a SolveResponse with its rating columns; a path whose columns the response
// does not carry (the request's scope left it out) is marked absent.
RatingColumns RatingOf(const SolveResponse& response, int index);

// {"level", "hardest", "steps", "guesses", "logic_guesses", "hodoku_level", "hodoku_score",
// "se", "se_pearl", "se_diamond"}: how hard a puzzle is, as the logical solver found it (`level`
// on QQWing's scale, `hardest`, `logic_guesses` its trial steps, `hodoku_level` and
// `hodoku_score` on HoDoKu's scale, `se` the Sudoku Explainer rating as a number with one
// decimal, `se_pearl` and `se_diamond` SE's EP and ED) and as the search did (`guesses`). A
// path not worked out has no keys: without HoDoKu's, "guesses" and SE's three are left; without
// SE's, those three go.
OrderedJson RatingJson(const RatingColumns& rating);

// A puzzle that is not valid: {"puzzle", "verdict": "invalid", "error": "invalid: WHERE:
// REASON", "where", "reason"}, as `sudoku-client solve` words it on a line of its own. WHERE is
// where in the input ("line 7, column 12", "b.txt, line 9"), REASON the solver's or the
// reader's message; "puzzle" is left out when empty (a layout error kept the puzzle from being
// read).
OrderedJson InvalidJson(std::string_view puzzle, std::string_view where, std::string_view reason);

// One puzzle's answer to a SolveRequest.
struct SolveResult {
  std::string_view puzzle = {};             // as solved (81 or 729 characters); empty: not read
  int verdict = 0;                          // a wire Verdict
  std::string_view solution = {};           // SOLVED, and MULTIPLE (one of them); else empty
  uint32_t solutions = 0;                   // found, up to the limit
  uint32_t guesses = 0;                     // the search's
  std::optional<RatingColumns> rating = {};  // asked for, and the puzzle has one
  std::string_view where = {};              // INVALID: as InvalidJson() says
  std::string_view reason = {};
};

// Writes SolveResults as {"puzzle", "verdict", "solution", "solutions", "guesses", "rating"}
// (each key only when it has a value; "rating" as RatingJson()), or an invalid one as
// InvalidJson(). One writer serves many results: its object's strings are overwritten in place,
// keeping their memory, while results keep the same keys (the solved puzzles of a bulk run all
// do), since building a fresh object per result cost the client 1.7 times the CPU of a whole
// `solve --format json` run.
class SolveResultJson {
 public:
  // The object for `result`, valid until the next call.
  const OrderedJson& Of(const SolveResult& result);

 private:
  void Set(const char* key, std::string_view text);

  OrderedJson object_ = OrderedJson::object();
  unsigned keys_ = ~0u;  // which keys object_ holds, as Of() numbers them (none yet)
};

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
// and std::invalid_argument when `puzzle` is not valid. An UNSOLVABLE puzzle is {"puzzle",
// "verdict": "unsolvable"} (UnsolvableJson), an INVALID one InvalidJson().
OrderedJson ExplanationJson(const ExplainResponse& response, std::string_view puzzle,
                            bool candidates);
// {"puzzle", "verdict": "unsolvable", "reason"}, "reason" only when known (a candidate state
// that contradicts at sight: ExplainResponse.error).
OrderedJson UnsolvableJson(std::string_view puzzle, std::string_view reason = {});

}  // namespace sudoku::wire

#endif  // SUDOKU_PROTO_RESULT_JSON_H_
