#include "client/explain_format.h"

#include <string>
#include <vector>

#include "client/client_error.h"
#include "client/json_output.h"
#include "proto/result_json.h"
#include "proto/explain_wire.h"
#include "proto/verdicts.h"
#include "solver/explain_text.h"
#include "solver/rating.h"

namespace sudoku::client {

using logic::Step;

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
      return JsonLine(verdict == wire::INVALID
                          ? wire::InvalidJson(puzzle, where, response.error().message())
                          : wire::UnsolvableJson(puzzle, response.error().message()));
    }
    if (verdict == wire::UNSOLVABLE) {
      return response.error().message().empty() ? "unsolvable\n"
                                                : "unsolvable: " + response.error().message() + "\n";
    }
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
  logic::Candidates remaining{};
  if (!logic::ExplanationStart(puzzle, &grid, &remaining)) {
    throw ClientError("the daemon explained an invalid puzzle");
  }
  std::vector<Step> steps;
  try {
    if (json) return JsonLine(wire::ExplanationJson(response, puzzle, candidates));
    steps = wire::StepsFromWire(response);
  } catch (const wire::BadStep& error) {
    throw ClientError(error.what());
  }
  out = "puzzle: " + std::string(puzzle) + "\n";
  if (verdict == wire::MULTIPLE) {
    out += "multiple solutions: where a digit is chosen, the steps follow one solution\n";
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    if (candidates) out += DrawCandidates(grid, remaining);
    out += "step " + std::to_string(i + 1) + ": " + DescribeStep(steps[i]) + "\n";
    logic::Apply(steps[i], &grid, &remaining);
  }
  const std::string level = wire::LevelName(response.level());
  const std::string hardest = wire::TechniqueName(response.hardest_technique());
  out += "solution: " + response.solution() + "\n";
  out += "rating: level " + level + ", hardest technique " + hardest + ", " +
         std::to_string(response.steps_size()) +
         (response.steps_size() == 1 ? " step, " : " steps, ") +
         std::to_string(response.guesses()) +
         (response.guesses() == 1 ? " guess" : " guesses") + " by the solver\n";
  out += "rating: HoDoKu " + wire::HodokuLevelName(response.hodoku_level()) + " (" +
         std::to_string(response.hodoku_score()) + "), SE " +
         rating::SeText(response.se_rating());
  // SE's pearl and diamond (a daemon older than them sends neither: 0).
  if (response.se_pearl() != 0) {
    out += " (EP " + rating::SeText(response.se_pearl()) + ", ED " +
           rating::SeText(response.se_diamond()) + ")";
  }
  out += "\n";
  return out;
}

}  // namespace sudoku::client
