// Internal to the logical solver (logic.h): the board its techniques read and change, the
// tables they share, and the techniques themselves, one family per file:
//   logic_basic.cc     singles, intersections, naked and hidden subsets, basic and finned fish
//   logic_patterns.cc  skyscraper, two-string kite, empty rectangle, w-wing, simple colouring
//   logic_wings.cc     xy-wing, xyz-wing
//   logic_unique.cc    unique and hidden rectangles, SE's unique loops, bug+1
//   logic_chains.cc    x-chains, xy-chains, alternating inference chains (on the graphs of
//                      logic_chain_graph.h, searched a layer at a time by logic_chain_layers.h)
//   logic_als.cc       als-xz, SE's wxyz-wings, HoDoKu's sue de coq
//   logic_trial.cc     forcing chains and trials
//   logic_se_chains.cc Sudoku Explainer's forcing chains, for its rating's path
// Each technique looks for its step on the board; when it finds one it fills the step, plays it
// on the board and returns true, and otherwise leaves the board as it was.
//
// Thread-safety: constant tables and per-call state only.
#ifndef SUDOKU_SOLVER_LOGIC_BOARD_H_
#define SUDOKU_SOLVER_LOGIC_BOARD_H_

#include <array>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "solver/logic.h"

namespace sudoku::logic::internal {

constexpr int kUnits = 27;  // rows 0-8, columns 9-17, boxes 18-26
constexpr uint16_t kAllDigits = 0x1ff;

constexpr int RowOf(int cell) { return cell / 9; }
constexpr int ColumnOf(int cell) { return cell % 9; }
constexpr int BoxOf(int cell) { return RowOf(cell) / 3 * 3 + ColumnOf(cell) / 3; }
constexpr uint16_t Bit(int digit) { return static_cast<uint16_t>(1u << (digit - 1)); }
constexpr int LowestDigit(uint16_t digits) { return std::countr_zero(digits) + 1; }
constexpr uint16_t WithoutLowest(uint16_t bits) { return static_cast<uint16_t>(bits & (bits - 1)); }

// A set of cells, bit i for cell i.
struct CellSet {
  static constexpr int BitsSet(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555;
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0f;
    return static_cast<int>((x * 0x0101010101010101) >> 56);
  }

  uint64_t low = 0;   // cells 0-63
  uint32_t high = 0;  // cells 64-80

  constexpr void Add(int cell) {
    if (cell < 64) {
      low |= uint64_t{1} << cell;
    } else {
      high |= uint32_t{1} << (cell - 64);
    }
  }
  constexpr bool Has(int cell) const {
    return cell < 64 ? (low >> cell) & 1 : (high >> (cell - 64)) & 1;
  }
  constexpr bool Empty() const { return low == 0 && high == 0; }
  // Bits set, counted in registers: on the baseline x86-64 the library is built for,
  // std::popcount is a libgcc call (BitCounts, below).
  constexpr int Count() const { return BitsSet(low) + BitsSet(high); }
  constexpr CellSet operator&(const CellSet& other) const {
    return {low & other.low, high & other.high};
  }
  constexpr CellSet operator|(const CellSet& other) const {
    return {low | other.low, high | other.high};
  }
  constexpr CellSet Without(const CellSet& other) const {
    return {low & ~other.low, high & ~other.high};
  }
  // Calls visit(cell) for each cell, ascending.
  template <typename Visit>
  void ForEach(Visit&& visit) const {
    for (uint64_t bits = low; bits; bits &= bits - 1) visit(std::countr_zero(bits));
    for (uint32_t bits = high; bits; bits &= bits - 1) visit(64 + std::countr_zero(bits));
  }
  friend constexpr bool operator==(const CellSet&, const CellSet&) = default;
};

// The cells of each unit, and each cell's units and peers. Built at compile time.
struct Tables {
  std::array<std::array<uint8_t, 9>, kUnits> cells{};
  std::array<std::array<uint8_t, 20>, kCells> peers{};
  std::array<CellSet, kCells> peer_set{};
  std::array<CellSet, kUnits> unit_set{};
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
      for (int k = 0; k < 3; ++k) unit_set[units[cell][k]].Add(cell);
      int count = 0;
      for (int other = 0; other < kCells; ++other) {
        if (other != cell && (RowOf(other) == RowOf(cell) || ColumnOf(other) == ColumnOf(cell) ||
                              BoxOf(other) == BoxOf(cell))) {
          peers[cell][count++] = static_cast<uint8_t>(other);
          peer_set[cell].Add(other);
        }
      }
    }
  }
};

