// The explain command's output (client/explain_format.h): each technique in words on its fixture
// (tests/data/logic_steps.txt), the candidate grid, and the exact errors for responses that do
// not fit.
#include "client/explain_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include "client/client_error.h"
#include "tests/support/paths.h"

namespace sudoku::client {
namespace {

std::string DataDir() { return testing::TestPath("SUDOKU_TEST_DATA_DIR"); }

// Each fixture's step in words; a technique with several fixtures (the unique rectangle's
// types, the colouring's trap and wrap, the forcing chain's three kinds, the trial and the
// choice) has a sentence for each.
TEST(DescribeStep, EachTechniqueOnItsFixture) {
  const std::multimap<std::string, std::string> expected = {
      {"pointing", "pointing: 2 in box 8 lies only in column 6 (r89c6): removes 2 from r2c6"},
      {"naked pair", "naked pair: r7c19 hold only 2 3 in row 7: removes 2 from r7c78; 3 from r7c478"},
      // HoDoKu's locked pair: in a box and a line, it clears both.
      {"naked pair",
       "locked pair: r9c89 hold only 2 7 in box 9 and row 9: removes 2 from r7c7,r8c78,r9c47; 7 "
       "from r7c7,r8c78,r9c167"},
      {"claiming", "claiming: 2 in row 5 lies only in box 4 (r5c123): removes 2 from r4c3,r6c123"},
      {"hidden pair",
       "hidden pair: 4 6 go only in r2c12 in box 1: removes 3 from r2c2; 7 from r2c12; 8 from "
       "r2c1"},
      {"swordfish",
       "swordfish: 4 in rows 6, 7, 9 lies only in columns 1, 5, 8 (r6c15,r7c18,r9c58): removes 4 "
       "from r14c5"},
      {"x-wing",
       "x-wing: 8 in rows 3, 5 lies only in columns 3, 9 (r35c39): removes 8 from r26c9,r4c39"},
      {"naked triple",
       "naked triple: r7c3,r8c23 hold only 4 6 8 in box 7: removes 4 from r9c123; 6 from r9c13; 8 "
       "from r9c123"},
      {"naked triple",
       "locked triple: r7c123 hold only 4 6 8 in box 7 and row 7: removes 4 from r7c5,r9c2; 6 from "
       "r7c589,r89c2; 8 from r7c589"},
      {"hidden triple",
       "hidden triple: 4 5 9 go only in r3c469 in row 3: removes 2 from r3c9; 3 from r3c46; 6 from "
       "r3c9; 7 from r3c46"},
      {"remote pair",
       "remote pair: r2c8,r3c5 / r3c7,r9c8 hold only 6 7, each seeing another, the two groups "
       "opposite (each cell removed sees both): removes 7 from r9c5"},
      {"skyscraper",
       "skyscraper: 4 in columns 4, 7: (4)r5c4=(4)r3c4-(4)r3c7=(4)r6c7: removes 4 from r5c9,r6c6"},
      {"unique rectangle",
       "unique rectangle type 1: r8c2,r9c27 hold only 1 2, so r8c7 must not (else two solutions): "
       "removes 1 from r8c7; 2 from r8c7"},
      // HoDoKu's path takes a grouped discontinuous nice loop there, as HoDoKu does.
      {"alternating inference chain",
       "discontinuous nice loop: (9)r1c6-(9)r1c9=(9)r2c9-(4)r2c9=(4)r2c6-(4)r3c4=(4)r5c4-(9)r5c4="
       "(9)r56c6-(9)r1c6 ((9)r1c6 true leads to it false): removes 9 from r1c6"},
      {"forcing chain",
       "forcing chain: r1c3 = 2 leads to (2)r1c3-(2)r2c3=(1)r2c3-(1)r4c3; "
       "(2)r1c3-(1)r1c3=(1)r1c6-(1)r4c6; (1)r4c3=(1)r4c1; (1)r4c6=(1)r4c1-(3)r4c1; "
       "(2)r1c3-(8)r1c3; (1)r1c6-(8)r1c6; (8)r1c3=(8)r1c4; "
       "(8)r1c6=(8)r1c4-(8)r8c4=(7)r8c4-(7)r4c4; (8)r1c4-(8)r4c4; (7)r4c4=(3)r4c4; "
       "(8)r4c4=(3)r4c4-(3)r4c2; (2)r1c3-(2)r2c1; (2)r1c3-(2)r3c1; (1)r4c1-(2)r4c1; "
       "(2)r2c1=(2)r5c1; (2)r3c1=(2)r5c1; (2)r4c1=(2)r5c1-(3)r5c1; (3)r4c1=(3)r6c1; "
       "(3)r4c2=(3)r6c1; (3)r5c1=(3)r6c1-(3)r6c7; (2)r1c3-(2)r1c7=(5)r1c7-(5)r6c7; "
       "(3)r6c7=(4)r6c7; (5)r6c7=(4)r6c7-(4)r6c9; (5)r1c7-(5)r1c2; (2)r1c3-(2)r4c3; "
       "(1)r4c3=(4)r4c3; (2)r4c3=(4)r4c3-(4)r4c2; (3)r4c2=(6)r4c2; (4)r4c2=(6)r4c2-(6)r1c2; "
       "(5)r1c2=(9)r1c2; (6)r1c2=(9)r1c2-(9)r1c9=(9)r2c9-(4)r2c9, and 4 has no place left in "
       "column 9: removes 2 from r1c3"},
      {"forcing chain",
       "forcing chain: r4c3 is 1 or 2; (1)r4c3-(1)r1c3; (1)r4c3-(1)r2c3; (1)r1c3=(1)r3c1; "
       "(1)r2c3=(1)r3c1-(1)r3c8=(1)r1c8-(3)r1c8; (1)r1c8-(4)r1c8; (2)r4c3-(2)r1c3; "
       "(2)r4c3-(2)r4c4=(2)r6c5-(2)r1c5; (2)r1c3=(2)r1c8; (2)r1c5=(2)r1c8-(3)r1c8; "
       "(2)r1c8-(4)r1c8: either way removes 3 from r1c8; 4 from r1c8"},
      {"forcing chain",
       "forcing chain: 4 in column 2 is in r89c2; (4)r8c2-(1)r8c2=(1)r8c1-(3)r8c1; (4)r8c2-(3)r8c2;"
       " (3)r8c1=(3)r8c9; (3)r8c2=(3)r8c9-(3)r7c7=(7)r7c7-(7)r4c7; (4)r9c2-(9)r9c2=(9)r6c2-(7)r6c2;"
       " (4)r9c2-(7)r9c2; (7)r6c2=(7)r5c2; (7)r9c2=(7)r5c2-(7)r5c6=(7)r4c6-(7)r4c7: either way "
       "removes 7 from r4c7"},
      {"als-xz",
       "als-xz: r4c456 in row 4 and r5c4789 in row 5, restricted common 9, both holding 7: removes "
       "7 from r5c6"},
      // A nested trial's links show every change its branches start from, not only the nested
      // cell's losses.
      {"trial",
       "trial: r2c1 = 4 leads to a contradiction within 1 nested trial: by singles "
       "(4)r2c1-(9)r2c1=(9)r4c1-(1)r4c1; (9)r4c1-(8)r4c1=(8)r4c7-(1)r4c7; (1)r4c1=(1)r4c3; "
       "(1)r4c7=(1)r4c3-(7)r4c3; (4)r2c1-(4)r2c7; (4)r2c1-(4)r2c5; "
       "(9)r4c1-(9)r4c5=(5)r4c5-(5)r2c5; (4)r2c1-(4)r2c3; (8)r4c7-(8)r6c7; (5)r4c5-(5)r6c5; "
       "(5)r4c5-(5)r7c5; (8)r4c7-(7)r4c7, it leaves r2c2 with 3 or 6, each of which leads to a "
       "contradiction: removes 4 from r2c1"},
      {"trial",
       "trial: r9c8 = 4 leads to a contradiction within 10 nested trials: by singles "
       "(4)r9c8-(4)r9c1; (4)r9c8-(4)r9c6=(4)r7c6-(4)r7c2; (4)r9c8-(4)r9c2; (4)r7c6-(9)r7c6; "
       "(4)r9c8-(4)r1c8; (4)r9c8-(4)r7c7; (4)r9c8-(4)r8c7; (4)r9c8-(4)r9c7; (4)r7c6-(4)r7c3; "
       "(4)r9c8-(4)r7c8; (4)r9c8-(9)r9c8; (4)r7c6-(6)r7c6; (4)r9c8-(4)r8c9; (4)r9c8-(4)r6c8, it "
       "leaves r9c1 with 1 or 8, each of which leads to a contradiction: removes 4 from r9c8"},
      {"xy-chain",
       "xy-chain: "
       "(5)r2c5=(6)r2c5-(6)r2c7=(7)r2c7-(7)r7c7=(2)r7c7-(2)r7c1=(1)r7c1-(1)r4c1=(8)r4c1-(8)r4c7=(1)"
       "r4c7-(1)r5c7=(4)r5c7-(4)r5c4=(9)r5c4-(9)r4c5=(5)r4c5: removes 5 from r167c5"},
      {"unique rectangle",
       "unique rectangle type 4: r15c89 on 5 7 (else two solutions): 5 in row 5 lies only in "
       "r5c89: removes 7 from r5c89"},
      {"xy-wing", "xy-wing: r2c4 holds 3 7, r1c6 holds 3 4, r2c9 holds 4 7: removes 4 from r1c9"},
      {"w-wing",
       "w-wing: r3c9,r8c3 hold 1 2, joined by 1 in row 9: "
       "(2)r3c9=(1)r3c9-(1)r9c9=(1)r9c1-(1)r8c3=(2)r8c3: removes 2 from r8c9"},
      {"two-string kite",
       "two-string kite: 8 in row 7 and column 8, joined in box 9: "
       "(8)r7c6=(8)r7c7-(8)r9c8=(8)r6c8: removes 8 from r6c6"},
      {"x-chain", "x-chain: (6)r4c4=(6)r4c3-(6)r2c3=(6)r2c8-(6)r1c7=(6)r6c7: removes 6 from r6c4"},
      {"multi colours",
       "multi colours: 4 coloured r1c4,r9c2 / r8c2,r9c4 and r2c5 / r2c9 (a colour of each sees the "
       "other: one of their opposites holds 4, and each cell removed sees both): removes 4 from "
       "r8c9"},
      {"sue de coq",
       "sue de coq: r45c6 hold 2 3 4 7 8 where column 6 crosses box 5; with r8c6 in column 6 and "
       "r6c456 in box 5 they hold as many digits as cells: removes 2 from r1c6; 3 from r3c6; 7 "
       "from r4c4"},
      {"turbot fish",
       "turbot fish: 4 in row 9 and box 6: (4)r9c6=(4)r9c7-(4)r6c7=(4)r5c9: removes 4 from r5c6"},
      {"empty rectangle",
       "empty rectangle: 4 in box 2 lies only in row 1 and column 5, with column 3: "
       "(4)r9c3=(4)r1c3-(4)r1c456=(4)r23c5: removes 4 from r9c5"},
      {"bug+1",
       "bug+1: r1c4 = 2 (every other open cell holds two candidates: without it, two solutions)"},
      {"unique rectangle",
       "unique rectangle type 2: r23c36 on 1 4 (else two solutions): r23c6 hold 8, one of them is "
       "it: removes 8 from r2c5,r3c4,r579c6"},
      {"xyz-wing",
       "xyz-wing: r3c6 holds 1 4 8, r2c6 holds 1 8, r3c3 holds 1 4: removes 1 from r3c4"},
      {"hidden rectangle",
       "hidden rectangle: r29c78 on 2 3 (else two solutions): r9c7 holds 2 3, and 2 lies in row 2 "
       "only in r2c78 and in column 8 only in r29c8: removes 3 from r2c8"},
      {"unique rectangle",
       "unique rectangle type 6: r13c26 on 1 4 (else two solutions): 1 lies in row 1, column 6, "
       "row 3 and column 2 only in the rectangle, so in r1c2,r3c6: removes 1 from r1c6,r3c2"},
      {"unique rectangle",
       "unique rectangle type 3: r23c49 on 1 4 (else two solutions): the extra 3 8 of r23c4 with "
       "r1c4 make a naked subset in column 4: removes 3 from r5c4; 8 from r5c4"},
      {"simple colouring",
       "simple colouring: 4 coloured r1c4,r3c2,r8c1 / r3c4,r8c7,r9c2 (each cell removed sees both "
       "colours): removes 4 from r1c7"},
      {"simple colouring",
       "simple colouring: 7 coloured r1c3,r3c5,r6c1,r8c8,r9c26 / r1c9,r2c6,r3c1,r5c2,r6c8,r8c5 "
       "(one colour meets itself in a unit: it is false): removes 7 from r1c3,r3c5,r6c1,r8c8,"
       "r9c26"},
      {"naked quad",
       "naked quad: r6c2789 hold only 1 2 4 6 in row 6: removes 1 from r6c35; 2 from r6c46; 4 "
       "from r6c45; 6 from r6c6"},
      {"hidden quad",
       "hidden quad: 2 3 5 6 go only in r89c12 in box 7: removes 1 from r89c12; 7 from r89c12; 8 "
       "from r9c12"},
      {"jellyfish",
       "jellyfish: 4 in rows 3, 5, 7, 8 lies only in columns 1, 5, 8, 9 (r3c89,r5c59,r7c18,"
       "r8c158): removes 4 from r26c5"},
      {"finned fish",
       "finned x-wing: 6 in rows 3, 4 lies only in columns 5, 9 but for the fins r3c46 in box 2 "
       "(r3c4569,r4c59): removes 6 from r2c5"},
      {"sashimi fish",
       "sashimi x-wing: 4 in rows 5, 9 lies only in columns 1, 4 but for the fins r9c23 in box 7 "
       "(r5c14,r9c234): removes 4 from r8c1"},
      {"trial", "the puzzle has several solutions: r1c7 = 3 chosen"},
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
    const std::string text = DescribeStep(step);
    const auto [first, last] = expected.equal_range(technique);
    EXPECT_TRUE(std::any_of(first, last, [&](const auto& entry) { return entry.second == text; }))
        << text;
    ++checked;
  }
  EXPECT_EQ(checked, expected.size());
}

// A multi colouring read from the wire with the shape of one (six cells, four links) whose
// links each start a cluster: read back, they colour eight cells. Its words stop at the step's
// six instead of reading past them.
TEST(DescribeStep, MultiColoursWhoseLinksCountPastItsCells) {
  logic::Step step;
  step.technique = logic::Technique::kMultiColours;
  step.variant = 1;
  step.digits = {4};
  step.cells = {0, 1, 9, 10, 18, 19};
  for (const uint8_t row_start : {0, 9, 18, 27}) {
    step.links.push_back({{4, {row_start}}, {4, {static_cast<uint8_t>(row_start + 1)}}, true});
  }
  step.eliminations = {{2, 4}};
  EXPECT_EQ(DescribeStep(step),
            "multi colours: 4 coloured r1c1 / r1c2 and r2c12,r3c1 / r3c2 (a colour of each sees "
            "the other: one of their opposites holds 4, and each cell removed sees both): "
            "removes 4 from r1c3");
}

TEST(DescribeStep, Singles) {
  logic::Step naked;
  naked.technique = logic::Technique::kNakedSingle;
  naked.placements = {{22, 7}};
  EXPECT_EQ(DescribeStep(naked), "naked single: r3c5 = 7 (its only candidate)");
  logic::Step full_house = naked;  // the last open cell of its unit
  full_house.cells = {22};
  full_house.digits = {7};
  full_house.variant = 1;
  full_house.units = {{logic::Unit::Kind::kColumn, 4}};
  EXPECT_EQ(DescribeStep(full_house), "full house: r3c5 = 7 (the last open cell of column 5)");
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

// r1c3 = 4 as a choice (a trial step of variant 0): cell 2, digit 4 (candidate = cell * 9 +
// digit - 1).
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
  step = WireStep(static_cast<wire::Technique>(99));
  ExpectBadStep(step, "step 3: unknown technique 99");
  step = WireStep(wire::X_WING);
  step.add_units(0);
  step.add_digits(4);
  ExpectBadStep(step,
                "step 3: x-wing with 1 units, 0 cells, 1 digits, 0 placements, 0 links and "
                "variant 0");
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

// An unsolvable candidate state says why where the daemon saw it at once, as text and as JSON.
TEST(FormatExplanation, UnsolvableSaysWhyWhenTheDaemonSays) {
  const std::string puzzle(81, '.');
  const LocateError locate = [](uint32_t) { return std::string("argument"); };
  wire::ExplainResponse response;
  response.set_verdict(wire::UNSOLVABLE);
  EXPECT_EQ(FormatExplanation(response, puzzle, locate, false, false), "unsolvable\n");
  EXPECT_EQ(FormatExplanation(response, puzzle, locate, false, true),
            "{\"puzzle\":\"" + puzzle + "\",\"verdict\":\"unsolvable\"}\n");
  response.mutable_error()->set_position(19);
  response.mutable_error()->set_message("r1c3 holds only 5, as r1c1 does, in row 1");
  EXPECT_EQ(FormatExplanation(response, puzzle, locate, false, false),
            "unsolvable: r1c3 holds only 5, as r1c1 does, in row 1\n");
  EXPECT_EQ(FormatExplanation(response, puzzle, locate, false, true),
            "{\"puzzle\":\"" + puzzle +
                "\",\"verdict\":\"unsolvable\",\"reason\":\"r1c3 holds only 5, as r1c1 does, "
                "in row 1\"}\n");
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
  const std::string last = text.substr(text.find("rating: level"));
  EXPECT_EQ(last.substr(last.find(", 1 ")),
            ", 1 step, 1 guess by the solver\nrating: HoDoKu easy (0), SE 0.0\n")
      << text;
  response.set_guesses(3);
  *response.add_steps() = GuessR1C3Is4();
  const std::string more = FormatExplanation(response, puzzle, locate, false, false);
  EXPECT_NE(more.find(", 2 steps, 3 guesses by the solver\n"), std::string::npos) << more;
}

// The second rating line: HoDoKu's level and score, and the SE rating with one decimal, its
// pearl and diamond after it (not from a daemon that sends none).
TEST(FormatExplanation, ScalesLineNamesHodokuAndSe) {
  const LocateError locate = [](uint32_t) { return std::string("argument"); };
  wire::ExplainResponse response;
  response.set_verdict(wire::SOLVED);
  response.set_solution(
      "534678912672195348198342567859761423426853791713924856961537284287419635345286179");
  *response.add_steps() = GuessR1C3Is4();
  response.set_hodoku_level(wire::HODOKU_UNFAIR);
  response.set_hodoku_score(1712);
  response.set_se_rating(72);
  response.set_se_pearl(34);
  response.set_se_diamond(26);
  const std::string text = FormatExplanation(
      response, "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
      locate, false, false);
  EXPECT_EQ(text.substr(text.rfind("rating: ")),
            "rating: HoDoKu unfair (1712), SE 7.2 (EP 3.4, ED 2.6)\n");
  response.set_se_pearl(0);
  response.set_se_diamond(0);
  response.set_hodoku_level(static_cast<wire::HodokuLevel>(9));  // a newer daemon's
  const std::string newer = FormatExplanation(
      response, "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
      locate, false, false);
  EXPECT_EQ(newer.substr(newer.rfind("rating: ")), "rating: HoDoKu unknown (1712), SE 7.2\n");
}

}  // namespace
}  // namespace sudoku::client
