// ParsePuzzle, Describe and Solve()'s handling of bad text: every error with its exact message.
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/puzzles.h"

namespace sudoku {
namespace {

using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::kWikipediaSolution;


std::string With(std::string_view puzzle, int cell, char c) {
  std::string out(puzzle);
  out[cell] = c;
  return out;
}

std::string ErrorOf(std::string_view text) {
  Grid grid;
  const PuzzleError error = ParsePuzzle(text, &grid);
  return error ? Describe(error) : "ok";
}

TEST(ParsePuzzle, ConvertsDigitsAndBlanks) {
  Grid grid;
  ASSERT_FALSE(ParsePuzzle(kWikipediaPuzzle, &grid));
  EXPECT_EQ(grid[0], 5);
  EXPECT_EQ(grid[1], 3);
  EXPECT_EQ(grid[2], 0);
  EXPECT_EQ(grid[80], 9);
}

TEST(ParsePuzzle, AcceptsEveryBlankCharacter) {
  for (char blank : {'.', '0', '_', '-', '*'}) {
    std::string text(kWikipediaPuzzle);
    for (char& c : text) {
      if (c == '.') c = blank;
    }
    Grid grid;
    EXPECT_FALSE(ParsePuzzle(text, &grid)) << blank;
    EXPECT_EQ(grid[2], 0) << blank;
  }
}

TEST(ParsePuzzle, AcceptsTheEmptyAndTheFullGrid) {
  EXPECT_EQ(ErrorOf(std::string(81, '.')), "ok");
  EXPECT_EQ(ErrorOf(testing::kWikipediaSolution), "ok");
}

TEST(ParsePuzzle, RejectsWrongLength) {
  Grid grid;
  const PuzzleError error = ParsePuzzle(kWikipediaPuzzle.substr(0, 80), &grid);
  EXPECT_EQ(error.kind, PuzzleError::Kind::kLength);
  EXPECT_EQ(error.found, 80u);
  EXPECT_EQ(Describe(error), "expected 81 cells, found 80");
  EXPECT_EQ(ErrorOf(""), "expected 81 cells, found 0");
  EXPECT_EQ(ErrorOf(std::string(kWikipediaPuzzle) + "."), "expected 81 cells, found 82");
  // The length is checked before the characters.
  EXPECT_EQ(ErrorOf(std::string(200, 'x')), "expected 81 cells, found 200");
}

TEST(ParsePuzzle, RejectsBadCharacters) {
  Grid grid;
  const PuzzleError error = ParsePuzzle(With(kWikipediaPuzzle, 40, 'x'), &grid);
  EXPECT_EQ(error.kind, PuzzleError::Kind::kCharacter);
  EXPECT_EQ(error.position, 40u);
  EXPECT_EQ(error.character, 'x');
  EXPECT_EQ(Describe(error), "bad character 'x' (expected 1-9, or . 0 _ - * for a blank)");
  EXPECT_EQ(ErrorOf(With(kWikipediaPuzzle, 3, ' ')),
            "bad character ' ' (expected 1-9, or . 0 _ - * for a blank)");
  EXPECT_EQ(ErrorOf(With(kWikipediaPuzzle, 3, '#')),
            "bad character '#' (expected 1-9, or . 0 _ - * for a blank)");
}

TEST(ParsePuzzle, ShowsUnprintableCharactersAsEscapes) {
  EXPECT_EQ(ErrorOf(With(kWikipediaPuzzle, 3, '\x07')),
            "bad character '\\x07' (expected 1-9, or . 0 _ - * for a blank)");
  EXPECT_EQ(ErrorOf(With(kWikipediaPuzzle, 3, '\0')),
            "bad character '\\x00' (expected 1-9, or . 0 _ - * for a blank)");
  EXPECT_EQ(ErrorOf(With(kWikipediaPuzzle, 3, '\x7f')),
            "bad character '\\x7f' (expected 1-9, or . 0 _ - * for a blank)");
  EXPECT_EQ(ErrorOf(With(kWikipediaPuzzle, 3, '\xc3')),
            "bad character '\\xc3' (expected 1-9, or . 0 _ - * for a blank)");
  EXPECT_EQ(ErrorOf(With(kWikipediaPuzzle, 3, '\'')),
            "bad character '\\'' (expected 1-9, or . 0 _ - * for a blank)");
  EXPECT_EQ(ErrorOf(With(kWikipediaPuzzle, 3, '\\')),
            "bad character '\\\\' (expected 1-9, or . 0 _ - * for a blank)");
}

TEST(ParsePuzzle, RejectsADigitRepeatedInARow) {
  Grid grid;
  // Row 3 holds 9 at r3c2 (cell 19); put another at r3c7 (cell 24).
  const PuzzleError error = ParsePuzzle(With(kWikipediaPuzzle, 24, '9'), &grid);
  EXPECT_EQ(error.kind, PuzzleError::Kind::kRowRepeat);
  EXPECT_EQ(error.first, 19u);
  EXPECT_EQ(error.position, 24u);
  EXPECT_EQ(error.character, '9');
  EXPECT_EQ(Describe(error), "digit 9 repeated in row 3 (r3c2 and r3c7)");
}

TEST(ParsePuzzle, RejectsADigitRepeatedInAColumn) {
  Grid grid;
  // Column 4 holds 1 at r2c4 (cell 12); put another at r9c4 (cell 75).
  const PuzzleError error = ParsePuzzle(With(kWikipediaPuzzle, 75, '1'), &grid);
  EXPECT_EQ(error.kind, PuzzleError::Kind::kColumnRepeat);
  EXPECT_EQ(error.first, 12u);
  EXPECT_EQ(error.position, 75u);
  EXPECT_EQ(Describe(error), "digit 1 repeated in column 4 (r2c4 and r9c4)");
}

TEST(ParsePuzzle, RejectsADigitRepeatedInABox) {
  Grid grid;
  // Box 2 (rows 1-3, columns 4-6) holds 7 at r1c5 (cell 4); put another at r3c6 (cell 23).
  const PuzzleError error = ParsePuzzle(With(kWikipediaPuzzle, 23, '7'), &grid);
  EXPECT_EQ(error.kind, PuzzleError::Kind::kBoxRepeat);
  EXPECT_EQ(error.first, 4u);
  EXPECT_EQ(error.position, 23u);
  EXPECT_EQ(Describe(error), "digit 7 repeated in box 2 (r1c5 and r3c6)");
  // Box 9 is the last one, numbered row-major.
  EXPECT_EQ(ErrorOf(With(kWikipediaPuzzle, 60, '7')), "digit 7 repeated in box 9 (r7c7 and r9c8)");
}

TEST(ParsePuzzle, ReportsTheFirstErrorInTextOrder) {
  // A repeat at cell 24 comes before a bad character at cell 70.
  EXPECT_EQ(ErrorOf(With(With(kWikipediaPuzzle, 24, '9'), 70, 'x')),
            "digit 9 repeated in row 3 (r3c2 and r3c7)");
  // A bad character at cell 10 comes before the repeat at cell 24.
  EXPECT_EQ(ErrorOf(With(With(kWikipediaPuzzle, 24, '9'), 10, 'x')),
            "bad character 'x' (expected 1-9, or . 0 _ - * for a blank)");
  // A 5 at r1c1; another 5 in the same row and box: the row is named first...
  const std::string five = With(std::string(81, '.'), 0, '5');
  EXPECT_EQ(ErrorOf(With(five, 2, '5')), "digit 5 repeated in row 1 (r1c1 and r1c3)");
  // ...in the same column and box: the column...
  EXPECT_EQ(ErrorOf(With(five, 18, '5')), "digit 5 repeated in column 1 (r1c1 and r3c1)");
  // ...and the box alone.
  EXPECT_EQ(ErrorOf(With(five, 10, '5')), "digit 5 repeated in box 1 (r1c1 and r2c2)");
}

TEST(ParsePuzzle, ReportsTheRepeatAtTheFirstCellInTextOrder) {
  // 5 at r1c1, r4c1 and r4c2. Cell 27 (r4c1) is the first to repeat an earlier cell, and only
  // r1c1 precedes it: the column is reported, although r4c1 also shares row 4 with r4c2.
  std::string text(81, '.');
  text[0] = '5';
  text[28] = '5';
  EXPECT_EQ(ErrorOf(text), "ok");
  text[27] = '5';
  EXPECT_EQ(ErrorOf(text), "digit 5 repeated in column 1 (r1c1 and r4c1)");
}

TEST(Describe, SaysNoErrorForNone) { EXPECT_EQ(Describe(PuzzleError{}), "no error"); }

TEST(Solve, ReportsInvalidTextAsInvalid) {
  const Result r = Solve(With(kWikipediaPuzzle, 24, '9'));
  EXPECT_EQ(r.verdict, Verdict::kInvalid);
  EXPECT_EQ(r.solutions, 0u);
  EXPECT_EQ(r.error.kind, PuzzleError::Kind::kRowRepeat);
  EXPECT_EQ(Describe(r.error), "digit 9 repeated in row 3 (r3c2 and r3c7)");
  EXPECT_EQ(Solve("123").verdict, Verdict::kInvalid);
}

TEST(Solve, SolvesValidText) {
  const Result r = Solve(kWikipediaPuzzle);
  EXPECT_EQ(r.verdict, Verdict::kSolved);
  EXPECT_FALSE(r.error);
  EXPECT_EQ(testing::SolutionText(r),
            kWikipediaSolution);
}

TEST(Solve, TreatsALimitOfZeroAsOne) {
  const Result r = Solve(std::string(81, '.'), Limits{0});
  EXPECT_EQ(r.verdict, Verdict::kSolved);
  EXPECT_EQ(r.solutions, 1u);
}

TEST(SolveGrid, ReportsClashingGivensAsParsePuzzleDoes) {
  Grid grid{};
  grid[0] = 5;
  grid[1] = 5;
  const Result r = SolveGrid(grid, Limits{2});
  EXPECT_EQ(r.verdict, Verdict::kInvalid);
  EXPECT_EQ(Describe(r.error), "digit 5 repeated in row 1 (r1c1 and r1c2)");
  EXPECT_EQ(r.error.position, 1u);
  EXPECT_EQ(r.error.first, 0u);
}

// A value above 9 is no digit: such a cell takes none, and the grid has no solution.
TEST(SolveGrid, CallsACellAbove9Unsolvable) {
  Grid grid{};
  grid[3] = 12;
  const Result r = SolveGrid(grid);
  EXPECT_EQ(r.verdict, Verdict::kUnsolvable);
  EXPECT_FALSE(r.error);
}

}  // namespace
}  // namespace sudoku