inline constexpr Tables kTables{};
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
inline constexpr BitCounts kBitCounts{};
constexpr int Count(uint16_t mask) { return kBitCounts.count[mask & 0x1ff]; }

constexpr bool Sees(int a, int b) { return kTables.peer_set[a].Has(b); }

Unit UnitOf(int unit);

// The searches whose failures SearchMemo keeps: each technique below that reads one digit's
// candidates at a time, or one unit's cells at a time, with its size or kind. A sized one is
// Sized(first, size).
enum class Search : uint8_t {
  kPointing,
  kClaiming,
  kDirectPointing,
  kDirectClaiming,
  kNakedSubset2, kNakedSubset3, kNakedSubset4,  // SubsetKind::kOneUnit
  kLockedSubset2, kLockedSubset3, kLockedSubset4,
  kHodokuSubset2, kHodokuSubset3, kHodokuSubset4,
  kHiddenSubset2, kHiddenSubset3, kHiddenSubset4,
  kDirectHiddenSubset2, kDirectHiddenSubset3, kDirectHiddenSubset4,
  kFish2, kFish3, kFish4,
  kFinnedFish2, kFinnedFish3, kFinnedFish4,
  kSkyscraper,
  kTwoStringKite,
  kTurbotFish,
  kEmptyRectangle,
  kSimpleColouring,
  kSueDeCoq,  // by a line and a box it crosses: searched again where either changed
  kMultiColours,
  kSeNishio,  // SE's Nishio chains read one digit each: searched again in the digits that changed
  kSeLinks2, kSeLinks3, kSeLinks4, kSeLinks5, kSeLinks6,  // SE's strong links: one digit each
  kSeXCycles,  // SE's cycles and forcing chains of X links (SeCycles): one digit each
  kCount
};
constexpr Search Sized(Search first, int size) {
  return static_cast<Search>(static_cast<int>(first) + size - 2);
}

constexpr uint16_t kEveryDigit = kAllDigits;         // bit d-1 for digit d
constexpr uint32_t kEveryUnit = (1u << kUnits) - 1;  // bit u for unit u

// What each search saw when it last found nothing. A walk asks the same searches after every
// step, and a step changes a few digits in a few units: a search that reads one digit at a time
// (a fish) finds nothing again in a digit whose candidates are as they were, and one that reads
// one unit at a time (a hidden subset) likewise in an unchanged unit. So each looks again only
// where the candidates changed since. Kept by what was seen, not by which board saw it: a
// board copied from another may share its memo and still search exactly what it must.
class SearchMemo {
 public:
  using Candidates = std::array<uint16_t, kCells>;

  // The digits (bit d-1) whose candidates changed since `search` last found nothing: all of
  // them if it never has.
  uint16_t ChangedDigits(Search search, const Candidates& open) const;
  // The units (bit u) where a candidate changed since; with `crossing`, also each unit that
  // shares two or more cells with one of them (a box and a line), for a search that reads both.
  uint32_t ChangedUnits(Search search, const Candidates& open, bool crossing = false) const;
  void NothingFound(Search search, const Candidates& open);

 private:
  std::array<Candidates, static_cast<int>(Search::kCount)> seen_;
  std::array<bool, static_cast<int>(Search::kCount)> noted_{};
};

// The puzzle as the logical solver sees it: placed digits, and candidates of open cells (0 for
// placed cells, unlike the public Candidates, so that techniques see only open cells).
struct Board {
  Grid values{};
  std::array<uint16_t, kCells> open{};
  int open_cells = 0;
  std::array<uint8_t, kUnits> unit_open_cells{};  // per unit, its cells not placed yet
  bool unique = false;  // the puzzle has one solution: the uniqueness techniques may apply
  // SE's nested forcing chains (logic_se_chains.cc, 9.5 and up) cost a search of SE's cycles or
  // multiple chains wherever one of theirs runs out of singles: the walk's allowance of those
  // searches. Spent, or the walk cancelled, they find nothing more, and trials take their place.
  uint32_t nested_searches_left = 0;
  const std::atomic<bool>* cancel = nullptr;
  SearchMemo* memo = nullptr;  // the walk's, when it keeps one: searches skip what it rules out

