#include "client/result_format.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "client/client_error.h"
#include "client/json_output.h"
#include "proto/result_json.h"
#include "proto/explain_wire.h"
#include "solver/logic.h"
#include "solver/rating.h"

namespace sudoku::client {

std::string TechniqueToken(int technique) {
  const std::optional<logic::Technique> known = wire::TechniqueFromWire(technique);
  if (!known) return "technique-" + std::to_string(technique);
  std::string name = logic::Name(*known);
  for (char& c : name) {
    if (c == ' ') c = '-';
  }
  return name;
}

std::string LevelToken(int level) {
  if (level < 0 || level > static_cast<int>(logic::Level::kExpert)) {
    return "level-" + std::to_string(level);
  }
  return logic::Name(static_cast<logic::Level>(level));
}

namespace {

// One puzzle's result, before it is written in the chosen format.
struct Outcome {
  int verdict = wire::INVALID;
  std::string_view puzzle = {};    // empty when a layout error kept it from being read
  std::string_view solution = {};  // solved, and multiple (one of the solutions)
  uint32_t solutions = 0;
  uint32_t guesses = 0;
  std::string where = {};   // invalid only: "line 7, column 12"
  std::string reason = {};  // invalid only: "bad character ..."
  std::optional<wire::RatingColumns> rating = {};  // with --rate, a puzzle the daemon rated
};

// A CSV field, quoted when it holds a comma, a quote or a line break.
void AppendCsvField(std::string_view text, std::string* out) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    out->append(text);
    return;
  }
  out->push_back('"');
  for (const char c : text) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

void AppendGrid(std::string_view solution, std::string* out) {
  constexpr std::string_view kRuler = "+-------+-------+-------+\n";
  for (int row = 0; row < 9; ++row) {
    if (row % 3 == 0) out->append(kRuler);
    for (int column = 0; column < 9; ++column) {
      if (column % 3 == 0) out->append("| ");
      out->push_back(solution[row * 9 + column]);
      out->push_back(' ');
    }
    out->append("|\n");
  }
  out->append(kRuler);
}

// The JSON lines of a batch: one object per line, as proto/result_json.h writes a result.
class JsonLines {
 public:
  explicit JsonLines(std::string* out) : writer_(out) {}

  void Append(const Outcome& outcome) {
    writer_.Append(result_json_.Of({.puzzle = outcome.puzzle,
                                    .verdict = outcome.verdict,
                                    .solution = outcome.solution,
                                    .solutions = outcome.solutions,
                                    .guesses = outcome.guesses,
                                    .rating = outcome.rating,
                                    .where = outcome.where,
                                    .reason = outcome.reason}));
  }

