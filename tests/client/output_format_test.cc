// The client's output formats (--format line|grid|json|csv) with their exact text, each read back
// (grid and CSV by PuzzleReader, JSON by Boost.PropertyTree and nlohmann::json) to the same
// puzzles and results, and solve's --format and --input-format flags end to end.
#include <sstream>
#include <utility>
#include <string>
#include <vector>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "client/json_output.h"
#include "client/result_format.h"
#include "client/solve_command.h"
#include "tests/client/client_error_of.h"
#include "tests/client/fake_daemon.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/puzzles.h"

namespace sudoku::client {
namespace {

using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::kWikipediaSolution;
using ::sudoku::testing::Pencilmarks;
using ::sudoku::testing::ReadAll;

const std::string kBad = kWikipediaPuzzle.substr(0, 80) + "\"";

const std::string kInput = kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n12345\n" + kBad + "\n";

// One of each result: solved, multiple, a layout error, invalid (a quote, for the escapes).
std::string Format(OutputFormat format) {
  std::istringstream in(kInput);
  Batcher batcher({}, 100, 1, &in);
  Batch batch;
  EXPECT_TRUE(batcher.Fill(0, &batch));
  wire::SolveResponse response;
  response.add_verdicts(wire::SOLVED);
  response.add_verdicts(wire::MULTIPLE);
  response.add_verdicts(wire::INVALID);
  response.add_solution_counts(1);
  response.add_solution_counts(2);
  response.add_solution_counts(0);
  response.add_guesses(0);
  response.add_guesses(3);
  response.add_guesses(0);
  response.set_solutions(kWikipediaSolution + kWikipediaSolution);
  wire::PuzzleError* error = response.add_errors();
  error->set_index(2);
  error->set_position(81);
  error->set_message("bad character '\"' (expected 1-9, or . 0 _ - * for a blank)");
  Summary summary;
  std::string out = OutputHeader(format);
  AppendResults(batch, &response, std::vector<std::string>{""}, &summary, &out, format);
  return out;
}

TEST(OutputFormat, Names) {
  for (const OutputFormat f :
       {OutputFormat::kLine, OutputFormat::kGrid, OutputFormat::kJson, OutputFormat::kCsv}) {
    OutputFormat parsed = OutputFormat::kLine;
    ASSERT_TRUE(ParseOutputFormat(Name(f), &parsed));
    EXPECT_EQ(parsed, f);
  }
  OutputFormat unchanged = OutputFormat::kJson;
  EXPECT_FALSE(ParseOutputFormat("xml", &unchanged));
  EXPECT_EQ(unchanged, OutputFormat::kJson);
  EXPECT_EQ(OutputHeader(OutputFormat::kCsv), "puzzle,solution,verdict,error,rating\n");
  EXPECT_EQ(OutputHeader(OutputFormat::kJson), "");
}

// The client keeps a packed puzzle's text only for the formats that show it
// (Batcher::set_keep_cells()): ShowsPuzzles() must say which those are.
TEST(OutputFormat, OnlyJsonAndCsvShowThePuzzle) {
  for (const OutputFormat f :
       {OutputFormat::kLine, OutputFormat::kGrid, OutputFormat::kJson, OutputFormat::kCsv}) {
    const bool shown = Format(f).find(kWikipediaPuzzle) != std::string::npos;
    EXPECT_EQ(ShowsPuzzles(f), shown) << Name(f);
  }
  EXPECT_TRUE(ShowsPuzzles(OutputFormat::kJson));
  EXPECT_FALSE(ShowsPuzzles(OutputFormat::kLine));
}

TEST(OutputFormat, LineIsTheDefault) {
  EXPECT_EQ(Format(OutputFormat::kLine),
            kWikipediaSolution +
                "\nmultiple\ninvalid: line 3: expected 81 cells, found 5\n"
                "invalid: line 4, column 81: bad character '\"' (expected 1-9, or . 0 _ - * for a "
                "blank)\n");
}

TEST(OutputFormat, GridDrawsTheBoxesAndReadsBack) {
  const std::string out = Format(OutputFormat::kGrid);
  EXPECT_EQ(out.substr(0, 4 * 26),
            "+-------+-------+-------+\n"
            "| 5 3 4 | 6 7 8 | 9 1 2 |\n"
            "| 6 7 2 | 1 9 5 | 3 4 8 |\n"
            "| 1 9 8 | 3 4 2 | 5 6 7 |\n");
  EXPECT_NE(out.find("| 3 4 5 | 2 8 6 | 1 7 9 |\n+-------+-------+-------+\n\nmultiple\n\n"),
            std::string::npos);
  // Read back: the solution again; the other results are lines the reader reports.
  const auto records = ReadAll(out);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_FALSE(records[0].error);
  EXPECT_EQ(records[0].text(), kWikipediaSolution);
  EXPECT_EQ(records[0].layout, PuzzleRecord::Layout::kGrid);
}

TEST(OutputFormat, JsonHasOneObjectPerLineAndParses) {
  const std::string out = Format(OutputFormat::kJson);
  std::istringstream lines(out);
  std::vector<std::string> objects;
  for (std::string line; std::getline(lines, line);) objects.push_back(line);
  ASSERT_EQ(objects.size(), 4u);
  EXPECT_EQ(objects[0], "{\"puzzle\":\"" + kWikipediaPuzzle +
                            "\",\"verdict\":\"solved\",\"solution\":\"" + kWikipediaSolution +
                            "\",\"solutions\":1,\"guesses\":0}");
  // A puzzle with several solutions comes with the one found first, as /api/solve gives it.
  EXPECT_EQ(objects[1], "{\"puzzle\":\"" + kWikipediaPuzzle +
                            "\",\"verdict\":\"multiple\",\"solution\":\"" + kWikipediaSolution +
                            "\",\"solutions\":2,\"guesses\":3}");
  EXPECT_EQ(objects[2],
            "{\"verdict\":\"invalid\",\"error\":\"invalid: line 3: expected 81 cells, found "
            "5\",\"where\":\"line 3\",\"reason\":\"expected 81 cells, found 5\"}");
  // Read back by a JSON parser: the same puzzles and results.
  std::vector<boost::property_tree::ptree> parsed;
  for (const std::string& object : objects) {
    std::istringstream in(object);
    boost::property_tree::ptree tree;
    boost::property_tree::read_json(in, tree);
    parsed.push_back(tree);
  }
  EXPECT_EQ(parsed[0].get<std::string>("solution"), kWikipediaSolution);
  EXPECT_EQ(parsed[0].get<int>("solutions"), 1);
  EXPECT_EQ(parsed[1].get<std::string>("verdict"), "multiple");
  EXPECT_EQ(parsed[1].get<int>("guesses"), 3);
  EXPECT_EQ(parsed[3].get<std::string>("puzzle"), kBad);
  EXPECT_EQ(parsed[3].get<std::string>("error"),
            "invalid: line 4, column 81: bad character '\"' (expected 1-9, or . 0 _ - * for a "
            "blank)");
  EXPECT_EQ(parsed[3].get<std::string>("where"), "line 4, column 81");
}

// Puzzle text is meant to be ASCII, but a line may hold anything: a control byte, a character
// beyond ASCII in UTF-8, a Latin-1 byte that is not UTF-8. Each line must still be JSON: the first
// two as \u escapes of what they are, the byte that is not UTF-8 as U+FFFD.
TEST(OutputFormat, JsonOfAnyBytesIsStillJson) {
  const std::string control_and_e_acute = kWikipediaPuzzle.substr(0, 78) + "\x01\xc3\xa9";
  const std::string latin1 = kWikipediaPuzzle.substr(0, 80) + "\xe9";
  const std::string del = kWikipediaPuzzle.substr(0, 80) + "\x7f";
  std::istringstream in(control_and_e_acute + "\n" + latin1 + "\n" + del + "\n");
  Batcher batcher({}, 100, 1, &in);
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  ASSERT_EQ(batch.sent, 3u);
  wire::SolveResponse response;
  const std::pair<uint32_t, const char*> errors[] = {{79, "'\\x01'"}, {81, "'\\xe9'"},
                                                      {81, "'\\x7f'"}};
  for (uint32_t i = 0; i < 3; ++i) {
    response.add_verdicts(wire::INVALID);
    wire::PuzzleError* error = response.add_errors();
    error->set_index(i);
    error->set_position(errors[i].first);
    error->set_message(std::string("bad character ") + errors[i].second);
  }
  Summary summary;
  std::string out;
  AppendResults(batch, &response, std::vector<std::string>{""}, &summary, &out,
                OutputFormat::kJson);
  std::istringstream lines(out);
  std::vector<std::string> objects;
  for (std::string line; std::getline(lines, line);) objects.push_back(line);
  ASSERT_EQ(objects.size(), 3u) << out;
  EXPECT_EQ(objects[0], "{\"puzzle\":\"" + kWikipediaPuzzle.substr(0, 78) +
                            "\\u0001\\u00e9\",\"verdict\":\"invalid\",\"error\":\"invalid: "
                            "line 1, column 79: bad character '\\\\x01'\",\"where\":\"line 1, "
                            "column 79\",\"reason\":\"bad character '\\\\x01'\"}");
  EXPECT_EQ(objects[1], "{\"puzzle\":\"" + kWikipediaPuzzle.substr(0, 80) +
                            "\\ufffd\",\"verdict\":\"invalid\",\"error\":\"invalid: line 2, "
                            "column 81: bad character '\\\\xe9'\",\"where\":\"line 2, column "
                            "81\",\"reason\":\"bad character '\\\\xe9'\"}");
  EXPECT_EQ(objects[2], "{\"puzzle\":\"" + kWikipediaPuzzle.substr(0, 80) +
                            "\\u007f\",\"verdict\":\"invalid\",\"error\":\"invalid: line 3, "
                            "column 81: bad character '\\\\x7f'\",\"where\":\"line 3, column "
                            "81\",\"reason\":\"bad character '\\\\x7f'\"}");
  // A strict parser (it rejects bytes that are not UTF-8) reads each line back.
  const std::string read_back[] = {control_and_e_acute,
                                   kWikipediaPuzzle.substr(0, 80) + "\xef\xbf\xbd", del};
  for (size_t i = 0; i < objects.size(); ++i) {
    SCOPED_TRACE(objects[i]);
    ASSERT_TRUE(nlohmann::json::accept(objects[i]));
    EXPECT_EQ(nlohmann::json::parse(objects[i])["puzzle"], read_back[i]);
  }
}

// JsonLineWriter copies strings it may write as they are and leaves the rest to nlohmann's
// serializer: its lines are Json::dump()'s, byte for byte, whatever a string holds, at the top
// or in an object, beside numbers, booleans, nulls and nested values.
TEST(JsonLineWriter, WritesWhatDumpWrites) {
  std::vector<Json> values;
  for (int byte = 0; byte < 256; ++byte) {
    const std::string text = std::string("a") + static_cast<char>(byte) + "z";
    values.push_back(text);
    values.push_back(Json{{"puzzle", text}, {text, 81}, {"rating", "easy single 1 0"}});
  }
  values.push_back(Json{{"cell", "r3c5"}, {"digit", 7}, {"solved", true}, {"error", nullptr},
                        {"steps", Json::array({1, "two", Json{{"x", 1.5}}})}});
  values.push_back(Json::object());
  values.push_back(Json::array());
  values.push_back(42);
  std::string written;
  JsonLineWriter writer(&written);
  std::string dumped;
  for (const Json& value : values) {
    writer.Append(value);
    dumped += value.dump(-1, ' ', true, Json::error_handler_t::replace) + "\n";
  }
  EXPECT_EQ(written, dumped);
}

TEST(OutputFormat, CsvHasAHeaderAndReadsBackByItsPuzzleColumn) {
  const std::string out = Format(OutputFormat::kCsv);
  EXPECT_EQ(out, "puzzle,solution,verdict,error,rating\n" + kWikipediaPuzzle + "," +
                     kWikipediaSolution + ",solved,,\n" + kWikipediaPuzzle + "," +
                     kWikipediaSolution + ",multiple,,\n" +
                     ",,invalid,\"line 3: expected 81 cells, found 5\",\n"
                     "\"" +
                     kWikipediaPuzzle.substr(0, 80) +
                     "\"\"\",,invalid,\"line 4, column 81: bad character '\"\"' (expected 1-9, "
                     "or . 0 _ - * for a blank)\",\n");
  const auto records = ReadAll(out);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].text(), kWikipediaPuzzle);
  EXPECT_EQ(records[1].text(), kWikipediaPuzzle);
  // The row of a puzzle that could not be read has no puzzle to give back.
  EXPECT_EQ(Describe(records[2].error), "expected 81 cells, found 0");
}

