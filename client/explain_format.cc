#include "client/explain_format.h"

#include <vector>

#include "client/client_error.h"
#include "client/json_output.h"
#include "proto/explain_wire.h"
#include "proto/verdicts.h"
#include "solver/explain_text.h"

namespace sudoku::client {
namespace {

using logic::CellDigit;
using logic::Step;
using logic::Technique;
using logic::UnitName;

Json CellDigits(const std::vector<CellDigit>& list) {
  Json out = Json::array();
  for (const CellDigit& item : list) {
    out.push_back(Json{{"cell", logic::CellName(item.cell)}, {"digit", item.digit}});
  }
  return out;
}

// The digits still possible in each cell, as 81 strings ("", "1357", ...).
Json CandidateStrings(const logic::Candidates& candidates) {
  Json out = Json::array();
  for (int cell = 0; cell < kCells; ++cell) {
    std::string digits;
    for (int digit = 1; digit <= 9; ++digit) {
      if ((candidates[cell] >> (digit - 1)) & 1) digits += static_cast<char>('0' + digit);
    }
    out.push_back(std::move(digits));
  }
  return out;
}

Json StepJson(const Step& step, int number, const logic::Candidates* candidates) {
  Json units = Json::array();
  for (const logic::Unit& unit : step.units) units.push_back(UnitName(unit));
  Json cells = Json::array();
  for (const uint8_t cell : step.cells) cells.push_back(logic::CellName(cell));
  Json json = {{"step", number},
               {"technique", logic::Name(step.technique)},
               {"text", DescribeStep(step)},
               {"placements", CellDigits(step.placements)},
               {"eliminations", CellDigits(step.eliminations)},
               {"units", std::move(units)},
               {"cells", std::move(cells)},
               {"digits", step.digits}};
  if (candidates != nullptr) json["candidates"] = CandidateStrings(*candidates);
  return json;
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
      Json object = {{"puzzle", puzzle}, {"verdict", wire::VerdictName(verdict)}};
      if (verdict == wire::INVALID) {
        object["error"] = {{"where", where}, {"message", response.error().message()}};
      }
      return JsonLine(object);
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
  Json steps = Json::array();
  if (!json) {
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
      steps.push_back(StepJson(step, i + 1, candidates ? &remaining : nullptr));
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
    return JsonLine({{"puzzle", puzzle},
                     {"verdict", wire::VerdictName(verdict)},
                     {"steps", std::move(steps)},
                     {"solution", response.solution()},
                     {"rating",
                      {{"level", level},
                       {"hardest", hardest},
                       {"steps", response.steps_size()},
                       {"guesses", response.guesses()},
                       {"logic_guesses", logic_guesses}}}});
  }
  out += "solution: " + response.solution() + "\n";
  out += "rating: level " + level + ", hardest technique " + hardest + ", " +
         std::to_string(response.steps_size()) +
         (response.steps_size() == 1 ? " step, " : " steps, ") +
         std::to_string(response.guesses()) +
         (response.guesses() == 1 ? " guess" : " guesses") + " by the solver\n";
  return out;
}

}  // namespace sudoku::client
