// Results as JSON, which sudoku-client and the daemon's API both print: a solve result's exact
// layout for each verdict, the explanation's on a one-step explanation ("candidates" only when
// asked), the rating's names, an invalid puzzle's refusal, and the refusals of the writer with
// their exact messages.
#include "proto/result_json.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "proto/explain_wire.h"
#include "solver/explain_text.h"
#include "solver/logic.h"
#include "solver/solver.h"
#include "tests/support/puzzles.h"

namespace sudoku::wire {
namespace {

using ::sudoku::testing::kWikipediaSolution;

// Wikipedia's solution with r1c1 (a 5) blanked: one naked single solves it.
ExplainResponse OneStep() {
  ExplainResponse response;
  response.set_verdict(SOLVED);
  ExplainStep* step = response.add_steps();
  step->set_technique(NAKED_SINGLE);
  step->add_placements(0 * 9 + 5 - 1);
  step->add_cells(0);
  step->add_digits(5);
  response.set_solution(kWikipediaSolution);
  response.set_level(SIMPLE);
  response.set_hardest_technique(NAKED_SINGLE);
  response.set_hodoku_level(HODOKU_EASY);
  response.set_hodoku_score(4);
  response.set_se_rating(15);
  response.set_se_pearl(15);
  response.set_se_diamond(12);
  return response;
}

std::string OneBlank() {
  std::string puzzle = kWikipediaSolution;
  puzzle[0] = '.';
  return puzzle;
}

TEST(ExplanationJson, WritesEachStepAndTheRatingInTheDocumentedOrder) {
  EXPECT_EQ(ExplanationJson(OneStep(), OneBlank(), /*candidates=*/false).dump(),
            R"j({"puzzle":")j" + OneBlank() +
                R"j(","verdict":"solved","steps":[{"step":1,"technique":"naked single",)j"
                R"j("hodoku_name":"Naked Single","se_name":"Naked Single",)j"
                R"j("text":"naked single: r1c1 = 5 (its only candidate)",)j"
                R"j("placements":[{"cell":"r1c1","digit":5}],)j"
                R"j("eliminations":[],"units":[],"cells":["r1c1"],"digits":[5],"variant":0,)j"
                R"j("links":[],"branches":[]}],)j"
                R"j("solution":")j" +
                kWikipediaSolution +
                R"j(","rating":{"level":"simple","hardest":"naked single","steps":1,)j"
                R"j("guesses":0,"logic_guesses":0,"hodoku_level":"easy","hodoku_score":4,)j"
                R"j("se":1.5,"se_pearl":1.5,"se_diamond":1.2}})j");
}

TEST(ExplanationJson, CandidatesAreTheDigitsLeftBeforeEachStep) {
  const OrderedJson json = ExplanationJson(OneStep(), OneBlank(), /*candidates=*/true);
  const OrderedJson& candidates = json["steps"][0]["candidates"];
  ASSERT_EQ(candidates.size(), 81u);
  EXPECT_EQ(candidates[0], "5");
  EXPECT_EQ(candidates[1], "3");
  EXPECT_FALSE(ExplanationJson(OneStep(), OneBlank(), false)["steps"][0].contains("candidates"));
}

// A chain's links: each node its digit and cells, each link strong or weak, in chain order; a
// trial step counts among "logic_guesses".
TEST(ExplanationJson, WritesTheLinksOfAChain) {
  // The skyscraper of tests/data/logic_steps.txt, step 16 (0-based 15) of its puzzle.
  const std::string puzzle =
      "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
  Grid grid;
  ASSERT_FALSE(ParsePuzzle(puzzle, &grid));
  const logic::Explanation explanation = logic::Explain(grid);
  ExplainResponse response;
  response.set_verdict(SOLVED);
  for (const logic::Step& step : explanation.steps) StepToWire(step, response.add_steps());
  std::string solution;
  for (uint8_t digit : explanation.solution) solution += static_cast<char>('0' + digit);
  response.set_solution(solution);
  const OrderedJson json = ExplanationJson(response, puzzle, false);
  const OrderedJson& step = json["steps"][15];
  EXPECT_EQ(step["technique"], "skyscraper");
  EXPECT_EQ(step["hodoku_name"], "Skyscraper");
  EXPECT_TRUE(step["se_name"].is_null());  // SE has no skyscraper: its chains find these
  EXPECT_EQ(step["variant"], 0);
  EXPECT_EQ(step["links"].dump(),
            R"j([{"from":{"digit":4,"cells":["r5c4"]},"to":{"digit":4,"cells":["r3c4"]},)j"
            R"j("strong":true},{"from":{"digit":4,"cells":["r3c4"]},"to":{"digit":4,)j"
            R"j("cells":["r3c7"]},"strong":false},{"from":{"digit":4,"cells":["r3c7"]},)j"
            R"j("to":{"digit":4,"cells":["r6c7"]},"strong":true}])j");
  int trials = 0;
  for (const logic::Step& s : explanation.steps) trials += s.technique == logic::Technique::kTrial;
  EXPECT_EQ(json["rating"]["logic_guesses"], trials);
}

// A nested trial's branches, as a tree: each branch what it tries, its sentence, its links,
// where its contradiction lies (or the cell its own branches try) and those branches.
TEST(ExplanationJson, WritesANestedTrialsBranchesAsATree) {
  Grid grid;
  ASSERT_FALSE(ParsePuzzle(testing::kNestedTrialPuzzle, &grid));
  const logic::Explanation explanation = logic::Explain(grid);
  ExplainResponse response;
  response.set_verdict(SOLVED);
  for (const logic::Step& step : explanation.steps) StepToWire(step, response.add_steps());
  const OrderedJson json = ExplanationJson(response, testing::kNestedTrialPuzzle, false);
  const OrderedJson& step = json["steps"][testing::kNestedTrialStep];
  ASSERT_EQ(step["technique"], "trial");
  ASSERT_EQ(step["branches"].size(), 2u);
  const OrderedJson& branch = step["branches"][1];
  EXPECT_EQ(branch["tries"].dump(), R"j({"cell":"r2c2","digit":6})j");
  EXPECT_EQ(branch["text"],
            logic::DescribeTrialBranch(explanation.steps[testing::kNestedTrialStep], 1));
  EXPECT_EQ(branch["links"][0].dump(),
            R"j({"from":{"digit":6,"cells":["r2c2"]},"to":{"digit":6,"cells":["r2c7"]},)j"
            R"j("strong":false})j");
  EXPECT_EQ(branch["units"].dump(), R"j(["row 4"])j");
  EXPECT_TRUE(branch["nesting_cell"].is_null());
  EXPECT_EQ(branch["branches"].dump(), "[]");
  // Deeper: the first nested trial of bench_puzzles' first puzzle nests ten deep (variant 11).
  int deepest = 0;
  std::function<void(const OrderedJson&, int)> walk = [&](const OrderedJson& branches, int depth) {
    for (const OrderedJson& nested : branches) {
      deepest = std::max(deepest, depth);
      EXPECT_EQ(nested["nesting_cell"].is_null(), nested["branches"].empty());
      walk(nested["branches"], depth + 1);
    }
  };
  const std::string hard =
      "98.7..6..75..6..9...6......4...3......86...52..58...7...79...8......2...........1";
  ASSERT_FALSE(ParsePuzzle(hard, &grid));
  const logic::Explanation deep = logic::Explain(grid);
  ASSERT_EQ(deep.steps[0].technique, logic::Technique::kTrial);
  ASSERT_EQ(deep.steps[0].variant, 11);
  ExplainResponse one;
  one.set_verdict(SOLVED);
  StepToWire(deep.steps[0], one.add_steps());
  walk(ExplanationJson(one, hard, false)["steps"][0]["branches"], 1);
  EXPECT_EQ(deepest, 10);
}

TEST(ExplanationJson, NamesTheStepThatIsNotOne) {
  ExplainResponse response = OneStep();
  *response.add_steps() = response.steps(0);
  response.mutable_steps(1)->set_placements(0, 729);
  try {
    ExplanationJson(response, OneBlank(), false);
    FAIL() << "a candidate out of range was taken";
  } catch (const BadStep& error) {
    EXPECT_STREQ(error.what(), "step 2: candidate 729 is out of range (0-728)");
  }
}

TEST(ExplanationJson, RefusesAPuzzleThatIsNotValid) {
  std::string clash = OneBlank();
  clash[1] = '5';  // column 2 has its 5 in r4c2
  EXPECT_THROW(ExplanationJson(OneStep(), clash, false), std::invalid_argument);
}

TEST(RatingJson, NamesTheLevelAndTechniqueOrSaysUnknown) {
  EXPECT_EQ(RatingJson({.level = INTERMEDIATE,
                        .hardest = X_WING,
                        .steps = 30,
                        .guesses = 2,
                        .logic_guesses = 1,
                        .hodoku_level = HODOKU_UNFAIR,
                        .hodoku_score = 1712,
                        .se_tenths = 72,
                        .se_pearl_tenths = 34,
                        .se_diamond_tenths = 26})
                .dump(),
            R"j({"level":"intermediate","hardest":"x-wing","steps":30,"guesses":2,)j"
            R"j("logic_guesses":1,"hodoku_level":"unfair","hodoku_score":1712,"se":7.2,)j"
            R"j("se_pearl":3.4,"se_diamond":2.6})j");
  EXPECT_EQ(RatingJson({.level = 99, .hardest = -1, .hodoku_level = 5}).dump(),
            R"j({"level":"unknown","hardest":"unknown","steps":0,"guesses":0,"logic_guesses":0,)j"
            R"j("hodoku_level":"unknown","hodoku_score":0,"se":0.0,"se_pearl":0.0,)j"
            R"j("se_diamond":0.0})j");
}

TEST(RatingJson, EverySeTenthPrintsWithOneDecimal) {
  for (uint32_t tenths = 10; tenths <= 119; ++tenths) {
    const std::string expected = std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
    EXPECT_EQ(RatingJson({.se_tenths = tenths})["se"].dump(), expected);
  }
}

TEST(RatingOf, ReadsEachColumnAndZeroForColumnsNotSent) {
  SolveResponse response;
  response.add_levels(EXPERT);
  response.add_levels(EASY);
  response.add_hardest_techniques(SWORDFISH);
  response.add_hardest_techniques(HIDDEN_SINGLE);
  response.add_steps(60);
  response.add_steps(50);
  response.add_guesses(3);
  response.add_guesses(0);
  response.add_logic_guesses(1);
  response.add_logic_guesses(0);
  response.add_hodoku_levels(HODOKU_HARD);
  response.add_hodoku_levels(HODOKU_EASY);
  response.add_hodoku_scores(1310);
  response.add_hodoku_scores(700);
  response.add_se_ratings(38);
  response.add_se_ratings(15);
  response.add_se_pearls(26);
  response.add_se_pearls(12);
  response.add_se_diamonds(17);
  response.add_se_diamonds(10);
  const RatingColumns second = RatingOf(response, 1);
  EXPECT_EQ(second.level, EASY);
  EXPECT_EQ(second.hardest, HIDDEN_SINGLE);
  EXPECT_EQ(second.steps, 50u);
  EXPECT_EQ(second.hodoku_level, HODOKU_EASY);
  EXPECT_EQ(second.hodoku_score, 700u);
  EXPECT_EQ(second.se_tenths, 15u);
  EXPECT_EQ(second.se_pearl_tenths, 12u);
  EXPECT_EQ(second.se_diamond_tenths, 10u);
  EXPECT_TRUE(second.hodoku_path);
  EXPECT_TRUE(second.se_path);
  // An older daemon sends no HoDoKu or SE columns: they read as zero, and SE's as absent.
  response.clear_hodoku_levels();
  response.clear_hodoku_scores();
  response.clear_se_ratings();
  response.clear_se_pearls();
  response.clear_se_diamonds();
  const RatingColumns first = RatingOf(response, 0);
  EXPECT_EQ(first.level, EXPERT);
  EXPECT_EQ(first.guesses, 3u);
  EXPECT_EQ(first.logic_guesses, 1u);
  EXPECT_EQ(first.hodoku_score, 0u);
  EXPECT_EQ(first.se_tenths, 0u);
  EXPECT_EQ(first.se_diamond_tenths, 0u);
  EXPECT_TRUE(first.hodoku_path);
  EXPECT_FALSE(first.se_path);
  // A request for SE's path alone (SolveRequest.rating_scope) gets no column of the other.
  SolveResponse se_only;
  se_only.add_guesses(2);
  se_only.add_se_ratings(38);
  se_only.add_se_pearls(26);
  se_only.add_se_diamonds(17);
  const RatingColumns se = RatingOf(se_only, 0);
  EXPECT_FALSE(se.hodoku_path);
  EXPECT_TRUE(se.se_path);
  EXPECT_EQ(RatingJson(se).dump(),
            R"({"guesses":2,"se":3.8,"se_pearl":2.6,"se_diamond":1.7})");
}

TEST(SolveResultJson, WritesEachVerdictWithItsKeysInOrder) {
  const std::string puzzle(81, '.');
  SolveResultJson json;
  EXPECT_EQ(json.Of({.puzzle = puzzle,
                     .verdict = SOLVED,
                     .solution = kWikipediaSolution,
                     .solutions = 1,
                     .guesses = 2,
                     .rating = RatingColumns{.level = EASY,
                                             .hardest = HIDDEN_SINGLE,
                                             .steps = 50,
                                             .hodoku_score = 700,
                                             .se_tenths = 15}})
                .dump(),
            R"j({"puzzle":")j" + puzzle + R"j(","verdict":"solved","solution":")j" +
                kWikipediaSolution +
                R"j(","solutions":1,"guesses":2,"rating":{"level":"easy","hardest":"hidden )j"
                R"j(single","steps":50,"guesses":0,"logic_guesses":0,"hodoku_level":"easy",)j"
                R"j("hodoku_score":700,"se":1.5,"se_pearl":0.0,"se_diamond":0.0}})j");
  // Several solutions: the one found first comes with them.
  EXPECT_EQ(json.Of({.puzzle = puzzle,
                     .verdict = MULTIPLE,
                     .solution = kWikipediaSolution,
                     .solutions = 2,
                     .guesses = 9})
                .dump(),
            R"j({"puzzle":")j" + puzzle + R"j(","verdict":"multiple","solution":")j" +
                kWikipediaSolution + R"j(","solutions":2,"guesses":9})j");
  EXPECT_EQ(
      json.Of({.puzzle = puzzle, .verdict = UNSOLVABLE, .guesses = 4}).dump(),
      R"j({"puzzle":")j" + puzzle + R"j(","verdict":"unsolvable","solutions":0,"guesses":4})j");
  EXPECT_EQ(json.Of({.puzzle = puzzle,
                     .verdict = INVALID,
                     .where = "line 7, column 12",
                     .reason = "digit 5 repeated in row 1 (r1c1 and r1c4)"})
                .dump(),
            R"j({"puzzle":")j" + puzzle +
                R"j(","verdict":"invalid","error":"invalid: line 7, column 12: digit 5 repeated )j"
                R"j(in row 1 (r1c1 and r1c4)","where":"line 7, column 12","reason":"digit 5 )j"
                R"j(repeated in row 1 (r1c1 and r1c4)"})j");
  // A puzzle that could not be read has no "puzzle".
  EXPECT_EQ(json.Of({.verdict = INVALID,
                     .where = "b.txt, line 9",
                     .reason = "expected 81 cells, found 80"})
                .dump(),
            R"j({"verdict":"invalid","error":"invalid: b.txt, line 9: expected 81 cells, found )j"
            R"j(80","where":"b.txt, line 9","reason":"expected 81 cells, found 80"})j");
  EXPECT_EQ(UnsolvableJson(puzzle).dump(),
            R"j({"puzzle":")j" + puzzle + R"j(","verdict":"unsolvable"})j");
}

