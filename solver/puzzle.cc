// The puzzle layer of solver.h: parsing, validation, messages, and Solve() on top of the kernel.
// Stateless functions; safe from any thread.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>
#include <string_view>

#include "solver/repeated_givens.h"
#include "solver/solver.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
                                    " (expected 1-9, or . 0 _ - * for a blank)");
    case PuzzleError::Kind::kRowRepeat:
      return Repeat(error, "row", Row(error.position) + 1);
    case PuzzleError::Kind::kColumnRepeat:
      return Repeat(error, "column", Column(error.position) + 1);
    case PuzzleError::Kind::kBoxRepeat:
      return Repeat(error, "box", Box(error.position) + 1);
    case PuzzleError::Kind::kCandidate: {
      const uint32_t digit = error.position % 9 + 1;
      char buffer[160];
      std::snprintf(buffer, sizeof buffer,
                    "bad character %s for candidate %u of %s (expected %u, or . 0 if excluded)",
                    Quote(error.character).c_str(), digit, CellName(error.position / 9).c_str(),
                    digit);
      return buffer;
    }
    case PuzzleError::Kind::kNoCandidate:
      return CellName(error.position / 9) + " has no candidate (all nine digits excluded)";
    case PuzzleError::Kind::kPackedValue:
      if (error.position >= kCells) {
        return "packed padding is " + std::to_string(error.found) + " (expected 0)";
      }
      return "packed cell " + CellName(error.position) + " is " + std::to_string(error.found) +
             " (expected 1-9, or 0 for a blank)";
  }
  return "unknown error";
}

namespace {

// The earlier cell of `unit` (0 row, 1 column, 2 box) holding the same character as `cell`.
uint32_t EarlierInUnit(std::string_view text, uint32_t cell, int unit) {
  for (uint32_t other = 0; other < cell; ++other) {
    const bool same = unit == 0   ? Row(other) == Row(cell)
                      : unit == 1 ? Column(other) == Column(cell)
                                  : Box(other) == Box(cell);
    if (same && text[other] == text[cell]) return other;
  }
  return cell;  // not reached: the caller saw the repeat
}

// Row, column and box of every cell, so that the scan does no division.
struct CellUnits {
  uint8_t row[kCells], column[kCells], box[kCells];
};

constexpr CellUnits MakeCellUnits() {
  CellUnits u{};
  for (uint32_t cell = 0; cell < kCells; ++cell) {
    u.row[cell] = static_cast<uint8_t>(Row(cell));
    u.column[cell] = static_cast<uint8_t>(Column(cell));
    u.box[cell] = static_cast<uint8_t>(Box(cell));
  }
  return u;
}

constexpr CellUnits kCellUnits = MakeCellUnits();

// What each byte means in a puzzle: 1-9 a digit, 0 a blank, kBadCharacter anything else.
constexpr uint8_t kBadCharacter = 10;

struct CharacterTable {
  uint8_t value[256];
};

constexpr CharacterTable MakeCharacterTable() {
  CharacterTable t{};
  for (int c = 0; c < 256; ++c) t.value[c] = kBadCharacter;
  for (int d = 1; d <= 9; ++d) t.value['0' + d] = static_cast<uint8_t>(d);
  for (unsigned char blank : {'.', '0', '_', '-', '*'}) t.value[blank] = 0;
  return t;
}

constexpr CharacterTable kCharacters = MakeCharacterTable();

// The first error in text order, for a text the fast scan found something wrong with.
PuzzleError FirstError(std::string_view text) {
  PuzzleError error;
  uint16_t rows[9] = {}, columns[9] = {}, boxes[9] = {};
  for (uint32_t cell = 0; cell < kCells; ++cell) {
    const char c = text[cell];
    const uint8_t value = kCharacters.value[static_cast<unsigned char>(c)];
    if (value == kBadCharacter) {
      error.kind = PuzzleError::Kind::kCharacter;
      error.character = c;
      error.position = cell;
      return error;
    }
    if (value == 0) continue;
    const auto bit = static_cast<uint16_t>(1u << value);
    uint16_t& row = rows[kCellUnits.row[cell]];
    uint16_t& column = columns[kCellUnits.column[cell]];
    uint16_t& box = boxes[kCellUnits.box[cell]];
    if ((row | column | box) & bit) {
      const int unit = (row & bit) ? 0 : (column & bit) ? 1 : 2;
      constexpr PuzzleError::Kind kKinds[3] = {PuzzleError::Kind::kRowRepeat,
                                               PuzzleError::Kind::kColumnRepeat,
                                               PuzzleError::Kind::kBoxRepeat};
      error.kind = kKinds[unit];
      error.character = c;
      error.position = cell;
      error.first = EarlierInUnit(text, cell, unit);
      return error;
    }
    row |= bit;
    column |= bit;
    box |= bit;
  }
  return error;
}

// What ConvertCells() does to one character: its digit, or 0 for a blank; `*bad` is set for
// anything else.
uint8_t ConvertCell(unsigned char c, uint8_t* bad) {
  const bool digit = static_cast<unsigned char>(c - '1') < 9;
  const bool blank = c == '.' || c == '0' || c == '_' || c == '-' || c == '*';
  *bad |= static_cast<uint8_t>(!(digit || blank));
  return digit ? static_cast<uint8_t>(c - '0') : 0;
}

#if defined(__SSE2__)
// What ConvertCell() does to sixteen characters at once: the cells' values, and in `*bad` a set
// byte for each character that is neither a digit nor a blank.
inline __m128i ConvertSixteen(__m128i c, __m128i* bad) {
  // Unsigned, c - '0' is 0-9 for '0'-'9' and c - '-' is 0-1 for '-' and '.': a lane is in the
  // range when its minimum with the top of the range is itself.
  const __m128i value = _mm_sub_epi8(c, _mm_set1_epi8('0'));
  const __m128i zero_to_nine = _mm_cmpeq_epi8(_mm_min_epu8(value, _mm_set1_epi8(9)), value);
  const __m128i from_dash = _mm_sub_epi8(c, _mm_set1_epi8('-'));
  const __m128i dash_or_dot = _mm_cmpeq_epi8(_mm_min_epu8(from_dash, _mm_set1_epi8(1)), from_dash);
  const __m128i underscore_or_star = _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8('_')),
                                                  _mm_cmpeq_epi8(c, _mm_set1_epi8('*')));
  const __m128i good = _mm_or_si128(zero_to_nine, _mm_or_si128(dash_or_dot, underscore_or_star));
  *bad = _mm_or_si128(*bad, _mm_andnot_si128(good, _mm_set1_epi8(-1)));
  return _mm_and_si128(value, zero_to_nine);  // '0' is 0, a blank, already
}

