// The words of an explanation: one step of the logical solver (logic.h) as a sentence. Shared by
// `sudoku-client explain` and the daemon's JSON API, so that a step reads the same in the
// terminal and on the page.
//
//   naked single: r3c5 = 7 (its only candidate)
//   hidden single: r5c2 = 3 (the only place for 3 in box 4)
//   pointing: 5 in box 1 lies only in row 2 (r2c13): removes 5 from r2c59
//   claiming: 6 in row 3 lies only in box 2 (r3c46): removes 6 from r1c5
//   naked pair: r4c15 hold only 2 8 in row 4: removes 2 from r4c7; 8 from r4c9
//   hidden pair: 1 9 go only in r17c3 in column 3: removes 4 from r1c3; 6 from r7c3
//   x-wing: 4 in rows 2, 5 lies only in columns 3, 8 (r25c38): removes 4 from r7c3
//   remote pair: r1c2,r4c5 / r1c5,r4c8 hold only 2 7, each seeing another, the two groups
//     opposite (each cell removed sees both): removes 2 from r1c8; 7 from r1c8
//   skyscraper: 4 in rows 2, 6: (4)r2c3=(4)r2c7-(4)r6c7=(4)r6c1: removes 4 from r13c1
//   turbot fish: 4 in box 1 and column 7: (4)r2c3=(4)r2c7-(4)r6c7=(4)r6c1: removes 4 from r13c1
//   sue de coq: r45c6 hold 2 3 4 7 8 where column 6 crosses box 5; with r8c6 in column 6 and
//     r6c456 in box 5 they hold as many digits as cells: removes 2 from r1c6; 3 from r3c6; ...
//   multi colours: 4 coloured r1c4,r9c2 / r8c2,r9c4 and r2c5 / r2c9 (a colour of each sees the
//     other: one of their opposites holds 4, and each cell removed sees both): removes 4 from r8c9
//   x-chain: (4)r2c3=(4)r2c7-(4)r6c7=(4)r6c1: removes 4 from r1c1
//   alternating inference chain: (4)r2c3=(4)r2c78-(4)r6c7=(5)r6c7-(5)r6c1=(5)r4c1: ...
//   forcing chain: r1c3 = 4 leads to (4)r1c3-(4)r1c7=(2)r1c7-(2)r5c7; (4)r1c3-(4)r5c3=(6)r5c3
//     -(6)r5c7, and r5c7 has no candidate left: removes 4 from r1c3
//   trial: r1c3 = 4 leads to a contradiction within 2 nested trials: removes 4 from r1c3
//   the puzzle has several solutions: r1c3 = 4 chosen
// (triples read as pairs, a swordfish as an x-wing with three lines; every technique's sentence
// on its fixture is in tests/client/explain_format_test.cc, EachTechniqueOnItsFixture). Cells
// are listed in HoDoKu's compact notation: "r4c15" for r4c1 and r4c5, "r25c38" for the four
// corners of rows 2, 5 and columns 3, 8, groups separated by commas ("r2c4,r3c56"). Chains are
// written in Eureka notation: "(4)r2c3" a candidate, "(4)r2c78" a grouped node, "=" a strong
// link and "-" a weak one; a forcing chain's or a trial's net is its strands, separated by
// "; ", each single after a link from every removal it rests on.
//
// Thread-safety: stateless functions.
#ifndef SUDOKU_SOLVER_EXPLAIN_TEXT_H_
#define SUDOKU_SOLVER_EXPLAIN_TEXT_H_

#include <string>

#include "solver/logic.h"

namespace sudoku::logic {

// "row 3", "column 5", "box 9".
std::string UnitName(const Unit& unit);

// "(4)r2c3", or for a grouped node "(4)r2c78" (one row) or "(4)r13c7" (one column).
std::string NodeName(const Node& node);

// The step's technique as HoDoKu 2.2 names it ("Full House", "Locked Candidates Type 1
// (Pointing)", "Uniqueness Test 2", "Simple Colors Trap", "Forcing Chain Verity", ...), from its
// SolutionType names; "" for SE's unique loops of six cells or more, which HoDoKu lacks.
std::string HodokuName(const Step& step);

// The step's technique as Sudoku Explainer 1.2.1 (and serate) names its hint ("Hidden Single",
// "Naked Triplet", "Unique Rectangle type 2", "Unique Loop 6 type 2", "BUG type 1", "Forcing
// X-Chain", "Dynamic Cell Forcing Chains", "Nested Forcing Chains", ...), or "" for a
// technique it does not have (skyscraper, two-string kite, empty rectangle, w-wing, simple
// colouring, hidden rectangle, finned and sashimi fish, als-xz): SE finds those eliminations
// with its chains.
std::string SeName(const Step& step);

// One step in words (see above). The step must have the shape its technique gives it (logic.h,
// Step): a step that came from elsewhere is checked first (client/explain_format.h,
// StepFromWire).
std::string Describe(const Step& step);

// A nested trial's branch `index` in words: "r2c2 = 3 leads by singles to (3)r2c2-(3)r2c5=...,
// and 7 has no place left in box 5", or "... and leaves r5c5 with 1 or 4, each of which leads to
// a contradiction" (its nested branches say how). `index` < step.branches.size().
std::string DescribeTrialBranch(const Step& step, size_t index);

}  // namespace sudoku::logic

#endif  // SUDOKU_SOLVER_EXPLAIN_TEXT_H_
