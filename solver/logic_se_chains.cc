// Sudoku Explainer's forcing chains (logic_board.h), by its own rules, for the path rated for SE
// (Preference::kEasiestSe): Nishio (7.5), multiple (8.0), dynamic (8.5) and dynamic "+" (9.0:
// level 1, where singles run out inside a chain, SE's pointing and claiming, hidden and naked
// pairs and x-wings go on, each removal resting on the removals its rule needed), and its
// nested chains: at level 2 (9.5), where those run out, SE's cycles and forcing chains go on
// within the chain, on its grid, at level 3 (10.0) then its multiple forcing chains; each step
// of theirs that rests on the chain's removals (its rule parents: the removals the rules of its
// chains' ons needed) removes what it removes, and adds its own complexity, once per distinct
// nested chain, to that of the step that uses it. SE's
// rating of a chain step is its base plus a length bonus over the step's complexity, which
// counts the implications its conclusion rests on; the tenth that decides a puzzle's rating
// depends on counting them exactly as SE does, so the propagation below follows SE's order and
// keeps, for each implication, the parents SE gives it.
//
// A potential is a candidate, on (it holds) or off (it is removed). From a set of potentials
// assumed, SE derives, on before off, each in the order found:
//   on (c, d):  off for c's other digits (not in Nishio's chains), then off for d in c's box,
//               row and column (each cell once), its one parent the potential on;
//   off (c, d): on for c's other digit where c had two (not in Nishio's), then on for d's other
//               place in a box, row or column where it had two (the first rule naming a
//               potential wins). Its parents: the potential off, and in a dynamic chain the
//               "hidden" ones, every off already taken from that cell (or from that unit's
//               places of d) since the assumption, which the rule needed.
// In a dynamic chain every off is taken from the grid once its own consequences are found, so
// later rules read the grid as the assumption left it; a static chain (multiple forcing chains)
// reads the grid as it was. A potential derived both on and off stops the propagation: a
// contradiction.
//
// Where each producer starts: Nishio's chains from every candidate and from its removal, keeping
// contradictions only; multiple chains from the candidates of cells holding three or more: what
// all of a cell's imply, and what all the places of a digit in a unit imply (the unit met from
// its first place); dynamic chains from every candidate: contradictions both ways, what a
// candidate and its removal both imply (cells of three or more), a cell's and a unit's chains.
//
// The complexity of a step is the sum, over the chains it rests on, of the distinct ancestors
// (parents, transitively, itself included) of each chain's conclusion; the step is worth the
// producer's base plus 0.1 each time complexity - 2 passes 4, 6, 8, 12, 16, 24, ... . Of all the
// steps a producer finds, SE applies the one of least difficulty, then complexity, then kind
// (double forcing, cell, region, contradiction), then the first found.
#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/logic_board.h"

namespace sudoku::logic::internal {
namespace {

constexpr int kCandidateCount = kCells * 9;
constexpr int kPotentials = kCandidateCount * 2;

// Potential ids: candidate * 2 + on, the candidate cell * 9 + digit - 1.
constexpr int Candidate(int cell, int digit) { return cell * 9 + digit - 1; }
constexpr uint16_t On(int cell, int digit) {
  return static_cast<uint16_t>(Candidate(cell, digit) * 2 + 1);
}
constexpr uint16_t Off(int cell, int digit) {
  return static_cast<uint16_t>(Candidate(cell, digit) * 2);
}
constexpr uint16_t Conjugate(uint16_t potential) { return potential ^ 1; }
constexpr int CellOf(uint16_t potential) { return potential / 2 / 9; }
constexpr int DigitOf(uint16_t potential) { return potential / 2 % 9 + 1; }
constexpr bool IsOn(uint16_t potential) { return potential & 1; }

// A grid's candidates, with each unit's places of each digit (bit: position in the unit).
struct Grid9 {
  std::array<uint16_t, kCells> open{};
  std::array<std::array<uint16_t, 9>, kUnits> places{};

  void Remove(int cell, int digit) {
    open[cell] &= static_cast<uint16_t>(~Bit(digit));
    for (int k = 0; k < 3; ++k) {
      places[Table().units[cell][k]][digit - 1] &=
          static_cast<uint16_t>(~(1u << Table().positions[cell][k]));
    }
  }

  // The one other place of `digit` than `cell` in the cell's unit k (0 row, 1 column, 2 box),
  // or -1 when the digit has none there or more than one: where an off of the digit in `cell`
  // implies it on (an X link).
  int OtherPlace(int cell, int k, int digit) const {
    const int unit = Table().units[cell][k];
    const uint16_t others =
        places[unit][digit - 1] & static_cast<uint16_t>(~(1u << Table().positions[cell][k]));
    if (others == 0 || (others & (others - 1)) != 0) return -1;
    return Table().cells[unit][std::countr_zero(others)];
  }
};

// SE's units for a cell, in the order its rules read them: box, row, column.
constexpr std::array<int, 3> kUnitOrder = {2, 0, 1};

// Per cell and unit (row, column, box), the positions of the unit that are neither the cell nor,
// for a line, in the cell's box: the peers a rule reads there after the box's.
struct Outside {
  std::array<std::array<uint16_t, 3>, kCells> masks{};
  constexpr Outside() {
    for (int cell = 0; cell < kCells; ++cell) {
      const int band_of_row = ColumnOf(cell) / 3 * 3, band_of_column = RowOf(cell) / 3 * 3;
      masks[cell][0] = static_cast<uint16_t>(0x1ff & ~(7u << band_of_row));
      masks[cell][1] = static_cast<uint16_t>(0x1ff & ~(7u << band_of_column));
      masks[cell][2] = static_cast<uint16_t>(0x1ff & ~(1u << kTables.positions[cell][2]));
    }
  }
  constexpr const std::array<uint16_t, 3>& operator[](int cell) const { return masks[cell]; }
};
constexpr Outside kOutside{};

// How a propagation derives: the rules within a cell (all chains but Nishio's), dynamically
// (each off leaves the grid), and at level 1 (dynamic forcing chains "+") also by SE's
// pointing and claiming, hidden and naked pairs and x-wings wherever singles run out. From the
// grid `source`, with its placed digits: per unit, its cells not placed, and per digit, its
// cells placed.
struct Rules {
  bool cell_rules = true;
  bool dynamic = true;
  int level = 0;
  const Grid9* source = nullptr;
  // From level 2: the walk's nested searches left (Board::nested_searches_left), its cancel.
  uint32_t* nested_searches_left = nullptr;
  const std::atomic<bool>* cancel = nullptr;
  std::array<uint8_t, kUnits> open_cells{};
  std::array<uint8_t, 10> placed{};
};

// The first `count` of SE's removals, cells and digits, as a Java HashMap keyed by cell iterates
// them (SE's rules keep them so): by cell index modulo the table's size, then in the order
// added. The table holds 16 entries' room and doubles as it fills past three quarters.
void HashMapOrder(std::array<uint8_t, kCells>& cells, int count) {
  int size = 16;
  while (count > size * 3 / 4) size *= 2;
  std::array<uint8_t, kCells> order;
  for (int i = 0; i < count; ++i) order[i] = static_cast<uint8_t>(i);
  std::stable_sort(order.begin(), order.begin() + count, [&](uint8_t a, uint8_t b) {
    return (cells[a] & (size - 1)) < (cells[b] & (size - 1));
  });
  std::array<uint8_t, kCells> sorted;
  for (int i = 0; i < count; ++i) sorted[i] = cells[order[i]];
  std::copy(sorted.begin(), sorted.begin() + count, cells.begin());
}

// SE's causes of an implication, which its nested chains credit (rule parents, below): a
// unit's kind (0 row, 1 column, 2 box: the digit's other places there were gone), or kCellCause
// (the cell's other digits were gone).
constexpr uint8_t kCellCause = 3;

// An on potential of a nested step's chains, and the rule that derived it.
struct CausedOn {
  uint16_t potential;
  uint8_t cause;
};

// A step of the producers SE runs inside its nested chains (levels 2 and up): its cycles and
// forcing chains (level 2), its multiple forcing chains (level 3). Its removals, in the order SE
// lists them (cells as a Java HashMap iterates them, each cell's digits ascending); how SE orders
// it among the others (difficulty, complexity, sort key); the ons of its chains with their rules,
// in the order SE visits them, from which the chain that uses it takes its parents; and what
// tells its chains from another step's (SE's FullChain: the same chains, potential by potential).
struct NestedHint {
  double difficulty = 0;
  int complexity = 0;
  int sort_key = 0;
  std::vector<std::pair<uint8_t, uint16_t>> removals;
  std::vector<CausedOn> causes;
  uint64_t identity = 0;
};

// The steps of SE's nested producer of `level` (2: cycles and forcing chains, 3: multiple forcing
// chains) on `grid`, in SE's order, one of each set of removals (the first). Valid until the
// next call on the same thread. Defined below.
const std::vector<NestedHint>& NestedHints(int level, const Grid9& grid);

// SE's difficulty of a chain: its base plus SE's length bonus, the tenths added one at a time in
// a double, as SE adds them.
double SeDifficulty(double base, int complexity) {
  double added = 0.0;
  for (int tenth = SeLengthBonus(complexity - 2); tenth > 0; --tenth) added += 0.1;
  return base + added;
}

// The rule by which an off derived `on` (an X or Y link, on a grid that stays as it is): the
// cell's where both share it, else the first of their shared units (box, row, column) where
// the digit had those two places only.
uint8_t OnCause(const Grid9& grid, uint16_t off, uint16_t on) {
  const int from = CellOf(off), to = CellOf(on), digit = DigitOf(on);
  if (from == to) return kCellCause;
  for (const int k : kUnitOrder) {
    const int unit = Table().units[from][k];
    if (unit != Table().units[to][k]) continue;
    const unsigned both = (1u << Table().positions[from][k]) | (1u << Table().positions[to][k]);
    if (grid.places[unit][digit - 1] == both) return static_cast<uint8_t>(k);
  }
  return kCellCause;
}

// The rule by which an on derived `off`: the cell's where both share it, else the first of
// their shared units (box, row, column).
uint8_t OffCause(uint16_t on, uint16_t off) {
  const int from = CellOf(on), to = CellOf(off);
  if (from == to) return kCellCause;
  for (const int k : kUnitOrder) {
    if (Table().units[from][k] == Table().units[to][k]) return static_cast<uint8_t>(k);
  }
  return kCellCause;
}

// The cells of the unit of the other kind (a line for a box, the box for a line) that holds all
// of `places` (positions in `unit`); none where no one unit does.
CellSet CrossingOf(int unit, uint16_t places) {
  const int first = Table().cells[unit][std::countr_zero(places)];
  for (int k = 0; k < 3; ++k) {
    const int other = Table().units[first][k];
    if (other == unit || (unit < 18) == (other < 18)) continue;  // a line crosses only a box
    bool all = true;
    for (uint16_t at = places; at && all; at = WithoutLowest(at)) {
      all = Table().units[Table().cells[unit][std::countr_zero(at)]][k] == other;
    }
    if (all) return Table().unit_set[other];
  }
  return {};
}

// Mixes `value` into a FullChain identity (FNV-1a).
constexpr uint64_t MixIdentity(uint64_t identity, uint64_t value) {
  return (identity ^ value) * 0x100000001b3ull;
}
constexpr uint64_t kIdentitySeed = 0xcbf29ce484222325ull;

// The sets of potentials on and off that one assumption implies, each with its parents.
class Implications {
 public:
  struct Entry {
    uint16_t potential;
    uint16_t parent_count;
    uint32_t first_parent;
    int32_t nested = -1;  // a removal of a nested step: its record in nested_
  };