 private:
  JsonLineWriter writer_;
  wire::SolveResultJson result_json_;
};

// "intermediate pointing 57 0 medium 312 2.6 2.6 1.2" (see result_format.h), of the paths rated:
// "intermediate pointing 57 0 medium 312" or "2.6 2.6 1.2".
std::string RatingText(const wire::RatingColumns& rating) {
  std::string text;
  if (rating.hodoku_path) {
    text = fmt::format("{} {} {} {} {} {}", LevelToken(rating.level),
                       TechniqueToken(rating.hardest), rating.steps, rating.guesses,
                       wire::HodokuLevelName(rating.hodoku_level), rating.hodoku_score);
  }
  if (rating.se_path) {
    if (!text.empty()) text.push_back(' ');
    text += fmt::format("{} {} {}", rating::SeText(rating.se_tenths),
                        rating::SeText(rating.se_pearl_tenths),
                        rating::SeText(rating.se_diamond_tenths));
  }
  return text;
}

// Writes `outcome` to `out` in `format`; `json` is the writer of a batch in JSON (else null).
void Append(const Outcome& outcome, OutputFormat format, std::string* out, JsonLines* json) {
  const bool solved = outcome.verdict == wire::SOLVED;
  switch (format) {
    case OutputFormat::kLine:
    case OutputFormat::kGrid:
      if (solved && format == OutputFormat::kGrid) {
        AppendGrid(outcome.solution, out);
        if (outcome.rating) out->append(RatingText(*outcome.rating)).push_back('\n');
        out->push_back('\n');
        return;
      }
      if (solved) {
        out->append(outcome.solution);
        if (outcome.rating) out->append(" ").append(RatingText(*outcome.rating));
      } else if (outcome.verdict == wire::INVALID) {
        out->append("invalid: ").append(outcome.where).append(": ").append(outcome.reason);
      } else {
        out->append(wire::VerdictName(outcome.verdict));
      }
      out->push_back('\n');
      if (format == OutputFormat::kGrid) out->push_back('\n');
      return;
    case OutputFormat::kJson:
      json->Append(outcome);
      return;
    case OutputFormat::kCsv:
      AppendCsvField(outcome.puzzle, out);
      out->push_back(',');
      out->append(outcome.solution);
      out->push_back(',');
      out->append(wire::VerdictName(outcome.verdict));
      out->push_back(',');
      if (outcome.verdict == wire::INVALID) {
        AppendCsvField(outcome.where + ": " + outcome.reason, out);
      }
      out->push_back(',');
      if (outcome.rating) out->append(RatingText(*outcome.rating));
      out->push_back('\n');
      return;
  }
}

// How many puzzles from `first` on are solved, as far as the `available` solutions go.
size_t SolvedRun(const wire::SolveResponse& results, int first, size_t available) {
  const int end = std::min<int>(results.verdicts_size(), first + static_cast<int>(available));
  int i = first;
  while (i < end && results.verdicts(i) == wire::SOLVED) ++i;
  return static_cast<size_t>(i - first);
}

// `count` solutions of `column` from byte `offset` on, one per line: sized once, then copied or
// unpacked in.
void AppendSolutionLines(const SolutionColumn& column, size_t offset, size_t count,
                         std::string* out) {
  // Lines go through a small buffer that stays in the cache, a few at a time: growing `out` by
  // the whole run first would zero-fill it (a batch's lines are over 100 KB) only to overwrite it.
  constexpr size_t kLinesAtOnce = 16;
  std::array<char, kLinesAtOnce * (kCells + 1)> lines;
  const std::string_view solutions = std::string_view(column.bytes).substr(offset);
  out->reserve(out->size() + count * (kCells + 1));
  for (size_t first = 0; first < count; first += kLinesAtOnce) {
    const size_t n = std::min(kLinesAtOnce, count - first);
    char* line = lines.data();
    for (size_t k = first; k < first + n; ++k, line += kCells + 1) {
      if (column.packed) {
        UnpackDigits(PackedAt(solutions, k), line);
      } else {
        std::memcpy(line, solutions.data() + k * kCells, kCells);
      }
      line[kCells] = '\n';
    }
    out->append(lines.data(), n * (kCells + 1));
  }
}

[[noreturn]] void Mismatch(const Batch& batch, const std::string& what) {
  throw ClientError("batch " + std::to_string(batch.sequence) + ": " + what);
}

}  // namespace

SolutionColumn::SolutionColumn(const wire::SolveResponse& response)
    : bytes(response.packed_solutions().empty() ? response.solutions()
                                                : response.packed_solutions()),
      packed(!response.packed_solutions().empty()),
      bytes_each(packed ? kPackedBytes : kCells) {}

std::string_view SolutionColumn::At(size_t offset, std::span<char, kCells> scratch) const {
  if (!packed) return std::string_view(bytes).substr(offset, kCells);
  UnpackDigits(PackedAt(std::string_view(bytes).substr(offset), 0), scratch.data());
  return std::string_view(scratch.data(), kCells);
}

const char* Name(OutputFormat format) {
  switch (format) {
    case OutputFormat::kLine: return "line";
    case OutputFormat::kGrid: return "grid";
    case OutputFormat::kJson: return "json";
    case OutputFormat::kCsv: return "csv";
  }
  return "unknown";
}

