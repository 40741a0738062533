#include "solver/puzzle_reader.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/puzzles.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sudoku {
namespace {

using ::sudoku::testing::kCandidateGrid;
using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::kWikipediaSolution;
using ::sudoku::testing::ReadAll;

// "line 7: expected 81 cells, found 80", as the client prints a layout error.
std::string ErrorText(const PuzzleRecord& record) {
  if (!record.error) return "no error";
  return Locate(record.error) + ": " + Describe(record.error);
}

std::string GridText(std::string_view puzzle, const std::string& row_prefix = "") {
  std::string out;
  for (int r = 0; r < 9; ++r) out += row_prefix + std::string(puzzle.substr(r * 9, 9)) + "\n";
  return out;
}

TEST(PuzzleReader, ReadsOnePuzzlePerLine) {
  const auto records = ReadAll(std::string(kWikipediaPuzzle) + "\n" + std::string(81, '.') + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].error);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  EXPECT_EQ(records[0].layout, PuzzleRecord::Layout::kLine);
  EXPECT_EQ(records[0].first_line, 1u);
  EXPECT_EQ(records[1].text(), std::string(81, '.'));
  EXPECT_EQ(records[1].first_line, 2u);
}

// A line of 81 digits and blanks comes packed as well, the very bytes PackPuzzle() writes,
// whether it ends with '\n' or "\r\n"; any other record is not packed (its cells unchecked).
// Either way, records and line numbers are as the general path makes them.
TEST(PuzzleReader, PacksALineOfDigitsAndBlanksAsItReadsIt) {
  std::string blanks(81, '0');
  blanks[80] = '_';
  blanks[3] = '-';
  const std::string text = std::string(kWikipediaPuzzle) + "\n" +  // line 1
                           "# a comment\n\n" +                    // lines 2-3
                           blanks + "\r\n" +                      // line 4
                           std::string(kWikipediaPuzzle) + "  \n" + // line 5: trailing spaces
                           GridText(kWikipediaPuzzle) +             // lines 6-14
                           std::string(80, '.') + "x\n" +          // line 15: a bad character
                           std::string(kWikipediaPuzzle);           // line 16: no '\n'
  const auto records = ReadAll(text);
  ASSERT_EQ(records.size(), 6u);
  const std::vector<uint64_t> lines = {1, 4, 5, 6, 15, 16};
  const std::vector<bool> packed = {true, true, false, false, false, false};
  for (size_t i = 0; i < records.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_FALSE(records[i].error);
    EXPECT_EQ(records[i].first_line, lines[i]);
    EXPECT_EQ(records[i].packed_cells, packed[i]);
    if (!records[i].packed_cells) continue;
    PackedGrid expected;
    ASSERT_TRUE(PackPuzzle(records[i].text(), expected));
    EXPECT_EQ(records[i].packed, expected);
  }
  EXPECT_EQ(records[1].text(), blanks);
  EXPECT_EQ(records[2].text(), kWikipediaPuzzle);
  EXPECT_EQ(records[4].text(), std::string(80, '.') + "x");
}

// Given a place to pack into, the reader packs the common line there and, unless asked for
// them, leaves its cells out of the record; any other record is read whole and not packed.
TEST(PuzzleReader, PacksWhereItIsToldAndLeavesTheCellsOutWhenAsked) {
  std::istringstream in(std::string(kWikipediaPuzzle) + "\n" + kWikipediaPuzzle + "  \n" +
                        kWikipediaPuzzle + "\n");
  PuzzleReader reader(&in);
  PuzzleRecord record;
  PackedGrid expected;
  ASSERT_TRUE(PackPuzzle(kWikipediaPuzzle, expected));

  PackedGrid packed{};
  ASSERT_TRUE(reader.Next(&record, packed, /*copy_cells=*/false));
  EXPECT_TRUE(record.packed_cells);
  EXPECT_TRUE(record.cells_left_out);
  EXPECT_EQ(record.text(), "");
  EXPECT_EQ(record.first_line, 1u);
  EXPECT_EQ(packed, expected);
  EXPECT_EQ(record.packed, PackedGrid{});  // the record's own is not written

  packed = {};
  ASSERT_TRUE(reader.Next(&record, packed, /*copy_cells=*/false));  // trailing spaces
  EXPECT_FALSE(record.packed_cells);
  EXPECT_FALSE(record.cells_left_out);
  EXPECT_EQ(record.text(), kWikipediaPuzzle);
  EXPECT_EQ(packed, PackedGrid{});

  ASSERT_TRUE(reader.Next(&record, packed, /*copy_cells=*/true));
  EXPECT_TRUE(record.packed_cells);
  EXPECT_FALSE(record.cells_left_out);
  EXPECT_EQ(record.text(), kWikipediaPuzzle);
  EXPECT_EQ(packed, expected);
  EXPECT_FALSE(reader.Next(&record, packed, /*copy_cells=*/false));
}

// Lines cut by the end of the reader's buffer (a few hundred kilobytes) are read whole, by the
// general path, between lines taken packed.
TEST(PuzzleReader, ReadsLinesAcrossItsBufferWhole) {
  constexpr int kLines = 10000;  // 820 KB
  std::string text;
  for (int i = 0; i < kLines; ++i) {
    std::string puzzle(kWikipediaPuzzle);
    puzzle[2] = static_cast<char>('1' + i % 9);
    puzzle[3] = static_cast<char>('1' + i / 9 % 9);
    text += puzzle + "\n";
  }
  const auto records = ReadAll(text);
  ASSERT_EQ(records.size(), static_cast<size_t>(kLines));
  int packed = 0;
  for (int i = 0; i < kLines; ++i) {
    ASSERT_FALSE(records[i].error) << i;
    ASSERT_EQ(records[i].first_line, static_cast<uint64_t>(i + 1));
    ASSERT_EQ(records[i].text(), std::string_view(text).substr(i * 82, 81)) << i;
    packed += records[i].packed_cells;
  }
  EXPECT_GT(packed, kLines - 10);
}