TEST(OutputFormat, RatingsInEveryFormatButNotForPencilmarks) {
  const std::string marks = Pencilmarks(kWikipediaPuzzle);
  std::istringstream in(kWikipediaPuzzle + "\n" + marks + "\n");
  Batcher batcher({}, 100, 1, &in);
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  wire::SolveResponse response;
  for (int i = 0; i < 2; ++i) {
    response.add_verdicts(wire::SOLVED);
    response.add_solution_counts(1);
    response.add_guesses(0);
  }
  response.set_solutions(kWikipediaSolution + kWikipediaSolution);
  response.add_hardest_techniques(wire::HIDDEN_SINGLE);
  response.add_hardest_techniques(wire::NAKED_SINGLE);  // the zeros of an unrated puzzle
  response.add_steps(51);
  response.add_steps(0);
  response.add_levels(wire::EASY);
  response.add_levels(wire::SIMPLE);
  response.add_logic_guesses(0);
  response.add_logic_guesses(0);
  response.add_hodoku_levels(wire::HODOKU_EASY);
  response.add_hodoku_levels(wire::HODOKU_EASY);
  response.add_hodoku_scores(714);
  response.add_hodoku_scores(0);
  response.add_se_ratings(15);
  response.add_se_ratings(0);
  response.add_se_pearls(15);
  response.add_se_pearls(0);
  response.add_se_diamonds(12);
  response.add_se_diamonds(0);
  auto format = [&](OutputFormat f) {
    Summary summary;
    std::string out;
    AppendResults(batch, &response, std::vector<std::string>{""}, &summary, &out, f);
    return out;
  };
  const std::string rating = "easy hidden-single 51 0 easy 714 1.5 1.5 1.2";
  EXPECT_EQ(format(OutputFormat::kLine),
            kWikipediaSolution + " " + rating + "\n" + kWikipediaSolution + "\n");
  EXPECT_NE(format(OutputFormat::kGrid).find("+-------+-------+-------+\n" + rating + "\n\n"),
            std::string::npos);
  // JSON has the rating as an object (proto/result_json.h), as /api/solve does.
  EXPECT_NE(format(OutputFormat::kJson)
                .find(",\"rating\":{\"level\":\"easy\",\"hardest\":\"hidden single\","
                      "\"steps\":51,\"guesses\":0,\"logic_guesses\":0,\"hodoku_level\":"
                      "\"easy\",\"hodoku_score\":714,\"se\":1.5,\"se_pearl\":1.5,"
                      "\"se_diamond\":1.2}}\n"),
            std::string::npos)
      << format(OutputFormat::kJson);
  EXPECT_EQ(format(OutputFormat::kCsv), kWikipediaPuzzle + "," + kWikipediaSolution +
                                            ",solved,," + rating + "\n" + marks + "," +
                                            kWikipediaSolution + ",solved,,\n");
}

