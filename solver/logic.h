// The logical solver: solves a puzzle step by step with the techniques people use, so that the
// solution can be explained (Explain) and its difficulty rated (Rate). Separate from the fast
// kernel (solver.h), which it calls only to confirm guesses and to count the kernel's guesses.
//
// Thread-safety: every function here is reentrant and keeps its state per call; any number of
// threads may call Explain() and Rate() at once.
#ifndef SUDOKU_SOLVER_LOGIC_H_
#define SUDOKU_SOLVER_LOGIC_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "solver/solver.h"

namespace sudoku::logic {

// The techniques, easiest first. The logical solver always takes a step of the easiest technique
// that applies, so a puzzle's hardest technique is the least it needs in this order.
enum class Technique : uint8_t {
  kNakedSingle,   // a cell with one candidate left
  kHiddenSingle,  // a digit with one place left in a row, column or box
  kPointing,      // a digit confined to one line inside a box leaves the rest of that line
  kClaiming,      // a digit confined to one box inside a line leaves the rest of that box
  kNakedPair,     // two cells of a unit with the same two candidates
  kHiddenPair,    // two digits with the same two places in a unit
  kNakedTriple,   // three cells of a unit whose candidates together are three digits
  kHiddenTriple,  // three digits whose places in a unit together are three cells
  kXWing,         // a digit in two places in each of two rows (or columns), the same two columns
  kSwordfish,     // the same with three rows (or columns)
  kGuess,         // logic ran out: a cell and digit taken from the solution
};
inline constexpr int kTechniqueCount = static_cast<int>(Technique::kGuess) + 1;

// QQWing's difficulty scale, easiest first.
enum class Level : uint8_t { kSimple, kEasy, kIntermediate, kExpert };

// "naked single", "hidden single", "pointing", "claiming", "naked pair", "hidden pair",
// "naked triple", "hidden triple", "x-wing", "swordfish", "guess".
const char* Name(Technique technique);
// "simple", "easy", "intermediate", "expert".
const char* Name(Level level);
// The inverse of Name(Level), case-sensitive; nullopt for anything else.
std::optional<Level> ParseLevel(std::string_view text);

// A digit in a cell: a placement, or a candidate removed.
struct CellDigit {
  uint8_t cell = 0;   // 0-80, row-major
  uint8_t digit = 0;  // 1-9
  friend bool operator==(const CellDigit&, const CellDigit&) = default;
};

// A row, column or box, numbered 0-8 (boxes row-major).
struct Unit {
  enum class Kind : uint8_t { kRow, kColumn, kBox };
  Kind kind = Kind::kRow;
  uint8_t index = 0;
  friend bool operator==(const Unit&, const Unit&) = default;
};

// One step of the explanation.
//   kNakedSingle:  placements = {the cell, its digit}; cells = {the cell}
//   kHiddenSingle: placements; units = {the unit where the digit has one place}; digits = {it}
//   kPointing:     units = {the box, the line}; digits = {the digit}; cells = where it sits
//   kClaiming:     units = {the line, the box}; digits, cells as kPointing
//   pairs/triples: units = {the unit}; cells = the pattern's cells; digits = its digits
//   kXWing/kSwordfish: units = the base lines (where the digit is confined), then the cover lines
//                  (where it is eliminated); digits = {the digit}; cells = the corners
//   kGuess:        placements = {the cell, the digit tried}; cells = {the cell}; the digit is the
//                  solution's, so the explanation never has to backtrack
// Eliminations are the candidates the step removes (none for singles and guesses).
struct Step {
  Technique technique = Technique::kNakedSingle;
  std::vector<CellDigit> placements;
  std::vector<CellDigit> eliminations;
  std::vector<Unit> units;
  std::vector<uint8_t> cells;
  std::vector<uint8_t> digits;
};

// Candidates per cell: bit d-1 set when digit d is still possible. A placed cell holds only its
// digit's bit.
using Candidates = std::array<uint16_t, kCells>;

// The candidates of a grid before any step: every digit its peers' givens allow.
Candidates InitialCandidates(const Grid& grid);

// Plays a step on a grid and its candidates, as a reader would: each placement fills its cell
// and leaves its peers; each elimination removes one candidate.
void Apply(const Step& step, Grid* grid, Candidates* candidates);

struct Explanation {
  // kSolved or kMultiple: steps explain the (first) solution. kUnsolvable: no steps. (kInvalid
  // never occurs: the grid was parsed already.)
  Verdict verdict = Verdict::kUnsolvable;
  std::vector<Step> steps;
  Grid solution{};             // the grid after the last step; the solution when verdict is kSolved
  uint32_t logic_guesses = 0;  // kGuess steps among `steps`
  uint32_t fast_guesses = 0;   // branches the fast solver took to find and check the solution
};

// Explains how the grid solves, one step at a time. Takes always the easiest technique that
// applies; where none does, a guess confirmed by the fast solver, and goes on.
Explanation Explain(const Grid& grid);

struct Rating {
  Verdict verdict = Verdict::kUnsolvable;
  Technique hardest = Technique::kNakedSingle;  // the hardest step of Explain()
  uint32_t steps = 0;                           // the steps of Explain()
  uint32_t guesses = 0;  // branches the fast solver took to find and check uniqueness (limit 2)
  uint32_t logic_guesses = 0;  // kGuess steps of Explain()
  Level level = Level::kSimple;
};

// The level of a puzzle whose hardest technique is `hardest` (see LevelOf's definition for the
// rule and README "Explain and rate" for how it compares with QQWing's).
Level LevelOf(Technique hardest);

// Rates the grid: Explain()'s hardest technique and step count, the fast solver's guesses, and
// the level. Does not keep the steps.
Rating Rate(const Grid& grid);

// "r3c5": 1-based row and column, as players name cells.
std::string CellName(int cell);

}  // namespace sudoku::logic

#endif  // SUDOKU_SOLVER_LOGIC_H_