TEST(PuzzleReader, SkipsAByteOrderMarkAtTheStart) {
  const auto records = ReadAll("\xEF\xBB\xBF" + std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  const auto grid = ReadAll("\xEF\xBB\xBF" + GridText(kWikipediaPuzzle));
  ASSERT_EQ(grid.size(), 1u);
  EXPECT_FALSE(grid[0].error);
  EXPECT_EQ(grid[0].text(), kWikipediaPuzzle);
}

// Full-width digits: U+FF10 '０' to U+FF19 '９'.
std::string FullWidth(std::string_view ascii) {
  std::string wide;
  for (const char c : ascii) {
    if (c >= '0' && c <= '9') {
      wide += "\xEF\xBC";
      wide.push_back(static_cast<char>(0x90 + (c - '0')));
    } else {
      wide.push_back(c);
    }
  }
  return wide;
}

TEST(PuzzleReader, ReadsFullWidthDigitsAsDigits) {
  const auto records =
      ReadAll(FullWidth(kWikipediaPuzzle) + "\n" + FullWidth(GridText(kWikipediaPuzzle)));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].error);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  EXPECT_FALSE(records[1].error);
  EXPECT_EQ(records[1].text(), kWikipediaPuzzle);
}

// Every CSV row, not just the first, reads full-width digits as digits and counts columns in
// characters, in the puzzle field and in the fields before it.
TEST(PuzzleReader, ReadsFullWidthDigitsOnEveryCsvRow) {
  const auto records = ReadAll("id,puzzle\n" + FullWidth("1,") + FullWidth(kWikipediaPuzzle) +
                               "\n" + FullWidth("22,") + std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 2u);
  for (const auto& record : records) {
    EXPECT_FALSE(record.error) << ErrorText(record);
    EXPECT_EQ(record.text(), kWikipediaPuzzle);
  }
  EXPECT_EQ(LocateCell(records[0], 0), "line 2, column 3");
  EXPECT_EQ(LocateCell(records[1], 80), "line 3, column 84");
}

TEST(PuzzleReader, KeepsCellsAsWritten) {
  // Validation is ParsePuzzle's job: the reader passes any 81 characters on.
  const std::string odd = std::string(80, 'x') + "0";
  const auto records = ReadAll(odd + "\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error);
  EXPECT_EQ(records[0].text(), odd);
}

TEST(PuzzleReader, StripsCarriageReturnAndTrailingBlanks) {
  const auto records =
      ReadAll(std::string(kWikipediaPuzzle) + "\r\n" + std::string(kWikipediaPuzzle) + " \t \r\n" +
              std::string(kWikipediaPuzzle));  // the last line has no newline
  ASSERT_EQ(records.size(), 3u);
  for (const auto& record : records) {
    EXPECT_FALSE(record.error) << ErrorText(record);
    EXPECT_EQ(record.text(), kWikipediaPuzzle);
  }
  EXPECT_EQ(records[2].first_line, 3u);
}

TEST(PuzzleReader, SkipsBlankAndCommentLinesButCountsThem) {
  const auto records = ReadAll("# a comment\n\n   \n\t\r\n#" + std::string(80, 'x') + "\n" +
                               std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].first_line, 6u);
  EXPECT_EQ(LocateRecord(records[0]), "line 6");
}

TEST(PuzzleReader, EmptyInputHasNoRecords) {
  EXPECT_TRUE(ReadAll("").empty());
  EXPECT_TRUE(ReadAll("\n\n# only comments\n").empty());
}

TEST(PuzzleReader, LineCellsComeFromTheirColumns) {
  const auto records = ReadAll("\n\n" + std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(LocateCell(records[0], 0), "line 3, column 1");
  EXPECT_EQ(LocateCell(records[0], 80), "line 3, column 81");
}

TEST(PuzzleReader, ReadsPlainNineLineGrid) {
  const auto records = ReadAll(GridText(kWikipediaPuzzle));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].layout, PuzzleRecord::Layout::kGrid);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  EXPECT_EQ(records[0].first_line, 1u);
  EXPECT_EQ(LocateCell(records[0], 80), "line 9, column 9");
}

TEST(PuzzleReader, ReadsBoxedGridWithRulers) {
  const std::string grid =
      "+-------+-------+-------+\n"
      "| 5 3 . | . 7 . | . . . |\n"
      "| 6 . . | 1 9 5 | . . . |\n"
      "| . 9 8 | . . . | . 6 . |\n"
      "+-------+-------+-------+\n"
      "| 8 . . | . 6 . | . . 3 |\n"
      "| 4 . . | 8 . 3 | . . 1 |\n"
      "| 7 . . | . 2 . | . . 6 |\n"
      "+=======+=======+=======+\n"
      "| . 6 . | . . . | 2 8 . |\n"
      "| . . . | 4 1 9 | . . 5 |\n"
      "| . . . | . 8 . | . 7 9 |\n"
      "+-------+-------+-------+\n";
  const auto records = ReadAll(grid + std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  EXPECT_EQ(records[0].first_line, 2u);
  EXPECT_EQ(LocateCell(records[0], 0), "line 2, column 3");
  EXPECT_EQ(LocateCell(records[0], 4), "line 2, column 13");  // the 7
  EXPECT_EQ(LocateCell(records[0], 80), "line 12, column 23");
  EXPECT_EQ(records[1].first_line, 14u);
}

TEST(PuzzleReader, ReadsDashRulersAndOtherBlanks) {
  const std::string grid =
      "5 3 0 |0 7 0 |0 0 0\n"
      "6 0 0 |1 9 5 |0 0 0\n"
      "0 9 8 |0 0 0 |0 6 0\n"
      "------+-------+------\n"
      "8 _ _ |_ 6 _ |_ _ 3\n"
      "4 _ _ |8 _ 3 |_ _ 1\n"
      "7 _ _ |_ 2 _ |_ _ 6\n"
      "---+---+---\n"
      "- 6 - | - - - | 2 8 -\n"
      "- - - - - - - - -\n"  // nine '-' blanks: a row, not a ruler
      "_ _ _ _ 8 _ _ 7 9\n";
  const auto records = ReadAll(grid);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(),
            "530070000600195000098000060"
            "8___6___34__8_3__17___2___6"
            "-6----28----------____8__79");
}

