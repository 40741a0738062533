#include "client/result_format.h"

#include <sstream>

#include <gtest/gtest.h>

#include "client/client_error.h"
#include "tests/support/puzzles.h"

namespace sudoku::client {
namespace {

using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::kWikipediaSolution;


// A batch read from `text` as stdin, like the client builds it.
Batch MakeBatch(const std::string& text) {
  std::istringstream in(text);
  Batcher batcher({}, 100, 1, &in);
  Batch batch;
  EXPECT_TRUE(batcher.Fill(4, &batch));
  return batch;
}

std::string Format(const Batch& batch, const wire::SolveResponse* response,
                   Summary* summary = nullptr, std::vector<std::string> prefixes = {""}) {
  Summary ignored;
  std::string out;
  AppendResults(batch, response, prefixes, summary != nullptr ? summary : &ignored, &out);
  return out;
}

std::string MismatchOf(const Batch& batch, const wire::SolveResponse& response) {
  try {
    Format(batch, &response);
  } catch (const ClientError& error) {
    return error.what();
  }
  return "no error";
}

void AddInvalid(wire::SolveResponse* response, uint32_t index, uint32_t position,
                const std::string& message) {
  response->add_verdicts(wire::INVALID);
  wire::PuzzleError* error = response->add_errors();
  error->set_index(index);
  error->set_position(position);
  error->set_message(message);
}

TEST(ResultFormat, OneLinePerVerdict) {
  const Batch batch =
      MakeBatch(kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n" +
                kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n");
  wire::SolveResponse response;
  response.add_verdicts(wire::SOLVED);
  response.add_verdicts(wire::MULTIPLE);
  response.add_verdicts(wire::UNSOLVABLE);
  AddInvalid(&response, 3, 40, "digit 5 repeated in row 5 (r5c1 and r5c4)");
  AddInvalid(&response, 4, 0, "expected 81 cells, found 80");
  response.set_solutions(kWikipediaSolution + std::string(81, '9'));
  Summary summary;
  EXPECT_EQ(Format(batch, &response, &summary),
            kWikipediaSolution + "\n" +
                "multiple\n"
                "unsolvable\n"
                "invalid: line 4, column 40: digit 5 repeated in row 5 (r5c1 and r5c4)\n"
                "invalid: line 5: expected 81 cells, found 80\n");
  EXPECT_EQ(summary.total(), 5u);
  EXPECT_EQ(summary.solved, 1u);
  EXPECT_EQ(summary.multiple, 1u);
  EXPECT_EQ(summary.unsolvable, 1u);
  EXPECT_EQ(summary.invalid, 2u);
}

TEST(ResultFormat, LayoutErrorsTakeTheirPlaceInOrder) {
  const Batch batch =
      MakeBatch("# x\n12345\n" + kWikipediaPuzzle + "\n1 2 3\n" + kWikipediaPuzzle + "\n");
  wire::SolveResponse response;
  response.add_verdicts(wire::SOLVED);
  response.add_verdicts(wire::UNSOLVABLE);
  response.set_solutions(kWikipediaSolution);
  Summary summary;
  EXPECT_EQ(Format(batch, &response, &summary),
            "invalid: line 2: expected 81 cells, found 5\n" + kWikipediaSolution + "\n" +
                "invalid: line 4: expected 9 cells in a grid row, found 3\n"
                "unsolvable\n");
  EXPECT_EQ(summary.total(), 4u);
  EXPECT_EQ(summary.invalid, 2u);
  EXPECT_EQ(summary.solved, 1u);
  EXPECT_EQ(summary.unsolvable, 1u);
}

TEST(ResultFormat, BatchWithNothingSentNeedsNoResponse) {
  const Batch batch = MakeBatch("12345\n");
  EXPECT_EQ(Format(batch, nullptr), "invalid: line 1: expected 81 cells, found 5\n");
}

TEST(ResultFormat, GridErrorsPointIntoTheGrid) {
  std::string grid;
  for (int r = 0; r < 9; ++r) {
    grid += "| " + kWikipediaPuzzle.substr(r * 9, 3) + " | " +
            kWikipediaPuzzle.substr(r * 9 + 3, 3) + " | " + kWikipediaPuzzle.substr(r * 9 + 6, 3) +
            " |\n";
  }
  const Batch batch = MakeBatch("\n" + grid);
  wire::SolveResponse response;
  AddInvalid(&response, 0, 81, "bad character 'x'");  // r9c9
  EXPECT_EQ(Format(batch, &response), "invalid: line 10, column 17: bad character 'x'\n");
}

TEST(ResultFormat, NamesTheFileWhenThereAreSeveral) {
  EXPECT_EQ(LocationPrefixes({"a.txt"}), std::vector<std::string>{""});
  EXPECT_EQ(LocationPrefixes({"a.txt", "stdin"}),
            (std::vector<std::string>{"a.txt, ", "stdin, "}));
  Batch batch = MakeBatch(kWikipediaPuzzle + "\n12345\n");
  batch.inputs[0] = 1;
  wire::SolveResponse response;
  AddInvalid(&response, 0, 3, "bad character 'x'");
  EXPECT_EQ(Format(batch, &response, nullptr, {"a.txt, ", "b.txt, "}),
            "invalid: b.txt, line 1, column 3: bad character 'x'\n"
            "invalid: a.txt, line 2: expected 81 cells, found 5\n");
}

TEST(ResultFormat, RejectsTooFewVerdicts) {
  const Batch batch = MakeBatch(kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n");
  wire::SolveResponse response;
  response.add_verdicts(wire::UNSOLVABLE);
  EXPECT_EQ(MismatchOf(batch, response), "batch 4: 1 verdicts for 2 puzzles");
}

TEST(ResultFormat, RejectsMissingSolutions) {
  const Batch batch = MakeBatch(kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n");
  wire::SolveResponse response;
  response.add_verdicts(wire::SOLVED);
  response.add_verdicts(wire::MULTIPLE);
  response.set_solutions(kWikipediaSolution);
  EXPECT_EQ(MismatchOf(batch, response),
            "batch 4: solutions end at byte 81, before the one for puzzle 1");
}

TEST(ResultFormat, RejectsExtraSolutions) {
  const Batch batch = MakeBatch(kWikipediaPuzzle + "\n");
  wire::SolveResponse response;
  response.add_verdicts(wire::SOLVED);
  response.set_solutions(kWikipediaSolution + kWikipediaSolution);
  EXPECT_EQ(MismatchOf(batch, response), "batch 4: 162 solution bytes for 1 solved puzzles");
}

TEST(ResultFormat, RejectsMissingOrMisplacedErrors) {
  const Batch batch = MakeBatch(kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n");
  wire::SolveResponse response;
  response.add_verdicts(wire::UNSOLVABLE);
  response.add_verdicts(wire::INVALID);
  EXPECT_EQ(MismatchOf(batch, response), "batch 4: no error given for invalid puzzle 1");
  response.add_errors()->set_index(0);
  EXPECT_EQ(MismatchOf(batch, response), "batch 4: no error given for invalid puzzle 1");
}

TEST(ResultFormat, RejectsExtraErrors) {
  const Batch batch = MakeBatch(kWikipediaPuzzle + "\n");
  wire::SolveResponse response;
  AddInvalid(&response, 0, 1, "x");
  response.add_errors()->set_index(0);
  EXPECT_EQ(MismatchOf(batch, response), "batch 4: 2 errors for 1 invalid puzzles");
}

TEST(ResultFormat, RejectsErrorPositionOutsideThePuzzle) {
  const Batch batch = MakeBatch(kWikipediaPuzzle + "\n");
  wire::SolveResponse response;
  AddInvalid(&response, 0, 82, "x");
  EXPECT_EQ(MismatchOf(batch, response), "batch 4: error position 82 is outside puzzle 0");
}

TEST(ResultFormat, RejectsUnknownVerdict) {
  const Batch batch = MakeBatch(kWikipediaPuzzle + "\n");
  wire::SolveResponse response;
  response.add_verdicts(static_cast<wire::Verdict>(9));
  EXPECT_EQ(MismatchOf(batch, response), "batch 4: unknown verdict 9 for puzzle 0");
}

TEST(ResultFormat, SummaryLine) {
  Summary summary{.solved = 17, .multiple = 1, .unsolvable = 1, .invalid = 1};
  EXPECT_EQ(FormatSummary(summary, 0.012),
            "puzzles 20, solved 17, multiple 1, unsolvable 1, invalid 1, 0.012 s, 1667 puzzles/s");
  EXPECT_EQ(FormatSummary(Summary{}, 0), "puzzles 0, solved 0, multiple 0, unsolvable 0, "
                                         "invalid 0, 0.000 s, 0 puzzles/s");
  EXPECT_EQ(FormatSummary(Summary{.solved = 1000000}, 2.5),
            "puzzles 1000000, solved 1000000, multiple 0, unsolvable 0, invalid 0, 2.500 s, "
            "400000 puzzles/s");
}

TEST(ResultFormat, ExitStatusSaysWhetherAllWereSolved) {
  EXPECT_EQ(ExitStatus(Summary{}), 0);
  EXPECT_EQ(ExitStatus(Summary{.solved = 3}), 0);
  EXPECT_EQ(ExitStatus(Summary{.solved = 2, .multiple = 1}), 1);
  EXPECT_EQ(ExitStatus(Summary{.solved = 2, .unsolvable = 1}), 1);
  EXPECT_EQ(ExitStatus(Summary{.solved = 2, .invalid = 1}), 1);
}

// A one-puzzle run does not read "0 puzzles/s".
TEST(Summary, RatesBelowTenKeepTwoDigits) {
  EXPECT_EQ(RateText(1667.4), "1667");
  EXPECT_EQ(RateText(10), "10");
  EXPECT_EQ(RateText(9.96), "10");
  EXPECT_EQ(RateText(2.5), "2.5");
  EXPECT_EQ(RateText(0.41), "0.41");
  EXPECT_EQ(RateText(0), "0");
  Summary summary;
  summary.solved = 1;
  EXPECT_EQ(FormatSummary(summary, 2.5),
            "puzzles 1, solved 1, multiple 0, unsolvable 0, invalid 0, 2.500 s, 0.4 puzzles/s");
}

}  // namespace
}  // namespace sudoku::client
