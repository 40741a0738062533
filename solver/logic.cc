// The logical solver of logic.h: the order in which it tries its techniques, and the public
// functions. The techniques are in the logic_*.cc files that logic_board.h lists. Plain
// bitmask code: it explains and rates, so clarity comes before speed (the fast kernel is in
// kernel.inc). State lives per call.
#include "solver/logic.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <utility>

#include "solver/explain_text.h"
#include "solver/logic_board.h"

namespace sudoku::logic {
namespace internal {

Unit UnitOf(int unit) {
  return Unit{unit < 9    ? Unit::Kind::kRow
              : unit < 18 ? Unit::Kind::kColumn
                          : Unit::Kind::kBox,
              static_cast<uint8_t>(unit % 9)};
}

Board::Board(const Grid& grid) {
  const Tables& table = Table();
  for (int cell = 0; cell < kCells; ++cell) open[cell] = grid[cell] ? 0 : kAllDigits;
  for (int cell = 0; cell < kCells; ++cell) {
    if (grid[cell]) {
      values[cell] = grid[cell];
      for (uint8_t peer : table.peers[cell]) open[peer] &= static_cast<uint16_t>(~Bit(grid[cell]));
    } else {
      ++open_cells;
      for (int k = 0; k < 3; ++k) ++unit_open_cells[table.units[cell][k]];
    }
  }
}

Board::Board(const CandidateGrid& candidates) : Board(PlacedCells(candidates)) {
  for (int cell = 0; cell < kCells; ++cell) {
    if (!values[cell]) open[cell] &= candidates[cell];
  }
}

void Board::Place(int cell, int digit) {
  values[cell] = static_cast<uint8_t>(digit);
  open[cell] = 0;
  --open_cells;
  for (int k = 0; k < 3; ++k) --unit_open_cells[Table().units[cell][k]];
  for (uint8_t peer : Table().peers[cell]) open[peer] &= static_cast<uint16_t>(~Bit(digit));
}

void Board::ComputePlaces() {
  const Tables& table = Table();
  places_ = {};
  with_ = {};
  for (int cell = 0; cell < kCells; ++cell) {
    for (uint16_t d = open[cell]; d; d = WithoutLowest(d)) {
      const int digit = LowestDigit(d);
      with_[digit].Add(cell);
      for (int k = 0; k < 3; ++k) {
        places_[table.units[cell][k]][digit] |=
            static_cast<uint16_t>(1u << table.positions[cell][k]);
      }
    }
  }
}

namespace {

// Each cell's units, and each unit's crossing units (a box's three rows and three columns, a
// line's three boxes), as unit sets (bit u for unit u).
struct UnitSets {
  std::array<uint32_t, kCells> of_cell{};
  std::array<uint32_t, kUnits> crossing{};