  Board() = default;
  explicit Board(const Grid& grid);
  // From a candidate state: a cell with one candidate is placed (PlacedCells), every other
  // keeps the candidates given that its placed peers leave it.
  explicit Board(const CandidateGrid& candidates);

  void Place(int cell, int digit);

  // Where `digit` may still go in `unit`, as a 9-bit mask of positions within the unit. Valid
  // from ComputePlaces() until the board changes.
  uint16_t Places(int unit, int digit) const { return places_[unit][digit]; }
  // The open cells holding `digit`. Valid as Places().
  const CellSet& CellsWith(int digit) const { return with_[digit]; }

  // Fills the tables Places() and CellsWith() read: one pass over the candidates instead of
  // nine loads for each question (the techniques past the singles ask hundreds).
  void ComputePlaces();

  // The cells not placed yet.
  CellSet OpenCells() const {
    CellSet cells;
    for (int cell = 0; cell < kCells; ++cell) {
      if (!values[cell]) cells.Add(cell);
    }
    return cells;
  }

  // What `search` must look at (SearchMemo): every digit or unit without a memo.
  uint16_t DigitsToSearch(Search search) const {
    return memo ? memo->ChangedDigits(search, open) : kEveryDigit;
  }
  uint32_t UnitsToSearch(Search search, bool crossing = false) const {
    return memo ? memo->ChangedUnits(search, open, crossing) : kEveryUnit;
  }
  // Returns false, for a search that found nothing, after noting what it saw.
  bool NothingFound(Search search) {
    if (memo) memo->NothingFound(search, open);
    return false;
  }

 private:
  std::array<std::array<uint16_t, 10>, kUnits> places_{};
  std::array<CellSet, 10> with_{};
};

// Removes `digits` from `cell` into the step, skipping candidates that are already gone.
void Eliminate(Board& board, Step* step, int cell, uint16_t digits);
// Removes `digit` from every open cell that sees all of `cells` (and is none of them).
inline void EliminateSeeingAll(Board& board, Step* step, int digit,
                               std::initializer_list<int> cells) {
  CellSet targets = board.CellsWith(digit);
  for (int cell : cells) targets = targets & Table().peer_set[cell];
  targets.ForEach([&](int cell) { Eliminate(board, step, cell, Bit(digit)); });
}
// Appends each digit of `digits` to the step's digits, ascending.
void AddDigits(Step* step, uint16_t digits);
// Places the step's placements on the board.
void PlayPlacements(Board& board, const Step& step);
Node SingleNode(int cell, int digit);
// The link between two one-cell nodes.
inline Link MakeLink(int from_cell, int from_digit, int to_cell, int to_digit, bool strong) {
  return Link{SingleNode(from_cell, from_digit), SingleNode(to_cell, to_digit), strong};
}

// The techniques, by file. `size` is 2 for pairs and x-wings, 3 for triples and swordfish, 4
// for quads and jellyfish.
bool NakedSingle(Board& board, Step* step);
// The last open cell of a unit, as NakedSingle gives it (variant 1), but found by its unit.
bool FullHouse(Board& board, Step* step);
bool HiddenSingle(Board& board, Step* step);
// `direct`: only a step after which a digit has one place left in a unit (SE's "direct"
// techniques, variant 1): for an intersection, its digit in another unit of the first kind
// crossing the second; for a hidden subset, another digit in its unit.
bool Intersection(Board& board, Step* step, bool pointing, bool direct = false);
// Which naked subsets NakedSubset() takes, and what they clear: the unit's other cells
// (kOneUnit), or as HoDoKu has them, every unit the cells share: kLocked only those locked in a
// box and a line (clearing both), kHodoku the others.
enum class SubsetKind : uint8_t { kOneUnit, kLocked, kHodoku };
bool NakedSubset(Board& board, Step* step, int size, SubsetKind kind = SubsetKind::kOneUnit);
bool HiddenSubset(Board& board, Step* step, int size, bool direct = false);
bool Fish(Board& board, Step* step, int size);
bool FinnedFish(Board& board, Step* step, int size);