  // The nested chains a step's chains rest on, each counted once (SE's FullChain), and the sum
  // of their complexities, which SE adds to the step's.
  struct NestedTally {
    std::vector<uint64_t> seen;
    int complexity = 0;
    void Clear() {
      seen.clear();
      complexity = 0;
    }
  };

  Implications() { entry_of_.fill(-1); }

  bool Has(uint16_t potential) const { return entry_of_[potential] >= 0; }
  // The potentials on, then off, in the order derived.
  const std::vector<uint16_t>& Ons() const { return ons_; }
  const std::vector<uint16_t>& Offs() const { return offs_; }
  // Whether the propagation stopped at a contradiction: `absurd_` derived anew (not in the
  // sets), its conjugate in them.
  bool Absurd() const { return absurd_; }

  // The distinct ancestors of `potential` (in the sets), itself included.
  int Ancestors(uint16_t potential) const { return CountFrom(entries_[entry_of_[potential]]); }
  // Of the contradiction: both its potentials' ancestors.
  int AbsurdComplexity() const {
    return CountFrom(absurd_new_) + Ancestors(Conjugate(absurd_new_.potential));
  }
  // The potential `potential` (in the sets) was derived from, first of its parents; itself
  // where it was assumed.
  uint16_t FirstParent(uint16_t potential) const {
    const Entry& entry = entries_[entry_of_[potential]];
    return entry.parent_count > 0 ? pool_[entry.first_parent] : potential;
  }
  // Whether any removal came from a nested step (level 2 and up).
  bool HasNested() const { return !nested_.empty(); }
  // Adds the nested steps among the ancestors of `potential` (in the sets) to `tally`.
  void TallyNested(uint16_t potential, NestedTally* tally) const {
    TallyFrom(entries_[entry_of_[potential]], tally);
  }
  // Of the contradiction: among both its potentials' ancestors.
  void TallyAbsurdNested(NestedTally* tally) const {
    TallyFrom(absurd_new_, tally);
    TallyNested(Conjugate(absurd_new_.potential), tally);
  }

  // Follows SE's `rules` from `start`, on their source grid (left as it was).
  void Propagate(const Rules& rules, uint16_t start, Grid9* scratch) {
    Clear();
    const Grid9& source = *rules.source;
    const bool cell_rules = rules.cell_rules, dynamic = rules.dynamic;
    if (dynamic) *scratch = source;
    const Grid9& grid = dynamic ? *scratch : source;
    Add(start, nullptr, 0);
    size_t on_at = 0, off_at = 0;
    std::array<uint16_t, 10> parents;
    while (true) {
      if (on_at < ons_.size()) {
        const uint16_t p = ons_[on_at++];
        const int cell = CellOf(p), digit = DigitOf(p);
        parents[0] = p;
        if (cell_rules) {
          for (uint16_t d = grid.open[cell] & static_cast<uint16_t>(~Bit(digit)); d;
               d = WithoutLowest(d)) {
            if (DeriveOff(Off(cell, LowestDigit(d)), parents.data())) return;
          }
        }
        // Each peer once: the box's, then the row's and the column's outside the box.
        for (const int k : kUnitOrder) {
          const int unit = Table().units[cell][k];
          for (uint16_t at = grid.places[unit][digit - 1] & kOutside[cell][k]; at;
               at = WithoutLowest(at)) {
            if (DeriveOff(Off(Table().cells[unit][std::countr_zero(at)], digit), parents.data())) {
              return;
            }
          }
        }
        continue;
      }
      if (off_at < offs_.size()) {
        const uint16_t p = offs_[off_at++];
        const int cell = CellOf(p), digit = DigitOf(p);
        // Found on the grid before p leaves it, as SE does: its rules count p's own place.
        std::array<uint16_t, 4> made;
        std::array<uint32_t, 4> made_parents;  // into parent_pool_: first index
        std::array<uint16_t, 4> made_counts;
        int count = 0;
        if (cell_rules && Count(grid.open[cell]) == 2) {
          const uint16_t on = On(cell, LowestDigit(grid.open[cell] & ~Bit(digit)));
          made_parents[count] = static_cast<uint32_t>(pool_.size());
          pool_.push_back(p);
          for (uint16_t d = source.open[cell] & ~grid.open[cell]; d; d = WithoutLowest(d)) {
            pool_.push_back(Off(cell, LowestDigit(d)));
          }
          made_counts[count] = static_cast<uint16_t>(pool_.size() - made_parents[count]);
          made[count++] = on;
        }
        for (const int k : kUnitOrder) {
          const int other = grid.OtherPlace(cell, k, digit);
          if (other < 0) continue;
          const int unit = Table().units[cell][k];
          const uint16_t on = On(other, digit);
          if (std::find(made.begin(), made.begin() + count, on) != made.begin() + count) continue;
          made_parents[count] = static_cast<uint32_t>(pool_.size());
          pool_.push_back(p);
          for (uint16_t gone = source.places[unit][digit - 1] & ~grid.places[unit][digit - 1]; gone;
               gone = WithoutLowest(gone)) {
            pool_.push_back(Off(Table().cells[unit][std::countr_zero(gone)], digit));
          }
          made_counts[count] = static_cast<uint16_t>(pool_.size() - made_parents[count]);
          made[count++] = on;
        }
        if (dynamic) scratch->Remove(cell, digit);
        for (int i = 0; i < count; ++i) {
          if (Has(Conjugate(made[i]))) {
            absurd_ = true;
            absurd_new_ = {made[i], made_counts[i], made_parents[i]};
            return;
          }
          if (!Has(made[i])) {
            // The parents are in the pool already: the entry points at them.
            entry_of_[made[i]] = static_cast<int16_t>(entries_.size());
            entries_.push_back({made[i], made_counts[i], made_parents[i]});
            ons_.push_back(made[i]);
          }
        }
        continue;
      }
      // Singles have run out: at level 1, SE's other rules, the first that has a step; from
      // level 2, then its forcing chains and cycles, from level 3 then its multiple chains.
      if (rules.level == 0) return;
      const size_t known = offs_.size();
      if (!Advanced(rules, grid) && rules.level >= 2) Nested(rules, grid);
      if (offs_.size() == known) return;
    }
  }

