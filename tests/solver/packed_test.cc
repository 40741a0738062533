// Packed puzzles and solutions (solver.h, "Packed puzzles"): the nibble layout byte by byte,
// round trips through every cell, and every error of ParsePackedPuzzle() with its exact message.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/puzzles.h"
#include "tests/support/paths.h"

namespace sudoku {
namespace {

using ::sudoku::testing::kWikipediaPuzzle;


// The nibble layout written out cell by cell, independently of the code under test.
PackedGrid PackSlowly(const Grid& grid) {
  PackedGrid packed{};
  for (int cell = 0; cell < kCells; ++cell) {
    packed[cell / 2] = static_cast<uint8_t>(packed[cell / 2] | grid[cell] << (cell % 2 * 4));
  }
  return packed;
}

Grid GridOf(std::string_view text) {
  Grid grid;
  EXPECT_FALSE(ParsePuzzle(text, &grid)) << text;
  return grid;
}

PackedGrid Packed(std::string_view text) {
  PackedGrid packed;
  EXPECT_TRUE(PackPuzzle(text, packed)) << text;
  return packed;
}

std::string ErrorOf(const PackedGrid& packed) {
  Grid grid;
  const PuzzleError error = ParsePackedPuzzle(packed, &grid);
  return error ? Describe(error) : "ok";
}

// `packed` with cell `cell` (81: the padding) set to `value`.
PackedGrid With(PackedGrid packed, int cell, uint8_t value) {
  const int shift = cell % 2 * 4;
  packed[cell / 2] = static_cast<uint8_t>((packed[cell / 2] & ~(0x0f << shift)) | value << shift);
  return packed;
}

TEST(PackPuzzle, PutsEvenCellsInTheLowNibbleAndOddCellsInTheHigh) {
  const PackedGrid packed = Packed(kWikipediaPuzzle);
  EXPECT_EQ(packed[0], 0x35);   // r1c1 = 5, r1c2 = 3
  EXPECT_EQ(packed[1], 0x00);   // two blanks
  EXPECT_EQ(packed[2], 0x07);   // r1c5 = 7, r1c6 blank
  EXPECT_EQ(packed[4], 0x60);   // r1c9 blank, r2c1 = 6
  EXPECT_EQ(packed[40], 0x09);  // r9c9 = 9, then the padding
  EXPECT_EQ(packed, PackSlowly(GridOf(kWikipediaPuzzle)));
}

TEST(PackPuzzle, PacksEveryBlankCharacterAsZero) {
  for (char blank : {'.', '0', '_', '-', '*'}) {
    std::string text(kWikipediaPuzzle);
    for (char& c : text) {
      if (c == '.') c = blank;
    }
    EXPECT_EQ(Packed(text), PackSlowly(GridOf(kWikipediaPuzzle))) << blank;
  }
}

TEST(PackPuzzle, RefusesWhatIsNotEightyOneDigitsAndBlanks) {
  PackedGrid packed;
  EXPECT_FALSE(PackPuzzle(kWikipediaPuzzle.substr(0, 80), packed));
  EXPECT_FALSE(PackPuzzle(std::string(kWikipediaPuzzle) + "1", packed));
  EXPECT_FALSE(PackPuzzle(std::string(729, '1'), packed));
  // Every byte in every cell, so that each lane of the sixteen-at-a-time paths and the cell
  // after them is covered: refused unless it is a digit or a blank, which packs as its value.
  for (int cell = 0; cell < kCells; ++cell) {
    for (int byte = 0; byte < 256; ++byte) {
      std::string text(kWikipediaPuzzle);
      text[cell] = static_cast<char>(byte);
      const bool ok = (byte >= '1' && byte <= '9') || byte == '.' || byte == '0' ||
                      byte == '_' || byte == '-' || byte == '*';
      ASSERT_EQ(PackPuzzle(text, packed), ok) << "cell " << cell << ", byte " << byte;
      if (!ok) continue;
      const int nibble = cell % 2 == 0 ? packed[cell / 2] & 0x0f : packed[cell / 2] >> 4;
      ASSERT_EQ(nibble, byte >= '1' && byte <= '9' ? byte - '0' : 0)
          << "cell " << cell << ", byte " << byte;
    }
  }
}

TEST(PackPuzzle, PacksRepeatedGivensAsTheyAre) {
  std::string text(kWikipediaPuzzle);
  text[2] = '5';  // a second 5 in row 1
  const PackedGrid packed = Packed(text);
  EXPECT_EQ(packed[1], 0x05);
  EXPECT_EQ(ErrorOf(packed), "digit 5 repeated in row 1 (r1c1 and r1c3)");
}

// Every value in every cell, so that each lane of the sixteen-at-a-time paths and the cells
// after them are covered, both ways.
TEST(PackedPuzzle, RoundTripsEveryValueInEveryCell) {
  for (int cell = 0; cell < kCells; ++cell) {
    for (uint8_t value = 0; value <= 9; ++value) {
      std::string text(kCells, '.');
      text[cell] = static_cast<char>('0' + value);
      const PackedGrid packed = Packed(text);
      Grid expected{};
      expected[cell] = value;
      ASSERT_EQ(packed, PackSlowly(expected)) << cell << " " << int{value};
      Grid grid;
      ASSERT_FALSE(ParsePackedPuzzle(packed, &grid)) << cell;
      ASSERT_EQ(grid, expected) << cell << " " << int{value};
    }
  }
}

TEST(PackedPuzzle, ParsesEveryFixtureAsItsText) {
  std::vector<std::string> texts =
      testing::ReadLines(testing::TestPath("SUDOKU_TEST_DATA_DIR") + "/very_hard.txt");
  for (const testing::Fixture& fixture : testing::LoadFixtures("solver_puzzles.txt")) {
    texts.push_back(fixture.puzzle);
  }
  size_t packed_count = 0;
  for (const std::string& text : texts) {
    Grid grid;
    const PuzzleError text_error = ParsePuzzle(text, &grid);
    PackedGrid packed;
    if (!PackPuzzle(text, packed)) {
      // Only a text that is not 81 digits and blanks cannot be packed.
      EXPECT_TRUE(text_error.kind == PuzzleError::Kind::kLength ||
                  text_error.kind == PuzzleError::Kind::kCharacter)
          << text;
      continue;
    }
    ++packed_count;
    Grid unpacked;
    const PuzzleError packed_error = ParsePackedPuzzle(packed, &unpacked);
    EXPECT_EQ(Describe(packed_error), Describe(text_error)) << text;
    if (!text_error) {
      EXPECT_EQ(unpacked, grid) << text;
    }
  }
  EXPECT_GT(packed_count, 50u);
}

TEST(PackedPuzzle, ReportsACellAboveNineWithItsValue) {
  const PackedGrid packed = Packed(kWikipediaPuzzle);
  EXPECT_EQ(ErrorOf(With(packed, 2, 12)),
            "packed cell r1c3 is 12 (expected 1-9, or 0 for a blank)");
  EXPECT_EQ(ErrorOf(With(packed, 80, 10)),
            "packed cell r9c9 is 10 (expected 1-9, or 0 for a blank)");
  Grid grid;
  const PuzzleError error = ParsePackedPuzzle(With(packed, 40, 15), &grid);
  EXPECT_EQ(error.kind, PuzzleError::Kind::kPackedValue);
  EXPECT_EQ(error.position, 40u);
  EXPECT_EQ(error.found, 15u);
}

TEST(PackedPuzzle, FindsAValueAboveNineInEveryCell) {
  const PackedGrid empty{};
  for (int cell = 0; cell < kCells; ++cell) {
    for (uint8_t value = 10; value <= 15; ++value) {
      Grid grid;
      const PuzzleError error = ParsePackedPuzzle(With(empty, cell, value), &grid);
      ASSERT_EQ(error.kind, PuzzleError::Kind::kPackedValue) << cell;
      ASSERT_EQ(error.position, static_cast<uint32_t>(cell));
      ASSERT_EQ(error.found, value);
    }
  }
}

TEST(PackedPuzzle, ReportsPaddingOtherThanZero) {
  EXPECT_EQ(ErrorOf(With(Packed(kWikipediaPuzzle), 81, 7)), "packed padding is 7 (expected 0)");
}

TEST(PackedPuzzle, ReportsTheFirstErrorInCellOrder) {
  std::string repeat_at_9(kWikipediaPuzzle);
  repeat_at_9[8] = '5';  // r1c9 repeats r1c1
  EXPECT_EQ(ErrorOf(With(Packed(repeat_at_9), 50, 11)),
            "digit 5 repeated in row 1 (r1c1 and r1c9)");
  EXPECT_EQ(ErrorOf(With(Packed(repeat_at_9), 3, 11)),
            "packed cell r1c4 is 11 (expected 1-9, or 0 for a blank)");
  // The padding comes after every cell.
  EXPECT_EQ(ErrorOf(With(Packed(repeat_at_9), 81, 1)),
            "digit 5 repeated in row 1 (r1c1 and r1c9)");
}

TEST(PackDigits, RoundTripsASolution) {
  PackedGrid packed;
  PackDigits(std::span<const char, kCells>(testing::kWikipediaSolution.data(), kCells), packed);
  EXPECT_EQ(packed[0], 0x35);
  EXPECT_EQ(packed[40], 0x09);
  char digits[kCells];
  UnpackDigits(packed, digits);
  EXPECT_EQ(std::string_view(digits, kCells), testing::kWikipediaSolution);
}

TEST(PackDigits, RoundTripsEveryDigitInEveryCell) {
  for (int cell = 0; cell < kCells; ++cell) {
    for (char digit = '0'; digit <= '9'; ++digit) {
      std::string text(testing::kWikipediaSolution);
      text[cell] = digit;
      PackedGrid packed;
      PackDigits(std::span<const char, kCells>(text.data(), kCells), packed);
      char digits[kCells];
      UnpackDigits(packed, digits);
      ASSERT_EQ(std::string_view(digits, kCells), text) << cell;
    }
  }
}

TEST(SolvePacked, SolvesAsSolveDoes) {
  const Result packed = SolvePacked(Packed(kWikipediaPuzzle), {.max_solutions = 2});
  const Result text = Solve(kWikipediaPuzzle, {.max_solutions = 2});
  EXPECT_EQ(packed.verdict, Verdict::kSolved);
  EXPECT_EQ(testing::SolutionText(packed), testing::SolutionText(text));
  EXPECT_EQ(packed.solutions, 1u);
}

TEST(SolvePacked, ReportsAnInvalidPuzzleAsInvalid) {
  const Result result = SolvePacked(With(Packed(kWikipediaPuzzle), 0, 13));
  EXPECT_EQ(result.verdict, Verdict::kInvalid);
  EXPECT_EQ(Describe(result.error), "packed cell r1c1 is 13 (expected 1-9, or 0 for a blank)");
}

}  // namespace
}  // namespace sudoku