// Two cells to a byte, low nibble first, in the low byte of each 16-bit lane (the high byte 0).
inline __m128i PairCells(__m128i values) {
  // A lane's high byte, shifted down by four, lands in the high nibble of its low byte; the low
  // byte's own bits 4-7 are 0 (values are at most 9), so nothing else moves there.
  return _mm_or_si128(_mm_and_si128(values, _mm_set1_epi16(0x000f)), _mm_srli_epi16(values, 4));
}
#endif

// Converts the 81 characters without looking for repeated givens: sixteen at a time where SSE2
// is there (every x86-64 CPU). False when a character is neither a digit nor a blank (`grid` is
// then partly written).
bool ConvertCells(std::string_view text, Grid* grid) {
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  uint8_t* out = grid->data();
  uint8_t bad = 0;
  int i = 0;
#if defined(__SSE2__)
  __m128i bad_lanes = _mm_setzero_si128();
  for (; i + 16 <= kCells; i += 16) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), ConvertSixteen(c, &bad_lanes));
  }
  bad = _mm_movemask_epi8(bad_lanes) != 0;
#endif
  for (; i < kCells; ++i) out[i] = ConvertCell(in[i], &bad);
  return bad == 0;
}

// Whether a digit is given twice in a row, column or box of a converted grid. Visits the givens
// only (17 to 30 in most puzzles, against 81 cells), found sixteen cells at a time.
bool HasRepeatedGiven(const Grid& grid) {
  const uint8_t* values = grid.data();
  uint64_t givens[2] = {0, 0};  // bit i % 64 of givens[i / 64]: cell i holds a given
  int i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= kCells; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values + i));
    const auto blanks =
        static_cast<uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())));
    givens[i / 64] |= uint64_t{static_cast<uint16_t>(~blanks)} << (i % 64);
  }