 private:
  // Each removal of the first of SE's pointing and claiming, hidden pairs, naked pairs and
  // x-wings that has a step resting on the assumption (a removal since the source, its rule
  // parents): an off, its parents those removals, unless known already. Whether one had.
  bool Advanced(const Rules& rules, const Grid9& grid) {
    const Grid9& source = *rules.source;
    std::array<uint16_t, 32> parents;
    int parent_count = 0;
    std::array<uint16_t, kCells> removals{};
    std::array<uint8_t, kCells> cells;
    int count = 0;
    bool found = false;
    auto parent = [&](int cell, int digit) { parents[parent_count++] = Off(cell, digit); };
    auto remove = [&](int cell, uint16_t digits) {
      if (removals[cell] == 0) cells[count++] = static_cast<uint8_t>(cell);
      removals[cell] |= digits;
    };
    // One step: its removals, now in `removals` and `cells`, and its parents.
    auto step = [&]() {
      if (count > 0 && parent_count > 0) {
        found = true;
        HashMapOrder(cells, count);
        for (int i = 0; i < count; ++i) {
          for (uint16_t d = removals[cells[i]]; d; d = WithoutLowest(d)) {
            const uint16_t off = Off(cells[i], LowestDigit(d));
            if (!Has(off)) Add(off, parents.data(), parent_count);
          }
        }
      }
      for (int i = 0; i < count; ++i) removals[cells[i]] = 0;
      count = 0;
      parent_count = 0;
    };
    const auto& table = Table();
    // Generalised intersections: a digit's 2-6 places in a unit, and the cells seeing them all
    // (in effect, places within a box and a line). Their parents, as SE's pointing and claiming
    // take them: the places gone from the unit outside the crossing unit.
    for (const int kind : {2, 0, 1}) {
      for (int digit = 1; digit <= 9; ++digit) {
        for (int unit = kind * 9; unit < kind * 9 + 9; ++unit) {
          const uint16_t places = grid.places[unit][digit - 1];
          const int n = Count(places);
          if (n < 2 || n > 6) continue;
          CellSet victims = {~uint64_t{0}, (1u << (kCells - 64)) - 1};
          for (uint16_t at = places; at; at = WithoutLowest(at)) {
            victims = victims & table.peer_set[table.cells[unit][std::countr_zero(at)]];
          }
          victims.ForEach([&](int cell) {
            if (grid.open[cell] & Bit(digit)) remove(cell, Bit(digit));
          });
          if (count == 0) continue;
          const CellSet crossing = CrossingOf(unit, places);
          for (uint16_t gone = source.places[unit][digit - 1] & ~places; gone;
               gone = WithoutLowest(gone)) {
            const int cell = table.cells[unit][std::countr_zero(gone)];
            if (!crossing.Has(cell)) parent(cell, digit);
          }
          step();
        }
      }
    }
    if (found) return true;
    // Hidden pairs: two digits with the same two places (each two) in a unit.
    for (const int kind : {2, 1, 0}) {
      for (int unit = kind * 9; unit < kind * 9 + 9; ++unit) {
        if (rules.open_cells[unit] <= 4) continue;
        for (int b = 2; b <= 9; ++b) {
          for (int a = 1; a < b; ++a) {
            const uint16_t pa = grid.places[unit][a - 1], pb = grid.places[unit][b - 1];
            if (Count(pa) < 2 || Count(pb) < 2 || Count(pa | pb) != 2) continue;
            const uint16_t pair = static_cast<uint16_t>(Bit(a) | Bit(b));
            for (uint16_t at = pa | pb; at; at = WithoutLowest(at)) {
              const int cell = table.cells[unit][std::countr_zero(at)];
              if (grid.open[cell] & ~pair) remove(cell, grid.open[cell] & ~pair);
            }
            if (count == 0) continue;
            for (uint16_t gone = static_cast<uint16_t>(~(pa | pb) & 0x1ff); gone;
                 gone = WithoutLowest(gone)) {
              const int cell = table.cells[unit][std::countr_zero(gone)];
              for (const int digit : {a, b}) {
                if (source.open[cell] & Bit(digit)) parent(cell, digit);
              }
            }
            step();
          }
        }
      }
    }
    if (found) return true;
    // Naked pairs: two cells of a unit holding two digits between them (each two).
    for (const int kind : {2, 1, 0}) {
      for (int unit = kind * 9; unit < kind * 9 + 9; ++unit) {
        if (rules.open_cells[unit] < 4) continue;
        for (int j = 1; j < 9; ++j) {
          for (int i = 0; i < j; ++i) {
            const int first = table.cells[unit][i], second = table.cells[unit][j];
            const uint16_t digits = grid.open[first] | grid.open[second];
            if (Count(grid.open[first]) < 2 || Count(grid.open[second]) < 2 || Count(digits) != 2) {
              continue;
            }
            for (uint16_t d = digits; d; d = WithoutLowest(d)) {
              const int digit = LowestDigit(d);
              (table.peer_set[first] & table.peer_set[second]).ForEach([&](int cell) {
                if (grid.open[cell] & Bit(digit)) remove(cell, Bit(digit));
              });
            }
            if (count == 0) continue;
            for (const int cell : {first, second}) {
              for (uint16_t d = source.open[cell] & ~digits; d; d = WithoutLowest(d)) {
                parent(cell, LowestDigit(d));
              }
            }
            step();
          }
        }
      }
    }
    if (found) return true;
    // X-wings: a digit's places in two lines (each two) in the same two crossing lines; columns
    // first, then rows.
    for (const int base : {1, 0}) {
      const int cover = 1 - base;
      for (int j = 1; j < 9; ++j) {
        for (int i = 0; i < j; ++i) {
          for (int digit = 1; digit <= 9; ++digit) {
            if (rules.placed[digit] + 4 > 9) continue;
            const uint16_t pi = grid.places[base * 9 + i][digit - 1];
            const uint16_t pj = grid.places[base * 9 + j][digit - 1];
            const uint16_t lines = pi | pj;
            if (Count(pi) < 2 || Count(pj) < 2 || Count(lines) != 2) continue;
            const uint16_t bases = static_cast<uint16_t>((1u << i) | (1u << j));
            for (uint16_t at = lines; at; at = WithoutLowest(at)) {
              const int line = cover * 9 + std::countr_zero(at);
              for (uint16_t rest = grid.places[line][digit - 1] & ~bases; rest;
                   rest = WithoutLowest(rest)) {
                remove(table.cells[line][std::countr_zero(rest)], Bit(digit));
              }
            }
            if (count == 0) continue;
            for (const int line : {base * 9 + i, base * 9 + j}) {
              for (uint16_t gone =
                       source.places[line][digit - 1] & ~grid.places[line][digit - 1] & ~lines;
                   gone; gone = WithoutLowest(gone)) {
                parent(table.cells[line][std::countr_zero(gone)], digit);
              }
            }
            step();
          }
        }
      }
    }
    return found;
  }

