// The logical solver of logic.h. Plain bitmask code: it explains and rates, so clarity comes
// before speed (the fast kernel is in kernel.inc). State lives per call.
#include "solver/logic.h"

#include <array>
#include <bit>
#include <cstdio>

namespace sudoku::logic {
namespace {

constexpr int kUnits = 27;  // rows 0-8, columns 9-17, boxes 18-26
constexpr uint16_t kAllDigits = 0x1ff;

constexpr int RowOf(int cell) { return cell / 9; }
constexpr int ColumnOf(int cell) { return cell % 9; }
constexpr int BoxOf(int cell) { return RowOf(cell) / 3 * 3 + ColumnOf(cell) / 3; }
constexpr uint16_t Bit(int digit) { return static_cast<uint16_t>(1u << (digit - 1)); }

// The cells of each unit, and each cell's units and peers. Built once, read-only after.
struct Tables {
  std::array<std::array<uint8_t, 9>, kUnits> cells{};
  std::array<std::array<uint8_t, 20>, kCells> peers{};
  // Each cell's row, column and box (as unit numbers), and its position in each.
  std::array<std::array<uint8_t, 3>, kCells> units{};
  std::array<std::array<uint8_t, 3>, kCells> positions{};

  constexpr Tables() {
    for (int cell = 0; cell < kCells; ++cell) {
      const int in_box = RowOf(cell) % 3 * 3 + ColumnOf(cell) % 3;
      cells[RowOf(cell)][ColumnOf(cell)] = static_cast<uint8_t>(cell);
      cells[9 + ColumnOf(cell)][RowOf(cell)] = static_cast<uint8_t>(cell);
      cells[18 + BoxOf(cell)][in_box] = static_cast<uint8_t>(cell);
      units[cell] = {static_cast<uint8_t>(RowOf(cell)), static_cast<uint8_t>(9 + ColumnOf(cell)),
                     static_cast<uint8_t>(18 + BoxOf(cell))};
      positions[cell] = {static_cast<uint8_t>(ColumnOf(cell)), static_cast<uint8_t>(RowOf(cell)),
                         static_cast<uint8_t>(in_box)};
      int count = 0;
      for (int other = 0; other < kCells; ++other) {
        if (other != cell && (RowOf(other) == RowOf(cell) || ColumnOf(other) == ColumnOf(cell) ||
                              BoxOf(other) == BoxOf(cell))) {
          peers[cell][count++] = static_cast<uint8_t>(other);
        }
      }
    }
  }
};

// Built at compile time: no guard on the hot path.
constexpr Tables kTables{};
constexpr const Tables& Table() { return kTables; }

// Bits set in a 9-bit mask. The library is built for the baseline x86-64, where std::popcount
// is a libgcc call, which made this table worth its 512 bytes on the rating's hot path.
struct BitCounts {
  std::array<uint8_t, 512> count{};
  constexpr BitCounts() {
    for (int mask = 1; mask < 512; ++mask) {
      count[mask] = static_cast<uint8_t>(count[mask >> 1] + (mask & 1));
    }
  }
};
constexpr BitCounts kBitCounts{};
constexpr int Count(uint16_t mask) { return kBitCounts.count[mask & 0x1ff]; }

Unit UnitOf(int unit) {
  return Unit{unit < 9    ? Unit::Kind::kRow
              : unit < 18 ? Unit::Kind::kColumn
                          : Unit::Kind::kBox,
              static_cast<uint8_t>(unit % 9)};
}

// The puzzle as the logical solver sees it: placed digits, and candidates of open cells (0 for
// placed cells, unlike the public Candidates, so that techniques see only open cells).
struct Board {
  Grid values{};
  std::array<uint16_t, kCells> open{};
  int open_cells = 0;

  explicit Board(const Grid& grid) {
    const Tables& table = Table();
    for (int cell = 0; cell < kCells; ++cell) open[cell] = grid[cell] ? 0 : kAllDigits;
    open_cells = 0;
    for (int cell = 0; cell < kCells; ++cell) {
      if (grid[cell]) {
        values[cell] = grid[cell];
        for (uint8_t peer : table.peers[cell]) {
          open[peer] &= static_cast<uint16_t>(~Bit(grid[cell]));
        }
      } else {
        ++open_cells;
      }
    }
  }

  void Place(int cell, int digit) {
    values[cell] = static_cast<uint8_t>(digit);
    open[cell] = 0;
    --open_cells;
    for (uint8_t peer : Table().peers[cell]) open[peer] &= static_cast<uint16_t>(~Bit(digit));
  }