TEST(PuzzleReader, RowOfNineDashesIsARow) {
  std::string grid;
  for (int r = 0; r < 9; ++r) grid += "---------\n";
  const auto records = ReadAll(grid);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), std::string(81, '-'));
}

TEST(PuzzleReader, ReadsUnderscoreRowsAndTabs) {
  const auto records = ReadAll(GridText(kWikipediaPuzzle, "\t") + "1 _ 3 _ _ 6 _ 8 _\n" +
                               std::string(8, '\n'));  // a grid cut short, then blank lines
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  EXPECT_EQ(LocateCell(records[0], 10), "line 2, column 3");
  EXPECT_EQ(ErrorText(records[1]), "line 10: grid ends after 1 row (expected 9)");
}

TEST(PuzzleReader, GridsFollowEachOtherWithoutBlankLines) {
  const auto records = ReadAll(GridText(kWikipediaPuzzle) + GridText(kWikipediaPuzzle) +
                               std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].first_line, 1u);
  EXPECT_EQ(records[1].first_line, 10u);
  EXPECT_EQ(records[1].layout, PuzzleRecord::Layout::kGrid);
  EXPECT_EQ(records[2].first_line, 19u);
  EXPECT_EQ(records[2].layout, PuzzleRecord::Layout::kLine);
  for (const auto& record : records) EXPECT_EQ(record.text(), kWikipediaPuzzle);
}

TEST(PuzzleReader, ShortLineIsALengthError) {
  const auto records = ReadAll("# header\n" + std::string(kWikipediaPuzzle.substr(0, 80)) + "\n" +
                               std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ErrorText(records[0]), "line 2: expected 81 cells, found 80");
  EXPECT_EQ(records[0].first_line, 2u);
  EXPECT_FALSE(records[1].error);
}