  // The removals of the steps SE's nested producers find on `grid`, from level 2 its cycles and
  // forcing chains, from level 3, where those have none, its multiple forcing chains: each
  // step that rests on the assumption (its rule parents: the removals since the source that
  // the rules of its chains' ons needed) takes its removals off, their parents those removals,
  // unless known already. Whether a step had.
  bool Nested(const Rules& rules, const Grid9& grid) {
    thread_local std::vector<uint16_t> parents;
    thread_local std::array<uint64_t, (kPotentials + 63) / 64> listed;
    const Grid9& source = *rules.source;
    bool found = false;
    for (int level = 2; level <= rules.level && !found; ++level) {
      if (*rules.nested_searches_left == 0 ||
          (rules.cancel != nullptr && rules.cancel->load(std::memory_order_relaxed))) {
        *rules.nested_searches_left = 0;
        return false;
      }
      --*rules.nested_searches_left;
      for (const NestedHint& hint : NestedHints(level, grid)) {
        parents.clear();
        listed.fill(0);
        auto parent = [&](int cell, int digit) {
          const uint16_t off = Off(cell, digit);
          uint64_t& word = listed[off / 64];
          const uint64_t bit = uint64_t{1} << (off % 64);
          if (word & bit) return;
          word |= bit;
          parents.push_back(off);
        };
        for (const CausedOn& on : hint.causes) {
          const int cell = CellOf(on.potential), digit = DigitOf(on.potential);
          if (on.cause == kCellCause) {
            for (uint16_t d = source.open[cell] & ~grid.open[cell]; d; d = WithoutLowest(d)) {
              parent(cell, LowestDigit(d));
            }
            continue;
          }
          const int unit = Table().units[cell][on.cause];
          for (uint16_t gone = source.places[unit][digit - 1] & ~grid.places[unit][digit - 1];
               gone; gone = WithoutLowest(gone)) {
            parent(Table().cells[unit][std::countr_zero(gone)], digit);
          }
        }
        if (parents.empty()) continue;
        found = true;
        const int record = static_cast<int>(nested_.size());
        nested_.push_back({hint.identity, hint.complexity});
        for (const auto& [cell, digits] : hint.removals) {
          for (uint16_t d = digits; d; d = WithoutLowest(d)) {
            const uint16_t off = Off(cell, LowestDigit(d));
            if (!Has(off)) Add(off, parents.data(), static_cast<int>(parents.size()), record);
          }
        }
      }
    }
    return found;
  }

  void Clear() {
    for (const Entry& entry : entries_) entry_of_[entry.potential] = -1;
    entries_.clear();
    pool_.clear();
    ons_.clear();
    offs_.clear();
    nested_.clear();
    absurd_ = false;
  }

  void Add(uint16_t potential, const uint16_t* parents, int count, int nested = -1) {
    entry_of_[potential] = static_cast<int16_t>(entries_.size());
    entries_.push_back({potential, static_cast<uint16_t>(count),
                        static_cast<uint32_t>(pool_.size()), nested});
    pool_.insert(pool_.end(), parents, parents + count);
    (IsOn(potential) ? ons_ : offs_).push_back(potential);
  }

  // An off derived from one on (parents[0]); true on a contradiction.
  bool DeriveOff(uint16_t off, const uint16_t* parents) {
    if (Has(Conjugate(off))) {
      absurd_ = true;
      absurd_new_ = {off, 1, static_cast<uint32_t>(pool_.size())};
      pool_.push_back(parents[0]);
      return true;
    }
    if (!Has(off)) Add(off, parents, 1);
    return false;
  }

  // Calls `each` with every distinct ancestor of `from` (parents, transitively), `from` not
  // among them.
  template <typename F>
  void ForEachAncestor(const Entry& from, F&& each) const {
    std::array<uint64_t, (kPotentials + 63) / 64> seen{};
    std::array<uint16_t, kPotentials> stack;
    int top = 0;
    seen[from.potential / 64] |= uint64_t{1} << (from.potential % 64);
    auto push_parents = [&](const Entry& entry) {
      for (uint32_t i = 0; i < entry.parent_count; ++i) {
        const uint16_t parent = pool_[entry.first_parent + i];
        uint64_t& word = seen[parent / 64];
        const uint64_t bit = uint64_t{1} << (parent % 64);
        if (word & bit) continue;
        word |= bit;
        stack[top++] = parent;
      }
    };
    push_parents(from);
    while (top > 0) {
      const Entry& entry = entries_[entry_of_[stack[--top]]];
      each(entry);
      push_parents(entry);
    }
  }

  int CountFrom(const Entry& from) const {
    int count = 1;
    ForEachAncestor(from, [&](const Entry&) { ++count; });
    return count;
  }

  void TallyFrom(const Entry& from, NestedTally* tally) const {
    if (nested_.empty()) return;
    auto visit = [&](const Entry& entry) {
      if (entry.nested < 0) return;
      const NestedRecord& record = nested_[entry.nested];
      if (std::find(tally->seen.begin(), tally->seen.end(), record.identity) != tally->seen.end()) {
        return;
      }
      tally->seen.push_back(record.identity);
      tally->complexity += record.complexity;
    };
    visit(from);
    ForEachAncestor(from, visit);
  }

  // A nested step whose removals some entries are.
  struct NestedRecord {
    uint64_t identity;
    int complexity;
  };

  std::array<int16_t, kPotentials> entry_of_;
  std::vector<Entry> entries_;
  std::vector<uint16_t> pool_;  // the entries' parents
  std::vector<uint16_t> ons_, offs_;
  std::vector<NestedRecord> nested_;
  bool absurd_ = false;
  Entry absurd_new_{};
};

// SE's producers of forcing chains, in its order: Nishio (7.5), multiple (8.0), dynamic (8.5),
// and its dynamic ones at levels 1 ("+", 9.0), 2 (nested forcing chains and cycles, 9.5) and 3
// (nested multiple forcing chains, 10.0).
enum class Producer : uint8_t {
  kNishio,
  kMultiple,
  kDynamic,
  kDynamicPlus,
  kNested,
  kNestedMultiple,
};

int LevelOf(Producer producer) {
  switch (producer) {
    case Producer::kDynamicPlus: return 1;
    case Producer::kNested: return 2;
    case Producer::kNestedMultiple: return 3;
    default: return 0;
  }
}

// The step a producer applies, as found so far.
struct Best {
  int complexity = INT_MAX;
  int sort_key = 0;
  uint16_t target = 0;  // the potential proved: on, placed; off, removed
  uint8_t variant = 0;  // Step::variant
  uint8_t cell = 0;     // where its chains start
  uint8_t digit = 0;    // the digit assumed (contradiction, double forcing, region)
  int unit = -1;        // a region chain's unit

  void Offer(int new_complexity, int new_sort_key, uint16_t new_target, uint8_t new_variant,
             int new_cell, int new_digit, int new_unit) {
    if (new_complexity > complexity || (new_complexity == complexity && new_sort_key >= sort_key)) {
      return;
    }
    *this = {new_complexity,
             new_sort_key,
             new_target,
             new_variant,
             static_cast<uint8_t>(new_cell),
             static_cast<uint8_t>(new_digit),
             new_unit};
  }
};

// SE's sort keys, its order among steps equally hard and complex.
constexpr int kDoubleKey = 1, kCellKey = 5, kRegionKey = 6, kAbsurdKey = 7;
// The kinds of step, as a dynamic chain's variants.
constexpr int kContradictionVariant = 6, kDoubleVariant = 7, kCellVariant = 8, kRegionVariant = 9;

// Per thread, kept from one search to the next (about 2 MB, allocated once): each candidate's
// chain on, as the region and cell chains share them.
struct Scratch {
  std::vector<Implications> on = std::vector<Implications>(kCandidateCount);
  std::array<bool, kCandidateCount> done{};
  Implications off;
  Grid9 grid;
};

class Searcher {
 public:
  Searcher(Board& board, Producer producer, Scratch* scratch)
      : producer_(producer), scratch_(*scratch) {
    rules_.cell_rules = producer != Producer::kNishio;
    rules_.dynamic = producer != Producer::kMultiple;
    rules_.level = LevelOf(producer);
    rules_.source = &source_;
    rules_.nested_searches_left = &board.nested_searches_left;
    rules_.cancel = board.cancel;
    for (int unit = 0; unit < kUnits; ++unit) {
      rules_.open_cells[unit] = static_cast<uint8_t>(board.unit_open_cells[unit]);
    }
    for (int cell = 0; cell < kCells; ++cell) {
      if (board.values[cell]) ++rules_.placed[board.values[cell]];
    }
    for (int cell = 0; cell < kCells; ++cell) {
      source_.open[cell] = board.open[cell];
      for (uint16_t d = board.open[cell]; d; d = WithoutLowest(d)) {
        const int digit = LowestDigit(d);
        for (int k = 0; k < 3; ++k) {
          source_.places[Table().units[cell][k]][digit - 1] |=
              static_cast<uint16_t>(1u << Table().positions[cell][k]);
        }
      }
    }
    scratch_.done.fill(false);
  }