// With one path rated (--rate-only), the other's columns come back empty: the rating is that
// path's part alone, in every format.
TEST(OutputFormat, RatingsOfOnePath) {
  std::istringstream in(kWikipediaPuzzle + "\n");
  Batcher batcher({}, 100, 1, &in);
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  wire::SolveResponse se;
  se.add_verdicts(wire::SOLVED);
  se.add_solution_counts(1);
  se.add_guesses(0);
  se.set_solutions(kWikipediaSolution);
  wire::SolveResponse hodoku = se;
  se.add_se_ratings(15);
  se.add_se_pearls(15);
  se.add_se_diamonds(12);
  hodoku.add_hardest_techniques(wire::HIDDEN_SINGLE);
  hodoku.add_steps(51);
  hodoku.add_levels(wire::EASY);
  hodoku.add_logic_guesses(0);
  hodoku.add_hodoku_levels(wire::HODOKU_EASY);
  hodoku.add_hodoku_scores(714);
  auto format = [&](wire::SolveResponse& response, OutputFormat f) {
    Summary summary;
    std::string out;
    AppendResults(batch, &response, std::vector<std::string>{""}, &summary, &out, f);
    return out;
  };
  EXPECT_EQ(format(se, OutputFormat::kLine), kWikipediaSolution + " 1.5 1.5 1.2\n");
  EXPECT_EQ(format(hodoku, OutputFormat::kLine),
            kWikipediaSolution + " easy hidden-single 51 0 easy 714\n");
  EXPECT_EQ(format(se, OutputFormat::kCsv),
            kWikipediaPuzzle + "," + kWikipediaSolution + ",solved,,1.5 1.5 1.2\n");
  EXPECT_NE(format(se, OutputFormat::kJson)
                .find(",\"rating\":{\"guesses\":0,\"se\":1.5,\"se_pearl\":1.5,"
                      "\"se_diamond\":1.2}}\n"),
            std::string::npos)
      << format(se, OutputFormat::kJson);
  EXPECT_NE(format(hodoku, OutputFormat::kJson)
                .find(",\"rating\":{\"level\":\"easy\",\"hardest\":\"hidden single\","
                      "\"steps\":51,\"guesses\":0,\"logic_guesses\":0,\"hodoku_level\":"
                      "\"easy\",\"hodoku_score\":714}}\n"),
            std::string::npos)
      << format(hodoku, OutputFormat::kJson);
}