TEST(PuzzleReader, LongLineIsALengthError) {
  const auto records = ReadAll(std::string(kWikipediaPuzzle) + "5\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(ErrorText(records[0]), "line 1: expected 81 cells, found 82");
}

TEST(PuzzleReader, LineWithSeparatorsOutsideAGridIsARowError) {
  const auto records = ReadAll("1 2 3 4 5 6 7 8\n5 3 . | . 7 . | . . . | 1\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ErrorText(records[0]), "line 1: expected 9 cells in a grid row, found 8");
  EXPECT_EQ(ErrorText(records[1]), "line 2: expected 9 cells in a grid row, found 10");
}

TEST(PuzzleReader, BadRowSpoilsOnlyItsGrid) {
  std::string grid = GridText(kWikipediaPuzzle);
  grid.replace(grid.find("8...6...3"), 9, "8...6...");  // row 4: eight cells
  const auto records = ReadAll(grid + std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ErrorText(records[0]), "line 4: expected 9 cells in a grid row, found 8");
  EXPECT_EQ(records[0].first_line, 1u);
  EXPECT_FALSE(records[1].error);
  EXPECT_EQ(records[1].first_line, 10u);
}

TEST(PuzzleReader, PuzzleLineInsideAGridIsARowError) {
  const auto records = ReadAll("53..7....\n" + std::string(kWikipediaPuzzle) + "\n" +
                               GridText(kWikipediaPuzzle).substr(20));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(ErrorText(records[0]), "line 2: expected 9 cells in a grid row, found 81");
}

TEST(PuzzleReader, FirstErrorOfAGridWins) {
  const auto records =
      ReadAll("53..7....\n1 2\n1 2 3 4\n\n" + std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ErrorText(records[0]), "line 2: expected 9 cells in a grid row, found 2");
  EXPECT_FALSE(records[1].error);
}

TEST(PuzzleReader, BlankLineEndsAGridEarly) {
  const std::string grid = GridText(kWikipediaPuzzle);
  const std::string four_rows = grid.substr(0, 40);
  const auto records =
      ReadAll("# grids\n" + four_rows + "\n" + std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ErrorText(records[0]), "line 5: grid ends after 4 rows (expected 9)");
  EXPECT_EQ(records[0].first_line, 2u);
  EXPECT_FALSE(records[1].error);
  EXPECT_EQ(records[1].first_line, 7u);
}

TEST(PuzzleReader, CommentEndsAGridEarly) {
  const auto records = ReadAll("53..7....\n+---+---+---+\n6..195...\n# comment\n" +
                               std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ErrorText(records[0]), "line 3: grid ends after 2 rows (expected 9)");
  EXPECT_FALSE(records[1].error);
}

TEST(PuzzleReader, EndOfInputEndsAGridEarly) {
  const auto records = ReadAll(GridText(kWikipediaPuzzle).substr(0, 80) + "+---+\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(ErrorText(records[0]), "line 8: grid ends after 8 rows (expected 9)");
}

TEST(PuzzleReader, RulersOutsideGridsAreSkipped) {
  const auto records =
      ReadAll("+-------+\n=====\n--\n| - + - |\n" + std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error);
  EXPECT_EQ(records[0].first_line, 5u);
}

// HoDoKu's grid as its "Copy givens" writes it: '.', ':' and '\'' at the rulers' corners.
TEST(PuzzleReader, ReadsHodokuGrid) {
  const std::string grid =
      ".-------.-------.-------.\n"
      "| 5 3 . | . 7 . | . . . |\n"
      "| 6 . . | 1 9 5 | . . . |\n"
      "| . 9 8 | . . . | . 6 . |\n"
      ":-------+-------+-------:\n"
      "| 8 . . | . 6 . | . . 3 |\n"
      "| 4 . . | 8 . 3 | . . 1 |\n"
      "| 7 . . | . 2 . | . . 6 |\n"
      ":-------+-------+-------:\n"
      "| . 6 . | . . . | 2 8 . |\n"
      "| . . . | 4 1 9 | . . 5 |\n"
      "| . . . | . 8 . | . 7 9 |\n"
      "'-------'-------'-------'\n";
  const auto records = ReadAll(grid + std::string(kWikipediaPuzzle) + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  EXPECT_EQ(records[0].first_line, 2u);
  EXPECT_EQ(LocateCell(records[0], 4), "line 2, column 13");
  EXPECT_EQ(LocateCell(records[0], 80), "line 12, column 23");
  EXPECT_FALSE(records[1].error);
  EXPECT_EQ(records[1].first_line, 14u);
}

// SimpleSudoku's: '*' corners, rows without spaces.
TEST(PuzzleReader, ReadsStarCorneredGrid) {
  std::string grid = " *-----------*\n";
  for (int r = 0; r < 9; ++r) {
    const std::string row(kWikipediaPuzzle.substr(r * 9, 9));
    grid += " |" + row.substr(0, 3) + "|" + row.substr(3, 3) + "|" + row.substr(6, 3) + "|\n";
    if (r == 2 || r == 5) grid += " |---+---+---|\n";
  }
  grid += " *-----------*\n";
  const auto records = ReadAll(grid);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
}

// A '.' is a blank: a line of dots (or dots and single dashes) is a row, never a ruler.
TEST(PuzzleReader, DotsWithoutDoubleDashAreCells) {
  EXPECT_EQ(ErrorText(ReadAll("........\n")[0]), "line 1: expected 81 cells, found 8");
  EXPECT_EQ(ErrorText(ReadAll(". - . -\n")[0]), "line 1: expected 9 cells in a grid row, found 4");
  std::string grid;
  for (int r = 0; r < 9; ++r) grid += ".........\n";
  const auto records = ReadAll(grid);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), std::string(81, '.'));
}

// `puzzle` on one line with `separator` after every `group` cells but the last.
std::string Spaced(std::string_view puzzle, size_t group, char separator) {
  std::string out;
  for (size_t i = 0; i < puzzle.size(); i += group) {
    if (i > 0) out += separator;
    out.append(puzzle.substr(i, group));
  }
  return out;
}

TEST(PuzzleReader, ReadsAnEightyOneCellLineWithBlanksBetween) {
  const std::string groups = Spaced(kWikipediaPuzzle, 9, ' ');
  const std::string cells = Spaced(kWikipediaPuzzle, 1, '\t');
  const auto records = ReadAll(groups + "\n" + cells + "  \n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  EXPECT_EQ(records[0].first_line, 1u);
  EXPECT_EQ(LocateCell(records[0], 0), "line 1, column 1");
  EXPECT_EQ(LocateCell(records[0], 9), "line 1, column 11");  // after the first space
  EXPECT_EQ(LocateCell(records[0], 80), "line 1, column 89");
  EXPECT_FALSE(records[1].error) << ErrorText(records[1]);
  EXPECT_EQ(records[1].text(), kWikipediaPuzzle);
  EXPECT_EQ(LocateCell(records[1], 80), "line 2, column 161");
  // The solver's errors point into the spaced line.
  std::string bad = groups;
  bad[12] = 'x';  // cell 11 (r2c3), after one space
  const auto spoiled = ReadAll(bad + "\n");
  ASSERT_EQ(spoiled.size(), 1u);
  Grid grid{};
  const PuzzleError error = ParsePuzzle(spoiled[0].text(), &grid);
  ASSERT_TRUE(error);
  EXPECT_EQ(Locate(spoiled[0], error), "line 1, column 13");
}

// Too many cells for a row: the count is a puzzle's.
TEST(PuzzleReader, SpacedLineOfAnotherCountIsALengthError) {
  const std::string groups = Spaced(kWikipediaPuzzle, 9, ' ');
  EXPECT_EQ(ErrorText(ReadAll(groups + " 1\n")[0]),
            "line 1: expected 81 cells, found 82");
  EXPECT_EQ(ErrorText(ReadAll(groups.substr(0, groups.size() - 1) + "\n")[0]),
            "line 1: expected 81 cells, found 80");
}

// '*' is a blank as well: a line of stars is a row, and a star-cornered line a ruler only with
// "--" in it.
TEST(PuzzleReader, ReadsStarBlanks) {
  std::string stars(kWikipediaPuzzle);
  std::replace(stars.begin(), stars.end(), '.', '*');
  std::string grid = " *-----------*\n";
  for (int r = 0; r < 9; ++r) {
    const std::string row = stars.substr(r * 9, 9);
    grid += " |" + row.substr(0, 3) + "|" + row.substr(3, 3) + "|" + row.substr(6, 3) + "|\n";
    if (r == 2 || r == 5) grid += " |---+---+---|\n";
  }
  grid += " *-----------*\n";
  std::string blank_rows;
  for (int r = 0; r < 9; ++r) blank_rows += "*********\n";
  const auto records = ReadAll(stars + "\n" + grid + blank_rows + "*-*-*-*-*\n\n**\n");
  ASSERT_EQ(records.size(), 5u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), stars);
  EXPECT_TRUE(records[0].packed_cells);  // the common line: '*' packs as a blank
  PackedGrid expected;
  ASSERT_TRUE(PackPuzzle(kWikipediaPuzzle, expected));
  EXPECT_EQ(records[0].packed, expected);
  EXPECT_FALSE(records[1].error) << ErrorText(records[1]);
  EXPECT_EQ(records[1].text(), stars);
  EXPECT_EQ(records[1].first_line, 3u);
  EXPECT_EQ(LocateCell(records[1], 2), "line 3, column 5");
  EXPECT_FALSE(records[2].error) << ErrorText(records[2]);
  EXPECT_EQ(records[2].text(), std::string(81, '*'));
  EXPECT_EQ(records[2].first_line, 15u);
  // Without "--", stars and dashes are cells: a row (whose grid ends), and a short puzzle.
  EXPECT_EQ(ErrorText(records[3]), "line 24: grid ends after 1 row (expected 9)");
  EXPECT_EQ(ErrorText(records[4]), "line 26: expected 81 cells, found 2");
}


// Its cells, row by row.
const std::vector<std::string> kCandidates = {
    "5",   "3",    "124",    "26",   "7",  "2468", "1489",  "1249", "248",
    "6",   "247",  "247",    "1",    "9",  "5",    "3478",  "234",  "2478",
    "12",  "9",    "8",      "23",   "34", "24",   "13457", "6",    "247",
    "8",   "125",  "1259",   "579",  "6",  "147",  "4579",  "2459", "3",
    "4",   "25",   "2569",   "8",    "5",  "3",    "579",   "259",  "1",
    "7",   "15",   "1359",   "59",   "2",  "14",   "4589",  "459",  "6",
    "139", "6",    "134579", "357",  "35", "7",    "2",     "8",    "4",
    "23",  "278",  "237",    "4",    "1",  "9",    "36",    "3",    "5",
    "123", "1245", "12345",  "2356", "8",  "26",   "1346",  "7",    "9",
};

// The 729-character pencilmark text of `cells` (kCandidateChars: digit k+1 or '.' per cell).
std::string CandidateText(const std::vector<std::string>& cells) {
  std::string out;
  for (const std::string& cell : cells) {
    for (char d = '1'; d <= '9'; ++d) out += cell.find(d) != std::string::npos ? d : '.';
  }
  return out;
}

// `cells` laid out as HoDoKu lays out a candidate grid: each column as wide as its widest cell.
std::string HodokuGrid(const std::vector<std::string>& cells) {
  size_t widths[9] = {};
  for (size_t i = 0; i < 81; ++i) widths[i % 9] = std::max(widths[i % 9], cells[i].size());
  auto ruler = [&](char corner, char joint) {
    std::string line(1, corner);
    for (int box = 0; box < 3; ++box) {
      line += std::string(widths[3 * box] + widths[3 * box + 1] + widths[3 * box + 2] + 4, '-');
      line += box == 2 ? corner : joint;
    }
    return line + "\n";
  };
  std::string out = ruler('.', '.');
  for (size_t row = 0; row < 9; ++row) {
    out += "|";
    for (size_t column = 0; column < 9; ++column) {
      const std::string& cell = cells[9 * row + column];
      out += " " + cell + std::string(widths[column] - cell.size(), ' ');
      if (column % 3 == 2) out += " |";
    }
    out += "\n";
    if (row == 2 || row == 5) out += ruler(':', '+');
  }
  return out + ruler('\'', '\'');
}

TEST(PuzzleReader, ReadsHodokuCandidateGrid) {
  ASSERT_EQ(HodokuGrid(kCandidates), kCandidateGrid);
  const auto records = ReadAll(std::string(kCandidateGrid) + kWikipediaPuzzle + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].layout, PuzzleRecord::Layout::kGrid);
  EXPECT_EQ(records[0].size, kCandidateChars);
  EXPECT_EQ(records[0].text(), CandidateText(kCandidates));
  EXPECT_EQ(records[0].first_line, 2u);
  // An allowed candidate comes from its digit, an excluded one from its cell's first digit.
  EXPECT_EQ(LocateCell(records[0], 4), "line 2, column 3");                // r1c1's 5
  EXPECT_EQ(LocateCell(records[0], 0), "line 2, column 3");                // r1c1's 1
  EXPECT_EQ(LocateCell(records[0], 2 * 9 + 3), "line 2, column 14");       // r1c3's 4
  EXPECT_EQ(LocateCell(records[0], 2 * 9 + 2), "line 2, column 12");       // r1c3's 3
  EXPECT_EQ(LocateCell(records[0], 40 * 9 + 4), "line 7, column 26");      // r5c5's 5
  EXPECT_EQ(LocateCell(records[0], 80 * 9 + 8), "line 12, column 47");     // r9c9's 9
  EXPECT_FALSE(records[1].error) << ErrorText(records[1]);
  EXPECT_EQ(records[1].first_line, 14u);
  CandidateGrid candidates;
  EXPECT_FALSE(ParseCandidates(records[0].text(), &candidates));
}

// SimpleSudoku's layout: '*' corners, every column as wide, '+' in the rulers between bands.
TEST(PuzzleReader, ReadsStarCorneredCandidateGrid) {
  const std::string ruler = " *" + std::string(77, '-') + "*\n";
  const std::string band = " |" + std::string(25, '-') + "+" + std::string(25, '-') + "+" +
                           std::string(25, '-') + "|\n";
  std::string grid = ruler;
  for (size_t row = 0; row < 9; ++row) {
    grid += " |";
    for (size_t column = 0; column < 9; ++column) {
      const std::string& cell = kCandidates[9 * row + column];
      grid += " " + cell + std::string(7 - cell.size(), ' ');
      if (column % 3 == 2) grid += " |";
    }
    grid += "\n";
    if (row == 2 || row == 5) grid += band;
  }
  grid += ruler;
  const auto records = ReadAll(grid);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), CandidateText(kCandidates));
  EXPECT_EQ(LocateCell(records[0], 9 * 9 + 5), "line 3, column 4");  // r2c1's 6
}