  // SE's multiple forcing chains as a nested chain's rule (level 3) runs them on the chain's
  // grid: every step they find goes to `collect`, unsorted.
  Searcher(const Grid9& grid, Scratch* scratch, std::vector<NestedHint>* collect)
      : producer_(Producer::kMultiple), scratch_(*scratch), source_(grid), collect_(collect) {
    rules_.dynamic = false;
    rules_.source = &source_;
    scratch_.done.fill(false);
  }

  // `searched`: the digits to start from. Nishio's chains, which follow one digit, need only
  // those whose candidates changed since they last found nothing (the others find nothing
  // again); the rest start from every digit.
  Best Search(uint16_t searched = kEveryDigit) {
    for (int cell = 0; cell < kCells; ++cell) {
      const uint16_t digits = source_.open[cell];
      const int cardinality = Count(digits);
      if (cardinality < (producer_ == Producer::kMultiple ? 3 : 2)) continue;
      for (uint16_t d = digits & searched; d; d = WithoutLowest(d)) {
        const int digit = LowestDigit(d);
        const Implications& on = ChainOn(cell, digit);
        if (producer_ != Producer::kMultiple) {
          if (on.Absurd()) {
            best_.Offer(on.AbsurdComplexity() + AbsurdNested(on), kAbsurdKey, Off(cell, digit),
                        Variant(kContradictionVariant), cell, digit, -1);
          }
          Implications& off = scratch_.off;
          off.Propagate(rules_, Off(cell, digit), &scratch_.grid);
          if (off.Absurd()) {
            best_.Offer(off.AbsurdComplexity() + AbsurdNested(off), kAbsurdKey, On(cell, digit),
                        Variant(kContradictionVariant), cell, digit, -1);
          }
          if (producer_ >= Producer::kDynamic && cardinality >= 3) Double(cell, digit, on, off);
        }
        if (producer_ != Producer::kNishio) Regions(cell, digit, on);
      }
      if (producer_ != Producer::kNishio) Cell(cell);
    }
    return best_;
  }

 private:
  const Implications& ChainOn(int cell, int digit) {
    const int candidate = Candidate(cell, digit);
    Implications& chain = scratch_.on[candidate];
    if (!scratch_.done[candidate]) {
      chain.Propagate(rules_, On(cell, digit), &scratch_.grid);
      scratch_.done[candidate] = true;
    }
    return chain;
  }

  // Step::variant (logic.h, kForcingChain) of a kind of step: a Nishio chain is 3, a multiple
  // chain's 4 (cell) and 5 (region), a dynamic chain's 6-9, at level 1 10-13, at level 2 14-17,
  // at level 3 18-21.
  uint8_t Variant(int kind) const {
    if (producer_ == Producer::kNishio) return 3;
    if (producer_ == Producer::kMultiple) return static_cast<uint8_t>(kind == kCellVariant ? 4 : 5);
    return static_cast<uint8_t>(kind + 4 * LevelOf(producer_));
  }

  // What SE adds to a step's complexity for the nested steps its chains rest on (from level 2):
  // their complexities, each counted once. Of a contradiction:
  int AbsurdNested(const Implications& chain) {
    if (!chain.HasNested()) return 0;
    tally_.Clear();
    chain.TallyAbsurdNested(&tally_);
    return tally_.complexity;
  }
  // Of chains proving `target`:
  int TargetNested(const Implications* const* chains, int count, uint16_t target) {
    tally_.Clear();
    for (int i = 0; i < count; ++i) {
      if (chains[i]->HasNested()) chains[i]->TallyNested(target, &tally_);
    }
    return tally_.complexity;
  }

  // Whether a step proving `target` removes anything: an on leaves its cell's other digits.
  bool Worth(uint16_t target) const {
    return !IsOn(target) || (source_.open[CellOf(target)] & ~Bit(DigitOf(target))) != 0;
  }

  // What both the candidate and its removal imply.
  void Double(int cell, int digit, const Implications& on, const Implications& off) {
    for (const std::vector<uint16_t>* list : {&on.Ons(), &on.Offs()}) {
      for (const uint16_t target : *list) {
        if (!off.Has(target) || !Worth(target)) continue;
        const int first = on.Ancestors(target);
        if (first > best_.complexity) continue;
        const std::array<const Implications*, 2> both = {&on, &off};
        best_.Offer(first + off.Ancestors(target) + TargetNested(both.data(), 2, target),
                    kDoubleKey, target, Variant(kDoubleVariant), cell, digit, -1);
      }
    }
  }

  // What each place of `digit` in a unit of `cell` implies, where `cell` is its first place.
  void Regions(int cell, int digit, const Implications& on) {
    for (const int k : kUnitOrder) {
      const int unit = Table().units[cell][k];
      const uint16_t places = source_.places[unit][digit - 1];
      if (WithoutLowest(places) == 0 || Table().cells[unit][std::countr_zero(places)] != cell) {
        continue;
      }
      std::array<const Implications*, 9> chains;
      int count = 0;
      for (uint16_t at = places; at; at = WithoutLowest(at)) {
        const int other = Table().cells[unit][std::countr_zero(at)];
        chains[count++] = other == cell ? &on : &ChainOn(other, digit);
      }
      Common(on, chains.data(), count, kRegionKey, Variant(kRegionVariant), cell, digit, unit);
    }
  }

  // What each candidate of `cell` implies.
  void Cell(int cell) {
    std::array<const Implications*, 9> chains;
    int count = 0;
    for (uint16_t d = source_.open[cell]; d; d = WithoutLowest(d)) {
      chains[count++] = &scratch_.on[Candidate(cell, LowestDigit(d))];
    }
    Common(*chains[0], chains.data(), count, kCellKey, Variant(kCellVariant), cell, 0, -1);
  }

  // The potentials every chain implies, in the order the first derived them.
  void Common(const Implications& first, const Implications* const* chains, int count, int sort_key,
              uint8_t variant, int cell, int digit, int unit) {
    for (const std::vector<uint16_t>* list : {&first.Ons(), &first.Offs()}) {
      for (const uint16_t target : *list) {
        bool all = true;
        for (int i = 0; i < count && all; ++i) all = chains[i]->Has(target);
        if (!all || !Worth(target)) continue;
        int complexity = 0;
        if (collect_) {
          for (int i = 0; i < count; ++i) complexity += chains[i]->Ancestors(target);
          Collect(chains, count, complexity, sort_key, target, cell, unit);
          continue;
        }
        for (int i = 0; i < count && complexity <= best_.complexity; ++i) {
          complexity += chains[i]->Ancestors(target);
        }
        if (complexity > best_.complexity) continue;
        complexity += TargetNested(chains, count, target);
        best_.Offer(complexity, sort_key, target, variant, cell, digit, unit);
      }
    }
  }

  // A step of the multiple forcing chains nested in another chain (collect_): every chain's
  // ons, from its target back to its start (whose rule is the step's: the cell's, or the
  // unit's), each derived from an off by the cell's rule where both share the cell, else by the
  // first of its units (box, row, column) where the digit had those two places.
  void Collect(const Implications* const* chains, int count, int complexity, int sort_key,
               uint16_t target, int cell, int unit) {
    NestedHint hint;
    hint.complexity = complexity;
    hint.sort_key = sort_key;
    hint.difficulty = SeDifficulty(8.0, complexity);
    const int target_cell = CellOf(target);
    const uint16_t removed =
        IsOn(target) ? source_.open[target_cell] & static_cast<uint16_t>(~Bit(DigitOf(target)))
                     : Bit(DigitOf(target));
    hint.removals.push_back({static_cast<uint8_t>(target_cell), removed});
    uint64_t identity = MixIdentity(kIdentitySeed, static_cast<uint64_t>(sort_key * 128 + cell));
    const uint8_t start_cause =
        unit < 0 ? kCellCause : static_cast<uint8_t>(unit < 9 ? 0 : unit < 18 ? 1 : 2);
    for (int i = 0; i < count; ++i) {
      for (uint16_t p = target;;) {
        identity = MixIdentity(identity, p);
        const uint16_t parent = chains[i]->FirstParent(p);
        if (parent == p) {
          hint.causes.push_back({p, start_cause});
          break;
        }
        if (IsOn(p)) hint.causes.push_back({p, OnCause(source_, parent, p)});
        p = parent;
      }
      identity = MixIdentity(identity, 0xffff);
    }
    hint.identity = identity;
    collect_->push_back(std::move(hint));
  }

