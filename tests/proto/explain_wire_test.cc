// The explanation steps' wire numbering: every step of real explanations goes to the wire and
// back unchanged, the numbers are sudoku.proto's, and what cannot be a step is refused with the
// exact reason (the client adds "step N: ", tests/client/explain_format_test.cc).
#include "proto/explain_wire.h"

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/support/puzzles.h"

namespace sudoku::wire {
namespace {

using ::sudoku::testing::kSeventeenClues;
using ::sudoku::testing::kWikipediaPuzzle;

void ExpectSameStep(const logic::Step& a, const logic::Step& b) {
  EXPECT_EQ(a.technique, b.technique);
  EXPECT_EQ(a.placements, b.placements);
  EXPECT_EQ(a.eliminations, b.eliminations);
  EXPECT_EQ(a.units, b.units);
  EXPECT_EQ(a.cells, b.cells);
  EXPECT_EQ(a.digits, b.digits);
}

TEST(ExplainWire, EveryStepOfAnExplanationComesBackUnchanged) {
  // An easy puzzle (singles) and a minimal one, whose steps go beyond them.
  for (const std::string& puzzle : {kWikipediaPuzzle, kSeventeenClues}) {
    Grid grid;
    ASSERT_FALSE(ParsePuzzle(puzzle, &grid));
    const logic::Explanation explanation = logic::Explain(grid);
    ASSERT_FALSE(explanation.steps.empty());
    for (const logic::Step& step : explanation.steps) {
      ExplainStep wire_step;
      StepToWire(step, &wire_step);
      ExpectSameStep(StepFromWire(wire_step), step);
    }
  }
}

TEST(ExplainWire, NumbersAreTheProtocols) {
  logic::Step step;
  step.technique = logic::Technique::kPointing;
  step.eliminations = {{0, 1}, {80, 9}, {40, 5}};  // r1c1 1, r9c9 9, r5c5 5
  step.units = {{logic::Unit::Kind::kBox, 4}, {logic::Unit::Kind::kRow, 8}};
  step.digits = {5};
  ExplainStep wire_step;
  wire_step.add_placements(7);  // cleared first
  StepToWire(step, &wire_step);
  EXPECT_EQ(wire_step.technique(), POINTING);
  EXPECT_EQ(wire_step.placements_size(), 0);
  EXPECT_EQ(std::vector<uint32_t>(wire_step.eliminations().begin(), wire_step.eliminations().end()),
            (std::vector<uint32_t>{0, 728, 364}));
  EXPECT_EQ(std::vector<uint32_t>(wire_step.units().begin(), wire_step.units().end()),
            (std::vector<uint32_t>{22, 8}));
}

TEST(ExplainWire, RefusesWhatCannotBeAStep) {
  ExplainStep step;
  step.set_technique(NAKED_SINGLE);
  step.add_placements(729);
  try {
    StepFromWire(step);
    ADD_FAILURE() << "no error";
  } catch (const BadStep& error) {
    EXPECT_STREQ(error.what(), "candidate 729 is out of range (0-728)");
  }
  step.Clear();
  step.set_technique(HIDDEN_SINGLE);  // no placement, unit or digit
  try {
    StepFromWire(step);
    ADD_FAILURE() << "no error";
  } catch (const BadStep& error) {
    EXPECT_STREQ(error.what(), "hidden single with 0 units, 0 cells, 0 digits and 0 placements");
  }
}

// A whole explanation's steps, the first bad one named by its number.
TEST(ExplainWire, StepsFromWireNumbersTheBadStep) {
  ExplainResponse response;
  ExplainStep* guess = response.add_steps();
  guess->set_technique(TRIAL);
  guess->add_placements(2 * 9 + 3);  // r1c3 = 4
  guess->add_cells(2);
  guess->add_digits(4);
  EXPECT_EQ(StepsFromWire(response).size(), 1u);
  ExplainStep* bad = response.add_steps();
  bad->set_technique(POINTING);
  bad->add_cells(81);
  try {
    StepsFromWire(response);
    ADD_FAILURE() << "no error";
  } catch (const BadStep& error) {
    EXPECT_STREQ(error.what(), "step 2: cell 81 is out of range (0-80)");
  }
}

}  // namespace
}  // namespace sudoku::wire