// A grid is a candidate grid when any of its rows is a candidate row: rows of single digits
// before it ("| 5 3 4 | 6 7 8 | 9 1 2 |") are its rows all the same, as are rows of 81
// ascending digits (every candidate open).
TEST(PuzzleReader, CandidateGridMayStartWithRowsOfSingleDigits) {
  std::vector<std::string> cells = kCandidates;
  for (size_t i = 0; i < 9; ++i) cells[i] = std::string(1, kWikipediaSolution[i]);
  for (size_t i = 9; i < 18; ++i) cells[i] = "123456789";
  const auto records = ReadAll(HodokuGrid(cells));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), CandidateText(cells));
  EXPECT_EQ(LocateCell(records[0], 9 * 9 + 8), "line 3, column 11");  // r2c1's 9
  // The same rows of single digits alone make a plain grid.
  std::string plain;
  for (int r = 0; r < 9; ++r) {
    plain += "| " + Spaced(kWikipediaSolution.substr(r * 9, 3), 1, ' ') + " | " +
             Spaced(kWikipediaSolution.substr(r * 9 + 3, 3), 1, ' ') + " | " +
             Spaced(kWikipediaSolution.substr(r * 9 + 6, 3), 1, ' ') + " |\n";
  }
  const auto solution = ReadAll(plain);
  ASSERT_EQ(solution.size(), 1u);
  EXPECT_EQ(solution[0].size, kCells);
  EXPECT_EQ(solution[0].text(), kWikipediaSolution);
}