bool Skyscraper(Board& board, Step* step);
bool TwoStringKite(Board& board, Step* step);
bool EmptyRectangle(Board& board, Step* step);
bool XYWing(Board& board, Step* step);
bool XYZWing(Board& board, Step* step);
// Not on the path rated for SE either: SE's own w-wing is switched off, its chains find one.
bool WWing(Board& board, Step* step);
bool SimpleColouring(Board& board, Step* step);
// HoDoKu's multi colours (types 1 and 2), the first as it finds them. On HoDoKu's path only.
bool MultiColours(Board& board, Step* step);
// HoDoKu's turbot fish: of all, the one removing most (then the lowest cells' sum).
bool TurbotFish(Board& board, Step* step);
// HoDoKu's remote pairs: of all, the one removing most (then the lowest cells' sum).
bool RemotePair(Board& board, Step* step);
// HoDoKu's: each type over every rectangle before the next type, the rectangles in its order.
// On HoDoKu's path only.
bool UniqueRectangle(Board& board, Step* step);
// Sudoku Explainer's unique rectangles and loops (types 1-4, type 3 by a naked or a hidden
// subset), by its rules: every loop it finds, and of their hints the easiest on its scale, then
// the lowest type, then the first found, rated as SE rates it (Step::se_tenths). Only on the
// path rated for SE (Preference::kEasiestSe).
bool SeUniqueLoops(Board& board, Step* step);
// Not on the path rated for SE (Preference::kEasiestSe), which has no hidden rectangle. The
// rectangles in HoDoKu's order; as HoDoKu, only where one corner holds just a and b, or two
// opposite ones.
bool HiddenRectangle(Board& board, Step* step);
bool BugPlusOne(Board& board, Step* step);

// X-chains, then xy-chains, then alternating inference chains: of the first kind that has one,
// by HoDoKu's rules (`hodoku`: grouped nodes too, the chain HoDoKu takes: most removals, then the
// lowest, then the shortest; its nice loops) or else by SE's (one-cell nodes only, as SE's
// chains have no groups; the shortest).
bool Chains(Board& board, Step* step, bool hodoku = false);
bool AlsXz(Board& board, Step* step);
// HoDoKu's Sue de Coq, the first as it finds them (rows, then columns, by box). On HoDoKu's
// path only.
bool SueDeCoq(Board& board, Step* step);
// Sudoku Explainer's wings of `size` 3 (WXYZ), 4 (VWXYZ) or 5 (UVWXYZ) cells and a bivalue
// cell, by its rules: of all, the easiest on its scale, then the one removing most. Only on the
// path rated for SE (Preference::kEasiestSe).
bool SeWing(Board& board, Step* step, int size);
// SE's strong links of one digit, `size` of them (2-6), as its rule of that size takes them
// (logic_se_links.cc): a kXChain step, variant 3 a chain, 4 an X-loop, rated in se_tenths.
bool SeStrongLinks(Board& board, Step* step, int size);
// SE's rating of such a chain, in tenths, and its suffix (the grouped links, then the kinds of
// unit in chain order: 0 a box, 1 a row, 2 a column, as SE normalises them), by the kinds of its
// links' units in chain order and how many of the links are grouped.
int SeLinksTenths(const int* kinds, int size, int grouped);
std::string SeLinksSuffix(const int* kinds, int size, int grouped);

bool ForcingChain(Board& board, Step* step);
// Sudoku Explainer's cycles and forcing chains of X links, Y links (cycles only) and both, by its
// rules: the step it applies, rated as SE rates it (Step::se_tenths): kXChain (X links),
// kXYChain (Y links) or kAic (both), variant 1 a cycle, 2 a forcing chain (logic.h). Only on
// the path rated for SE (Preference::kEasiestSe), where it takes the place of Chains().
bool SeCycles(Board& board, Step* step);
// Sudoku Explainer's Nishio, multiple, dynamic and dynamic "+" (level 1) forcing chains, by its
// rules and in its order (the first of them that finds any step gives the one SE applies), each
// step rated as SE rates it (Step::se_tenths). Only on the path rated for SE
// (Preference::kEasiestSe).
bool SeChains(Board& board, Step* step);
// SeChains' first producer alone, Nishio's chains (for the test of their memo, Search::kSeNishio).
bool SeNishioChains(Board& board, Step* step);
// The last resort: always takes a step on a board that is open and has a solution. With
// `show_branches`, a nested trial's step carries its whole refutation (Step::branches), within
// kMaxTrialBranches and kMaxTrialLinks; a rating needs none of it.
void Trial(Board& board, Step* step, bool show_branches);

}  // namespace sudoku::logic::internal

#endif  // SUDOKU_SOLVER_LOGIC_BOARD_H_