  constexpr UnitSets() {
    for (int cell = 0; cell < kCells; ++cell) {
      const auto& units = kTables.units[cell];
      for (int k = 0; k < 3; ++k) of_cell[cell] |= 1u << units[k];
      crossing[units[2]] |= (1u << units[0]) | (1u << units[1]);
      crossing[units[0]] |= 1u << units[2];
      crossing[units[1]] |= 1u << units[2];
    }
  }
};
constexpr UnitSets kUnitSets{};

}  // namespace

uint16_t SearchMemo::ChangedDigits(Search search, const Candidates& open) const {
  const int index = static_cast<int>(search);
  if (!noted_[index]) return kEveryDigit;
  uint16_t changed = 0;
  for (int cell = 0; cell < kCells; ++cell) changed |= seen_[index][cell] ^ open[cell];
  return changed;
}

uint32_t SearchMemo::ChangedUnits(Search search, const Candidates& open, bool crossing) const {
  const int index = static_cast<int>(search);
  if (!noted_[index]) return kEveryUnit;
  uint32_t changed = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    if (seen_[index][cell] != open[cell]) changed |= kUnitSets.of_cell[cell];
  }
  if (!crossing) return changed;
  uint32_t wider = changed;
  for (uint32_t units = changed; units; units &= units - 1) {
    wider |= kUnitSets.crossing[std::countr_zero(units)];
  }
  return wider;
}

void SearchMemo::NothingFound(Search search, const Candidates& open) {
  const int index = static_cast<int>(search);
  seen_[index] = open;
  noted_[index] = true;
}

void Eliminate(Board& board, Step* step, int cell, uint16_t digits) {
  digits &= board.open[cell];
  board.open[cell] &= static_cast<uint16_t>(~digits);
  for (; digits; digits = WithoutLowest(digits)) {
    step->eliminations.push_back(
        {static_cast<uint8_t>(cell), static_cast<uint8_t>(LowestDigit(digits))});
  }
}

void AddDigits(Step* step, uint16_t digits) {
  for (; digits; digits = WithoutLowest(digits)) {
    step->digits.push_back(static_cast<uint8_t>(LowestDigit(digits)));
  }
}

void PlayPlacements(Board& board, const Step& step) {
  for (const CellDigit& placement : step.placements) board.Place(placement.cell, placement.digit);
}

Node SingleNode(int cell, int digit) {
  return Node{static_cast<uint8_t>(digit), {static_cast<uint8_t>(cell)}};
}

namespace {

// Finned, then sashimi: x-wings, then swordfish, then jellyfish.
bool FinnedFishes(Board& board, Step* step) {
  for (int size = 2; size <= 4; ++size) {
    if (FinnedFish(board, step, size)) return true;
  }
  return false;
}

// The easiest step that applies; false when logic (short of a trial) has run out. The order
// is HoDoKu's (its default steps, by their index), for the techniques both have, so that the
// path is the one its users see. Each technique past the singles changes the board only when
// it returns true, so the places stay valid from one to the next; the dearer searches run only
// when the cheap ones found nothing.
bool HodokuStep(Board& board, Step* step) {
  return NakedSubset(board, step, 2, SubsetKind::kLocked) ||
         NakedSubset(board, step, 3, SubsetKind::kLocked) || Intersection(board, step, true) ||
         Intersection(board, step, false) || NakedSubset(board, step, 2, SubsetKind::kHodoku) ||
         NakedSubset(board, step, 3, SubsetKind::kHodoku) || HiddenSubset(board, step, 2) ||
         HiddenSubset(board, step, 3) || NakedSubset(board, step, 4, SubsetKind::kHodoku) ||
         HiddenSubset(board, step, 4) || Fish(board, step, 2) ||
         Fish(board, step, 3) || Fish(board, step, 4) || RemotePair(board, step) ||
         BugPlusOne(board, step) ||
         Skyscraper(board, step) || TwoStringKite(board, step) || TurbotFish(board, step) ||
         EmptyRectangle(board, step) || WWing(board, step) || XYWing(board, step) || XYZWing(board, step) ||
         UniqueRectangle(board, step) || HiddenRectangle(board, step) ||
         FinnedFishes(board, step) || SueDeCoq(board, step) ||
         SimpleColouring(board, step) || MultiColours(board, step) ||
         Chains(board, step, /*hodoku=*/true) ||
         AlsXz(board, step) || ForcingChain(board, step);
}

// The same techniques, in Sudoku Explainer's order, as SE takes them: the first of its rules
// that finds anything gives the step, and its rating is the hardest step of that path. Mostly
// the easiest on SE's scale first (rating.cc's table), but not always: SE's strong links
// (SeStrongLinks: 2 of them, its turbot fish rule, skyscrapers, kites and grouped links, the
// empty rectangle among them, 4.0-4.3) come before its xy-wing (4.2), and its rules of 3 to 6
// links (5.4-6.9) between its quads and wings as its own order has them. None SE lacks: not
// the hidden rectangle, the w-wing (SE 1.18.1 ships its w-wing switched off), the als-xz, the
// finned fish or simple colouring, whose removals SE's chains find, rated by SE's rules (an
// als-xz at 7.0 kept the path off the multiple forcing chains serate takes, 8.x puzzles rated
// 7.x; a finned fish or colouring at 6.5 stood for SE's longer chains, 7.1-7.9).
// SE's "direct" techniques come first: an intersection or hidden subset after which
// a digit has one place left (1.7-2.5), as SE looks for them before the rest, its naked single
// (2.3) among them. SE's cycles and forcing X- and XY-chains (SeCycles) take the place of our
// alternating chains; past them, SE's own forcing chains in its order (Nishio, multiple,
// dynamic, dynamic "+", and its nested chains of levels 2 and 3: SeChains), where our forcing
// chain and trial would rate a step by other rules; ours remain for what SE's find nothing in
// (its level 4, or once the walk's allowance of nested searches is spent).
bool EasiestSeStep(Board& board, Step* step) {
  return Intersection(board, step, true, true) || Intersection(board, step, false, true) ||
         HiddenSubset(board, step, 2, true) || NakedSingle(board, step) ||
         HiddenSubset(board, step, 3, true) ||
         Intersection(board, step, true) || Intersection(board, step, false) ||
         NakedSubset(board, step, 2) || Fish(board, step, 2) || HiddenSubset(board, step, 2) ||
         NakedSubset(board, step, 3) || Fish(board, step, 3) || HiddenSubset(board, step, 3) ||
         SeStrongLinks(board, step, 2) ||
         XYWing(board, step) || XYZWing(board, step) || SeUniqueLoops(board, step) ||
         NakedSubset(board, step, 4) || Fish(board, step, 4) || HiddenSubset(board, step, 4) ||
         SeStrongLinks(board, step, 3) || SeWing(board, step, 3) || BugPlusOne(board, step) ||
         SeStrongLinks(board, step, 4) || SeWing(board, step, 4) ||
         SeStrongLinks(board, step, 5) || SeWing(board, step, 5) ||
         SeStrongLinks(board, step, 6) || SeCycles(board, step) || SeChains(board, step) ||
         ForcingChain(board, step);
}

bool LogicalStep(Board& board, Step* step, Preference preference) {
  if (preference == Preference::kHodoku) {
    if (NakedSingle(board, step) || HiddenSingle(board, step)) return true;
    board.ComputePlaces();
    return HodokuStep(board, step);
  }
  // SE's hidden singles in SE's order: alone in a unit (1.0), in a box (1.2), in a line (1.5);
  // its naked singles come later (EasiestSeStep). The singles' closure is the same in any order,
  // but SE's first step (its diamond, ED) and first placement (its pearl, EP) are not.
  if (FullHouse(board, step) || HiddenSingle(board, step)) return true;
  board.ComputePlaces();
  return EasiestSeStep(board, step);
}

// Whether QQWing's own techniques (singles, intersections, naked and hidden pairs) solve the
// board, which is open and has one solution.
bool SolvesWithPairs(Board& board) {
  SearchMemo memo;
  board.memo = &memo;
  Step step;  // cleared for each technique: its lists keep their room
  while (board.open_cells > 0) {
    step.placements.clear();
    step.eliminations.clear();
    step.units.clear();
    step.cells.clear();
    step.digits.clear();
    if (NakedSingle(board, &step) || HiddenSingle(board, &step)) continue;
    board.ComputePlaces();
    if (!Intersection(board, &step, true) && !Intersection(board, &step, false) &&
        !NakedSubset(board, &step, 2) && !HiddenSubset(board, &step, 2)) {
      return false;
    }
  }
  return true;
}

// Where a walk starts: givens, or a candidate state (exactly one of the two).
struct Start {
  const Grid* grid = nullptr;
  const CandidateGrid* candidates = nullptr;
  const std::atomic<bool>* cancel = nullptr;
  const Result* solved = nullptr;  // the fast solver's answer, counted to two, if known
};

// Runs the logical solver; `on_step` sees each step. Returns the fast solver's result, whose
// verdict is all the steps learn of it.
// One Step serves every turn: cleared, its lists keep their room, so that a caller that does
// not keep the steps allocates nothing per step. `on_step` may move from it.
template <typename OnStep>
Result Run(const Start& start, Preference preference, bool show_trial_branches, OnStep&& on_step,
           Grid* final_grid) {
  const Result result = start.solved       ? *start.solved
                        : start.candidates ? SolveCandidates(*start.candidates,
                                                             Limits{.max_solutions = 2})
                                           : SolveGrid(*start.grid, Limits{.max_solutions = 2});
  if (result.solutions == 0) return result;
  Board board = start.candidates ? Board(*start.candidates) : Board(*start.grid);
  board.unique = result.verdict == Verdict::kSolved;
  // SE's nested chains rate puzzles with one solution only, as SE does.
  board.nested_searches_left = board.unique ? kNestedSearches : 0;
  board.cancel = start.cancel;
  SearchMemo memo;
  board.memo = &memo;
  Step step;
  // A cancelled walk ends at the step in hand: the rest (each step a search of its own, some
  // tens of milliseconds on the hardest puzzles) is for nobody.
  while (board.open_cells > 0 &&
         (board.cancel == nullptr || !board.cancel->load(std::memory_order_relaxed))) {
    step.technique = Technique::kNakedSingle;
    step.variant = 0;
    step.se_tenths = 0;
    step.placements.clear();
    step.eliminations.clear();
    step.units.clear();
    step.cells.clear();
    step.digits.clear();
    step.links.clear();
    step.branches.clear();
    if (!LogicalStep(board, &step, preference)) Trial(board, &step, show_trial_branches);
    on_step(step);
  }
  *final_grid = board.values;
  return result;
}

}  // namespace
}  // namespace internal

