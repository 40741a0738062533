// Fuzz target: the puzzle parsers (ParsePuzzle, ParsePackedPuzzle), which every puzzle from a
// client or a file goes through before the kernel, which trusts its input.
//
// Input: one puzzle text, any bytes and any length. Checked: an accepted text is 81 characters
// and its grid holds exactly its givens; a refused one names the first error in text order,
// pointing inside the text (for a repeated digit: two cells of one unit holding that digit);
// Describe() says something; Solve() refuses the same text with the same error. The first 41
// bytes, read as a packed puzzle: accepted exactly when every cell is 0-9, the padding is 0 and
// the same digits as text are accepted, to the same grid (and pack back to those bytes); else
// the first bad cell, the text's repeat error, or the padding, in that order.
#include <algorithm>
#include <span>
#include <string>
#include <string_view>

#include "solver/solver.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using sudoku::PuzzleError;

bool IsBlank(char c) { return c == '.' || c == '0' || c == '_' || c == '-' || c == '*'; }
bool IsDigit(char c) { return c >= '1' && c <= '9'; }

bool SameUnit(PuzzleError::Kind kind, uint32_t a, uint32_t b) {
  switch (kind) {
    case PuzzleError::Kind::kRowRepeat: return a / 9 == b / 9;
    case PuzzleError::Kind::kColumnRepeat: return a % 9 == b % 9;
    case PuzzleError::Kind::kBoxRepeat: return a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3;
    default: return false;
  }
}

void CheckPacked(std::span<const uint8_t, sudoku::kPackedBytes> packed) {
  char digits[81];
  sudoku::UnpackDigits(packed, digits);  // '0' + each cell, so ':' to '?' for 10 to 15
  int first_bad = -1;
  for (int i = 0; i < 81 && first_bad < 0; ++i) {
    if (digits[i] > '9') first_bad = i;
  }
  const auto padding = static_cast<uint32_t>(packed[40] >> 4);
  sudoku::Grid grid;
  const PuzzleError error = sudoku::ParsePackedPuzzle(packed, &grid);
  sudoku::Grid text_grid;
  if (first_bad >= 0) {
    // The text form up to the bad cell decides whether a repeat comes first.
    std::string text(digits, 81);
    for (size_t i = static_cast<size_t>(first_bad); i < 81; ++i) text[i] = '0';
    const PuzzleError before = sudoku::ParsePuzzle(text, &text_grid);
    if (before && before.position < static_cast<uint32_t>(first_bad)) {
      FUZZ_CHECK(sudoku::Describe(error) == sudoku::Describe(before));
    } else {
      FUZZ_CHECK(error.kind == PuzzleError::Kind::kPackedValue);
      FUZZ_CHECK(error.position == static_cast<uint32_t>(first_bad));
      FUZZ_CHECK(error.found == static_cast<uint32_t>(digits[first_bad] - '0'));
    }
    return;
  }
  const PuzzleError text_error = sudoku::ParsePuzzle(std::string_view(digits, 81), &text_grid);
  if (text_error) {
    FUZZ_CHECK(sudoku::Describe(error) == sudoku::Describe(text_error));
    return;
  }
  if (padding != 0) {
    FUZZ_CHECK(error.kind == PuzzleError::Kind::kPackedValue);
    FUZZ_CHECK(error.position == 81 && error.found == padding);
    return;
  }
  FUZZ_CHECK(!error);
  FUZZ_CHECK(grid == text_grid);
  sudoku::PackedGrid again;
  FUZZ_CHECK(sudoku::PackPuzzle(std::string_view(digits, 81), again));
  FUZZ_CHECK(std::equal(again.begin(), again.end(), packed.begin()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size >= sudoku::kPackedBytes) {
    CheckPacked(std::span<const uint8_t, sudoku::kPackedBytes>(data, sudoku::kPackedBytes));
  }
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  sudoku::Grid grid;
  const PuzzleError error = sudoku::ParsePuzzle(text, &grid);
  if (!error) {
    FUZZ_CHECK(text.size() == 81);
    for (size_t i = 0; i < 81; ++i) {
      if (IsBlank(text[i])) {
        FUZZ_CHECK(grid[i] == 0);
      } else {
        FUZZ_CHECK(IsDigit(text[i]));
        FUZZ_CHECK(grid[i] == text[i] - '0');
      }
    }
    return 0;
  }
  FUZZ_CHECK(!sudoku::Describe(error).empty());
  switch (error.kind) {
    case PuzzleError::Kind::kLength:
      FUZZ_CHECK(text.size() != 81);
      FUZZ_CHECK(error.found == text.size());
      break;
    case PuzzleError::Kind::kCharacter:
      FUZZ_CHECK(text.size() == 81 && error.position < 81);
      FUZZ_CHECK(error.character == text[error.position]);
      FUZZ_CHECK(!IsBlank(text[error.position]) && !IsDigit(text[error.position]));
      // The first bad character: everything before it is a digit or a blank.
      for (uint32_t i = 0; i < error.position; ++i) {
        FUZZ_CHECK(IsBlank(text[i]) || IsDigit(text[i]));
      }
      break;
    case PuzzleError::Kind::kRowRepeat:
    case PuzzleError::Kind::kColumnRepeat:
    case PuzzleError::Kind::kBoxRepeat:
      FUZZ_CHECK(text.size() == 81 && error.position < 81 && error.first < error.position);
      FUZZ_CHECK(IsDigit(error.character));
      FUZZ_CHECK(text[error.position] == error.character && text[error.first] == error.character);
      FUZZ_CHECK(SameUnit(error.kind, error.first, error.position));
      // The first error in text order: nothing before the repeat is a bad character.
      for (uint32_t i = 0; i < error.position; ++i) {
        FUZZ_CHECK(IsBlank(text[i]) || IsDigit(text[i]));
      }
      break;
    default:
      FUZZ_CHECK(false);
  }
  // 729 characters make a pencilmark puzzle to Solve(), which ParseCandidates checks instead.
  if (text.size() == 729) return 0;
  const sudoku::Result result = sudoku::Solve(text);
  FUZZ_CHECK(result.verdict == sudoku::Verdict::kInvalid);
  FUZZ_CHECK(result.solutions == 0);
  FUZZ_CHECK(result.error.kind == error.kind && result.error.position == error.position);
  return 0;
}