  Producer producer_;
  Scratch& scratch_;
  Rules rules_;
  Grid9 source_;
  Best best_;
  Implications::NestedTally tally_;
  std::vector<NestedHint>* collect_ = nullptr;
};

int BaseTenths(Producer producer) {
  switch (producer) {
    case Producer::kNishio: return 75;
    case Producer::kMultiple: return 80;
    case Producer::kDynamic: return 85;
    case Producer::kDynamicPlus: return 90;
    case Producer::kNested: return 95;
    case Producer::kNestedMultiple: return 100;
  }
  return 85;
}

// The step `producer` finds, SE's first, taken; false when it finds none. A nested producer
// that spends the walk's last nested search, or sees it cancelled, finds none: its search was
// cut short.
bool ProducerStep(Producer producer, Board& board, Step* step) {
  thread_local Scratch scratch;
  const bool nishio = producer == Producer::kNishio;
  const bool nested = LevelOf(producer) >= 2;
  if (nested && board.nested_searches_left == 0) return false;
  const Best best = Searcher(board, producer, &scratch)
                        .Search(nishio ? board.DigitsToSearch(Search::kSeNishio) : kEveryDigit);
  if (nested && board.nested_searches_left == 0) return false;
  if (best.complexity == INT_MAX) return nishio ? board.NothingFound(Search::kSeNishio) : false;
  step->technique = Technique::kForcingChain;
  step->variant = best.variant;
  step->se_tenths =
      static_cast<uint8_t>(BaseTenths(producer) + SeLengthBonus(best.complexity - 2));
  step->cells.push_back(best.cell);
  if (best.digit != 0) {
    step->digits.push_back(best.digit);
  } else {
    AddDigits(step, board.open[best.cell]);
  }
  if (best.unit >= 0) step->units.push_back(UnitOf(best.unit));
  const int cell = CellOf(best.target), digit = DigitOf(best.target);
  if (IsOn(best.target)) {
    step->placements.push_back({static_cast<uint8_t>(cell), static_cast<uint8_t>(digit)});
    PlayPlacements(board, *step);
  } else {
    Eliminate(board, step, cell, Bit(digit));
  }
  return true;
}

// SE's cycles and forcing chains (its "ForcingChainCycle" producer, 6.5-7.x), before its
// Nishio chains. Its chains are static (the grid is read as it was) and follow links of three
// kinds, each search in turn: X (a digit's other places in a unit: on to off, and off to on where
// two are left), Y (on to off within the cell too, and off to on in a bivalue cell, but none
// between places of a unit: the chains through bivalue cells), and both. From each candidate on
// (Y: in a bivalue cell only), SE looks for cycles back to it; with X links, it also follows the
// candidate on to its own removal (it is false) and its removal to itself on (it is true): a
// forcing chain. SE has no forcing chain of Y links alone (its length would be odd and even).
//
// Each potential derived has one parent, so a chain is the path back to its start. Forcing
// chains derive each potential once, the first way found; cycles derive each on once but every
// off again from each on that leads to it (unless it is among that on's ancestors), so that
// every loop back to the start is found. A cycle (four links or more) removes a digit from
// the cells off it that see one of its ons and one of its offs of that digit; a forcing chain
// removes its start, or its start's cell's other digits. A step's complexity is its chain's
// distinct potentials; its difficulty is 6.5 (cycles of X or Y links), 6.6 (forcing X-chains)
// or 7.0 (both kinds) plus the length bonus, summed in doubles as SE does: SE compares the sums,
// and 6.5 + 0.2 is not 6.6 + 0.1 there. Of all the steps, SE applies the least difficult, then
// the least complex, then X before Y before both, then the first found; where it has one,
// a search stops as soon as what it could still find would come after.

enum class LinkKind : uint8_t { kX, kY, kXY };

// The step found so far: its order (difficulty, complexity, kind), its chain from the start,
// and its removals per cell.
struct CycleBest {
  double difficulty = 1e9;
  int complexity = INT_MAX;
  LinkKind kind = LinkKind::kX;
  bool cycle = false;
  std::vector<uint16_t> chain;
  std::array<uint16_t, kCells> removals{};

  // Whether a step of this order would come before the best.
  bool Before(double new_difficulty, int new_complexity, LinkKind new_kind) const {
    if (new_difficulty != difficulty) return new_difficulty < difficulty;
    if (new_complexity != complexity) return new_complexity < complexity;
    return new_kind < kind;
  }
};

class CycleSearcher {
 public:
  explicit CycleSearcher(const Board& board) {
    for (int cell = 0; cell < kCells; ++cell) {
      grid_.open[cell] = board.open[cell];
      if (board.values[cell]) grid_.open[cell] = 0;
      for (uint16_t d = grid_.open[cell]; d; d = WithoutLowest(d)) {
        const int digit = LowestDigit(d);
        for (int k = 0; k < 3; ++k) {
          grid_.places[Table().units[cell][k]][digit - 1] |=
              static_cast<uint16_t>(1u << Table().positions[cell][k]);
        }
      }
    }
    nodes_.reserve(4096);
  }

  // SE's cycles and forcing chains as a nested chain's rule (level 2) runs them, on the chain's
  // grid: every step, in the order found, goes to `collect`.
  CycleSearcher(const Grid9& grid, std::vector<NestedHint>* collect)
      : grid_(grid), collect_(collect) {
    nodes_.reserve(4096);
  }

  // `x_digits`: the digits whose X links to search. An X link joins places of one digit, so the
  // X chains from one digit's candidates find what they found while its candidates stay as they
  // were (Search::kSeXCycles); the Y and XY chains read every digit. `x_found` (when given):
  // whether the X links found any step.
  const CycleBest& Search(uint16_t x_digits = kEveryDigit, bool* x_found = nullptr) {
    for (const LinkKind kind : {LinkKind::kX, LinkKind::kY, LinkKind::kXY}) {
      kind_ = kind;
      y_ = kind != LinkKind::kX;
      x_ = kind != LinkKind::kY;
      if (kind == LinkKind::kY && x_found) *x_found = !best_.chain.empty();
      const uint16_t digits = kind == LinkKind::kX ? x_digits : kEveryDigit;
      for (int cell = 0; cell < kCells; ++cell) {
        const int cardinality = Count(grid_.open[cell]);
        if (cardinality < 2 || (!x_ && cardinality > 2)) continue;
        for (uint16_t d = grid_.open[cell] & digits; d; d = WithoutLowest(d)) {
          const int digit = LowestDigit(d);
          std::array<uint16_t, 4> back;
          const int back_count = OffsBackTo(On(cell, digit), &back);
          CyclesAndForcingChain(On(cell, digit), back, back_count);
          // From its removal to it on: only through an off that implies it.
          if (x_ && back_count != 0) ForcingChainFromRemoval(Off(cell, digit));
        }
      }
    }
    return best_;
  }

 private:
  struct ChainNode {
    uint16_t potential;
    int32_t parent;  // the node it came from; -1 at the start
  };

  double Base(bool cycle) const {
    if (kind_ == LinkKind::kXY) return 7.0;
    return cycle ? 6.5 : 6.6;
  }

  // The offs an on implies: its cell's other digits (Y links), then its digit's other places in
  // its box, row and column (each cell once).
  template <typename F>
  void OffsOf(uint16_t on, F&& each) const {
    const int cell = CellOf(on), digit = DigitOf(on);
    if (y_) {
      for (uint16_t d = grid_.open[cell] & static_cast<uint16_t>(~Bit(digit)); d;
           d = WithoutLowest(d)) {
        each(Off(cell, LowestDigit(d)));
      }
    }
    for (const int k : kUnitOrder) {
      const int unit = Table().units[cell][k];
      for (uint16_t at = grid_.places[unit][digit - 1] & kOutside[cell][k]; at;
           at = WithoutLowest(at)) {
        each(Off(Table().cells[unit][std::countr_zero(at)], digit));
      }
    }
  }

  // The ons an off implies: a bivalue cell's other digit (Y links), then the digit's one other
  // place in its box, row or column (X links), each once.
  template <typename F>
  void OnsOf(uint16_t off, bool x, F&& each) const {
    const int cell = CellOf(off), digit = DigitOf(off);
    std::array<uint16_t, 4> made;
    int count = 0;
    if (y_ && Count(grid_.open[cell]) == 2) {
      made[count++] = On(cell, LowestDigit(grid_.open[cell] & static_cast<uint16_t>(~Bit(digit))));
    }
    if (x) {
      for (const int k : kUnitOrder) {
        const int other = grid_.OtherPlace(cell, k, digit);
        if (other < 0) continue;
        const uint16_t on = On(other, digit);
        if (std::find(made.begin(), made.begin() + count, on) == made.begin() + count) {
          made[count++] = on;
        }
      }
    }
    for (int i = 0; i < count; ++i) each(made[i]);
  }

