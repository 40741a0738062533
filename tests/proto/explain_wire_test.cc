// The explanation steps' wire numbering: every step of real explanations goes to the wire and
// back unchanged, the numbers are sudoku.proto's, and what cannot be a step is refused with the
// exact reason (the client adds "step N: ", tests/client/explain_format_test.cc).
#include "proto/explain_wire.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/support/puzzles.h"

namespace sudoku::wire {
namespace {

using ::sudoku::testing::kNestedTrialPuzzle;
using ::sudoku::testing::kNestedTrialStep;
using ::sudoku::testing::kSeventeenClues;
using ::sudoku::testing::kWikipediaPuzzle;

void ExpectSameStep(const logic::Step& a, const logic::Step& b) {
  EXPECT_EQ(a.technique, b.technique);
  EXPECT_EQ(a.placements, b.placements);
  EXPECT_EQ(a.eliminations, b.eliminations);
  EXPECT_EQ(a.units, b.units);
  EXPECT_EQ(a.cells, b.cells);
  EXPECT_EQ(a.digits, b.digits);
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.links, b.links);
  ASSERT_EQ(a.branches.size(), b.branches.size());
  for (size_t i = 0; i < a.branches.size(); ++i) {
    EXPECT_EQ(a.branches[i].parent, b.branches[i].parent);
    EXPECT_EQ(a.branches[i].assumption, b.branches[i].assumption);
    EXPECT_EQ(a.branches[i].links, b.branches[i].links);
    EXPECT_EQ(a.branches[i].units, b.branches[i].units);
    EXPECT_EQ(a.branches[i].nesting_cell, b.branches[i].nesting_cell);
  }
}

// From tests/data/logic_steps.txt: its steps include an alternating inference chain with a
// grouped node, a unique rectangle, a forcing chain and a skyscraper.
constexpr char kChainsPuzzle[] =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

// Its step 22 is a sashimi swordfish of six cells: two lines of two places, one of a place and
// a fin (the wire once wanted more cells than twice the lines).
constexpr char kSashimiSwordfishPuzzle[] =
    "...8..9.32.95.....8....35.........6......1..87...5.23..1.........6..4....9..18..7";

TEST(ExplainWire, EveryStepOfAnExplanationComesBackUnchanged) {
  // An easy puzzle (singles) and minimal ones, whose steps go beyond them (to nested trials).
  for (const std::string& puzzle :
       {std::string(kWikipediaPuzzle), std::string(kSeventeenClues), std::string(kChainsPuzzle),
        std::string(kSashimiSwordfishPuzzle), kNestedTrialPuzzle}) {
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

// SE's strong links (kXChain variants 3 and 4, on the path rated for SE): a unit for each link,
// grouped nodes among them. This puzzle's path takes both, a grouped X-loop among its chains.
TEST(ExplainWire, SesStrongLinksComeBackUnchanged) {
  Grid grid;
  ASSERT_FALSE(ParsePuzzle(
      "...4...23.......8.1.7..8.....5...16.42.............9.238..162..6..2....8..4.3....", &grid));
  std::set<int> variants;
  for (const logic::Step& step : logic::Explain(grid, logic::Preference::kEasiestSe).steps) {
    if (step.technique != logic::Technique::kXChain || step.variant < 3) continue;
    variants.insert(step.variant);
    ExplainStep wire_step;
    StepToWire(step, &wire_step);
    ExpectSameStep(StepFromWire(wire_step), step);
  }
  EXPECT_EQ(variants, (std::set<int>{3, 4}));
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
    EXPECT_STREQ(error.what(),
                 "hidden single with 0 units, 0 cells, 0 digits, 0 placements, 0 links and "
                 "variant 0");
  }
}

void ExpectBadStep(const ExplainStep& step, const std::string& message) {
  try {
    StepFromWire(step);
    ADD_FAILURE() << "no error for " << step.ShortDebugString();
  } catch (const BadStep& error) {
    EXPECT_EQ(std::string(error.what()), message);
  }
}

// r2c3 = 4 and r2c7 = 4 strongly linked, as a skyscraper's first link would be.
ExplainStep WithLink(Technique technique, std::vector<uint32_t> from, std::vector<uint32_t> to) {
  ExplainStep step;
  step.set_technique(technique);
  ChainLink* link = step.add_links();
  for (uint32_t number : from) link->add_from(number);
  for (uint32_t number : to) link->add_to(number);
  link->set_strong(true);
  return step;
}

constexpr uint32_t Candidate(int row, int column, int digit) {
  return static_cast<uint32_t>(((row - 1) * 9 + column - 1) * 9 + digit - 1);
}

TEST(ExplainWire, RefusesBadLinksAndVariants) {
  ExplainStep step;
  step.set_technique(X_CHAIN);
  step.set_variant(82);
  ExpectBadStep(step, "variant 82 is out of range (0-81)");
  ExpectBadStep(WithLink(X_CHAIN, {}, {Candidate(2, 7, 4)}),
                "link 1: a node of 0 candidates (1-3)");
  ExpectBadStep(WithLink(AIC, {Candidate(2, 1, 4), Candidate(2, 2, 4), Candidate(2, 3, 4),
                               Candidate(2, 4, 4)},
                         {Candidate(2, 7, 4)}),
                "link 1: a node of 4 candidates (1-3)");
  ExpectBadStep(WithLink(AIC, {Candidate(2, 1, 4), Candidate(2, 2, 5)}, {Candidate(2, 7, 4)}),
                "link 1: a node of more than one digit");
  ExpectBadStep(WithLink(AIC, {Candidate(2, 2, 4), Candidate(2, 1, 4)}, {Candidate(2, 7, 4)}),
                "link 1: a node whose cells are not ascending");
  ExpectBadStep(WithLink(AIC, {Candidate(2, 1, 4), Candidate(2, 4, 4)}, {Candidate(2, 7, 4)}),
                "link 1: a grouped node outside one box and line");
  ExpectBadStep(WithLink(AIC, {Candidate(1, 1, 4), Candidate(2, 2, 4)}, {Candidate(2, 7, 4)}),
                "link 1: a grouped node outside one box and line");
  step = WithLink(AIC, {Candidate(2, 3, 4)}, {Candidate(2, 7, 4)});
  *step.add_links() = step.links(0);
  step.mutable_links(1)->set_to(0, 729);
  ExpectBadStep(step, "link 2: candidate 729 is out of range (0-728)");
  // A grouped node in one box and line is a node.
  step = WithLink(AIC, {Candidate(2, 1, 4), Candidate(2, 3, 4)}, {Candidate(2, 7, 4)});
  EXPECT_EQ(StepFromWire(step).links.at(0).from.cells, (std::vector<uint8_t>{9, 11}));
}

TEST(ExplainWire, RefusesStepsOfTheWrongShape) {
  ExplainStep step;
  step.set_technique(SKYSCRAPER);
  step.add_digits(4);
  ExpectBadStep(step,
                "skyscraper with 0 units, 0 cells, 1 digits, 0 placements, 0 links and variant 0");
  step = WithLink(X_WING, {Candidate(2, 3, 4)}, {Candidate(2, 7, 4)});
  for (uint32_t unit : {1u, 5u, 11u, 15u}) step.add_units(unit);
  step.add_digits(4);
  ExpectBadStep(step,
                "x-wing with 4 units, 0 cells, 1 digits, 0 placements, 1 links and variant 0");
  step.Clear();
  step.set_technique(UNIQUE_RECTANGLE);
  step.set_variant(5);
  for (uint32_t cell : {0u, 4u, 18u, 22u}) step.add_cells(cell);
  step.add_digits(4);
  step.add_digits(7);
  ExpectBadStep(step, "unique rectangle with 0 units, 4 cells, 2 digits, 0 placements, 0 links "
                      "and variant 5");
  step.set_variant(1);
  EXPECT_EQ(StepFromWire(step).variant, 1);
  // SE's unique loop of six cells, type 1: the loop, then the cell holding more.
  step.set_variant(61);
  ExpectBadStep(step, "unique rectangle with 0 units, 4 cells, 2 digits, 0 placements, 0 links "
                      "and variant 61");
  for (uint32_t cell : {26u, 8u, 9u}) step.add_cells(cell);
  EXPECT_EQ(StepFromWire(step).variant, 61);
  step.Clear();
  step.set_technique(TRIAL);  // a trial that removes must not place
  step.set_variant(1);
  step.add_cells(2);
  step.add_digits(4);
  step.add_placements(Candidate(1, 3, 4));
  ExpectBadStep(step, "trial with 0 units, 1 cells, 1 digits, 1 placements, 0 links and variant 1");
  {
    // A nested trial names the cell its nested trials start from, and that cell's candidates.
    ExplainStep nested;
    nested.set_technique(TRIAL);
    nested.set_variant(3);
    nested.add_cells(2);
    nested.add_digits(4);
    ExpectBadStep(nested, "trial with 0 units, 1 cells, 1 digits, 0 placements, 0 links and "
                          "variant 3");
    nested.add_cells(9);
    nested.add_digits(1);
    nested.add_digits(8);
    EXPECT_EQ(StepFromWire(nested).cells, (std::vector<uint8_t>{2, 9}));
  }
  step.set_technique(FORCING_CHAIN);
  step.clear_placements();
  ExpectBadStep(step, "forcing chain with 0 units, 1 cells, 1 digits, 0 placements, 0 links and "
                      "variant 1");
}

// The wire's numbers are fixed; the solver's order is difficulty. Every technique goes there and
// back, the old numbers stay, and an unknown number is none.
// The nested trial of kNestedTrialPuzzle, on the wire.
ExplainStep NestedTrialOnTheWire() {
  Grid grid;
  EXPECT_FALSE(ParsePuzzle(kNestedTrialPuzzle, &grid));
  const logic::Explanation explanation = logic::Explain(grid);
  ExplainStep step;
  StepToWire(explanation.steps.at(kNestedTrialStep), &step);
  return step;
}

TEST(ExplainWire, ATrialsBranchesAreNumberedFromTheStep) {
  const ExplainStep step = NestedTrialOnTheWire();
  ASSERT_EQ(step.technique(), TRIAL);
  ASSERT_EQ(step.branches_size(), 2);
  for (const TrialBranch& branch : step.branches()) {
    EXPECT_EQ(branch.parent(), 0u);  // both nest in the step: r2c2 is 3 or 6
    EXPECT_EQ(branch.assumption() / 9, 10u);
    EXPECT_FALSE(branch.has_nesting_cell());
    EXPECT_FALSE(branch.links().empty());
  }
  EXPECT_EQ(step.branches(0).assumption(), Candidate(2, 2, 3));
  EXPECT_EQ(step.branches(1).assumption(), Candidate(2, 2, 6));
}

TEST(ExplainWire, RefusesBranchesThatDoNotNest) {
  const ExplainStep nested = NestedTrialOnTheWire();
  // Each: what is done to the nested trial's branches, and the refusal.
  const std::vector<std::pair<std::function<void(ExplainStep*)>, std::string>> cases = {
      {[](ExplainStep* s) { s->mutable_branches(1)->set_parent(3); },
       "branch 2: parent 3 is not a branch before it"},
      {[](ExplainStep* s) { s->mutable_branches(1)->set_parent(1); },
       "branch 2: parent 1 ends in a contradiction"},
      {[](ExplainStep* s) { s->mutable_branches(0)->set_assumption(Candidate(2, 3, 3)); },
       "branch 1: it tries r2c3, not r2c2 where its parent nests"},
      {[](ExplainStep* s) { s->mutable_branches(0)->set_assumption(729); },
       "branch 1: candidate 729 is out of range (0-728)"},
      {[](ExplainStep* s) { s->mutable_branches(0)->set_nesting_cell(81); },
       "branch 1: cell 81 is out of range (0-80)"},
      {[](ExplainStep* s) { s->mutable_branches(0)->add_units(27); },
       "branch 1: unit 27 is out of range (0-26)"},
      {[](ExplainStep* s) {
         s->mutable_branches(0)->clear_units();
         s->mutable_branches(0)->add_units(3);
         s->mutable_branches(0)->add_units(4);
       },
       "branch 1: 2 units (a contradiction has at most one)"},
      {[](ExplainStep* s) { s->mutable_branches(0)->set_nesting_cell(5); },  // it has a unit
       "branch 1: a nesting cell and a unit: a branch ends in one or the other"},
      {[](ExplainStep* s) { s->mutable_branches(0)->mutable_links(0)->set_from(0, 729); },
       "branch 1: link 1: candidate 729 is out of range (0-728)"},
      {[&](ExplainStep* s) {
         for (int i = 0; i < 8192; ++i) *s->add_branches() = nested.branches(0);
       },
       "8194 branches (at most 8192)"},
  };
  ASSERT_EQ(nested.branches(0).units_size(), 1);
  for (const auto& [mutate, message] : cases) {
    ExplainStep step = nested;
    mutate(&step);
    ExpectBadStep(step, message);
  }
  ExplainStep chain = WithLink(AIC, {Candidate(2, 3, 4)}, {Candidate(2, 7, 4)});
  *chain.add_branches() = nested.branches(0);
  ExpectBadStep(chain,
                "alternating inference chain (variant 0) with branches: only a nested trial has "
                "them");
}

TEST(ExplainWire, TechniquesConvertByTable) {
  for (int t = 0; t < logic::kTechniqueCount; ++t) {
    const auto technique = static_cast<logic::Technique>(t);
    EXPECT_EQ(TechniqueFromWire(TechniqueToWire(technique)), technique) << t;
  }
  EXPECT_EQ(TechniqueToWire(logic::Technique::kSwordfish), SWORDFISH);
  EXPECT_EQ(SWORDFISH, 9);
  EXPECT_EQ(TechniqueToWire(logic::Technique::kTrial), TRIAL);
  EXPECT_EQ(TRIAL, 10);
  EXPECT_EQ(TechniqueToWire(logic::Technique::kSkyscraper), SKYSCRAPER);
  EXPECT_EQ(SKYSCRAPER, 11);
  EXPECT_EQ(FORCING_CHAIN, 24);
  EXPECT_EQ(TechniqueToWire(logic::Technique::kJellyfish), JELLYFISH);
  EXPECT_EQ(SASHIMI_FISH, 29);
  EXPECT_EQ(HIDDEN_RECTANGLE, 30);
  EXPECT_EQ(WXYZ_WING, 31);
  EXPECT_EQ(REMOTE_PAIR, 32);
  EXPECT_EQ(TechniqueToWire(logic::Technique::kRemotePair), REMOTE_PAIR);
  EXPECT_EQ(TURBOT_FISH, 33);
  EXPECT_EQ(TechniqueToWire(logic::Technique::kTurbotFish), TURBOT_FISH);
  EXPECT_EQ(SUE_DE_COQ, 34);
  EXPECT_EQ(TechniqueToWire(logic::Technique::kSueDeCoq), SUE_DE_COQ);
  EXPECT_EQ(MULTI_COLOURS, 35);
  EXPECT_EQ(TechniqueToWire(logic::Technique::kMultiColours), MULTI_COLOURS);
  EXPECT_EQ(TechniqueFromWire(36), std::nullopt);
  EXPECT_EQ(TechniqueFromWire(-1), std::nullopt);
}

// A step's links and variant go on the wire as the .proto says: nodes as candidate numbers.
TEST(ExplainWire, LinksAreCandidateNumbers) {
  logic::Step step;
  step.technique = logic::Technique::kSkyscraper;
  step.variant = 0;
  step.links = {{{4, {11}}, {4, {15}}, true}, {{4, {15}}, {4, {51, 60}}, false}};
  ExplainStep wire_step;
  StepToWire(step, &wire_step);
  ASSERT_EQ(wire_step.links_size(), 2);
  EXPECT_EQ(wire_step.links(0).from(0), Candidate(2, 3, 4));
  EXPECT_EQ(wire_step.links(0).to(0), Candidate(2, 7, 4));
  EXPECT_TRUE(wire_step.links(0).strong());
  EXPECT_EQ(std::vector<uint32_t>(wire_step.links(1).to().begin(), wire_step.links(1).to().end()),
            (std::vector<uint32_t>{Candidate(6, 7, 4), Candidate(7, 7, 4)}));
  EXPECT_FALSE(wire_step.links(1).strong());
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
