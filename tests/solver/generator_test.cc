// Generate(): uniqueness, determinism, and each option (clue target, symmetry, minimality, the
// levels, a technique the explanation needs).
#include "solver/generator.h"
#include "solver/rating.h"

#include <algorithm>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/sudoku_check.h"
#include "tests/support/technique_names.h"

namespace sudoku {
namespace {

std::string SolutionText(const Generated& g) { return std::string(g.solution.data(), kCells); }

// Every clue can go without a second solution appearing? Checked with the reference solver.
bool MinimalByReference(const std::string& puzzle) {
  for (int cell = 0; cell < kCells; ++cell) {
    if (puzzle[cell] == '.') continue;
    std::string fewer = puzzle;
    fewer[cell] = '.';
    if (testing::CountSolutions(fewer, 2) == 1) return false;
  }
  return true;
}

TEST(Generate, GivesUniquePuzzlesWithTheirSolution) {
  for (uint64_t index = 0; index < 20; ++index) {
    const Generated g = Generate({.seed = 7}, index);
    ASSERT_TRUE(g.ok) << g.error;
    const std::string text = PuzzleText(g.puzzle);
    std::string solution;
    EXPECT_EQ(testing::CountSolutions(text, 2, &solution), 1) << text;
    EXPECT_EQ(solution, SolutionText(g));
    EXPECT_TRUE(g.reached_clues);
    EXPECT_GE(g.clues, kMinClues);
    EXPECT_EQ(
        static_cast<int>(std::count_if(text.begin(), text.end(), [](char c) { return c != '.'; })),
        g.clues);
    // One pass of single removals leaves nothing removable.
    EXPECT_TRUE(MinimalByReference(text)) << text;
  }
}

TEST(Generate, IsDeterministicPerSeedAndIndex) {
  const GenerateOptions options{.seed = 12345};
  EXPECT_EQ(PuzzleText(Generate(options, 3).puzzle), PuzzleText(Generate(options, 3).puzzle));
  EXPECT_NE(PuzzleText(Generate(options, 3).puzzle), PuzzleText(Generate(options, 4).puzzle));
  EXPECT_NE(PuzzleText(Generate(options, 3).puzzle),
            PuzzleText(Generate({.seed = 12346}, 3).puzzle));
}

TEST(Generate, StopsAtTheClueTarget) {
  for (uint64_t index = 0; index < 5; ++index) {
    const Generated g = Generate({.seed = 1, .clues = 30}, index);
    ASSERT_TRUE(g.ok) << g.error;
    EXPECT_EQ(g.clues, 30);
    EXPECT_TRUE(g.reached_clues);
    EXPECT_EQ(testing::CountSolutions(PuzzleText(g.puzzle), 2), 1);
  }
}

TEST(Generate, SaysWhenTheClueTargetIsOutOfReach) {
  // Random removal essentially never reaches 17 clues: the closest puzzle comes back, flagged.
  const Generated g = Generate({.seed = 1, .clues = 17, .max_attempts = 8}, 0);
  ASSERT_TRUE(g.ok) << g.error;
  EXPECT_FALSE(g.reached_clues);
  EXPECT_GT(g.clues, 17);
  EXPECT_EQ(g.attempts, 8u);
  EXPECT_EQ(testing::CountSolutions(PuzzleText(g.puzzle), 2), 1);
}

TEST(Generate, MakesSymmetricPuzzles) {
  for (uint64_t index = 0; index < 10; ++index) {
    const Generated g = Generate({.seed = 9, .symmetric = true}, index);
    ASSERT_TRUE(g.ok) << g.error;
    const std::string text = PuzzleText(g.puzzle);
    for (int cell = 0; cell < kCells; ++cell) {
      EXPECT_EQ(text[cell] == '.', text[kCells - 1 - cell] == '.') << text << " cell " << cell;
    }
    EXPECT_EQ(testing::CountSolutions(text, 2), 1);
  }
}

TEST(Generate, MakesSymmetricMinimalPuzzles) {
  for (uint64_t index = 0; index < 5; ++index) {
    const Generated g = Generate({.seed = 3, .symmetric = true, .minimal = true}, index);
    ASSERT_TRUE(g.ok) << g.error;
    const std::string text = PuzzleText(g.puzzle);
    for (int cell = 0; cell < kCells; ++cell) {
      EXPECT_EQ(text[cell] == '.', text[kCells - 1 - cell] == '.') << text;
    }
    EXPECT_TRUE(MinimalByReference(text)) << text;
  }
}

TEST(Generate, MinimalWithAHighClueTargetCannotBeMet) {
  // A minimal puzzle never has 60 clues: every attempt stops at 60 with clues to spare.
  const Generated g = Generate({.seed = 5, .clues = 60, .minimal = true, .max_attempts = 3}, 0);
  EXPECT_FALSE(g.ok);
  EXPECT_EQ(g.error, "no minimal and 60-clue puzzle found in 3 attempts");
}

TEST(Generate, MakesPuzzlesOfTheLevelAskedFor) {
  for (const logic::Level level : {logic::Level::kSimple, logic::Level::kEasy,
                                   logic::Level::kIntermediate, logic::Level::kExpert}) {
    for (uint64_t index = 0; index < 3; ++index) {
      const Generated g = Generate({.seed = 11, .level = level}, index);
      ASSERT_TRUE(g.ok) << logic::Name(level) << ": " << g.error;
      EXPECT_EQ(logic::Rate(g.puzzle).level, level) << PuzzleText(g.puzzle);
      EXPECT_EQ(testing::CountSolutions(PuzzleText(g.puzzle), 2), 1);
    }
  }
}

TEST(Generate, MakesPuzzlesOfTheHodokuLevelAndSeRangeAskedFor) {
  for (const rating::HodokuLevel level :
       {rating::HodokuLevel::kEasy, rating::HodokuLevel::kMedium, rating::HodokuLevel::kHard}) {
    for (uint64_t index = 0; index < 2; ++index) {
      const Generated g = Generate({.seed = 12, .hodoku_level = level}, index);
      ASSERT_TRUE(g.ok) << rating::Name(level) << ": " << g.error;
      EXPECT_EQ(rating::RateGrid(g.puzzle).scales.hodoku_level, level) << PuzzleText(g.puzzle);
      EXPECT_EQ(testing::CountSolutions(PuzzleText(g.puzzle), 2), 1);
    }
  }
  for (uint64_t index = 0; index < 2; ++index) {
    const Generated g = Generate({.seed = 13, .se_min = 26, .se_max = 40}, index);
    ASSERT_TRUE(g.ok) << g.error;
    const uint32_t se = rating::RateGrid(g.puzzle).scales.se_tenths;
    EXPECT_GE(se, 26u) << PuzzleText(g.puzzle);
    EXPECT_LE(se, 40u) << PuzzleText(g.puzzle);
  }
}

TEST(Generate, NamesTheScalesItCouldNotMeet) {
  // 70 clues leave nothing hard to do.
  const Generated hard = Generate(
      {.seed = 2, .clues = 70, .hodoku_level = rating::HodokuLevel::kHard, .max_attempts = 3}, 0);
  EXPECT_FALSE(hard.ok);
  EXPECT_EQ(hard.error, "no HoDoKu hard and 70-clue puzzle found in 3 attempts");
  const Generated se = Generate({.seed = 2, .clues = 70, .se_min = 50, .max_attempts = 3}, 0);
  EXPECT_EQ(se.error, "no SE 5.0-11.9 and 70-clue puzzle found in 3 attempts");
  const Generated both =
      Generate({.seed = 2, .clues = 70, .se_min = 20, .se_max = 21, .max_attempts = 3}, 0);
  EXPECT_EQ(both.error, "no SE 2.0-2.1 and 70-clue puzzle found in 3 attempts");
}

TEST(Generate, SaysWhenNoPuzzleOfTheLevelIsFound) {
  // 70 clues leave nothing for an expert technique to do.
  const Generated g =
      Generate({.seed = 2, .clues = 70, .level = logic::Level::kExpert, .max_attempts = 5}, 0);
  EXPECT_FALSE(g.ok);
  EXPECT_EQ(g.attempts, 5u);
  EXPECT_EQ(g.error, "no expert and 70-clue puzzle found in 5 attempts");
}

// Whether the explanation the page and `sudoku-client explain` show takes a step of `technique`.
bool ExplanationTakes(const Grid& puzzle, logic::Technique technique) {
  const logic::Explanation explanation = logic::Explain(puzzle);
  return std::any_of(explanation.steps.begin(), explanation.steps.end(),
                     [technique](const logic::Step& step) { return step.technique == technique; });
}

TEST(Generate, MakesPuzzlesWhoseExplanationTakesTheTechniqueAskedFor) {
  for (const logic::Technique technique :
       {logic::Technique::kHiddenPair, logic::Technique::kXWing, logic::Technique::kXYChain}) {
    for (uint64_t index = 0; index < 2; ++index) {
      const GenerateOptions options{.seed = 21, .needs = technique};
      const Generated g = Generate(options, index);
      ASSERT_TRUE(g.ok) << logic::Name(technique) << ": " << g.error;
      EXPECT_TRUE(ExplanationTakes(g.puzzle, technique))
          << logic::Name(technique) << ": " << PuzzleText(g.puzzle);
      EXPECT_EQ(testing::CountSolutions(PuzzleText(g.puzzle), 2), 1);
      // The same puzzle again for the same seed and index.
      EXPECT_EQ(PuzzleText(Generate(options, index).puzzle), PuzzleText(g.puzzle));
    }
  }
}

TEST(Generate, MakesPuzzlesOfTheLevelsAskedForThatNeedTheTechnique) {
  // The level and the technique from one walk of the explanation; HoDoKu's level beside them.
  const Generated expert =
      Generate({.seed = 22, .level = logic::Level::kExpert, .needs = logic::Technique::kXWing}, 0);
  ASSERT_TRUE(expert.ok) << expert.error;
  EXPECT_EQ(logic::Rate(expert.puzzle).level, logic::Level::kExpert);
  EXPECT_TRUE(ExplanationTakes(expert.puzzle, logic::Technique::kXWing))
      << PuzzleText(expert.puzzle);
  const Generated hard = Generate({.seed = 22,
                                   .hodoku_level = rating::HodokuLevel::kHard,
                                   .needs = logic::Technique::kPointing},
                                  0);
  ASSERT_TRUE(hard.ok) << hard.error;
  EXPECT_EQ(rating::RateGrid(hard.puzzle).scales.hodoku_level, rating::HodokuLevel::kHard);
  EXPECT_TRUE(ExplanationTakes(hard.puzzle, logic::Technique::kPointing))
      << PuzzleText(hard.puzzle);
}

TEST(Generate, NamesTheTechniqueItCouldNotFind) {
  // Nothing simple takes an x-wing.
  const Generated simple = Generate({.seed = 2,
                                     .level = logic::Level::kSimple,
                                     .needs = logic::Technique::kXWing,
                                     .max_attempts = 3},
                                    0);
  EXPECT_FALSE(simple.ok);
  EXPECT_EQ(simple.attempts, 3u);
  EXPECT_EQ(simple.error, "no simple puzzle needing an x-wing found in 3 attempts");
  // 70 clues leave nothing for a chain to do.
  const Generated chain =
      Generate({.seed = 2, .clues = 70, .needs = logic::Technique::kXYChain, .max_attempts = 3}, 0);
  EXPECT_EQ(chain.error, "no 70-clue puzzle needing an xy-chain found in 3 attempts");
  const Generated jellyfish =
      Generate({.seed = 2, .needs = logic::Technique::kJellyfish, .max_attempts = 2}, 0);
  EXPECT_EQ(jellyfish.error, "no puzzle needing a jellyfish found in 2 attempts");
  const Generated rectangle = Generate(
      {.seed = 2, .clues = 70, .needs = logic::Technique::kUniqueRectangle, .max_attempts = 2}, 0);
  EXPECT_EQ(rectangle.error, "no 70-clue puzzle needing a unique rectangle found in 2 attempts");
}

TEST(Generate, SaysAtOnceThatNoExplanationTakesSesWing) {
  const Generated g = Generate({.seed = 2, .needs = logic::Technique::kWxyzWing}, 0);
  EXPECT_FALSE(g.ok);
  EXPECT_EQ(g.attempts, 0u);
  EXPECT_EQ(g.error,
            "no puzzle needs a wxyz-wing: explanations never take one (only the SE rating's "
            "path does)");
}

TEST(Generate, NeedsTakesEveryTechniqueAnExplanationTakes) {
  for (int i = 0; i < logic::kTechniqueCount; ++i) {
    const auto technique = static_cast<logic::Technique>(i);
    EXPECT_EQ(Needable(technique), technique != logic::Technique::kWxyzWing);
    EXPECT_EQ(ParseNeeds(logic::Name(technique)),
              Needable(technique) ? std::optional(technique) : std::nullopt);
  }
  EXPECT_EQ(ParseNeeds("xy-chain"), logic::Technique::kXYChain);
  EXPECT_EQ(ParseNeeds("XY-Chain"), std::nullopt);
  EXPECT_EQ(ParseNeeds(""), std::nullopt);
  EXPECT_EQ(NeedsNames(), sudoku::testing::kNeedableTechniqueNames);
}

TEST(PuzzleText, WritesDotsForBlanks) {
  Grid grid{};
  grid[0] = 5;
  grid[80] = 9;
  EXPECT_EQ(PuzzleText(grid), "5" + std::string(79, '.') + "9");
}

}  // namespace
}  // namespace sudoku