using internal::Bit;
using internal::Board;
using internal::RowOf;
using internal::ColumnOf;
using internal::Table;

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
    case Technique::kNakedQuad: return "naked quad";
    case Technique::kHiddenQuad: return "hidden quad";
    case Technique::kXWing: return "x-wing";
    case Technique::kSwordfish: return "swordfish";
    case Technique::kJellyfish: return "jellyfish";
    case Technique::kRemotePair: return "remote pair";
    case Technique::kSkyscraper: return "skyscraper";
    case Technique::kTwoStringKite: return "two-string kite";
    case Technique::kTurbotFish: return "turbot fish";
    case Technique::kEmptyRectangle: return "empty rectangle";
    case Technique::kXYWing: return "xy-wing";
    case Technique::kXYZWing: return "xyz-wing";
    case Technique::kWWing: return "w-wing";
    case Technique::kSimpleColouring: return "simple colouring";
    case Technique::kMultiColours: return "multi colours";
    case Technique::kUniqueRectangle: return "unique rectangle";
    case Technique::kHiddenRectangle: return "hidden rectangle";
    case Technique::kBugPlusOne: return "bug+1";
    case Technique::kFinnedFish: return "finned fish";
    case Technique::kSashimiFish: return "sashimi fish";
    case Technique::kSueDeCoq: return "sue de coq";
    case Technique::kXChain: return "x-chain";
    case Technique::kXYChain: return "xy-chain";
    case Technique::kAic: return "alternating inference chain";
    case Technique::kAlsXz: return "als-xz";
    case Technique::kWxyzWing: return "wxyz-wing";
    case Technique::kForcingChain: return "forcing chain";
    case Technique::kTrial: return "trial";
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

