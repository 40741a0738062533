#include "client/explain_format.h"

#include <vector>

#include "client/client_error.h"
#include "client/result_format.h"
#include "proto/explain_wire.h"
#include "proto/verdicts.h"
#include "solver/explain_text.h"

namespace sudoku::client {
namespace {

using logic::CellDigit;
using logic::Step;
using logic::Technique;
using logic::UnitName;

// The texts written here (messages may quote control bytes), escaped as solve --format json does.
std::string JsonString(std::string_view text) {
  std::string out;
  AppendJsonString(text, &out);
  return out;
}

std::string JsonCellDigits(const std::vector<CellDigit>& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) out += ", ";
    out += "{\"cell\": \"" + logic::CellName(list[i].cell) +
           "\", \"digit\": " + std::to_string(list[i].digit) + "}";
  }
  return out + "]";
}

}  // namespace

Step StepFromWire(const wire::ExplainStep& wire_step, int number) {
  try {
    return wire::StepFromWire(wire_step);
  } catch (const wire::BadStep& error) {
    throw ClientError("step " + std::to_string(number) + ": " + error.what());
  }
}

std::string DescribeStep(const Step& step) { return logic::Describe(step); }

std::string DrawCandidates(const Grid& grid, const logic::Candidates& candidates) {
  const std::string rule = "+-------------+-------------+-------------+\n";
  std::string out = rule;
  for (int row = 0; row < 9; ++row) {
    for (int line = 0; line < 3; ++line) {
      out += '|';
      for (int column = 0; column < 9; ++column) {
        const int cell = row * 9 + column;
        out += ' ';
        for (int i = 0; i < 3; ++i) {
          const int digit = line * 3 + i + 1;
          if (grid[cell]) {
            out += line != 1 ? ' '
                   : i == 1  ? static_cast<char>('0' + grid[cell])
                   : i == 0  ? '['
                             : ']';
          } else {
            out += (candidates[cell] >> (digit - 1)) & 1 ? static_cast<char>('0' + digit) : '.';
          }
        }
        if (column % 3 == 2) out += " |";
      }
      out += '\n';
    }
    out += row % 3 == 2 ? rule : "|             |             |             |\n";
  }
  return out;
}

std::string FormatExplanation(const wire::ExplainResponse& response, std::string_view puzzle,
                              const LocateError& locate, bool candidates, bool json) {
  std::string out;
  const int verdict = response.verdict();
  if (verdict == wire::INVALID || verdict == wire::UNSOLVABLE) {
    if (response.steps_size() > 0) {
      throw ClientError(std::string(wire::VerdictName(verdict)) + " puzzle with " +
                        std::to_string(response.steps_size()) + " steps");
    }
    const std::string where =
        verdict == wire::INVALID ? locate(response.error().position()) : std::string();
    if (json) {
      out =
          "{\"puzzle\": " + JsonString(puzzle) + ", \"verdict\": \"" +
          wire::VerdictName(verdict) + "\"";
      if (verdict == wire::INVALID) {
        out += ", \"error\": {\"where\": " + JsonString(where) +
               ", \"message\": " + JsonString(response.error().message()) + "}";
      }
      return out + "}\n";
    }
    if (verdict == wire::UNSOLVABLE) return "unsolvable\n";
    return "invalid: " + where + ": " + response.error().message() + "\n";
  }
  if (verdict != wire::SOLVED && verdict != wire::MULTIPLE) {
    throw ClientError("unknown verdict " + std::to_string(verdict));
  }
  if (response.solution().size() != static_cast<size_t>(kCells)) {
    throw ClientError("a solution of " + std::to_string(response.solution().size()) +
                      " characters");
  }

  Grid grid{};
  if (ParsePuzzle(puzzle, &grid)) throw ClientError("the daemon explained an invalid puzzle");
  logic::Candidates remaining = logic::InitialCandidates(grid);
  if (json) {
    out = "{\"puzzle\": " + JsonString(puzzle) + ", \"verdict\": \"" + wire::VerdictName(verdict) +
          "\", \"steps\": [";
  } else {
    out = "puzzle: " + std::string(puzzle) + "\n";
    if (verdict == wire::MULTIPLE) {
      out += "multiple solutions: the guesses follow the first one found\n";
    }
  }
  uint32_t logic_guesses = 0;
  for (int i = 0; i < response.steps_size(); ++i) {
    const Step step = StepFromWire(response.steps(i), i + 1);
    if (step.technique == Technique::kGuess) ++logic_guesses;
    if (json) {
      if (i) out += ",";
      out += "\n  {\"step\": " + std::to_string(i + 1) + ", \"technique\": \"" +
             logic::Name(step.technique) + "\", \"text\": " + JsonString(DescribeStep(step)) +
             ", \"placements\": " + JsonCellDigits(step.placements) +
             ", \"eliminations\": " + JsonCellDigits(step.eliminations) + ", \"units\": [";
      for (size_t u = 0; u < step.units.size(); ++u) {
        out += (u ? ", \"" : "\"") + UnitName(step.units[u]) + "\"";
      }
      out += "], \"cells\": [";
      for (size_t c = 0; c < step.cells.size(); ++c) {
        out += (c ? ", \"" : "\"") + logic::CellName(step.cells[c]) + "\"";
      }
      out += "], \"digits\": [";
      for (size_t d = 0; d < step.digits.size(); ++d) {
        out += (d ? ", " : "") + std::to_string(step.digits[d]);
      }
      out += "]";
      if (candidates) {
        out += ", \"candidates\": [";
        for (int cell = 0; cell < kCells; ++cell) {
          std::string digits;
          for (int digit = 1; digit <= 9; ++digit) {
            if ((remaining[cell] >> (digit - 1)) & 1) digits += static_cast<char>('0' + digit);
          }
          out += (cell ? ", \"" : "\"") + digits + "\"";
        }
        out += "]";
      }
      out += "}";
    } else {
      if (candidates) out += DrawCandidates(grid, remaining);
      out += "step " + std::to_string(i + 1) + ": " + DescribeStep(step) + "\n";
    }
    logic::Apply(step, &grid, &remaining);
  }
  const std::string level =
      response.level() >= 0 && response.level() <= static_cast<int>(logic::Level::kExpert)
          ? logic::Name(static_cast<logic::Level>(response.level()))
          : "unknown";
  const std::string hardest =
      response.hardest_technique() >= 0 && response.hardest_technique() < logic::kTechniqueCount
          ? logic::Name(static_cast<Technique>(response.hardest_technique()))
          : "unknown";
  if (json) {
    out += "\n], \"solution\": " + JsonString(response.solution()) +
           ", \"rating\": {\"level\": \"" + level + "\", \"hardest\": \"" + hardest +
           "\", \"steps\": " + std::to_string(response.steps_size()) +
           ", \"guesses\": " + std::to_string(response.guesses()) +
           ", \"logic_guesses\": " + std::to_string(logic_guesses) + "}}\n";
  } else {
    out += "solution: " + response.solution() + "\n";
    out += "rating: level " + level + ", hardest technique " + hardest + ", " +
           std::to_string(response.steps_size()) +
           (response.steps_size() == 1 ? " step, " : " steps, ") +
           std::to_string(response.guesses()) +
           (response.guesses() == 1 ? " guess" : " guesses") + " by the solver\n";
  }
  return out;
}

}  // namespace sudoku::client
