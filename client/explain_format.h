// How `sudoku-client explain` writes an explanation (proto ExplainResponse) for people and for
// programs.
//
// Text, one line per step, numbered from 1:
//   step 1: naked single: r3c5 = 7 (its only candidate)
//   step 2: hidden single: r5c2 = 3 (the only place for 3 in box 4)
//   step 3: pointing: 5 in box 1 lies only in row 2 (r2c1, r2c3): removes 5 from r2c5, r2c9
//   step 4: claiming: 6 in row 3 lies only in box 2 (r3c4, r3c6): removes 6 from r1c5
//   step 5: naked pair: r4c1, r4c5 hold only 2 8 in row 4: removes 2 from r4c7; 8 from r4c9
//   step 6: hidden pair: 1 9 go only in r1c3, r7c3 in column 3: removes 4 from r1c3; 6 from r7c3
//   step 7: x-wing: 4 in rows 2, 5 lies only in columns 3, 8 (r2c3, r2c8, r5c3, r5c8): removes
//           4 from r7c3  (on one line; a swordfish reads the same with three lines)
//   step 8: skyscraper: 4 in rows 2, 6: (4)r2c3=(4)r2c7-(4)r6c7=(4)r6c1: removes 4 from r1c1
//   step 9: trial: r4c4 = 6 leads to a contradiction within 1 nested trial: removes 6 from r4c4
//   (every technique's sentence: solver/explain_text.h)
// With candidates, the candidate grid is drawn before each step (DrawCandidates). After the
// steps: "solution: <81 digits>", "rating: level expert, hardest technique x-wing, 61 steps,
// 3 guesses by the solver" and "rating: HoDoKu hard (812), SE 3.2" (solver/rating.h). A puzzle
// that cannot be explained gives one line instead: "unsolvable" (a candidate state that
// contradicts at sight: "unsolvable: r1c3 holds only 5, as r1c1 does, in row 1") or "invalid:
// WHERE: REASON";
// one with several solutions is explained after the line "multiple solutions: where a digit is
// chosen, the steps follow one solution".
//
// JSON: one object on one line, written as client/json_output.h says: {"puzzle", "verdict",
// "steps": [{"step", "technique", "hodoku_name" ("Locked Candidates Type 1 (Pointing)"),
// "se_name" ("Pointing", or null), "text", "placements": [{"cell":"r3c5","digit":7}],
// "eliminations": [...], "units": ["box 1","row 2"], "cells": ["r2c1"], "digits": [5],
// "variant": 0, "links": [{"from": {"digit", "cells"}, "to": {...}, "strong"}], "branches": a
// nested trial's refutation, else [] ([{"tries": {"cell", "digit"}, "text", "links", "units",
// "nesting_cell" (a cell, or null for a contradiction), "branches": those nested in it}]), and
// with candidates "candidates": 81 strings of the digits left}], "solution", "rating":
// {"level", "hardest", "steps", "guesses", "logic_guesses", "hodoku_level", "hodoku_score",
// "se", "se_pearl", "se_diamond"}} (the
// daemon's /api/explain answers the same object, with candidates); or for a bad puzzle
// {"puzzle", "verdict": "invalid", "error": "invalid: WHERE: REASON", "where", "reason"}
// (proto/result_json.h writes them all; proto/README.md is the schema).
//
// Thread-safety: stateless functions.
#ifndef SUDOKU_CLIENT_EXPLAIN_FORMAT_H_
#define SUDOKU_CLIENT_EXPLAIN_FORMAT_H_

#include <functional>
#include <string>
#include <string_view>

#include "proto/sudoku.pb.h"
#include "solver/logic.h"

namespace sudoku::client {

// One step in words, without "step N: " (see above): logic::Describe() (solver/explain_text.h).
std::string DescribeStep(const logic::Step& step);

// The candidate grid: each cell three characters by three lines, candidate d at position d of a
// 3x3 keypad ('.' when gone), a filled cell as "[7]" on its middle line; boxes ruled.
std::string DrawCandidates(const Grid& grid, const logic::Candidates& candidates);

// Where a PuzzleError's position (1-based, 0 for the whole puzzle) is in the input, e.g.
// "argument, column 5" or "a.txt, line 3, column 5".
using LocateError = std::function<std::string(uint32_t position)>;

// The whole output for `response` to the 81-character `puzzle`. Throws ClientError for a
// response that does not fit the puzzle.
std::string FormatExplanation(const wire::ExplainResponse& response, std::string_view puzzle,
                              const LocateError& locate, bool candidates, bool json);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_EXPLAIN_FORMAT_H_
