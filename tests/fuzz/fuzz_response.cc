// Fuzz target: what sudoku-client makes of a daemon's answers. A Response frame body, as any
// daemon (a newer one, a broken one, a hostile one) may send it, goes to the code that writes it
// for the user: a SolveResponse to AppendResults (client/result_format.h) in each output format,
// for a batch of five records (a puzzle, a layout error, a puzzle with a repeated digit,
// pencilmarks, an empty grid), and an ExplainResponse to FormatExplanation
// (client/explain_format.h) as text and as JSON, with and without candidates, for a puzzle the
// first byte picks.
//
// Input: one byte (which puzzle an explanation is of), then a frame body. Checked: a response
// that does not fit is refused with a ClientError and nothing else; one that fits gives, in JSON,
// one valid object per record (per explanation) that names the record's puzzle, and in every
// format at least one line per record.
#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/batcher.h"
#include "client/client_error.h"
#include "client/explain_format.h"
#include "client/result_format.h"
#include "proto/sudoku.pb.h"
#include "solver/puzzle_reader.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

namespace client = sudoku::client;
namespace wire = sudoku::wire;

constexpr std::string_view kPuzzle =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
// A puzzle whose explanation takes nested trials (tests/support/puzzles.h, kNestedTrialPuzzle).
constexpr std::string_view kNestedTrialPuzzle =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

std::string Pencilmarks(std::string_view puzzle) {
  std::string marks;
  for (const char c : puzzle) marks += c == '.' ? std::string("123456789") : std::string(9, c);
  return marks;
}

// The batch every SolveResponse answers: five records, four of them sent.
const client::Batch& TheBatch() {
  static const client::Batch batch = [] {
    std::string repeated(kPuzzle);
    repeated[3] = '5';
    std::istringstream in(std::string(kPuzzle) + "\n12345\n" + repeated + "\n" +
                          Pencilmarks(kPuzzle) + "\n" + std::string(81, '.') + "\n");
    sudoku::PuzzleReader reader(&in);
    client::Batch batch;
    for (sudoku::PuzzleRecord record; reader.Next(&record);) {
      batch.records.push_back(record);
      batch.inputs.push_back(0);
      if (!record.error) ++batch.sent;
    }
    batch.size = batch.records.size();
    return batch;
  }();
  return batch;
}

size_t Lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

void CheckSolve(const wire::SolveResponse& response) {
  const client::Batch& batch = TheBatch();
  const std::vector<std::string> prefixes = {""};
  for (const client::OutputFormat format :
       {client::OutputFormat::kLine, client::OutputFormat::kGrid, client::OutputFormat::kJson,
        client::OutputFormat::kCsv}) {
    client::Summary summary;
    std::string out;
    try {
      client::AppendResults(batch, &response, prefixes, &summary, &out, format);
    } catch (const client::ClientError& error) {
      FUZZ_CHECK(std::string_view(error.what()).starts_with("batch 0: "));
      continue;
    }
    FUZZ_CHECK(summary.total() == batch.size);
    FUZZ_CHECK(Lines(out) >= batch.size);
    if (format != client::OutputFormat::kJson) continue;
    FUZZ_CHECK(Lines(out) == batch.size);
    std::istringstream lines(out);
    size_t i = 0;
    for (std::string line; std::getline(lines, line); ++i) {
      FUZZ_CHECK(nlohmann::json::accept(line));
      const nlohmann::json object = nlohmann::json::parse(line);
      FUZZ_CHECK(object.contains("verdict"));
      if (!batch.records[i].error) FUZZ_CHECK(object["puzzle"] == batch.records[i].text());
    }
  }
}

void CheckExplain(const wire::ExplainResponse& response, std::string_view puzzle) {
  const client::LocateError locate = [](uint32_t position) {
    return "argument, column " + std::to_string(position);
  };
  for (const bool candidates : {false, true}) {
    for (const bool json : {false, true}) {
      std::string out;
      try {
        out = client::FormatExplanation(response, puzzle, locate, candidates, json);
      } catch (const client::ClientError& error) {
        FUZZ_CHECK(error.what()[0] != '\0');
        continue;
      }
      FUZZ_CHECK(!out.empty() && out.back() == '\n');
      if (!json) continue;
      FUZZ_CHECK(Lines(out) == 1);
      FUZZ_CHECK(nlohmann::json::accept(out));
      FUZZ_CHECK(nlohmann::json::parse(out)["puzzle"] == puzzle);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view puzzle = data[0] % 2 == 0 ? kPuzzle : kNestedTrialPuzzle;
  wire::Response response;
  if (!response.ParseFromArray(data + 1, static_cast<int>(size - 1))) return 0;
  if (response.has_solve()) CheckSolve(response.solve());
  if (response.has_explain()) CheckExplain(response.explain(), puzzle);
  return 0;
}
