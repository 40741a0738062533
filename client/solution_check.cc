#include "client/solution_check.h"

#include <cstddef>

#include "solver/solver.h"

namespace sudoku::client {

std::string CheckSolution(std::string_view puzzle, std::string_view solution) {
  if (solution.size() != kCells) {
    return "the solution has " + std::to_string(solution.size()) + " cells, not 81";
  }
  // Appended piece by piece: "r" + std::to_string(...) trips g++ 12's -Wrestrict here.
  auto cell = [](size_t i) {
    std::string text(1, 'r');
    text += std::to_string(i / 9 + 1);
    text += 'c';
    text += std::to_string(i % 9 + 1);
    return text;
  };
  for (size_t i = 0; i < kCells; ++i) {
    if (solution[i] < '1' || solution[i] > '9') {
      return "cell " + cell(i) + " is '" + std::string(1, solution[i]) + "', not a digit";
    }
    if (puzzle.size() == kCells && puzzle[i] >= '1' && puzzle[i] <= '9' &&
        puzzle[i] != solution[i]) {
      return "given " + std::string(1, puzzle[i]) + " at " + cell(i) + " changed to " +
             std::string(1, solution[i]);
    }
    if (puzzle.size() == kCandidateChars &&
        puzzle[i * 9 + static_cast<size_t>(solution[i] - '1')] != solution[i]) {
      return "digit " + std::string(1, solution[i]) + " at " + cell(i) +
             " is not among its candidates " + std::string(puzzle.substr(i * 9, 9));
    }
  }
  static constexpr const char* kUnits[] = {"row", "column", "box"};
  for (int unit = 0; unit < 3; ++unit) {
    for (int u = 0; u < 9; ++u) {
      unsigned seen = 0;
      for (int k = 0; k < 9; ++k) {
        const int row = unit == 0 ? u : unit == 1 ? k : u / 3 * 3 + k / 3;
        const int column = unit == 0 ? k : unit == 1 ? u : u % 3 * 3 + k % 3;
        const unsigned bit = 1u << (solution[static_cast<size_t>(row * 9 + column)] - '0');
        if (seen & bit) {
          return "digit " + std::string(1, solution[static_cast<size_t>(row * 9 + column)]) +
                 " twice in " + kUnits[unit] + " " + std::to_string(u + 1);
        }
        seen |= bit;
      }
    }
  }
  return "";
}

}  // namespace sudoku::client