// Nine digits in a row however grouped make a plain row, and 81 in groups that do not ascend a
// puzzle on one line: neither is a candidate row.
TEST(PuzzleReader, GroupsOfDigitsThatAreNoCandidates) {
  std::string boxes;
  for (int r = 0; r < 9; ++r) boxes += Spaced(kWikipediaSolution.substr(r * 9, 9), 3, ' ') + "\n";
  const auto records = ReadAll(boxes + Spaced(kWikipediaSolution, 9, ' ') + "\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), kWikipediaSolution);
  EXPECT_FALSE(records[1].error) << ErrorText(records[1]);
  EXPECT_EQ(records[1].text(), kWikipediaSolution);
  EXPECT_EQ(records[1].first_line, 10u);
}

// HoDoKu draws a grid as wide as its cells need: at 81 characters its rulers and rows are no
// one-line puzzles, not even the top ruler of dots and dashes.
TEST(PuzzleReader, CandidateGridEightyOneCharactersWide) {
  std::vector<std::string> cells(81, "23456789");
  for (size_t row = 0; row < 9; ++row) {
    cells[9 * row + 8] = std::string(1, static_cast<char>('1' + row));
  }
  const std::string grid = HodokuGrid(cells);
  ASSERT_EQ(grid.find('\n'), kCells);
  ASSERT_EQ(grid.find('\n', kCells + 1), 2 * kCells + 1);
  const auto records = ReadAll(grid + grid);
  ASSERT_EQ(records.size(), 2u);
  for (const auto& record : records) {
    EXPECT_FALSE(record.error) << ErrorText(record);
    EXPECT_EQ(record.text(), CandidateText(cells));
  }
  EXPECT_EQ(records[1].first_line, 15u);
}

// Every mistake spoils its grid alone, named where it is.
TEST(PuzzleReader, CandidateGridErrors) {
  auto with = [](const std::string& from, const std::string& to) {
    std::string grid = kCandidateGrid;
    grid.replace(grid.find(from), from.size(), to);
    return grid + kWikipediaPuzzle + "\n";
  };
  // Row 8 left out and a blank line for the bottom ruler: the puzzle after is no row.
  std::string short_grid = with("| 23  278  237    | 4    1  9    | 36    3    5    |\n", "");
  short_grid.replace(short_grid.find("'-"), 53, "\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {with("| 6   247  247 ", "| 6   247  2477"),
       "line 3, column 15: digit 7 repeated in the candidates of r2c3"},
      {with("| 8   125  1259 ", "| 8   125  1209 "),
       "line 6, column 14: bad character '0' in the candidates of r4c3 (expected 1-9)"},
      {with("| 5   3    124  ", "| 5   3    124x "),
       "line 2, column 15: bad character 'x' in the candidates of r1c3 (expected 1-9)"},
      {with("| 1    9  5    |", "| 1    9       |"),
       "line 3: expected 9 cells in a candidate grid row, found 8"},
      {with("| 4   25   2569   | 8", "| 4   25   2569 5 | 8"),
       "line 7: expected 9 cells in a candidate grid row, found 10"},
      {with("| 7   15   1359   | 59   2  14   | 4589  459  6    |", "7..2...6."),
       "line 8: expected 9 cells in a candidate grid row, found 1"},
      {short_grid, "line 11: grid ends after 8 rows (expected 9)"},
  };
  for (const auto& [text, error] : cases) {
    SCOPED_TRACE(error);
    const auto records = ReadAll(text);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(ErrorText(records[0]), error);
    EXPECT_EQ(records[0].first_line, 2u);
    EXPECT_FALSE(records[1].error) << ErrorText(records[1]);
    EXPECT_EQ(records[1].text(), kWikipediaPuzzle);
  }
}

TEST(PuzzleReader, DropsATrailingComment) {
  const std::string puzzle(kWikipediaPuzzle);
  const auto records = ReadAll(puzzle + " # from Wikipedia\n" + puzzle + "\t#x\n" +
                               "53..7.... # a row\n6..195...\n.98....6.\n8...6...3\n"
                               "4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79  #\n");
  ASSERT_EQ(records.size(), 3u);
  for (const auto& record : records) {
    EXPECT_FALSE(record.error) << ErrorText(record);
    EXPECT_EQ(record.text(), kWikipediaPuzzle);
  }
  // A '#' with no blank before it is no comment: it is the bad character.
  const auto glued = ReadAll(puzzle + "#x\n");
  ASSERT_EQ(glued.size(), 1u);
  EXPECT_EQ(ErrorText(glued[0]),
            "line 1, column 82: bad character '#' (expected 1-9, or . 0 _ - * for a blank)");
}