std::optional<Technique> ParseTechnique(std::string_view text) {
  for (int i = 0; i < kTechniqueCount; ++i) {
    const auto technique = static_cast<Technique>(i);
    if (text == Name(technique)) return technique;
  }
  return std::nullopt;
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

bool HasGroupedNode(const Step& step) {
  return std::any_of(step.links.begin(), step.links.end(), [](const Link& link) {
    return link.from.cells.size() > 1 || link.to.cells.size() > 1;
  });
}

Candidates InitialCandidates(const Grid& grid) {
  Board board(grid);
  Candidates candidates{};
  for (int cell = 0; cell < kCells; ++cell) {
    candidates[cell] = grid[cell] ? Bit(grid[cell]) : board.open[cell];
  }
  return candidates;
}

Grid PlacedCells(const CandidateGrid& candidates) {
  Grid grid{};
  for (int cell = 0; cell < kCells; ++cell) {
    const uint16_t mask = candidates[cell];
    if (mask != 0 && (mask & (mask - 1)) == 0) grid[cell] = static_cast<uint8_t>(internal::LowestDigit(mask));
  }
  return grid;
}

std::string ImmediateContradiction(const CandidateGrid& candidates, int* cell) {
  const Grid placed = PlacedCells(candidates);
  const internal::Tables& table = Table();
  for (int at = 0; at < kCells; ++at) {
    if (!placed[at]) continue;
    // The first peer before it with the same digit, by unit: row, column, box.
    for (int kind = 0; kind < 3; ++kind) {
      const int unit = table.units[at][kind];
      for (const uint8_t peer : table.cells[unit]) {
        if (peer >= at || placed[peer] != placed[at]) continue;
        *cell = at;
        std::string text = CellName(at);
        text += " holds only ";
        text += static_cast<char>('0' + placed[at]);
        text += ", as ";
        text += CellName(peer);
        text += " does, in ";
        text += UnitName(internal::UnitOf(unit));
        return text;
      }
    }
  }
  for (int at = 0; at < kCells; ++at) {
    if (placed[at]) continue;
    uint16_t left = candidates[at];
    for (const uint8_t peer : table.peers[at]) {
      if (placed[peer]) left &= static_cast<uint16_t>(~Bit(placed[peer]));
    }
    if (left) continue;
    std::string digits, peers;
    for (uint16_t d = candidates[at]; d; d = internal::WithoutLowest(d)) {
      const int digit = internal::LowestDigit(d);
      for (const uint8_t peer : table.peers[at]) {
        if (placed[peer] != digit) continue;
        // Appended piece by piece: g++ 12 draws a false -Wrestrict from "" + std::to_string().
        if (!digits.empty()) {
          digits += ' ';
          peers += ", ";
        }
        digits += static_cast<char>('0' + digit);
        peers += CellName(peer);
        break;
      }
    }
    *cell = at;
    std::string text = CellName(at);
    text += " has no candidate left: ";
    text += digits;  // two digits or more: a cell with one is placed
    text += " are placed among its peers (";
    text += peers;
    text += ")";
    return text;
  }
  return "";
}

Candidates InitialCandidates(const CandidateGrid& candidates) {
  const Board board(candidates);
  Candidates out{};
  for (int cell = 0; cell < kCells; ++cell) {
    out[cell] = board.values[cell] ? Bit(board.values[cell]) : board.open[cell];
  }
  return out;
}

bool ExplanationStart(std::string_view puzzle, Grid* grid, Candidates* candidates) {
  if (puzzle.size() == static_cast<size_t>(kCandidateChars)) {
    CandidateGrid state;
    if (ParseCandidates(puzzle, &state)) return false;
    *grid = PlacedCells(state);
    *candidates = InitialCandidates(state);
    return true;
  }
  if (ParsePuzzle(puzzle, grid)) return false;
  *candidates = InitialCandidates(*grid);
  return true;
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
// alone, simple. QQWing knows nothing past pairs and guesses where the rest would apply, so
// they count as expert here too.
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
    default: return Level::kExpert;
  }
}