// One writer serves a whole batch, reusing its object: whatever the order of the results, each
// object is the one a fresh writer makes.
TEST(SolveResultJson, ReusedForManyResultsWritesEachAsAFreshOne) {
  const std::string puzzle = kWikipediaSolution.substr(0, 80) + ".";
  const std::string other(81, '.');
  const std::vector<SolveResult> results = {
      {.puzzle = puzzle, .verdict = SOLVED, .solution = kWikipediaSolution, .solutions = 1},
      {.puzzle = other,
       .verdict = SOLVED,
       .solution = kWikipediaSolution,
       .solutions = 1,
       .guesses = 7},
      {.puzzle = puzzle, .verdict = UNSOLVABLE},
      {.verdict = INVALID, .where = "line 3", .reason = "expected 81 cells, found 5"},
      {.puzzle = puzzle,
       .verdict = SOLVED,
       .solution = kWikipediaSolution,
       .solutions = 1,
       .rating = RatingColumns{.steps = 1}},
      {.puzzle = other, .verdict = MULTIPLE, .solution = kWikipediaSolution, .solutions = 2},
      {.puzzle = puzzle, .verdict = SOLVED, .solution = kWikipediaSolution, .solutions = 1},
  };
  SolveResultJson reused;
  for (const SolveResult& result : results) {
    SolveResultJson fresh;
    EXPECT_EQ(reused.Of(result).dump(), fresh.Of(result).dump());
  }
}

}  // namespace
}  // namespace sudoku::wire