// A daemon whose rating columns fall short of the batch is caught: the results would not line
// up with the puzzles.
TEST(OutputFormat, ShortRatingColumnsAreAMismatch) {
  std::istringstream in(kWikipediaPuzzle + "\n" + kWikipediaPuzzle + "\n");
  Batcher batcher({}, 100, 1, &in);
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  wire::SolveResponse solved;
  for (int i = 0; i < 2; ++i) {
    solved.add_verdicts(wire::SOLVED);
    solved.add_solution_counts(1);
    solved.add_guesses(0);
  }
  solved.set_solutions(kWikipediaSolution + kWikipediaSolution);
  auto mismatch = [&](wire::SolveResponse response) {
    return ClientErrorOf([&] {
      Summary summary;
      std::string out;
      AppendResults(batch, &response, std::vector<std::string>{""}, &summary, &out,
                    OutputFormat::kLine);
    });
  };
  wire::SolveResponse hodoku = solved;
  for (int i = 0; i < 2; ++i) {
    hodoku.add_hardest_techniques(wire::HIDDEN_SINGLE);
    hodoku.add_levels(wire::EASY);
  }
  hodoku.add_steps(51);
  EXPECT_EQ(mismatch(hodoku), "batch 0: rating columns of 2, 1 and 2 entries for 2 puzzles");
  wire::SolveResponse se = solved;
  for (int i = 0; i < 2; ++i) {
    se.add_se_ratings(15);
    se.add_se_diamonds(12);
  }
  se.add_se_pearls(15);
  EXPECT_EQ(mismatch(se), "batch 0: SE rating columns of 2, 1 and 2 entries for 2 puzzles");
}

// ---- solve's formats, end to end against the fake daemon ----

TEST(SolveFormats, CsvInCsvOut) {
  testing::FakeDaemon daemon;
  SolveOptions options;
  std::ostringstream help;
  ASSERT_TRUE(ParseSolveOptions(
      {"--connect", daemon.address(), "--format", "csv", "--input-format", "csv"}, &options, help));
  std::istringstream in("id,quizzes,solutions\n1," + kWikipediaPuzzle + "," + kWikipediaSolution +
                        "\n");
  std::ostringstream out, err;
  EXPECT_EQ(RunSolve(options, in, out, err), 0) << err.str();
  EXPECT_EQ(out.str(), "puzzle,solution,verdict,error,rating\n" + kWikipediaPuzzle + "," +
                           kWikipediaSolution + ",solved,,\n");
}

}  // namespace
}  // namespace sudoku::client
