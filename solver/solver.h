// The sudoku solver: the whole public API of solver/.
//
// Thread-safety: every function here is reentrant. The solver keeps its state on the caller's
// stack and allocates nothing on the heap per puzzle, so any number of threads may call Solve()
// at once.
#ifndef SUDOKU_SOLVER_SOLVER_H_
#define SUDOKU_SOLVER_SOLVER_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sudoku {

inline constexpr int kCells = 81;

// What happened to one puzzle. Mirrors sudoku.wire.Verdict (proto/sudoku.proto).
enum class Verdict : uint8_t {
  kSolved,      // a solution was found (and, with max_solutions >= 2, it is the only one)
  kMultiple,    // two or more solutions; `solution` holds the first found
  kUnsolvable,  // the givens are consistent but admit no solution
  kInvalid,     // malformed text or clashing givens; `error` says which and where
};

// Why a puzzle text is invalid. Plain data so that reporting it costs no allocation; Describe()
// renders it for people.
struct PuzzleError {
  enum class Kind : uint8_t {
    kNone,
    kLength,        // `found` = the number of characters
    kCharacter,     // `position` = the offending character, `character` = it
    kRowRepeat,     // `position` = the second occurrence, `first` = the first, `character` = digit
    kColumnRepeat,  // as kRowRepeat
    kBoxRepeat,     // as kRowRepeat
    // Pencilmark puzzles (729 characters) only:
    kCandidate,     // `position` = the offending character, `character` = it
    kNoCandidate,   // `position` = the cell's first character: every digit is excluded
    // Packed puzzles (see PackPuzzle()) only:
    kPackedValue,   // `position` = the cell (81: the padding nibble), `found` = its value
  };
  Kind kind = Kind::kNone;
  char character = 0;
  uint32_t position = 0;  // 0-based offset into the puzzle text
  uint32_t first = 0;     // 0-based offset of the first occurrence of a repeated digit
  uint32_t found = 0;     // length found, for kLength; the value, for kPackedValue

  explicit operator bool() const { return kind != Kind::kNone; }
};

// The reason in words, without the location of the puzzle in its input, e.g.
// "expected 81 cells, found 80", "bad character 'x' (expected 1-9, or . 0 _ - * for a blank)",
// "digit 5 repeated in row 3 (r3c2 and r3c7)".
std::string Describe(const PuzzleError& error);

// A puzzle as the kernel takes it: cell i (row-major) is 0 for a blank or the digit 1-9.
using Grid = std::array<uint8_t, kCells>;

// A pencilmark (candidate) puzzle: 729 characters, nine per cell in row-major order. A cell's
// k-th character (k = 0-8) is the digit k+1 when that digit is allowed there, or '.' or '0' when
// it is excluded (tdoku's layout): "123456789" is an open cell, "....5...." a given 5.
inline constexpr int kCandidateChars = 9 * kCells;

// Candidate masks: bit d of cell i is set when digit d+1 is allowed in cell i (0x1ff: any).
using CandidateGrid = std::array<uint16_t, kCells>;

// Checks an 81-character puzzle text (digits 1-9; '.', '0', '_', '-', '*' for blanks) and
// converts it. Returns a falsy PuzzleError on success. Finds the first error in text order.
PuzzleError ParsePuzzle(std::string_view text, Grid* grid) noexcept;

// Checks a 729-character pencilmark text and converts it. Returns a falsy PuzzleError on
// success; otherwise the first error in text order: the length, a character that is neither the
// digit of its place nor '.' or '0', or a cell with every digit excluded. Cells whose one
// candidate clashes with another's are left to the solver (kUnsolvable), as the candidates may
// rule out more than givens can.
PuzzleError ParseCandidates(std::string_view text, CandidateGrid* grid) noexcept;

// ParsePuzzle() or ParseCandidates(), chosen by the text's length (729 = pencilmark), keeping
// only the error: what a caller reporting an invalid puzzle wants.
PuzzleError CheckPuzzle(std::string_view text) noexcept;

// Packed puzzles: the compact form the wire carries (proto/sudoku.proto, "Packed puzzles"), half
// the bytes of the text. Cell i (row-major) is the low nibble of byte i / 2 when i is even and
// the high nibble when it is odd: 0 for a blank, 1-9 for a digit. The high nibble of the last
// byte is padding and must be 0.
inline constexpr int kPackedBytes = (kCells + 1) / 2;
using PackedGrid = std::array<uint8_t, kPackedBytes>;