TEST(PuzzleReader, NineCellRulerWithPlusIsARuler) {
  // "+-------+" has nine cells, but a '+' or '=' makes it a ruler.
  const auto records = ReadAll("+-------+\n" + GridText(kWikipediaPuzzle, "|") + "+=======+\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
}

TEST(PuzzleReader, TypoWithPlusInARowIsKeptForParsePuzzle) {
  // A row with a digit in it is never a ruler, so ParsePuzzle gets to report the '+'.
  std::string grid = GridText(kWikipediaPuzzle);
  grid[12] = '+';  // row 2, column 3
  const auto records = ReadAll(grid);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_EQ(records[0].cells[11], '+');
  EXPECT_EQ(LocateCell(records[0], 11), "line 2, column 3");
}

TEST(PuzzleReader, RulerLikeLineWithOtherCharactersIsAnError) {
  // Only '-', '+', '=', '|' and blanks make a ruler; anything else must not vanish silently.
  const auto records = ReadAll("5.3+..7\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(ErrorText(records[0]), "line 1: expected 81 cells, found 7");
}

// A line that is neither a puzzle nor a row and holds a character no puzzle or grid has: the
// character is named, where it is, in the solver's words, not the count of cells.
TEST(PuzzleReader, ALineWithAForeignCharacterNamesIt) {
  const auto records = ReadAll("x\nhello world\n12 4x\n| 5 3 . | 7 |\n5.3+..7\n");
  ASSERT_EQ(records.size(), 5u);
  auto bad = [](const char* where, char c) {
    return std::string(where) + ": bad character '" + c +
           "' (expected 1-9, or . 0 _ - * for a blank)";
  };
  EXPECT_EQ(ErrorText(records[0]), bad("line 1, column 1", 'x'));
  EXPECT_EQ(ErrorText(records[1]), bad("line 2, column 1", 'h'));
  EXPECT_EQ(ErrorText(records[2]), bad("line 3, column 5", 'x'));
  // Characters that lay out grids are no mistake of their own: the shape is.
  EXPECT_EQ(ErrorText(records[3]), "line 4: expected 9 cells in a grid row, found 4");
  EXPECT_EQ(ErrorText(records[4]), "line 5: expected 81 cells, found 7");
  EXPECT_EQ(records[0].error.kind, LayoutError::Kind::kBadCharacter);
  EXPECT_EQ(records[0].error.column, 1u);
}

// Produces `size` bytes of `fill` followed by `tail`, without holding them: the reader must
// cope with lines longer than any buffer.
class GeneratedBuf : public std::streambuf {
 public:
  GeneratedBuf(size_t size, char fill, std::string tail) : left_(size), tail_(std::move(tail)) {
    chunk_.assign(4096, fill);
  }

 protected:
  int_type underflow() override {
    if (left_ > 0) {
      const size_t n = std::min(left_, chunk_.size());
      left_ -= n;
      setg(chunk_.data(), chunk_.data(), chunk_.data() + n);
      return traits_type::to_int_type(chunk_[0]);
    }
    if (!tail_done_ && !tail_.empty()) {
      tail_done_ = true;
      setg(tail_.data(), tail_.data(), tail_.data() + tail_.size());
      return traits_type::to_int_type(tail_[0]);
    }
    return traits_type::eof();
  }

 private:
  size_t left_;
  std::string chunk_;
  std::string tail_;
  bool tail_done_ = false;
};

TEST(PuzzleReader, OverlongLineIsCountedNotStored) {
  std::string tail = "\n";
  tail.append(kWikipediaPuzzle).append("\n");
  GeneratedBuf buf(10'000'000, '1', tail);
  std::istream in(&buf);
  const auto records = ReadAll(in);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ErrorText(records[0]),
            "line 1: line of 10000000 characters is too long (the limit is 65536)");
  EXPECT_FALSE(records[1].error);
  EXPECT_EQ(records[1].first_line, 2u);
  EXPECT_FALSE(in.bad());
}

TEST(PuzzleReader, OverlongLastLineWithoutNewline) {
  GeneratedBuf buf(PuzzleReader::kMaxLineBytes + 1, ' ', "");
  std::istream in(&buf);
  const auto records = ReadAll(in);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(ErrorText(records[0]),
            "line 1: line of 65537 characters is too long (the limit is 65536)");
}

TEST(PuzzleReader, LineOfTheLimitIsRead) {
  // Trailing blanks are stripped after the length check, so this is the longest line kept.
  const std::string text = std::string(kWikipediaPuzzle);
  const auto records =
      ReadAll(text + std::string(PuzzleReader::kMaxLineBytes - 81, ' ') + "\n" + text);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].error) << ErrorText(records[0]);
  EXPECT_FALSE(records[1].error) << ErrorText(records[1]);
}

TEST(PuzzleReader, OverlongLineInsideAGridSpoilsIt) {
  const std::string grid = GridText(kWikipediaPuzzle);
  const std::string text = grid.substr(0, 20) + std::string(PuzzleReader::kMaxLineBytes + 5, '9') +
                           "\n" + grid.substr(30) + std::string(kWikipediaPuzzle) + "\n";
  const auto records = ReadAll(text);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ErrorText(records[0]),
            "line 3: line of 65541 characters is too long (the limit is 65536)");
  EXPECT_FALSE(records[1].error);
}

TEST(PuzzleReader, ManyLinesAcrossBufferRefills) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::string(kWikipediaPuzzle) + (i % 2 ? "\r\n" : "\n");
  std::istringstream in(text);
  PuzzleReader reader(&in);
  PuzzleRecord record;
  uint64_t count = 0;
  while (reader.Next(&record)) {
    ++count;
    ASSERT_FALSE(record.error) << ErrorText(record);
    ASSERT_EQ(record.text(), kWikipediaPuzzle);
    ASSERT_EQ(record.first_line, count);
  }
  EXPECT_EQ(count, 20000u);
  EXPECT_EQ(reader.lines(), 20000u);
}

// Hands out one byte per underflow and reports nothing ready beyond it, like an unbuffered
// stream or a slow pipe.
class TrickleBuf : public std::streambuf {
 public:
  explicit TrickleBuf(std::string text) : text_(std::move(text)) {}

 protected:
  int_type underflow() override {
    if (pos_ >= text_.size()) return traits_type::eof();
    current_ = text_[pos_++];
    setg(&current_, &current_, &current_ + 1);
    return traits_type::to_int_type(current_);
  }

 private:
  std::string text_;
  size_t pos_ = 0;
  char current_ = 0;
};