Level QqwingLevel(const Grid& grid, Technique hardest) {
  if (hardest <= Technique::kHiddenPair || hardest == Technique::kTrial) return LevelOf(hardest);
  // The path took a triple or more where QQWing's solver, which knows no more than pairs, may
  // have found a pair that the triple made unnecessary.
  Board board(grid);
  return internal::SolvesWithPairs(board) ? Level::kIntermediate : Level::kExpert;
}

QqwingLeveler::QqwingLeveler(const Grid& grid) : placed_(grid) {}

void QqwingLeveler::Add(const Step& step) {
  if (hardest_ <= Technique::kHiddenPair && step.technique <= Technique::kHiddenPair) {
    for (const CellDigit& placement : step.placements) placed_[placement.cell] = placement.digit;
    removed_.insert(removed_.end(), step.eliminations.begin(), step.eliminations.end());
  }
  hardest_ = std::max(hardest_, step.technique);
}

Level QqwingLeveler::Result() const {
  if (hardest_ <= Technique::kHiddenPair || hardest_ == Technique::kTrial) {
    return LevelOf(hardest_);
  }
  // Placements and removals commute: the digits placed, then the candidates removed.
  Board board(placed_);
  for (const CellDigit& removal : removed_) {
    board.open[removal.cell] &= static_cast<uint16_t>(~Bit(removal.digit));
  }
  return internal::SolvesWithPairs(board) ? Level::kIntermediate : Level::kExpert;
}

namespace {

Explanation ExplainFrom(const internal::Start& start, Preference preference) {
  Explanation explanation;
  const Result result = internal::Run(
      start, preference, /*show_trial_branches=*/true,
      [&](Step& step) {
        if (step.technique == Technique::kTrial) ++explanation.logic_guesses;
        explanation.steps.push_back(std::move(step));
      },
      &explanation.solution);
  explanation.verdict = result.verdict;
  explanation.fast_guesses = result.guesses;
  return explanation;
}

Rating WalkFrom(const internal::Start& start, Preference preference,
                const std::function<void(const Step&)>& on_step) {
  Rating rating;
  Grid final_grid{};
  const Result result = internal::Run(
      start, preference, /*show_trial_branches=*/false,
      [&](const Step& step) {
        ++rating.steps;
        if (step.technique == Technique::kTrial) ++rating.logic_guesses;
        if (step.technique > rating.hardest) rating.hardest = step.technique;
        if (on_step) on_step(step);
      },
      &final_grid);
  rating.verdict = result.verdict;
  rating.guesses = result.guesses;
  return rating;
}

}  // namespace

Explanation Explain(const Grid& grid, Preference preference) {
  return ExplainFrom({.grid = &grid}, preference);
}

Explanation Explain(const CandidateGrid& candidates, Preference preference) {
  return ExplainFrom({.candidates = &candidates}, preference);
}

Rating Walk(const Grid& grid, Preference preference,
            const std::function<void(const Step&)>& on_step, const std::atomic<bool>* cancel,
            const Result* solved) {
  return WalkFrom({.grid = &grid, .cancel = cancel, .solved = solved}, preference, on_step);
}

Rating Walk(const CandidateGrid& candidates, Preference preference,
            const std::function<void(const Step&)>& on_step, const std::atomic<bool>* cancel,
            const Result* solved) {
  return WalkFrom({.candidates = &candidates, .cancel = cancel, .solved = solved}, preference,
                  on_step);
}

Rating Rate(const Grid& grid) {
  QqwingLeveler leveler(grid);
  Rating rating = Walk(grid, Preference::kHodoku, [&](const Step& step) { leveler.Add(step); });
  rating.level = leveler.Result();
  return rating;
}

}  // namespace sudoku::logic
