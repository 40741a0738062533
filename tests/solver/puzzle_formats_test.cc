// PuzzleReader's formats beyond plain text: pencilmark lines, .sdm, .sdk and CSV, chosen by the
// caller, by extension or by content; each written out and read back, and each error with its
// exact message and place.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "solver/puzzle_reader.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/puzzles.h"

namespace sudoku {
namespace {

using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::kWikipediaSolution;
using ::sudoku::testing::kSeventeenClues;
using ::sudoku::testing::Pencilmarks;
using ::sudoku::testing::ReadAll;

const std::vector<std::string> kPuzzles = {
    kWikipediaPuzzle,
    kSeventeenClues,
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
};

std::vector<std::string> Texts(const std::vector<PuzzleRecord>& records) {
  std::vector<std::string> texts;
  for (const auto& record : records) {
    texts.push_back(record.error ? "error: " + Locate(record.error) + ": " + Describe(record.error)
                                 : std::string(record.text()));
  }
  return texts;
}

// The writers each format's users have: one per line (.sdm), a grid with metadata (.sdk), CSV.
std::string WriteSdm(const std::vector<std::string>& puzzles) {
  std::string out;
  for (const auto& p : puzzles) out += p + "\r\n";
  return out;
}
std::string WriteSdk(const std::string& puzzle) {
  std::string out = "#AAnonymous\n#DA puzzle\n#B03-08-2006\n#LEasy\n";
  for (int r = 0; r < 9; ++r) out += puzzle.substr(r * 9, 9) + "\n";
  return out;
}
std::string WriteCsv(const std::vector<std::string>& puzzles, const std::string& header) {
  std::string out = header.empty() ? "" : header + "\n";
  for (const auto& p : puzzles) out += p + "," + kWikipediaSolution + "\n";
  return out;
}

TEST(InputFormat, NamesAndExtensions) {
  for (const InputFormat f : {InputFormat::kAuto, InputFormat::kText, InputFormat::kSdm,
                              InputFormat::kSdk, InputFormat::kCsv}) {
    InputFormat parsed = InputFormat::kAuto;
    ASSERT_TRUE(ParseInputFormat(Name(f), &parsed));
    EXPECT_EQ(parsed, f);
  }
  InputFormat unchanged = InputFormat::kSdk;
  EXPECT_FALSE(ParseInputFormat("xml", &unchanged));
  EXPECT_EQ(FormatOfFileName("a/b.sdm"), InputFormat::kSdm);
  EXPECT_EQ(FormatOfFileName("B.SDK"), InputFormat::kSdk);
  EXPECT_EQ(FormatOfFileName("sudoku.csv"), InputFormat::kCsv);
  EXPECT_EQ(FormatOfFileName("puzzles.txt"), InputFormat::kAuto);
  EXPECT_EQ(FormatOfFileName("dir.csv/puzzles"), InputFormat::kAuto);
  EXPECT_EQ(FormatOfFileName("-"), InputFormat::kAuto);
}

TEST(Pencilmarks, RoundTripAsLinesAmongOtherPuzzles) {
  const std::string marks = Pencilmarks(kPuzzles[0]);
  const auto records =
      ReadAll(kPuzzles[1] + "\n" + marks + "\n" + kPuzzles[2] + "\n", InputFormat::kAuto);
  EXPECT_EQ(Texts(records), (std::vector<std::string>{kPuzzles[1], marks, kPuzzles[2]}));
  EXPECT_EQ(records[1].size, kCandidateChars);
  EXPECT_EQ(records[1].first_line, 2u);
  EXPECT_EQ(LocateCell(records[1], 700), "line 2, column 701");
  // A pencilmark puzzle's error points at its character.
  PuzzleError error;
  error.kind = PuzzleError::Kind::kCandidate;
  error.position = 500;
  EXPECT_EQ(Locate(records[1], error), "line 2, column 501");
}

TEST(Sdm, RoundTrips) {
  std::vector<std::string> puzzles = kPuzzles;
  puzzles.push_back(Pencilmarks(kPuzzles[1]));
  EXPECT_EQ(Texts(ReadAll(WriteSdm(puzzles), InputFormat::kSdm)), puzzles);
}

TEST(Sdm, RejectsGridsAndRulers) {
  const auto records = ReadAll(kPuzzles[0] + "\n53..7....\n+-----+\n", InputFormat::kSdm);
  EXPECT_EQ(Texts(records),
            (std::vector<std::string>{kPuzzles[0], "error: line 2: expected 81 cells, found 9",
                                      "error: line 3: expected 81 cells, found 7"}));
}

TEST(Sdk, RoundTripsWithItsMetadata) {
  EXPECT_EQ(Texts(ReadAll(WriteSdk(kPuzzles[0]), InputFormat::kSdk)),
            std::vector<std::string>{kPuzzles[0]});
  // By content too: metadata lines are comments.
  EXPECT_EQ(Texts(ReadAll(WriteSdk(kPuzzles[2]), InputFormat::kAuto)),
            std::vector<std::string>{kPuzzles[2]});
}

TEST(Sdk, RejectsOneLinePuzzles) {
  EXPECT_EQ(Texts(ReadAll("#Asomeone\n" + kPuzzles[0] + "\n", InputFormat::kSdk)),
            std::vector<std::string>{"error: line 2: expected 9 cells in a grid row, found 81"});
}

TEST(Csv, RoundTripsWithEachKnownHeader) {
  for (const std::string header :
       {"quizzes,solutions", "puzzle,solution", "Puzzle,Solution", "id,grid", "sudoku"}) {
    std::string text = header + "\n";
    for (size_t i = 0; i < kPuzzles.size(); ++i) {
      if (header == "id,grid") {
        text += std::to_string(i) + "," + kPuzzles[i] + "\n";
      } else if (header == "sudoku") {
        text += kPuzzles[i] + "\n";
      } else {
        text += kPuzzles[i] + "," + kWikipediaSolution + "\n";
      }
    }
    EXPECT_EQ(Texts(ReadAll(text, InputFormat::kCsv)), kPuzzles) << header;
    // By content only with a comma: a one-column CSV is one puzzle per line to the text reader.
    if (header != "sudoku") {
      EXPECT_EQ(Texts(ReadAll(text, InputFormat::kAuto)), kPuzzles) << header;
    }
  }
}

TEST(Csv, WithoutAHeaderTakesTheFirstPuzzleColumn) {
  const auto records = ReadAll(WriteCsv(kPuzzles, ""), InputFormat::kAuto);
  EXPECT_EQ(Texts(records), kPuzzles);
  const auto later = ReadAll("7," + kPuzzles[0] + "\n8," + kPuzzles[1] + "\n", InputFormat::kCsv);
  EXPECT_EQ(Texts(later), (std::vector<std::string>{kPuzzles[0], kPuzzles[1]}));
  // Cells are located in the line, past the fields before them.
  EXPECT_EQ(LocateCell(later[1], 0), "line 2, column 3");
}

TEST(Csv, QuotedFieldsCRLFAndAByteOrderMark) {
  const std::string text = "\xEF\xBB\xBF\"note, with comma\",\"puzzle\"\r\n\"a \"\"b\"\"\",\"" +
                           kPuzzles[0] + "\"\r\n\r\n# a comment\r\nplain," + kPuzzles[1] + "\r\n";
  const auto records = ReadAll(text, InputFormat::kAuto);
  EXPECT_EQ(Texts(records), (std::vector<std::string>{kPuzzles[0], kPuzzles[1]}));
  EXPECT_EQ(LocateCell(records[0], 0), "line 2, column 12");
  EXPECT_EQ(records[1].first_line, 5u);
}

TEST(Csv, PencilmarkColumn) {
  const std::string marks = Pencilmarks(kPuzzles[0]);
  EXPECT_EQ(Texts(ReadAll("puzzle\n" + marks + "\n", InputFormat::kCsv)),
            std::vector<std::string>{marks});
}

TEST(Csv, ErrorsWithTheirExactMessages) {
  EXPECT_EQ(Texts(ReadAll("name,rating\nx,1\n", InputFormat::kCsv)),
            std::vector<std::string>{
                "error: line 1: CSV header has no puzzle column (expected one named puzzle, "
                "puzzles, quizzes, quiz, grid or sudoku)"});
  EXPECT_EQ(Texts(ReadAll("id,puzzle\n1\n2," + kPuzzles[0] + "\n", InputFormat::kCsv)),
            (std::vector<std::string>{
                "error: line 2: expected the puzzle in field 2, found 1 field", kPuzzles[0]}));
  EXPECT_EQ(
      Texts(ReadAll("id,note,puzzle\n1,2\n", InputFormat::kCsv)),
      std::vector<std::string>{"error: line 2: expected the puzzle in field 3, found 2 fields"});
  EXPECT_EQ(Texts(ReadAll("puzzle,note\n" + kPuzzles[0] + ",\"open\n", InputFormat::kCsv)),
            std::vector<std::string>{"error: line 2: unterminated quote in CSV field 2"});
  EXPECT_EQ(Texts(ReadAll("puzzle\n" + kPuzzles[0].substr(1) + "\n", InputFormat::kCsv)),
            std::vector<std::string>{"error: line 2: expected 81 cells, found 80"});
  const std::string too_long = "puzzle\n" + std::string(PuzzleReader::kMaxLineBytes + 1, 'x');
  EXPECT_EQ(Texts(ReadAll(too_long, InputFormat::kCsv)),
            std::vector<std::string>{
                "error: line 2: line of 65537 characters is too long (the limit is 65536)"});
}

}  // namespace
}  // namespace sudoku