// A file is read in blocks straight into the reader's buffer: every line comes through, whatever
// the blocks' edges cut, up to a last line without its newline.
TEST(PuzzleReader, ReadsAFileLargerThanItsBuffer) {
  const std::string path = ::testing::TempDir() + "puzzle_reader_large_file.txt";
  std::string text;
  for (int i = 0; i < 20000; ++i) text.append(kWikipediaPuzzle).append(i % 3 == 0 ? "\r\n" : "\n");
  text.append(kWikipediaPuzzle);
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  std::ifstream in(path, std::ios::binary);
  const auto records = ReadAll(in);
  std::remove(path.c_str());
  ASSERT_EQ(records.size(), 20001u);
  for (size_t i = 0; i < records.size(); ++i) {
    ASSERT_FALSE(records[i].error) << "record " << i;
    ASSERT_EQ(records[i].text(), kWikipediaPuzzle) << "record " << i;
    ASSERT_EQ(records[i].first_line, i + 1);
  }
}

TEST(PuzzleReader, ReadsAByteAtATime) {
  TrickleBuf buf(GridText(kWikipediaPuzzle) + "\n" + std::string(kWikipediaPuzzle) + "\n");
  std::istream in(&buf);
  const auto records = ReadAll(in);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  EXPECT_EQ(records[1].text(), kWikipediaPuzzle);
  EXPECT_EQ(records[1].first_line, 11u);
}

class FailingBuf : public std::streambuf {
 protected:
  int_type underflow() override { throw std::runtime_error("read error"); }
};

TEST(PuzzleReader, ReadErrorSetsBadBit) {
  FailingBuf buf;
  std::istream in(&buf);
  PuzzleReader reader(&in);
  PuzzleRecord record;
  EXPECT_FALSE(reader.Next(&record));
  EXPECT_TRUE(in.bad());
}

TEST(PuzzleReader, DescribesEveryLayoutError) {
  using Kind = LayoutError::Kind;
  EXPECT_EQ(Describe(LayoutError{Kind::kNone, 0, 0}), "no error");
  EXPECT_EQ(Describe(LayoutError{Kind::kLineLength, 7, 80}), "expected 81 cells, found 80");
  EXPECT_EQ(Describe(LayoutError{Kind::kRowLength, 7, 12}),
            "expected 9 cells in a grid row, found 12");
  EXPECT_EQ(Describe(LayoutError{Kind::kGridEnds, 12, 4}), "grid ends after 4 rows (expected 9)");
  EXPECT_EQ(Describe(LayoutError{Kind::kGridEnds, 12, 1}), "grid ends after 1 row (expected 9)");
  EXPECT_EQ(Describe(LayoutError{Kind::kLineTooLong, 3, 70000}),
            "line of 70000 characters is too long (the limit is 65536)");
  EXPECT_EQ(Locate(LayoutError{Kind::kGridEnds, 12, 4}), "line 12");
  EXPECT_EQ(Describe(LayoutError{Kind::kCandidateRowLength, 3, 8}),
            "expected 9 cells in a candidate grid row, found 8");
  EXPECT_EQ(Locate(LayoutError{Kind::kCandidateRowLength, 3, 8}), "line 3");
  const LayoutError bad{Kind::kCandidateCharacter, 6, '0', 0, 14, 29};
  EXPECT_EQ(Describe(bad), "bad character '0' in the candidates of r4c3 (expected 1-9)");
  EXPECT_EQ(Locate(bad), "line 6, column 14");
  EXPECT_EQ(Describe(LayoutError{Kind::kCandidateCharacter, 6, 7, 0, 14, 80}),
            "bad character '\\x07' in the candidates of r9c9 (expected 1-9)");
  const LayoutError repeat{Kind::kCandidateRepeat, 3, 7, 0, 15, 11};
  EXPECT_EQ(Describe(repeat), "digit 7 repeated in the candidates of r2c3");
  EXPECT_EQ(Locate(repeat), "line 3, column 15");
}

TEST(PuzzleReader, LocatesPuzzleErrorsOnLines) {
  std::string text = "\n";
  text.append(kWikipediaPuzzle).append("\n");
  const auto records = ReadAll(text);
  ASSERT_EQ(records.size(), 1u);
  PuzzleError error;
  error.kind = PuzzleError::Kind::kCharacter;
  error.position = 39;
  EXPECT_EQ(Locate(records[0], error), "line 2, column 40");
  error.kind = PuzzleError::Kind::kLength;
  error.position = 0;
  EXPECT_EQ(Locate(records[0], error), "line 2");
}

TEST(PuzzleReader, LocatesPuzzleErrorsInGrids) {
  const std::string grid =
      "5 3 . | . 7 . | . . .\n"
      "6 . . | 1 9 5 | . . .\n"
      ". 9 8 | . . . | . 6 .\n"
      "------+-------+------\n"
      "8 . . | . 6 . | . . 3\n"
      "4 . . | 8 . 3 | . . 1\n"
      "7 . . | . 2 . | . . 6\n"
      "------+-------+------\n"
      ". 6 . | . . . | 2 8 .\n"
      ". . . | 4 1 9 | . . 5\n"
      ". . . | . 8 . | . 7 9\n";
  const auto records = ReadAll("# boxed\n" + grid);
  ASSERT_EQ(records.size(), 1u);
  PuzzleError error;
  error.kind = PuzzleError::Kind::kColumnRepeat;
  error.position = 9 * 5 + 8;  // r6c9
  EXPECT_EQ(Locate(records[0], error), "line 8, column 21");
  error.position = 9 * 6 + 4;  // r7c5
  EXPECT_EQ(Locate(records[0], error), "line 10, column 11");
  error.kind = PuzzleError::Kind::kLength;
  EXPECT_EQ(Locate(records[0], error), "line 2");
}

TEST(PuzzleReader, ParsePuzzleErrorsPointAtTheGridCell) {
  std::string grid = GridText(kWikipediaPuzzle, "  ");
  grid[3 * 12 + 2 + 1] = '8';  // row 4, column 2: an 8 already in row 4
  const auto records = ReadAll(grid);
  ASSERT_EQ(records.size(), 1u);
  Grid parsed;
  const PuzzleError error = ParsePuzzle(records[0].text(), &parsed);
  ASSERT_TRUE(error);
  EXPECT_EQ(Locate(records[0], error) + ": " + Describe(error),
            "line 4, column 4: digit 8 repeated in row 4 (r4c1 and r4c2)");
}

}  // namespace
}  // namespace sudoku
