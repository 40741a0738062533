// Pencilmark (candidate) puzzles: ParseCandidates with every error's exact message, and
// SolveCandidates on every kernel this CPU runs.
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/support/sudoku_check.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/puzzles.h"

namespace sudoku {
namespace {

using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::Pencilmarks;



std::string ErrorOf(std::string_view text) {
  CandidateGrid grid;
  const PuzzleError error = ParseCandidates(text, &grid);
  return error ? Describe(error) : "ok";
}

TEST(ParseCandidates, ConvertsMasks) {
  CandidateGrid grid;
  ASSERT_FALSE(ParseCandidates(Pencilmarks(kWikipediaPuzzle), &grid));
  EXPECT_EQ(grid[0], 1u << 4);  // a given 5
  EXPECT_EQ(grid[2], 0x1ff);    // open
  std::string zeros = Pencilmarks(kWikipediaPuzzle);
  for (char& c : zeros) c = c == '.' ? '0' : c;
  ASSERT_FALSE(ParseCandidates(zeros, &grid));
  EXPECT_EQ(grid[0], 1u << 4);
}

TEST(ParseCandidates, RejectsADigitOutOfPlace) {
  std::string text = Pencilmarks(kWikipediaPuzzle);
  text[9 * 2 + 2] = '5';  // r1c3, third candidate
  CandidateGrid grid;
  const PuzzleError error = ParseCandidates(text, &grid);
  EXPECT_EQ(error.kind, PuzzleError::Kind::kCandidate);
  EXPECT_EQ(error.position, 20u);
  EXPECT_EQ(Describe(error),
            "bad character '5' for candidate 3 of r1c3 (expected 3, or . 0 if excluded)");
  text[20] = 'x';
  EXPECT_EQ(ErrorOf(text),
            "bad character 'x' for candidate 3 of r1c3 (expected 3, or . 0 if excluded)");
}

TEST(ParseCandidates, RejectsACellWithNoCandidate) {
  std::string text = Pencilmarks(kWikipediaPuzzle);
  text.replace(9 * 10, 9, ".........");  // r2c2
  CandidateGrid grid;
  const PuzzleError error = ParseCandidates(text, &grid);
  EXPECT_EQ(error.kind, PuzzleError::Kind::kNoCandidate);
  EXPECT_EQ(error.position, 90u);
  EXPECT_EQ(Describe(error), "r2c2 has no candidate (all nine digits excluded)");
}

TEST(ParseCandidates, RejectsWrongLength) {
  CandidateGrid grid;
  const PuzzleError error = ParseCandidates(std::string(728, '1'), &grid);
  EXPECT_EQ(error.kind, PuzzleError::Kind::kLength);
  EXPECT_EQ(error.found, 728u);
}

TEST(CheckPuzzle, PicksTheParserByLength) {
  EXPECT_FALSE(CheckPuzzle(kWikipediaPuzzle));
  EXPECT_FALSE(CheckPuzzle(Pencilmarks(kWikipediaPuzzle)));
  EXPECT_EQ(CheckPuzzle(std::string(kWikipediaPuzzle.substr(0, 80)) + "x").kind,
            PuzzleError::Kind::kCharacter);
  EXPECT_EQ(CheckPuzzle(std::string(729, 'x')).kind, PuzzleError::Kind::kCandidate);
}

TEST(Solve, TakesPencilmarkText) {
  const Result plain = Solve(kWikipediaPuzzle, {.max_solutions = 2});
  const Result marks = Solve(Pencilmarks(kWikipediaPuzzle), {.max_solutions = 2});
  EXPECT_EQ(marks.verdict, Verdict::kSolved);
  EXPECT_EQ(testing::SolutionText(marks), testing::SolutionText(plain));

  std::string bad = Pencilmarks(kWikipediaPuzzle);
  bad[0] = '7';
  const Result invalid = Solve(bad);
  EXPECT_EQ(invalid.verdict, Verdict::kInvalid);
  EXPECT_EQ(invalid.error.kind, PuzzleError::Kind::kCandidate);
}

TEST(SolveCandidates, ClashingSinglesAreUnsolvable) {
  std::string text = Pencilmarks(std::string(81, '.'));
  text.replace(0, 9, "1........");
  text.replace(9, 9, "1........");  // r1c1 and r1c2 both 1
  EXPECT_EQ(Solve(text).verdict, Verdict::kUnsolvable);
}

class CandidateKernels : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(CandidateKernels, AgreeWithGivens) {
  const Kernel& kernel = *GetParam();
  if (!kernel.supported()) GTEST_SKIP() << kernel.name << " does not run on this CPU";
  for (const auto& fixture : testing::LoadFixtures("solver_puzzles.txt")) {
    if (fixture.count == "invalid") continue;
    Grid grid;
    ASSERT_FALSE(ParsePuzzle(fixture.puzzle, &grid));
    CandidateGrid candidates;
    ASSERT_FALSE(ParseCandidates(Pencilmarks(fixture.puzzle), &candidates)) << fixture.line;
    Result from_givens, from_marks;
    kernel.solve(grid, {.max_solutions = 2}, &from_givens);
    kernel.solve_candidates(candidates, {.max_solutions = 2}, &from_marks);
    EXPECT_EQ(from_marks.verdict, from_givens.verdict) << "line " << fixture.line;
    EXPECT_EQ(from_marks.solutions, from_givens.solutions) << "line " << fixture.line;
    if (from_marks.solutions > 0) {
      EXPECT_TRUE(testing::IsSolutionOf(fixture.puzzle, testing::SolutionText(from_marks)))
          << "line " << fixture.line;
    }
  }
}

TEST_P(CandidateKernels, ExclusionsDecideBetweenSolutions) {
  const Kernel& kernel = *GetParam();
  if (!kernel.supported()) GTEST_SKIP() << kernel.name << " does not run on this CPU";
  // Two completions; excluding the first one's digit in one rectangle cell leaves the other.
  const std::string two = testing::DeadlyRectangle(testing::kWikipediaSolution);
  ASSERT_FALSE(two.empty());
  ASSERT_EQ(testing::CountSolutions(two, 3), 2);
  const int cell = static_cast<int>(two.find('.'));
  const char digit = testing::kWikipediaSolution[cell];
  std::string marks = Pencilmarks(two);
  marks[9 * cell + (digit - '1')] = '.';
  CandidateGrid candidates;
  ASSERT_FALSE(ParseCandidates(marks, &candidates));
  Result result;
  kernel.solve_candidates(candidates, {.max_solutions = 2}, &result);
  EXPECT_EQ(result.verdict, Verdict::kSolved);
  EXPECT_NE(testing::SolutionText(result)[cell], digit);
  EXPECT_TRUE(testing::IsSolutionOf(two, testing::SolutionText(result)));
}

INSTANTIATE_TEST_SUITE_P(AllKernels, CandidateKernels, ::testing::ValuesIn(AllKernels()),
                         [](const auto& info) { return testing::TestName(info.param->name); });

}  // namespace
}  // namespace sudoku