  // Where `digit` may still go in `unit`, as a 9-bit mask of positions within the unit. Valid
  // from ComputePlaces() until the board changes.
  uint16_t Places(int unit, int digit) const { return places_[unit][digit]; }

  // Fills the table Places() reads: one pass over the candidates instead of nine loads for each
  // question (the techniques past the singles ask hundreds).
  void ComputePlaces() {
    const Tables& table = Table();
    places_ = {};
    for (int cell = 0; cell < kCells; ++cell) {
      for (uint16_t d = open[cell]; d; d &= static_cast<uint16_t>(d - 1)) {
        const int digit = std::countr_zero(d) + 1;
        for (int k = 0; k < 3; ++k) {
          places_[table.units[cell][k]][digit] |=
              static_cast<uint16_t>(1u << table.positions[cell][k]);
        }
      }
    }
  }

 private:
  std::array<std::array<uint16_t, 10>, kUnits> places_{};
};

// Collects eliminations into a step, skipping candidates that are already gone.
void Eliminate(Board& board, Step* step, int cell, uint16_t digits) {
  digits &= board.open[cell];
  board.open[cell] &= static_cast<uint16_t>(~digits);
  for (; digits; digits &= static_cast<uint16_t>(digits - 1)) {
    step->eliminations.push_back(
        {static_cast<uint8_t>(cell), static_cast<uint8_t>(std::countr_zero(digits) + 1)});
  }
}

void AddDigits(Step* step, uint16_t digits) {
  for (; digits; digits &= static_cast<uint16_t>(digits - 1)) {
    step->digits.push_back(static_cast<uint8_t>(std::countr_zero(digits) + 1));
  }
}

bool NakedSingle(Board& board, Step* step) {
  for (int cell = 0; cell < kCells; ++cell) {
    if (board.open[cell] && !(board.open[cell] & (board.open[cell] - 1))) {
      const int digit = std::countr_zero(board.open[cell]) + 1;
      step->technique = Technique::kNakedSingle;
      step->placements.push_back({static_cast<uint8_t>(cell), static_cast<uint8_t>(digit)});
      step->cells.push_back(static_cast<uint8_t>(cell));
      step->digits.push_back(static_cast<uint8_t>(digit));
      board.Place(cell, digit);
      return true;
    }
  }
  return false;
}

// Boxes first, then rows, then columns: the order in which people scan.
constexpr std::array<int, kUnits> kScanOrder = {18, 19, 20, 21, 22, 23, 24, 25, 26,
                                                0,  1,  2,  3,  4,  5,  6,  7,  8,
                                                9,  10, 11, 12, 13, 14, 15, 16, 17};

bool HiddenSingle(Board& board, Step* step) {
  const Tables& table = Table();
  for (int unit : kScanOrder) {
    // Digits seen once and digits seen more than once among the unit's open cells.
    uint16_t once = 0;
    uint16_t more = 0;
    for (uint8_t cell : table.cells[unit]) {
      more |= static_cast<uint16_t>(once & board.open[cell]);
      once |= board.open[cell];
    }
    const uint16_t single = static_cast<uint16_t>(once & ~more);
    if (!single) continue;
    const int digit = std::countr_zero(single) + 1;
    int cell = 0;
    for (uint8_t c : table.cells[unit]) {
      if (board.open[c] & Bit(digit)) cell = c;
    }
    step->technique = Technique::kHiddenSingle;
    step->placements.push_back({static_cast<uint8_t>(cell), static_cast<uint8_t>(digit)});
    step->units.push_back(UnitOf(unit));
    step->cells.push_back(static_cast<uint8_t>(cell));
    step->digits.push_back(static_cast<uint8_t>(digit));
    board.Place(cell, digit);
    return true;
  }
  return false;
}

// The unit index (0-26) of the row, column or box that holds every place of `places` (a mask of
// positions within `unit`), looking at rows, then columns, then boxes; -1 when none does, or
// when the only one is `unit` itself.
int SharedUnit(int unit, uint16_t places, bool want_box) {
  const Tables& table = Table();
  int row = -1, column = -1, box = -1;
  for (uint16_t p = places; p; p &= static_cast<uint16_t>(p - 1)) {
    const int cell = table.cells[unit][std::countr_zero(p)];
    const bool first = row == -1 && column == -1 && box == -1;
    if (first) {
      row = RowOf(cell), column = ColumnOf(cell), box = BoxOf(cell);
      continue;
    }
    if (row != RowOf(cell)) row = -2;
    if (column != ColumnOf(cell)) column = -2;
    if (box != BoxOf(cell)) box = -2;
  }
  if (want_box) return box >= 0 ? 18 + box : -1;
  if (row >= 0) return row;
  if (column >= 0) return 9 + column;
  return -1;
}

// Pointing (a digit of a box on one line) and claiming (a digit of a line in one box): the
// digit leaves the rest of the other unit.
bool Intersection(Board& board, Step* step, bool pointing) {
  const Tables& table = Table();
  const int first = pointing ? 18 : 0;
  const int last = pointing ? 27 : 18;
  for (int unit = first; unit < last; ++unit) {
    for (int digit = 1; digit <= 9; ++digit) {
      const uint16_t places = board.Places(unit, digit);
      if (Count(places) < 2) continue;
      // The other unit shared by every place: a line for a box, the box for a line.
      const int other = SharedUnit(unit, places, !pointing);
      if (other < 0) continue;
      Step found;
      for (uint8_t cell : table.cells[other]) {
        const int in_unit = unit < 9    ? RowOf(cell) == unit
                            : unit < 18 ? ColumnOf(cell) == unit - 9
                                        : BoxOf(cell) == unit - 18;
        if (!in_unit) Eliminate(board, &found, cell, Bit(digit));
      }
      if (found.eliminations.empty()) continue;
      found.technique = pointing ? Technique::kPointing : Technique::kClaiming;
      found.units = {UnitOf(unit), UnitOf(other)};
      found.digits.push_back(static_cast<uint8_t>(digit));
      for (uint16_t p = places; p; p &= static_cast<uint16_t>(p - 1)) {
        found.cells.push_back(table.cells[unit][std::countr_zero(p)]);
      }
      *step = std::move(found);
      return true;
    }
  }
  return false;
}

// Calls visit(mask) for every mask of `size` bits within `within` (ascending).
template <typename Visit>
bool ForSubsets(uint16_t within, int size, uint16_t chosen, int from, Visit&& visit) {
  if (size == 0) return visit(chosen);
  for (int i = from; i < 9; ++i) {
    if (within & (1u << i)) {
      if (ForSubsets(within, size - 1, static_cast<uint16_t>(chosen | (1u << i)), i + 1, visit)) {
        return true;
      }
    }
  }
  return false;
}

// Naked subsets: `size` open cells of a unit whose candidates together are `size` digits; those
// digits leave the unit's other cells.
bool NakedSubset(Board& board, Step* step, int size) {
  const Tables& table = Table();
  for (int unit : kScanOrder) {
    const auto& cells = table.cells[unit];
    uint16_t eligible = 0;
    int open = 0;
    for (int i = 0; i < 9; ++i) {
      const int count = Count(board.open[cells[i]]);
      if (count) ++open;
      if (count >= 2 && count <= size) eligible |= static_cast<uint16_t>(1u << i);
    }
    if (open <= size) continue;  // nothing left to eliminate from
    const bool found = ForSubsets(eligible, size, 0, 0, [&](uint16_t positions) {
      uint16_t digits = 0;
      for (uint16_t p = positions; p; p &= static_cast<uint16_t>(p - 1)) {
        digits |= board.open[cells[std::countr_zero(p)]];
      }
      if (Count(digits) != size) return false;
      Step found_step;
      for (int i = 0; i < 9; ++i) {
        if (!(positions & (1u << i))) Eliminate(board, &found_step, cells[i], digits);
      }
      if (found_step.eliminations.empty()) return false;
      found_step.technique = size == 2 ? Technique::kNakedPair : Technique::kNakedTriple;
      found_step.units.push_back(UnitOf(unit));
      for (uint16_t p = positions; p; p &= static_cast<uint16_t>(p - 1)) {
        found_step.cells.push_back(cells[std::countr_zero(p)]);
      }
      AddDigits(&found_step, digits);
      *step = std::move(found_step);
      return true;
    });
    if (found) return true;
  }
  return false;
}

// Hidden subsets: `size` digits whose places in a unit together are `size` cells; those cells
// lose every other candidate.
bool HiddenSubset(Board& board, Step* step, int size) {
  const Tables& table = Table();
  for (int unit : kScanOrder) {
    const auto& cells = table.cells[unit];
    std::array<uint16_t, 10> places{};
    uint16_t eligible = 0;  // bit d-1: digit d has 2..size places
    for (int digit = 1; digit <= 9; ++digit) {
      places[digit] = board.Places(unit, digit);
      const int count = Count(places[digit]);
      if (count >= 2 && count <= size) eligible |= Bit(digit);
    }
    const bool found = ForSubsets(eligible, size, 0, 0, [&](uint16_t digits) {
      uint16_t positions = 0;
      for (uint16_t d = digits; d; d &= static_cast<uint16_t>(d - 1)) {
        positions |= places[std::countr_zero(d) + 1];
      }
      if (Count(positions) != size) return false;
      Step found_step;
      for (uint16_t p = positions; p; p &= static_cast<uint16_t>(p - 1)) {
        const int cell = cells[std::countr_zero(p)];
        Eliminate(board, &found_step, cell, static_cast<uint16_t>(kAllDigits & ~digits));
        found_step.cells.push_back(static_cast<uint8_t>(cell));
      }
      if (found_step.eliminations.empty()) return false;
      found_step.technique = size == 2 ? Technique::kHiddenPair : Technique::kHiddenTriple;
      found_step.units.push_back(UnitOf(unit));
      AddDigits(&found_step, digits);
      *step = std::move(found_step);
      return true;
    });
    if (found) return true;
  }
  return false;
}

// Fish: `size` base lines (rows, or columns) in which a digit's places all lie in `size` cover
// lines (columns, or rows); the digit leaves the cover lines outside the base lines.
bool Fish(Board& board, Step* step, int size) {
  const Tables& table = Table();
  for (int orientation = 0; orientation < 2; ++orientation) {
    const int base_first = orientation == 0 ? 0 : 9;
    const int cover_first = orientation == 0 ? 9 : 0;
    for (int digit = 1; digit <= 9; ++digit) {
      std::array<uint16_t, 9> places{};
      uint16_t eligible = 0;
      for (int line = 0; line < 9; ++line) {
        places[line] = board.Places(base_first + line, digit);
        const int count = Count(places[line]);
        if (count >= 2 && count <= size) eligible |= static_cast<uint16_t>(1u << line);
      }
      const bool found = ForSubsets(eligible, size, 0, 0, [&](uint16_t lines) {
        uint16_t covers = 0;
        for (uint16_t l = lines; l; l &= static_cast<uint16_t>(l - 1)) {
          covers |= places[std::countr_zero(l)];
        }
        if (Count(covers) != size) return false;
        Step found_step;
        for (uint16_t c = covers; c; c &= static_cast<uint16_t>(c - 1)) {
          const int cover = std::countr_zero(c);
          for (int i = 0; i < 9; ++i) {
            if (!(lines & (1u << i))) {
              Eliminate(board, &found_step, table.cells[cover_first + cover][i], Bit(digit));
            }
          }
        }
        if (found_step.eliminations.empty()) return false;
        found_step.technique = size == 2 ? Technique::kXWing : Technique::kSwordfish;
        for (uint16_t l = lines; l; l &= static_cast<uint16_t>(l - 1)) {
          const int line = std::countr_zero(l);
          found_step.units.push_back(UnitOf(base_first + line));
          for (uint16_t p = places[line]; p; p &= static_cast<uint16_t>(p - 1)) {
            found_step.cells.push_back(table.cells[base_first + line][std::countr_zero(p)]);
          }
        }
        for (uint16_t c = covers; c; c &= static_cast<uint16_t>(c - 1)) {
          found_step.units.push_back(UnitOf(cover_first + std::countr_zero(c)));
        }
        found_step.digits.push_back(static_cast<uint8_t>(digit));
        *step = std::move(found_step);
        return true;
      });
      if (found) return true;
    }
  }
  return false;
}

// The easiest step that applies; false when logic has run out.
bool LogicalStep(Board& board, Step* step) {
  if (NakedSingle(board, step) || HiddenSingle(board, step)) return true;
  // Each technique below changes the board only when it returns true.
  board.ComputePlaces();
  return Intersection(board, step, true) || Intersection(board, step, false) ||
         NakedSubset(board, step, 2) || HiddenSubset(board, step, 2) ||
         NakedSubset(board, step, 3) || HiddenSubset(board, step, 3) || Fish(board, step, 2) ||
         Fish(board, step, 3);
}

// Where logic runs out: the open cell with fewest candidates (the first such), and its digit in
// the solution.
void Guess(Board& board, const std::array<char, kCells>& solution, Step* step) {
  int best = -1;
  for (int cell = 0; cell < kCells; ++cell) {
    if (board.open[cell] && (best < 0 || Count(board.open[cell]) < Count(board.open[best]))) {
      best = cell;
    }
  }
  const int digit = solution[best] - '0';
  step->technique = Technique::kGuess;
  step->placements.push_back({static_cast<uint8_t>(best), static_cast<uint8_t>(digit)});
  step->cells.push_back(static_cast<uint8_t>(best));
  step->digits.push_back(static_cast<uint8_t>(digit));
  board.Place(best, digit);
}

// Runs the logical solver; `on_step` sees each step. Returns the fast solver's result.
template <typename OnStep>
Result Run(const Grid& grid, OnStep&& on_step, Grid* final_grid) {
  Result result = SolveGrid(grid, Limits{.max_solutions = 2});
  if (result.solutions == 0) return result;
  Board board(grid);
  while (board.open_cells > 0) {
    Step step;
    if (!LogicalStep(board, &step)) Guess(board, result.solution, &step);
    on_step(std::move(step));
  }
  *final_grid = board.values;
  return result;
}

}  // namespace

const char* Name(Technique technique) {
  switch (technique) {
    case Technique::kNakedSingle: return "naked single";
    case Technique::kHiddenSingle: return "hidden single";
    case Technique::kPointing: return "pointing";
    case Technique::kClaiming: return "claiming";
    case Technique::kNakedPair: return "naked pair";
    case Technique::kHiddenPair: return "hidden pair";
    case Technique::kNakedTriple: return "naked triple";
    case Technique::kHiddenTriple: return "hidden triple";
    case Technique::kXWing: return "x-wing";
    case Technique::kSwordfish: return "swordfish";
    case Technique::kGuess: return "guess";
  }
  return "unknown";
}

const char* Name(Level level) {
  switch (level) {
    case Level::kSimple: return "simple";
    case Level::kEasy: return "easy";
    case Level::kIntermediate: return "intermediate";
    case Level::kExpert: return "expert";
  }
  return "unknown";
}

std::optional<Level> ParseLevel(std::string_view text) {
  for (Level level : {Level::kSimple, Level::kEasy, Level::kIntermediate, Level::kExpert}) {
    if (text == Name(level)) return level;
  }
  return std::nullopt;
}

std::string CellName(int cell) {
  // Built from characters: rows and columns are 1-9. (snprintf into a small buffer draws a
  // false -Wformat-truncation from g++ 12 at -O0.)
  return {'r', static_cast<char>('1' + RowOf(cell)), 'c', static_cast<char>('1' + ColumnOf(cell))};
}

Candidates InitialCandidates(const Grid& grid) {
  Board board(grid);
  Candidates candidates{};
  for (int cell = 0; cell < kCells; ++cell) {
    candidates[cell] = grid[cell] ? Bit(grid[cell]) : board.open[cell];
  }
  return candidates;
}

void Apply(const Step& step, Grid* grid, Candidates* candidates) {
  for (const CellDigit& placement : step.placements) {
    (*grid)[placement.cell] = placement.digit;
    (*candidates)[placement.cell] = Bit(placement.digit);
    for (uint8_t peer : Table().peers[placement.cell]) {
      if (!(*grid)[peer]) (*candidates)[peer] &= static_cast<uint16_t>(~Bit(placement.digit));
    }
  }
  for (const CellDigit& elimination : step.eliminations) {
    (*candidates)[elimination.cell] &= static_cast<uint16_t>(~Bit(elimination.digit));
  }
}

// QQWing rates by the techniques its own solver used: any guess makes a puzzle expert; else
// intersections or pairs make it intermediate; else hidden singles make it easy; naked singles
// alone, simple. QQWing knows no triples or fish and guesses where they would apply, so they
// count as expert here too.
Level LevelOf(Technique hardest) {
  switch (hardest) {
    case Technique::kNakedSingle: return Level::kSimple;
    case Technique::kHiddenSingle: return Level::kEasy;
    case Technique::kPointing:
    case Technique::kClaiming:
    case Technique::kNakedPair:
    case Technique::kHiddenPair: return Level::kIntermediate;
    case Technique::kNakedTriple:
    case Technique::kHiddenTriple:
    case Technique::kXWing:
    case Technique::kSwordfish:
    case Technique::kGuess: return Level::kExpert;
  }
  return Level::kExpert;
}

Explanation Explain(const Grid& grid) {
  Explanation explanation;
  const Result result = Run(
      grid,
      [&](Step&& step) {
        if (step.technique == Technique::kGuess) ++explanation.logic_guesses;
        explanation.steps.push_back(std::move(step));
      },
      &explanation.solution);
  explanation.verdict = result.verdict;
  explanation.fast_guesses = result.guesses;
  return explanation;
}

Rating Rate(const Grid& grid) {
  Rating rating;
  Grid final_grid{};
  const Result result = Run(
      grid,
      [&](Step&& step) {
        ++rating.steps;
        if (step.technique == Technique::kGuess) ++rating.logic_guesses;
        if (step.technique > rating.hardest) rating.hardest = step.technique;
      },
      &final_grid);
  rating.verdict = result.verdict;
  rating.guesses = result.guesses;
  rating.level = LevelOf(rating.hardest);
  return rating;
}

}  // namespace sudoku::logic