#endif
  for (; i < kCells; ++i) givens[i / 64] |= uint64_t{values[i] != 0} << (i % 64);

  uint16_t rows[9] = {}, columns[9] = {}, boxes[9] = {};
  uint32_t repeats = 0;
  for (uint32_t word = 0; word < 2; ++word) {
    for (uint64_t open = givens[word]; open != 0; open &= open - 1) {
      const uint32_t cell = 64 * word + static_cast<uint32_t>(std::countr_zero(open));
      const auto bit = static_cast<uint16_t>(1u << values[cell]);
      uint16_t& row = rows[kCellUnits.row[cell]];
      uint16_t& column = columns[kCellUnits.column[cell]];
      uint16_t& box = boxes[kCellUnits.box[cell]];
      repeats |= (row | column | box) & bit;
      row |= bit;
      column |= bit;
      box |= bit;
    }
  }
  return repeats != 0;
}

Result Invalid(const PuzzleError& error) {
  Result result;
  result.verdict = Verdict::kInvalid;
  result.error = error;
  return result;
}

// The first error of a grid, found as FirstError() finds it in the grid written as text; a value
// above 9 is written as a character that is neither a digit nor a blank.
PuzzleError FirstErrorOfGrid(const Grid& grid) {
  char text[kCells];
  for (int cell = 0; cell < kCells; ++cell) {
    const uint8_t value = grid[cell];
    text[cell] = value <= 9 ? static_cast<char>('0' + value) : 'x';
  }
  return FirstError(std::string_view(text, kCells));
}

// The padding nibble of a packed puzzle (solver.h: it must be 0).
uint8_t PackedPadding(std::span<const uint8_t, kPackedBytes> packed) {
  return static_cast<uint8_t>(packed[kPackedBytes - 1] >> 4);
}

}  // namespace

PuzzleError internal::FindRepeatedGiven(const Grid& grid) noexcept {
  if (!HasRepeatedGiven(grid)) return PuzzleError{};
  PuzzleError error = FirstErrorOfGrid(grid);
  // A value above 9 is no given (the caller's grid should not hold one): not a repeat.
  if (error.kind == PuzzleError::Kind::kCharacter) return PuzzleError{};
  return error;
}

PuzzleError ParsePuzzle(std::string_view text, Grid* grid) noexcept {
  if (text.size() != kCells) {
    PuzzleError error;
    error.kind = PuzzleError::Kind::kLength;
    error.found = static_cast<uint32_t>(text.size());
    return error;
  }
  // Converted sixteen characters at a time, then checked for repeats among the givens only.
  // Only when something is wrong does FirstError() find which error comes first.
  if (ConvertCells(text, grid) && !HasRepeatedGiven(*grid)) return PuzzleError{};
  return FirstError(text);
}

namespace {

// Packs 81 values 0-15 (bytes of `values` minus `bias`), two to a byte, low nibble first.
void PackValues(const uint8_t* values, uint8_t bias, uint8_t* packed) {
  int i = 0;
#if defined(__SSE2__)
  // Thirty-two cells at a time, then sixteen (the first 80): each 16-bit lane holds an even cell
  // in its low byte and the next cell in its high byte, which is shifted down beside it; packus
  // then keeps the low bytes.
  const __m128i low_byte = _mm_set1_epi16(0x00ff);
  const __m128i nibble = _mm_set1_epi8(0x0f);
  const __m128i offset = _mm_set1_epi8(static_cast<char>(bias));
  auto pair_up = [&](const uint8_t* at) {
    const __m128i v = _mm_and_si128(
        _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at)), offset), nibble);
    return _mm_or_si128(_mm_and_si128(v, low_byte), _mm_slli_epi16(_mm_srli_epi16(v, 8), 4));
  };
  for (; i + 32 <= kCells; i += 32) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(packed + i / 2),
                     _mm_packus_epi16(pair_up(values + i), pair_up(values + i + 16)));
  }
  for (; i + 16 <= kCells; i += 16) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(packed + i / 2),
                     _mm_packus_epi16(pair_up(values + i), _mm_setzero_si128()));
  }