  bool Seen(const std::array<uint64_t, (kPotentials + 63) / 64>& set, uint16_t p) const {
    return (set[p / 64] >> (p % 64)) & 1;
  }
  static void Mark(std::array<uint64_t, (kPotentials + 63) / 64>& set, uint16_t p) {
    set[p / 64] |= uint64_t{1} << (p % 64);
  }

  int AddNode(uint16_t potential, int parent) {
    nodes_.push_back({potential, parent});
    return static_cast<int>(nodes_.size()) - 1;
  }

  // Whether a chain of `links` links from here on could still come before the best (a cycle's
  // complexity is its links, a forcing chain's one more).
  bool Hopeful(bool cycle, int links) const {
    if (collect_) return true;
    const int complexity = cycle ? links : links + 1;
    return best_.Before(SeDifficulty(Base(cycle), complexity), complexity, kind_);
  }

  // The chain ending at node `end`, from the start.
  void ChainTo(int end, std::vector<uint16_t>* chain) const {
    chain->clear();
    for (int at = end; at >= 0; at = nodes_[at].parent) chain->push_back(nodes_[at].potential);
    std::reverse(chain->begin(), chain->end());
  }

  // The offs that imply `on` (stored in `back`, counted): its cell's other digit where it has
  // two (Y links), the digit's other place in a unit where it has two (X links).
  int OffsBackTo(uint16_t on, std::array<uint16_t, 4>* back) const {
    int count = 0;
    const int cell = CellOf(on), digit = DigitOf(on);
    if (y_ && Count(grid_.open[cell]) == 2) {
      (*back)[count++] =
          Off(cell, LowestDigit(grid_.open[cell] & static_cast<uint16_t>(~Bit(digit))));
    }
    if (x_) {
      for (const int k : kUnitOrder) {
        const int other = grid_.OtherPlace(cell, k, digit);
        if (other >= 0) (*back)[count++] = Off(other, digit);
      }
    }
    return count;
  }

  // From `start` on: the cycles back to it and, with X links, the forcing chain to its own
  // removal (it is false), in one search. Both follow the same tree (each potential derived
  // the first way found); the cycles also derive again an off that leads back to the start, from
  // each on that reaches it (not from its own descendants), and such an off leads to no new on.
  // The forcing chain is offered after the cycles, as SE looks for it after them: of two steps
  // in the same order, the one found first is kept. `back` holds the start's OffsBackTo().
  void CyclesAndForcingChain(uint16_t start, const std::array<uint16_t, 4>& back,
                             int back_count) {
    bool cycles = back_count > 0 && Hopeful(true, 4);  // none without an off back to the start
    bool forcing = x_;  // SE has no forcing chain of Y links alone
    if (!cycles && !forcing) return;
    const uint16_t target = Conjugate(start);
    int forcing_end = -1;  // the node at which the forcing chain reached `target`
    nodes_.clear();
    on_seen_.fill(0);
    off_seen_.fill(0);
    Mark(on_seen_, start);
    std::vector<int>& pending_on = pending_on_;
    std::vector<int>& pending_off = pending_off_;
    pending_on.assign(1, AddNode(start, -1));
    int length = 0;  // links from the start to the ons pending
    while (!pending_on.empty()) {
      // The offs derived next are `length` + 1 links from the start, the ons after them
      // `length` + 2: a cycle needs four.
      cycles = cycles && (length + 2 < 4 || Hopeful(true, length + 2));
      forcing = forcing && forcing_end < 0 && Hopeful(false, length + 1);
      if (!cycles && !forcing) break;
      ++length;
      pending_off.clear();
      for (const int node : pending_on) {
        OffsOf(nodes_[node].potential, [&](uint16_t off) {
          if (Seen(off_seen_, off)) {
            const auto back_end = back.begin() + back_count;
            if (!cycles || std::find(back.begin(), back_end, off) == back_end) return;
            for (int at = nodes_[node].parent; at >= 0; at = nodes_[at].parent) {
              if (nodes_[at].potential == off) return;
            }
            pending_off.push_back(AddNode(off, node));
            return;
          }
          Mark(off_seen_, off);
          const int added = AddNode(off, node);
          if (forcing && forcing_end < 0 && off == target) forcing_end = added;
          pending_off.push_back(added);
        });
      }
      ++length;
      pending_on.clear();
      for (const int node : pending_off) {
        OnsOf(nodes_[node].potential, x_, [&](uint16_t on) {
          if (cycles && length >= 4 && on == start) Cycle(AddNode(on, node), length);
          if (Seen(on_seen_, on)) return;
          Mark(on_seen_, on);
          pending_on.push_back(AddNode(on, node));
        });
      }
    }
    if (forcing_end >= 0) Found(forcing_end);
  }

  // From `removal` (an off) to the same candidate on, the forcing chain (the candidate is true).
  void ForcingChainFromRemoval(uint16_t removal) {
    nodes_.clear();
    on_seen_.fill(0);
    off_seen_.fill(0);
    const uint16_t target = Conjugate(removal);
    std::vector<int>& pending_on = pending_on_;
    std::vector<int>& pending_off = pending_off_;
    pending_on.clear();
    Mark(off_seen_, removal);
    pending_off.assign(1, AddNode(removal, -1));
    int links = 0;  // of the potentials pending
    while (!pending_on.empty() || !pending_off.empty()) {
      if (!Hopeful(false, links + 1)) return;
      if (!pending_on.empty()) {
        pending_off.clear();
        for (const int node : pending_on) {
          OffsOf(nodes_[node].potential, [&](uint16_t off) {
            if (Seen(off_seen_, off)) return;
            Mark(off_seen_, off);
            pending_off.push_back(AddNode(off, node));
          });
        }
        pending_on.clear();
      } else {
        pending_on.clear();
        for (const int node : pending_off) {
          bool found = false;
          OnsOf(nodes_[node].potential, true, [&](uint16_t on) {
            if (found || Seen(on_seen_, on)) return;
            Mark(on_seen_, on);
            const int added = AddNode(on, node);
            if (on == target) {
              Found(added);
              found = true;
            }
            pending_on.push_back(added);
          });
          if (found) return;
        }
        pending_off.clear();
      }
      ++links;
    }
  }

  // A forcing chain to its start's conjugate, at node `end`.
  void Found(int end) {
    ChainTo(end, &chain_);
    const int complexity = static_cast<int>(chain_.size());
    const double difficulty = SeDifficulty(Base(false), complexity);
    if (collect_) {
      NestedHint hint = Hint(difficulty, complexity, false);
      const uint16_t start = chain_.front();
      const int cell = CellOf(start);
      hint.removals.push_back(
          {static_cast<uint8_t>(cell),
           IsOn(start) ? Bit(DigitOf(start))
                       : grid_.open[cell] & static_cast<uint16_t>(~Bit(DigitOf(start)))});
      // The ons from the end back, the start's own rule unknown to SE (it was assumed).
      for (size_t i = chain_.size() - 1; i >= 1; --i) {
        if (IsOn(chain_[i])) {
          hint.causes.push_back({chain_[i], OnCause(grid_, chain_[i - 1], chain_[i])});
        }
      }
      collect_->push_back(std::move(hint));
      return;
    }
    if (!best_.Before(difficulty, complexity, kind_)) return;
    const uint16_t start = chain_.front();
    const int cell = CellOf(start);
    best_.removals.fill(0);
    best_.removals[cell] = IsOn(start)
                               ? Bit(DigitOf(start))
                               : grid_.open[cell] & static_cast<uint16_t>(~Bit(DigitOf(start)));
    Take(difficulty, complexity, false);
  }

  // A cycle back to its start, at node `end`, `links` links long.
  void Cycle(int end, int links) {
    const int complexity = links;  // its start, at both ends, counted once
    const double difficulty = SeDifficulty(Base(true), complexity);
    if (!collect_ && !best_.Before(difficulty, complexity, kind_)) return;
    ChainTo(end, &chain_);
    CellSet on_loop{};
    for (const uint16_t p : chain_) on_loop.Add(CellOf(p));
    std::array<uint16_t, kCells> seen_on{}, seen_off{};
    for (size_t i = 1; i < chain_.size(); ++i) {
      const uint16_t p = chain_[i];
      const int digit = DigitOf(p);
      std::array<uint16_t, kCells>& seen = IsOn(p) ? seen_on : seen_off;
      Table().peer_set[CellOf(p)].ForEach([&](int peer) {
        if (!on_loop.Has(peer) && (grid_.open[peer] & Bit(digit))) seen[peer] |= Bit(digit);
      });
    }
    bool any = false;
    std::array<uint16_t, kCells> removals;
    for (int cell = 0; cell < kCells; ++cell) {
      removals[cell] = seen_on[cell] & seen_off[cell];
      any |= removals[cell] != 0;
    }
    if (!any) return;
    if (collect_) {
      Collect(difficulty, complexity, removals, on_loop);
      return;
    }
    best_.removals = removals;
    Take(difficulty, complexity, true);
  }

