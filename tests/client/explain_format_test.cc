// The explain command's output (client/explain_format.h): each technique in words on its fixture
// (tests/data/logic_steps.txt), the candidate grid, and the exact errors for responses that do
// not fit.
#include "client/explain_format.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include "client/client_error.h"
#include "tests/support/paths.h"

namespace sudoku::client {
namespace {

std::string DataDir() { return testing::TestPath("SUDOKU_TEST_DATA_DIR"); }

TEST(DescribeStep, EachTechniqueOnItsFixture) {
  const std::map<std::string, std::string> expected = {
      {"pointing", "pointing: 2 in box 8 lies only in column 6 (r8c6, r9c6): removes 2 from r2c6"},
      {"naked pair",
       "naked pair: r9c8, r9c9 hold only 2 7 in box 9: removes 2 from r7c7, r8c7, r8c8, r9c7; 7 "
       "from r7c7, r8c7, r8c8, r9c7"},
      {"claiming",
       "claiming: 2 in row 5 lies only in box 4 (r5c1, r5c2, r5c3): removes 2 from r4c3, r6c1, "
       "r6c2, r6c3"},
      {"hidden pair",
       "hidden pair: 3 6 go only in r7c6, r9c6 in box 8: removes 7 from r7c6, r9c6; 8 from r7c6, "
       "r9c6"},
      {"guess",
       "no technique applies: guess r1c2 = 4 (the solution's digit; the explanation goes on)"},
      {"swordfish",
       "swordfish: 4 in rows 6, 7, 9 lies only in columns 1, 5, 8 (r6c1, r6c5, r7c1, r7c8, r9c5, "
       "r9c8): removes 4 from r1c5, r4c5"},
      {"x-wing",
       "x-wing: 8 in rows 3, 5 lies only in columns 3, 9 (r3c3, r3c9, r5c3, r5c9): removes 8 "
       "from r4c3, r2c9, r4c9, r6c9"},
      {"naked triple",
       "naked triple: r7c3, r8c2, r8c3 hold only 4 6 8 in box 7: removes 4 from r9c1, r9c2, "
       "r9c3; 6 from r9c1, r9c3; 8 from r9c1, r9c2, r9c3"},
      {"hidden triple",
       "hidden triple: 4 5 9 go only in r3c4, r3c6, r3c9 in row 3: removes 2 from r3c9; 3 from "
       "r3c4, r3c6; 6 from r3c9; 7 from r3c4, r3c6"},
  };
  std::ifstream in(DataDir() + "/logic_steps.txt");
  ASSERT_TRUE(in);
  size_t checked = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t bar = line.find('|'), next = line.find('|', bar + 1);
    const std::string technique = line.substr(next + 1, line.find(" p=") - next - 1);
    Grid grid;
    ASSERT_FALSE(ParsePuzzle(line.substr(0, bar), &grid));
    const logic::Explanation explanation = logic::Explain(grid);
    const logic::Step& step =
        explanation.steps.at(std::stoul(line.substr(bar + 1, next - bar - 1)));
    ASSERT_TRUE(expected.count(technique)) << technique;
    EXPECT_EQ(DescribeStep(step), expected.at(technique));
    ++checked;
  }
  EXPECT_EQ(checked, expected.size());
}

TEST(DescribeStep, Singles) {
  logic::Step naked;
  naked.technique = logic::Technique::kNakedSingle;
  naked.placements = {{22, 7}};
  EXPECT_EQ(DescribeStep(naked), "naked single: r3c5 = 7 (its only candidate)");
  logic::Step hidden;
  hidden.technique = logic::Technique::kHiddenSingle;
  hidden.placements = {{40, 3}};
  hidden.units = {{logic::Unit::Kind::kBox, 4}};
  hidden.digits = {3};
  EXPECT_EQ(DescribeStep(hidden), "hidden single: r5c5 = 3 (the only place for 3 in box 5)");
}

TEST(DrawCandidates, RulesBoxesAndMarksFilledCells) {
  Grid grid{};
  grid[0] = 5;
  logic::Candidates candidates = logic::InitialCandidates(grid);
  const std::string drawing = DrawCandidates(grid, candidates);
  const std::string rule = "+-------------+-------------+-------------+\n";
  const std::string spacer = "|             |             |             |\n";
  // 3 rules inside, 2 spacers per band, 3 lines per row.
  EXPECT_EQ(drawing.size(), (4 + 6 + 27) * rule.size());
  EXPECT_EQ(drawing.substr(0, rule.size()), rule);
  const std::string first_row = drawing.substr(rule.size(), 3 * rule.size());
  EXPECT_EQ(first_row,
            "|     123 123 | 123 123 123 | 123 123 123 |\n"
            "| [5] 4.6 4.6 | 4.6 4.6 4.6 | 4.6 4.6 4.6 |\n"
            "|     789 789 | 789 789 789 | 789 789 789 |\n");
  EXPECT_EQ(drawing.substr(4 * rule.size(), spacer.size()), spacer);
  // Row 2, middle line: the 5 is gone from box 1 only (r2c4 and on still have it).
  EXPECT_EQ(drawing.substr(6 * rule.size(), rule.size()),
            "| 4.6 4.6 4.6 | 456 456 456 | 456 456 456 |\n");
}

wire::ExplainStep WireStep(wire::Technique technique) {
  wire::ExplainStep step;
  step.set_technique(technique);
  return step;
}

// r1c3 = 4 as a guess: cell 2, digit 4 (candidate = cell * 9 + digit - 1).
wire::ExplainStep GuessR1C3Is4() {
  wire::ExplainStep step = WireStep(wire::TRIAL);
  step.add_placements(2 * 9 + 3);
  step.add_cells(2);
  step.add_digits(4);
  return step;
}

// An explanation whose third step is `step` is refused with `message`, as text and as JSON.
void ExpectBadStep(const wire::ExplainStep& step, const std::string& message) {
  const std::string puzzle =
      "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
  wire::ExplainResponse response;
  response.set_verdict(wire::SOLVED);
  response.set_solution(
      "534678912672195348198342567859761423426853791713924856961537284287419635345286179");
  *response.add_steps() = GuessR1C3Is4();
  *response.add_steps() = GuessR1C3Is4();
  *response.add_steps() = step;
  const LocateError locate = [](uint32_t) { return std::string("argument"); };
  for (const bool json : {false, true}) {
    try {
      FormatExplanation(response, puzzle, locate, json, false);
      ADD_FAILURE() << "no error for " << step.ShortDebugString();
    } catch (const ClientError& error) {
      EXPECT_EQ(std::string(error.what()), message) << (json ? "json" : "text");
    }
  }
}

TEST(FormatExplanation, RejectsStepsWithNumbersOutOfRange) {
  wire::ExplainStep step = WireStep(wire::NAKED_SINGLE);
  step.add_placements(729);
  ExpectBadStep(step, "step 3: candidate 729 is out of range (0-728)");
  step = WireStep(wire::POINTING);
  step.add_units(27);
  ExpectBadStep(step, "step 3: unit 27 is out of range (0-26)");
  step = WireStep(wire::POINTING);
  step.add_cells(81);
  ExpectBadStep(step, "step 3: cell 81 is out of range (0-80)");
  step = WireStep(wire::POINTING);
  step.add_digits(0);
  ExpectBadStep(step, "step 3: digit 0 is not 1-9");
  step = WireStep(static_cast<wire::Technique>(11));
  ExpectBadStep(step, "step 3: unknown technique 11");
  step = WireStep(wire::X_WING);
  step.add_units(0);
  step.add_digits(4);
  ExpectBadStep(step, "step 3: x-wing with 1 units, 0 cells, 1 digits and 0 placements");
}

TEST(FormatExplanation, RejectsResponsesThatDoNotFit) {
  const std::string puzzle(81, '.');
  const LocateError locate = [](uint32_t) { return std::string("argument"); };
  const auto expect_error = [&](const wire::ExplainResponse& response, const std::string& text) {
    try {
      FormatExplanation(response, puzzle, locate, false, false);
      ADD_FAILURE() << "no error for " << response.ShortDebugString();
    } catch (const ClientError& error) {
      EXPECT_EQ(std::string(error.what()), text);
    }
  };
  wire::ExplainResponse response;
  response.set_verdict(wire::SOLVED);
  response.set_solution("123");
  expect_error(response, "a solution of 3 characters");
  response.set_verdict(static_cast<wire::Verdict>(7));
  expect_error(response, "unknown verdict 7");
  response.set_verdict(wire::UNSOLVABLE);
  *response.add_steps() = WireStep(wire::TRIAL);
  expect_error(response, "unsolvable puzzle with 1 steps");
}

// The rating line counts in words: "1 step", "1 guess".
TEST(FormatExplanation, RatingLineSaysOneGuessAndOneStep) {
  const std::string puzzle =
      "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
  const std::string solution =
      "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
  const LocateError locate = [](uint32_t) { return std::string("argument"); };
  wire::ExplainResponse response;
  response.set_verdict(wire::SOLVED);
  response.set_solution(solution);
  *response.add_steps() = GuessR1C3Is4();
  response.set_guesses(1);
  const std::string text = FormatExplanation(response, puzzle, locate, false, false);
  const std::string last = text.substr(text.rfind("rating: "));
  EXPECT_EQ(last.substr(last.find(", 1 ")), ", 1 step, 1 guess by the solver\n") << text;
  response.set_guesses(3);
  *response.add_steps() = GuessR1C3Is4();
  const std::string more = FormatExplanation(response, puzzle, locate, false, false);
  EXPECT_NE(more.find(", 2 steps, 3 guesses by the solver\n"), std::string::npos) << more;
}

}  // namespace
}  // namespace sudoku::client