bool ParseOutputFormat(std::string_view name, OutputFormat* format) {
  for (const OutputFormat f :
       {OutputFormat::kLine, OutputFormat::kGrid, OutputFormat::kJson, OutputFormat::kCsv}) {
    if (name == Name(f)) {
      *format = f;
      return true;
    }
  }
  return false;
}

std::string OutputHeader(OutputFormat format) {
  return format == OutputFormat::kCsv ? "puzzle,solution,verdict,error,rating\n" : "";
}

bool ShowsPuzzles(OutputFormat format) {
  return format == OutputFormat::kJson || format == OutputFormat::kCsv;
}

void AppendResults(const Batch& batch, const wire::SolveResponse* response,
                   std::span<const std::string> prefixes, Summary* summary, std::string* out,
                   OutputFormat format) {
  static const wire::SolveResponse kEmpty;
  const wire::SolveResponse& results = response != nullptr ? *response : kEmpty;
  if (static_cast<size_t>(results.verdicts_size()) != batch.sent) {
    Mismatch(batch, std::to_string(results.verdicts_size()) + " verdicts for " +
                        std::to_string(batch.sent) + " puzzles");
  }
  const SolutionColumn solutions(results);
  std::optional<JsonLines> json_lines;
  if (format == OutputFormat::kJson) json_lines.emplace(out);
  JsonLines* const json = json_lines ? &*json_lines : nullptr;
  std::array<char, kCells> unpacked;
  size_t solution_offset = 0;
  int error_index = 0;
  int result = 0;  // index among the records sent
  out->reserve(out->size() + batch.size * (kCells + 1));
  // Each path's rating columns are all present or all absent (the request asked for them or
  // not, SolveRequest.rating_scope).
  const bool hodoku_rated = results.hardest_techniques_size() > 0;
  if (hodoku_rated && (results.hardest_techniques_size() != results.verdicts_size() ||
                       results.steps_size() != results.verdicts_size() ||
                       results.levels_size() != results.verdicts_size())) {
    Mismatch(batch, "rating columns of " + std::to_string(results.hardest_techniques_size()) +
                        ", " + std::to_string(results.steps_size()) + " and " +
                        std::to_string(results.levels_size()) + " entries for " +
                        std::to_string(results.verdicts_size()) + " puzzles");
  }
  const bool se_rated = results.se_ratings_size() > 0;
  if (se_rated && (results.se_ratings_size() != results.verdicts_size() ||
                   results.se_pearls_size() != results.verdicts_size() ||
                   results.se_diamonds_size() != results.verdicts_size())) {
    Mismatch(batch, "SE rating columns of " + std::to_string(results.se_ratings_size()) + ", " +
                        std::to_string(results.se_pearls_size()) + " and " +
                        std::to_string(results.se_diamonds_size()) + " entries for " +
                        std::to_string(results.verdicts_size()) + " puzzles");
  }
  const bool rated = hodoku_rated || se_rated;
  // What bulk runs ask for, a solution per line, takes a loop that builds no Outcome and reads
  // no record: a batch is answered long after it was read, and its records (over a kilobyte
  // each) have left the cache by then. Without layout errors, record i is puzzle i sent.
  const bool plain_lines = format == OutputFormat::kLine && !rated && batch.sent == batch.size;

  for (size_t i = 0; i < batch.size; ++i) {
    if (plain_lines) {
      const size_t solved = SolvedRun(
          results, result, (solutions.bytes.size() - solution_offset) / solutions.bytes_each);
      if (solved > 0) {
        AppendSolutionLines(solutions, solution_offset, solved, out);
        summary->Count(wire::SOLVED, solved);
        solution_offset += solved * solutions.bytes_each;
        result += static_cast<int>(solved);
        i += solved - 1;
        continue;
      }
    }
    const PuzzleRecord& record = batch.records[i];
    const std::string& prefix = prefixes[batch.inputs[i]];
    if (record.error) {
      summary->Count(wire::INVALID);
      Outcome outcome;
      outcome.where = prefix + Locate(record.error);
      outcome.reason = Describe(record.error);
      Append(outcome, format, out, json);
      continue;
    }
    const int verdict = results.verdicts(result);
    Outcome outcome;
    outcome.puzzle = record.text();
    if (result < results.solution_counts_size()) {
      outcome.solutions = results.solution_counts(result);
    }
    if (result < results.guesses_size()) outcome.guesses = results.guesses(result);
    switch (verdict) {
      case wire::SOLVED:
      case wire::MULTIPLE:
        if (solutions.bytes.size() < solution_offset + solutions.bytes_each) {
          Mismatch(batch, "solutions end at byte " + std::to_string(solutions.bytes.size()) +
                              ", before the one for puzzle " + std::to_string(result));
        }
        outcome.verdict = verdict;
        outcome.solution = solutions.At(solution_offset, unpacked);
        // Pencilmark puzzles come back unrated (zeros), so they get no rating.
        if (rated && record.size == kCells) outcome.rating = wire::RatingOf(results, result);
        Append(outcome, format, out, json);
        solution_offset += solutions.bytes_each;
        break;
      case wire::UNSOLVABLE:
        outcome.verdict = verdict;
        Append(outcome, format, out, json);
        break;
      case wire::INVALID: {
        if (error_index == results.errors_size() ||
            results.errors(error_index).index() != static_cast<uint32_t>(result)) {
          Mismatch(batch, "no error given for invalid puzzle " + std::to_string(result));
        }
        const wire::PuzzleError& error = results.errors(error_index++);
        if (error.position() > record.size) {
          Mismatch(batch, "error position " + std::to_string(error.position()) +
                              " is outside puzzle " + std::to_string(result));
        }
        const std::string where = error.position() == 0
                                      ? LocateRecord(record)
                                      : LocateCell(record, static_cast<int>(error.position()) - 1);
        outcome.where = prefix + where;
        outcome.reason = error.message();
        Append(outcome, format, out, json);
        break;
      }
      default:
        Mismatch(batch, "unknown verdict " + std::to_string(verdict) + " for puzzle " +
                            std::to_string(result));
    }
    summary->Count(verdict);  // a known one: an unknown verdict threw above
    ++result;
  }
  if (solution_offset != solutions.bytes.size()) {
    Mismatch(batch, std::to_string(solutions.bytes.size()) + " solution bytes for " +
                        std::to_string(solution_offset / solutions.bytes_each) +
                        " solved puzzles");
  }
  if (error_index != results.errors_size()) {
    Mismatch(batch, std::to_string(results.errors_size()) + " errors for " +
                        std::to_string(error_index) + " invalid puzzles");
  }
}

std::vector<std::string> LocationPrefixes(const std::vector<std::string>& display_names) {
  std::vector<std::string> prefixes(display_names.size());
  if (display_names.size() > 1) {
    for (size_t i = 0; i < display_names.size(); ++i) prefixes[i] = display_names[i] + ", ";
  }
  return prefixes;
}

std::string FormatSummary(const Summary& summary, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(summary.total()) / seconds : 0;
  return fmt::format(
      "puzzles {}, solved {}, multiple {}, unsolvable {}, invalid {}, {:.3f} s, {} puzzles/s",
      summary.total(), summary.solved, summary.multiple, summary.unsolvable, summary.invalid,
      seconds, RateText(rate));
}

std::string RateText(double per_second) {
  if (!(per_second > 0)) return "0";
  if (per_second >= 9.95) return fmt::format("{:.0f}", std::round(per_second));
  return fmt::format("{:.2g}", per_second);
}

int ExitStatus(const Summary& summary) { return summary.solved == summary.total() ? 0 : 1; }

}  // namespace sudoku::client