  // The hint of the chain in chain_, for collect_.
  NestedHint Hint(double difficulty, int complexity, bool cycle) const {
    NestedHint hint;
    hint.difficulty = difficulty;
    hint.complexity = complexity;
    hint.sort_key = kind_ == LinkKind::kX ? 2 : kind_ == LinkKind::kY ? 3 : 4;
    uint64_t identity = MixIdentity(kIdentitySeed, cycle ? 1 : 0);
    for (const uint16_t p : chain_) identity = MixIdentity(identity, p);
    hint.identity = identity;
    return hint;
  }

  // A cycle, for collect_: SE lists its removals' cells in the order its ons' peers first show
  // them (the ons from the end back, each one's peers ascending), as a HashMap iterates them;
  // its chains are the cycle from its end back, then the same reversed, each off of the cycle
  // an on there, taken by the off's rule.
  void Collect(double difficulty, int complexity, const std::array<uint16_t, kCells>& removals,
               const CellSet& on_loop) {
    NestedHint hint = Hint(difficulty, complexity, true);
    std::array<uint8_t, kCells> cells;
    int count = 0;
    std::array<bool, kCells> listed{};
    for (size_t i = chain_.size() - 1; i >= 1; --i) {
      const uint16_t p = chain_[i];
      if (!IsOn(p)) continue;
      const int digit = DigitOf(p);
      Table().peer_set[CellOf(p)].ForEach([&](int peer) {
        if (!on_loop.Has(peer) && (removals[peer] & Bit(digit)) && !listed[peer]) {
          listed[peer] = true;
          cells[count++] = static_cast<uint8_t>(peer);
        }
      });
    }
    HashMapOrder(cells, count);
    for (int i = 0; i < count; ++i) hint.removals.push_back({cells[i], removals[cells[i]]});
    const size_t n = chain_.size() - 1;  // chain_[n] is the start again
    for (size_t i = n; i >= 2; i -= 2) {
      hint.causes.push_back({chain_[i], OnCause(grid_, chain_[i - 1], chain_[i])});
    }
    for (size_t i = 1; i < n; i += 2) {
      hint.causes.push_back({Conjugate(chain_[i]), OffCause(chain_[i - 1], chain_[i])});
    }
    collect_->push_back(std::move(hint));
  }

  void Take(double difficulty, int complexity, bool cycle) {
    best_.difficulty = difficulty;
    best_.complexity = complexity;
    best_.kind = kind_;
    best_.cycle = cycle;
    best_.chain = chain_;
  }

  Grid9 grid_;
  LinkKind kind_ = LinkKind::kX;
  bool x_ = true, y_ = false;
  std::vector<ChainNode> nodes_;
  std::vector<int> pending_on_, pending_off_;
  std::vector<uint16_t> chain_;
  std::array<uint64_t, (kPotentials + 63) / 64> on_seen_{}, off_seen_{};
  CycleBest best_;
  std::vector<NestedHint>* collect_ = nullptr;
};

// Sorts `hints` as SE does (difficulty, complexity, sort key; stably) and keeps the first of
// each set of removals (SE's hints are equal where their removals are).
void SortNested(std::vector<NestedHint>* hints) {
  std::stable_sort(hints->begin(), hints->end(), [](const NestedHint& a, const NestedHint& b) {
    if (a.difficulty != b.difficulty) return a.difficulty < b.difficulty;
    if (a.complexity != b.complexity) return a.complexity < b.complexity;
    return a.sort_key < b.sort_key;
  });
  std::vector<std::vector<std::pair<uint8_t, uint16_t>>> kept;
  size_t out = 0;
  for (size_t i = 0; i < hints->size(); ++i) {
    auto removals = (*hints)[i].removals;
    std::sort(removals.begin(), removals.end());
    if (std::find(kept.begin(), kept.end(), removals) != kept.end()) continue;
    kept.push_back(std::move(removals));
    if (out != i) (*hints)[out] = std::move((*hints)[i]);
    ++out;
  }
  hints->resize(out);
}

// The nested searches a walk has made, by grid: chains from different assumptions often reach
// the same grid (one assumption places what another does, and singles do the rest), and the
// steps found there depend on the grid alone. About one search in five of a nested walk is such
// a repeat. Kept per thread, at most kEntries grids (a megabyte or two), emptied when full. The
// walk's allowance counts every search asked for, found here or not, so that what a walk rates
// does not depend on what the memo holds.
class NestedMemo {
 public:
  // The entry for (level, grid), and whether it holds the search's steps already.
  std::pair<std::vector<NestedHint>*, bool> Find(int level, const Grid9& grid) {
    uint64_t key = MixIdentity(kIdentitySeed, static_cast<uint64_t>(level));
    for (const uint16_t digits : grid.open) key = MixIdentity(key, digits);
    auto [at, added] = entries_.try_emplace(key);
    Entry& entry = at->second;
    if (!added) {
      if (entry.level == level && entry.open == grid.open) return {&entry.hints, true};
      // Another grid with the same key: the newer takes its place.
    } else if (entries_.size() > kEntries) {
      entries_.clear();
      return Find(level, grid);
    }
    entry.level = level;
    entry.open = grid.open;
    entry.hints.clear();
    return {&entry.hints, false};
  }

 private:
  static constexpr size_t kEntries = 4096;
  struct Entry {
    int level = 0;
    std::array<uint16_t, kCells> open{};
    std::vector<NestedHint> hints;
  };
  std::unordered_map<uint64_t, Entry> entries_;
};

const std::vector<NestedHint>& NestedHints(int level, const Grid9& grid) {
  thread_local NestedMemo memo;
  const auto [hints, known] = memo.Find(level, grid);
  if (known) return *hints;
  if (level == 2) {
    CycleSearcher(grid, hints).Search();
  } else {
    thread_local Scratch scratch;  // the nested chains' own, apart from the chain's
    Searcher(grid, &scratch, hints).Search();
  }
  SortNested(hints);
  return *hints;
}

}  // namespace

bool SeCycles(Board& board, Step* step) {
  CycleSearcher searcher(board);
  bool x_found = false;
  const CycleBest& best = searcher.Search(board.DigitsToSearch(Search::kSeXCycles), &x_found);
  if (!x_found) board.NothingFound(Search::kSeXCycles);
  if (best.chain.empty()) return false;
  step->technique = best.kind == LinkKind::kX   ? Technique::kXChain
                    : best.kind == LinkKind::kY ? Technique::kXYChain
                                                : Technique::kAic;
  step->variant = best.cycle ? 1 : 2;
  step->se_tenths = static_cast<uint8_t>(std::lround(best.difficulty * 10));
  for (size_t i = 1; i < best.chain.size(); ++i) {
    const uint16_t from = best.chain[i - 1], to = best.chain[i];
    step->links.push_back(
        MakeLink(CellOf(from), DigitOf(from), CellOf(to), DigitOf(to), /*strong=*/!IsOn(from)));
  }
  for (int cell = 0; cell < kCells; ++cell) {
    if (best.removals[cell]) Eliminate(board, step, cell, best.removals[cell]);
  }
  return true;
}

bool SeChains(Board& board, Step* step) {
  for (const Producer producer : {Producer::kNishio, Producer::kMultiple, Producer::kDynamic,
                                 Producer::kDynamicPlus, Producer::kNested,
                                 Producer::kNestedMultiple}) {
    if (ProducerStep(producer, board, step)) return true;
  }
  return false;
}

bool SeNishioChains(Board& board, Step* step) {
  return ProducerStep(Producer::kNishio, board, step);
}

}  // namespace sudoku::logic::internal

namespace sudoku::logic {

int SeLengthBonus(int length) {
  int bonus = 0;
  int threshold = 4;
  for (bool half = true; length > threshold; half = !half) {
    ++bonus;
    threshold = half ? threshold * 3 / 2 : threshold * 4 / 3;
  }
  return bonus;
}

}  // namespace sudoku::logic