#endif
  for (; i < kCells; i += 2) {
    const auto even = static_cast<uint8_t>((values[i] - bias) & 0x0f);
    const auto odd = i + 1 < kCells ? static_cast<uint8_t>((values[i + 1] - bias) & 0x0f) : 0;
    packed[i / 2] = static_cast<uint8_t>(even | odd << 4);
  }
}

// Unpacks 81 values, each plus `bias`. Returns the largest value (without the bias), so that
// the caller can tell whether any is above 9.
uint8_t UnpackValues(const uint8_t* packed, uint8_t bias, uint8_t* values) {
  uint8_t largest = 0;
  int byte = 0;
#if defined(__SSE2__)
  // Sixteen bytes (32 cells) at a time, then eight (16 cells): the first 80 cells.
  const __m128i nibble = _mm_set1_epi8(0x0f);
  const __m128i offset = _mm_set1_epi8(static_cast<char>(bias));
  __m128i max = _mm_setzero_si128();
  for (; 2 * byte + 32 <= kCells; byte += 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(packed + byte));
    const __m128i even = _mm_and_si128(b, nibble);
    const __m128i odd = _mm_and_si128(_mm_srli_epi16(b, 4), nibble);
    max = _mm_max_epu8(max, _mm_max_epu8(even, odd));
    uint8_t* out = values + 2 * byte;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                     _mm_add_epi8(_mm_unpacklo_epi8(even, odd), offset));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16),
                     _mm_add_epi8(_mm_unpackhi_epi8(even, odd), offset));
  }
  for (; 2 * byte + 16 <= kCells; byte += 8) {
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(packed + byte));
    const __m128i even = _mm_and_si128(b, nibble);
    const __m128i odd = _mm_and_si128(_mm_srli_epi16(b, 4), nibble);
    max = _mm_max_epu8(max, _mm_max_epu8(even, odd));  // the upper lanes are zero
    _mm_storeu_si128(reinterpret_cast<__m128i*>(values + 2 * byte),
                     _mm_add_epi8(_mm_unpacklo_epi8(even, odd), offset));
  }
  // Any lane above 9 makes the saturating subtraction non-zero.
  const __m128i above = _mm_subs_epu8(max, _mm_set1_epi8(9));
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(above, _mm_setzero_si128())) != 0xffff) largest = 10;
#endif
  for (; 2 * byte < kCells; ++byte) {
    const auto even = static_cast<uint8_t>(packed[byte] & 0x0f);
    values[2 * byte] = static_cast<uint8_t>(even + bias);
    largest = std::max(largest, even);
    if (2 * byte + 1 < kCells) {
      const auto odd = static_cast<uint8_t>(packed[byte] >> 4);
      values[2 * byte + 1] = static_cast<uint8_t>(odd + bias);
      largest = std::max(largest, odd);
    }
  }
  return largest;
}

}  // namespace

bool PackPuzzle(std::string_view text, std::span<uint8_t, kPackedBytes> packed) noexcept {
  if (text.size() != kCells) return false;
#if defined(__SSE2__)
  // Converted and packed in registers, without the grid in between: the client packs every
  // puzzle it sends. Cells 0-63 thirty-two at a time, 64-79 sixteen, 80 alone.
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  uint8_t* out = packed.data();
  __m128i bad = _mm_setzero_si128();
  auto pair_sixteen = [&bad, in](int i) {
    return PairCells(
        ConvertSixteen(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)), &bad));
  };
  for (int i = 0; i < 64; i += 32) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i / 2),
                     _mm_packus_epi16(pair_sixteen(i), pair_sixteen(i + 16)));
  }
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 32),
                   _mm_packus_epi16(pair_sixteen(64), _mm_setzero_si128()));
  uint8_t last_bad = 0;
  out[kPackedBytes - 1] = ConvertCell(in[kCells - 1], &last_bad);
  return _mm_movemask_epi8(bad) == 0 && last_bad == 0;
#else
  Grid grid;
  if (!ConvertCells(text, &grid)) return false;
  PackValues(grid.data(), 0, packed.data());
  return true;
#endif
}

