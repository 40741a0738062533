// The puzzle layer of solver.h: parsing, validation, messages, and Solve() on top of the kernel.
// Stateless functions; safe from any thread.
#include <cstdio>
#include <string>
#include <string_view>

#include "solver/solver.h"

namespace sudoku {
namespace {

constexpr int Row(uint32_t cell) { return static_cast<int>(cell) / 9; }
constexpr int Column(uint32_t cell) { return static_cast<int>(cell) % 9; }
constexpr int Box(uint32_t cell) { return Row(cell) / 3 * 3 + Column(cell) / 3; }

// "r3c7": 1-based, as players name cells.
// (snprintf rather than operator+: g++ 12 warns falsely on short concatenations, PR 105329.)
std::string CellName(uint32_t cell) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "r%dc%d", Row(cell) + 1, Column(cell) + 1);
  return buffer;
}

// The character as it would be written in C, so that control bytes stay visible: 'x', '\x07'.
std::string Quote(char c) {
  const auto byte = static_cast<unsigned char>(c);
  char buffer[8];
  if (byte == '\'' || byte == '\\') {
    std::snprintf(buffer, sizeof buffer, "'\\%c'", c);
  } else if (byte >= 0x20 && byte < 0x7f) {
    std::snprintf(buffer, sizeof buffer, "'%c'", c);
  } else {
    std::snprintf(buffer, sizeof buffer, "'\\x%02x'", byte);
  }
  return buffer;
}

std::string Repeat(const PuzzleError& error, const char* unit, int number) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "digit %c repeated in %s %d (%s and %s)", error.character,
                unit, number, CellName(error.first).c_str(), CellName(error.position).c_str());
  return buffer;
}

}  // namespace

std::string Describe(const PuzzleError& error) {
  switch (error.kind) {
    case PuzzleError::Kind::kNone:
      return "no error";
    case PuzzleError::Kind::kLength:
      return "expected 81 cells, found " + std::to_string(error.found);
    case PuzzleError::Kind::kCharacter:
      return "bad character " + Quote(error.character).append(
                                    " (expected 1-9, or . 0 _ - for a blank)");
    case PuzzleError::Kind::kRowRepeat:
      return Repeat(error, "row", Row(error.position) + 1);
    case PuzzleError::Kind::kColumnRepeat:
      return Repeat(error, "column", Column(error.position) + 1);
    case PuzzleError::Kind::kBoxRepeat:
      return Repeat(error, "box", Box(error.position) + 1);
  }
  return "unknown error";
}

PuzzleError ParsePuzzle(std::string_view text, Grid* grid) noexcept {
  PuzzleError error;
  if (text.size() != kCells) {
    error.kind = PuzzleError::Kind::kLength;
    error.found = static_cast<uint32_t>(text.size());
    return error;
  }
  // Where each digit was last seen in each row, column and box (cell + 1; 0 = not yet), so that
  // one pass reports the first error in text order and names both cells.
  uint8_t row_seen[9][10] = {};
  uint8_t column_seen[9][10] = {};
  uint8_t box_seen[9][10] = {};
  for (uint32_t cell = 0; cell < kCells; ++cell) {
    const char c = text[cell];
    uint8_t digit = 0;
    if (c >= '1' && c <= '9') {
      digit = static_cast<uint8_t>(c - '0');
    } else if (c != '.' && c != '0' && c != '_' && c != '-') {
      error.kind = PuzzleError::Kind::kCharacter;
      error.character = c;
      error.position = cell;
      return error;
    }
    (*grid)[cell] = digit;
    if (digit == 0) continue;
    uint8_t* const seen[3] = {&row_seen[Row(cell)][digit], &column_seen[Column(cell)][digit],
                              &box_seen[Box(cell)][digit]};
    constexpr PuzzleError::Kind kKinds[3] = {PuzzleError::Kind::kRowRepeat,
                                             PuzzleError::Kind::kColumnRepeat,
                                             PuzzleError::Kind::kBoxRepeat};
    for (int unit = 0; unit < 3; ++unit) {
      if (*seen[unit] != 0) {
        error.kind = kKinds[unit];
        error.character = c;
        error.position = cell;
        error.first = *seen[unit] - 1u;
        return error;
      }
    }
    for (uint8_t* s : seen) *s = static_cast<uint8_t>(cell + 1);
  }
  return error;
}

Result SolveGrid(const Grid& grid, Limits limits) noexcept {
  Result result;
  if (limits.max_solutions == 0) limits.max_solutions = 1;
  ActiveKernel().solve(grid, limits, &result);
  return result;
}

Result Solve(std::string_view text, Limits limits) noexcept {
  Grid grid;
  if (PuzzleError error = ParsePuzzle(text, &grid)) {
    Result result;
    result.verdict = Verdict::kInvalid;
    result.error = error;
    return result;
  }
  return SolveGrid(grid, limits);
}

}  // namespace sudoku
