#include "client/result_format.h"

#include <cmath>
#include <cstdio>

#include "client/client_error.h"
#include "solver/logic.h"

namespace sudoku::client {

std::string TechniqueToken(int technique) {
  if (technique < 0 || technique >= logic::kTechniqueCount) {
    return "technique-" + std::to_string(technique);
  }
  std::string name = logic::Name(static_cast<logic::Technique>(technique));
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

void AppendInvalid(std::string_view prefix, const std::string& where, const std::string& reason,
                   std::string* out) {
  out->append("invalid: ");
  out->append(prefix);
  out->append(where);
  out->append(": ");
  out->append(reason);
  out->push_back('\n');
}

// " intermediate pointing 57 0" (see result_format.h).
void AppendRating(const wire::SolveResponse& results, int index, std::string* out) {
  out->push_back(' ');
  out->append(LevelToken(results.levels(index)));
  out->push_back(' ');
  out->append(TechniqueToken(results.hardest_techniques(index)));
  out->push_back(' ');
  out->append(std::to_string(results.steps(index)));
  out->push_back(' ');
  out->append(std::to_string(results.guesses_size() > index ? results.guesses(index) : 0));
}

[[noreturn]] void Mismatch(const Batch& batch, const std::string& what) {
  throw ClientError("batch " + std::to_string(batch.sequence) + ": " + what);
}

}  // namespace

void AppendResults(const Batch& batch, const wire::SolveResponse* response,
                   std::span<const std::string> prefixes, Summary* summary, std::string* out) {
  static const wire::SolveResponse kEmpty;
  const wire::SolveResponse& results = response != nullptr ? *response : kEmpty;
  if (static_cast<size_t>(results.verdicts_size()) != batch.sent) {
    Mismatch(batch, std::to_string(results.verdicts_size()) + " verdicts for " +
                        std::to_string(batch.sent) + " puzzles");
  }
  const std::string& solutions = results.solutions();
  size_t solution_offset = 0;
  int error_index = 0;
  int result = 0;  // index among the records sent
  out->reserve(out->size() + batch.size * (kCells + 1));
  // Rating columns are all present or all absent (the request asked for them or not).
  const bool rated = results.hardest_techniques_size() > 0;
  if (rated && (results.hardest_techniques_size() != results.verdicts_size() ||
                results.steps_size() != results.verdicts_size() ||
                results.levels_size() != results.verdicts_size())) {
    Mismatch(batch, "rating columns of " + std::to_string(results.hardest_techniques_size()) +
                        ", " + std::to_string(results.steps_size()) + " and " +
                        std::to_string(results.levels_size()) + " entries for " +
                        std::to_string(results.verdicts_size()) + " puzzles");
  }

  for (size_t i = 0; i < batch.size; ++i) {
    const PuzzleRecord& record = batch.records[i];
    const std::string& prefix = prefixes[batch.inputs[i]];
    ++summary->puzzles;
    if (record.error) {
      ++summary->invalid;
      AppendInvalid(prefix, Locate(record.error), Describe(record.error), out);
      continue;
    }
    const int verdict = results.verdicts(result);
    switch (verdict) {
      case wire::SOLVED:
      case wire::MULTIPLE:
        if (solutions.size() < solution_offset + kCells) {
          Mismatch(batch, "solutions end at byte " + std::to_string(solutions.size()) +
                              ", before the one for puzzle " + std::to_string(result));
        }
        if (verdict == wire::SOLVED) {
          ++summary->solved;
          out->append(solutions, solution_offset, kCells);
          if (rated) AppendRating(results, result, out);
          out->push_back('\n');
        } else {
          ++summary->multiple;
          out->append("multiple\n");
        }
        solution_offset += kCells;
        break;
      case wire::UNSOLVABLE:
        ++summary->unsolvable;
        out->append("unsolvable\n");
        break;
      case wire::INVALID: {
        if (error_index == results.errors_size() ||
            results.errors(error_index).index() != static_cast<uint32_t>(result)) {
          Mismatch(batch, "no error given for invalid puzzle " + std::to_string(result));
        }
        const wire::PuzzleError& error = results.errors(error_index++);
        if (error.position() > kCells) {
          Mismatch(batch, "error position " + std::to_string(error.position()) +
                              " is outside puzzle " + std::to_string(result));
        }
        ++summary->invalid;
        const std::string where = error.position() == 0
                                      ? LocateRecord(record)
                                      : LocateCell(record, static_cast<int>(error.position()) - 1);
        AppendInvalid(prefix, where, error.message(), out);
        break;
      }
      default:
        Mismatch(batch, "unknown verdict " + std::to_string(verdict) + " for puzzle " +
                            std::to_string(result));
    }
    ++result;
  }
  if (solution_offset != solutions.size()) {
    Mismatch(batch, std::to_string(solutions.size()) + " solution bytes for " +
                        std::to_string(solution_offset / kCells) + " solved puzzles");
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
  const double rate = seconds > 0 ? static_cast<double>(summary.puzzles) / seconds : 0;
  char text[256];
  std::snprintf(text, sizeof(text),
                "puzzles %llu, solved %llu, multiple %llu, unsolvable %llu, invalid %llu, %.3f s, "
                "%.0f puzzles/s",
                static_cast<unsigned long long>(summary.puzzles),
                static_cast<unsigned long long>(summary.solved),
                static_cast<unsigned long long>(summary.multiple),
                static_cast<unsigned long long>(summary.unsolvable),
                static_cast<unsigned long long>(summary.invalid), seconds, std::round(rate));
  return text;
}

int ExitStatus(const Summary& summary) { return summary.solved == summary.puzzles ? 0 : 1; }

}  // namespace sudoku::client
