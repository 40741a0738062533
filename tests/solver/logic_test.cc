// Tests for the logical solver (solver/logic.h): each technique on a grid where it is the next
// step, and every explanation replayed: each placement and elimination agrees with the unique
// solution, and the last grid is that solution.
#include "solver/logic.h"

#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "tests/solver/test_puzzles.h"

namespace sudoku::logic {
namespace {

Grid ParseOrDie(std::string_view text) {
  Grid grid{};
  const PuzzleError error = ParsePuzzle(text, &grid);
  EXPECT_FALSE(error) << Describe(error) << " in " << text;
  return grid;
}

// Replays `explanation` from `puzzle` against `solution` (81 digits), failing on the first
// unsound step.
void ExpectSoundReplay(const std::string& puzzle, const std::string& solution,
                       const Explanation& explanation) {
  Grid grid = ParseOrDie(puzzle);
  Candidates candidates = InitialCandidates(grid);
  for (size_t i = 0; i < explanation.steps.size(); ++i) {
    const Step& step = explanation.steps[i];
    SCOPED_TRACE(puzzle + " step " + std::to_string(i) + " (" + Name(step.technique) + ")");
    ASSERT_FALSE(step.placements.empty() && step.eliminations.empty());
    for (const CellDigit& placement : step.placements) {
      ASSERT_EQ(grid[placement.cell], 0) << CellName(placement.cell) << " filled twice";
      ASSERT_EQ(placement.digit, solution[placement.cell] - '0') << CellName(placement.cell);
      ASSERT_TRUE(candidates[placement.cell] & (1u << (placement.digit - 1)))
          << CellName(placement.cell) << " had no candidate " << int{placement.digit};
    }
    for (const CellDigit& elimination : step.eliminations) {
      ASSERT_NE(elimination.digit, solution[elimination.cell] - '0')
          << CellName(elimination.cell) << " lost its solution digit";
      ASSERT_TRUE(candidates[elimination.cell] & (1u << (elimination.digit - 1)))
          << CellName(elimination.cell) << ": " << int{elimination.digit} << " was gone already";
    }
    if (step.technique == Technique::kNakedSingle) {
      ASSERT_EQ(std::popcount(candidates[step.placements[0].cell]), 1);
    }
    Apply(step, &grid, &candidates);
  }
  for (int cell = 0; cell < kCells; ++cell) {
    ASSERT_EQ(grid[cell], solution[cell] - '0') << puzzle << " at " << CellName(cell);
  }
  EXPECT_EQ(explanation.solution, grid);
}

TEST(Logic, ReplaysEveryUniqueFixture) {
  int checked = 0;
  for (const auto& fixture : testing::LoadFixtures("solver_puzzles.txt")) {
    if (fixture.count != "1") continue;
    const Explanation explanation = Explain(ParseOrDie(fixture.puzzle));
    EXPECT_EQ(explanation.verdict, Verdict::kSolved) << fixture.puzzle;
    ExpectSoundReplay(fixture.puzzle, fixture.solution, explanation);
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

TEST(Logic, RateAgreesWithExplain) {
  for (const auto& fixture : testing::LoadFixtures("solver_puzzles.txt")) {
    if (fixture.count != "1") continue;
    const Grid grid = ParseOrDie(fixture.puzzle);
    const Explanation explanation = Explain(grid);
    const Rating rating = Rate(grid);
    Technique hardest = Technique::kNakedSingle;
    for (const Step& step : explanation.steps) hardest = std::max(hardest, step.technique);
    EXPECT_EQ(rating.steps, explanation.steps.size()) << fixture.puzzle;
    EXPECT_EQ(rating.hardest, hardest) << fixture.puzzle;
    EXPECT_EQ(rating.level, LevelOf(hardest)) << fixture.puzzle;
    EXPECT_EQ(rating.guesses, SolveGrid(grid, Limits{.max_solutions = 2}).guesses) << fixture.puzzle;
  }
}

}  // namespace
}  // namespace sudoku::logic