// Packs an 81-character puzzle text, read as ParsePuzzle() reads it. False, with `packed`
// unspecified, when the text is not 81 digits and blanks. Repeated givens are packed as they
// are: whoever parses the packed puzzle reports them.
bool PackPuzzle(std::string_view text, std::span<uint8_t, kPackedBytes> packed) noexcept;

// Checks a packed puzzle and converts it, as ParsePuzzle() does a text. Returns a falsy
// PuzzleError on success; otherwise the first error in cell order, a cell above 9
// (kPackedValue) or a repeated given (as ParsePuzzle() reports it); failing those, padding other
// than 0 (kPackedValue at position 81).
PuzzleError ParsePackedPuzzle(std::span<const uint8_t, kPackedBytes> packed, Grid* grid) noexcept;

// Packed puzzle (or solution) `i` of `bytes`, which holds at least i + 1 of them end to end.
inline std::span<const uint8_t, kPackedBytes> PackedAt(std::string_view bytes, size_t i) {
  return std::span<const uint8_t, kPackedBytes>(
      reinterpret_cast<const uint8_t*>(bytes.data()) + i * kPackedBytes, kPackedBytes);
}

// Packs 81 digit characters '0'-'9', such as a Result's solution.
void PackDigits(std::span<const char, kCells> digits,
                std::span<uint8_t, kPackedBytes> packed) noexcept;
// Unpacks to 81 characters, '0' + each cell's value. A value above 9 comes out as one of the
// characters after '9'.
void UnpackDigits(std::span<const uint8_t, kPackedBytes> packed, char* digits) noexcept;

struct Limits {
  // Stop after this many solutions: 1 = first solution, 2 = uniqueness verdict. 0 acts as 1.
  uint32_t max_solutions = 1;
  // When set, the search polls it every kCancelPollGuesses guesses and gives up once it is true
  // (Result::cancelled), so that a search with a large max_solutions can be stopped from
  // another thread within a millisecond or so. May be set from any thread.
  const std::atomic<bool>* cancel = nullptr;
};

// How often a search polls Limits::cancel: a relaxed load every this many guesses. A guess
// takes well under a microsecond, and the poll costs nothing measurable at this rate.
inline constexpr uint32_t kCancelPollGuesses = 1024;

struct Result {
  Verdict verdict = Verdict::kInvalid;
  uint32_t solutions = 0;  // solutions found, at most Limits::max_solutions
  uint32_t guesses = 0;    // branches the search took; 0 = solved by propagation alone
  std::array<char, kCells> solution{};  // ASCII '1'-'9', valid when solutions > 0
  PuzzleError error;       // set when verdict == kInvalid
  // The search gave up because Limits::cancel became true: the verdict, counts and solution
  // mean nothing then.
  bool cancelled = false;
};

// Parses, validates and solves one puzzle text: 81 characters, or 729 for a pencilmark puzzle.
Result Solve(std::string_view text, Limits limits = {}) noexcept;

// ParsePackedPuzzle() and SolveGrid().
Result SolvePacked(std::span<const uint8_t, kPackedBytes> packed, Limits limits = {}) noexcept;

// Solves a grid. Givens that clash make it kInvalid, with the error ParsePuzzle() gives for the
// same puzzle as text; a cell above 9 takes no digit, so it makes the grid kUnsolvable.
Result SolveGrid(const Grid& grid, Limits limits = {}) noexcept;

// Solves from candidate masks. A cell with no candidate, or singles that clash, make it
// kUnsolvable.
Result SolveCandidates(const CandidateGrid& grid, Limits limits = {}) noexcept;

// The kernels compiled in, best first, and which one Solve() uses. SUDOKU_FORCE_ISA (e.g.
// "portable", "sse4.1", "avx2", "avx512") forces one at start-up; an unknown or unsupported name
// falls back to the best available and is reported by KernelSelectionNote().
struct Kernel {
  const char* name;                                  // its name in solver/isa.def: "avx2", ...
  bool (*supported)();                               // does this CPU run it?
  void (*solve)(const Grid& grid, Limits limits, Result* result);
  // The same search started from candidate masks instead of givens.
  void (*solve_candidates)(const CandidateGrid& grid, Limits limits, Result* result) = nullptr;
};
const Kernel& ActiveKernel() noexcept;
// Every kernel compiled in (supported by this CPU or not), best first.
std::span<const Kernel* const> AllKernels() noexcept;
// Empty, or why SUDOKU_FORCE_ISA was not honoured.
std::string_view KernelSelectionNote() noexcept;

}  // namespace sudoku

#endif  // SUDOKU_SOLVER_SOLVER_H_