PuzzleError ParsePackedPuzzle(std::span<const uint8_t, kPackedBytes> packed, Grid* grid) noexcept {
  const uint8_t largest = UnpackValues(packed.data(), 0, grid->data());
  if (largest > 9 || HasRepeatedGiven(*grid)) {
    // Whichever error comes first: a value above 9 is a bad character to FirstError().
    PuzzleError error = FirstErrorOfGrid(*grid);
    if (error.kind == PuzzleError::Kind::kCharacter) {
      error.kind = PuzzleError::Kind::kPackedValue;
      error.character = 0;
      error.found = (*grid)[error.position];
    }
    return error;
  }
  PuzzleError error;
  if (const uint8_t padding = PackedPadding(packed); padding != 0) {
    error.kind = PuzzleError::Kind::kPackedValue;
    error.position = kCells;
    error.found = padding;
  }
  return error;
}

void PackDigits(std::span<const char, kCells> digits,
                std::span<uint8_t, kPackedBytes> packed) noexcept {
  PackValues(reinterpret_cast<const uint8_t*>(digits.data()), '0', packed.data());
}

void UnpackDigits(std::span<const uint8_t, kPackedBytes> packed, char* digits) noexcept {
  UnpackValues(packed.data(), '0', reinterpret_cast<uint8_t*>(digits));
}

PuzzleError ParseCandidates(std::string_view text, CandidateGrid* grid) noexcept {
  PuzzleError error;
  if (text.size() != kCandidateChars) {
    error.kind = PuzzleError::Kind::kLength;
    error.found = static_cast<uint32_t>(text.size());
    return error;
  }
  for (uint32_t cell = 0; cell < kCells; ++cell) {
    uint16_t mask = 0;
    for (uint32_t d = 0; d < 9; ++d) {
      const uint32_t position = 9 * cell + d;
      const char c = text[position];
      if (c == static_cast<char>('1' + d)) {
        mask = static_cast<uint16_t>(mask | (1u << d));
      } else if (c != '.' && c != '0') {
        error.kind = PuzzleError::Kind::kCandidate;
        error.character = c;
        error.position = position;
        return error;
      }
    }
    if (mask == 0) {
      error.kind = PuzzleError::Kind::kNoCandidate;
      error.position = 9 * cell;
      return error;
    }
    (*grid)[cell] = mask;
  }
  return error;
}

PuzzleError CheckPuzzle(std::string_view text) noexcept {
  if (text.size() == kCandidateChars) {
    CandidateGrid candidates;
    return ParseCandidates(text, &candidates);
  }
  Grid grid;
  return ParsePuzzle(text, &grid);
}

Result SolveCandidates(const CandidateGrid& grid, Limits limits) noexcept {
  Result result;
  if (limits.max_solutions == 0) limits.max_solutions = 1;
  ActiveKernel().solve_candidates(grid, limits, &result);
  return result;
}

// Solve() and SolvePacked() check only what the kernel cannot: the length and the characters,
// or the values and the padding. Repeated givens are the kernel's to find (SolveGrid()), which
// it does only for a puzzle that propagation alone does not solve, so that the puzzles settled
// quickly never pay for the check. Whatever is wrong, the error reported is the one
// ParsePuzzle() or ParsePackedPuzzle() reports: they are asked again on the way out.

Result SolvePacked(std::span<const uint8_t, kPackedBytes> packed, Limits limits) noexcept {
  Grid grid;
  if (UnpackValues(packed.data(), 0, grid.data()) > 9 || PackedPadding(packed) != 0) {
    return Invalid(ParsePackedPuzzle(packed, &grid));
  }
  return SolveGrid(grid, limits);
}

Result SolveGrid(const Grid& grid, Limits limits) noexcept {
  Result result;
  if (limits.max_solutions == 0) limits.max_solutions = 1;
  ActiveKernel().solve(grid, limits, &result);
  return result;
}

Result Solve(std::string_view text, Limits limits) noexcept {
  if (text.size() == kCandidateChars) {
    CandidateGrid candidates;
    if (PuzzleError error = ParseCandidates(text, &candidates)) return Invalid(error);
    return SolveCandidates(candidates, limits);
  }
  Grid grid;
  if (text.size() != kCells || !ConvertCells(text, &grid)) return Invalid(ParsePuzzle(text, &grid));
  return SolveGrid(grid, limits);
}

}  // namespace sudoku
