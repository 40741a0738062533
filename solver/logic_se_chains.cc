// Sudoku Explainer's forcing chains (logic_board.h), by its own rules, for the path rated for SE
// (Preference::kEasiestSe): Nishio (7.5), multiple (8.0), dynamic (8.5) and dynamic "+" (9.0:
// level 1, where singles run out inside a chain, SE's pointing and claiming, hidden and naked
// pairs and x-wings go on, each removal resting on the removals its rule needed). SE's
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
#include <climits>
#include <cstdint>
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

// The sets of potentials on and off that one assumption implies, each with its parents.
class Implications {
 public:
  struct Entry {
    uint16_t potential;
    uint16_t parent_count;
    uint32_t first_parent;
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
          const int unit = Table().units[cell][k];
          const uint16_t others = grid.places[unit][digit - 1] &
                                  static_cast<uint16_t>(~(1u << Table().positions[cell][k]));
          if (others == 0 || WithoutLowest(others) != 0) continue;
          const uint16_t on = On(Table().cells[unit][std::countr_zero(others)], digit);
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
      // Singles have run out: at level 1, SE's other rules, the first that has a step.
      if (rules.level == 0) return;
      const size_t known = offs_.size();
      Advanced(rules, grid);
      if (offs_.size() == known) return;
    }
  }

 private:
  // Each removal of the first of SE's pointing and claiming, hidden pairs, naked pairs and
  // x-wings that has a step resting on the assumption (a removal since the source, its rule
  // parents): an off, its parents those removals, unless known already.
  void Advanced(const Rules& rules, const Grid9& grid) {
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
    // Generalised intersections: a digit's 2-6 places in a unit, and the cells seeing them all.
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
          for (uint16_t gone = source.places[unit][digit - 1] & ~places; gone;
               gone = WithoutLowest(gone)) {
            parent(table.cells[unit][std::countr_zero(gone)], digit);
          }
          step();
        }
      }
    }
    if (found) return;
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
    if (found) return;
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
    if (found) return;
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
  }

  void Clear() {
    for (const Entry& entry : entries_) entry_of_[entry.potential] = -1;
    entries_.clear();
    pool_.clear();
    ons_.clear();
    offs_.clear();
    absurd_ = false;
  }

  void Add(uint16_t potential, const uint16_t* parents, int count) {
    entry_of_[potential] = static_cast<int16_t>(entries_.size());
    entries_.push_back(
        {potential, static_cast<uint16_t>(count), static_cast<uint32_t>(pool_.size())});
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

  int CountFrom(const Entry& from) const {
    std::array<uint64_t, (kPotentials + 63) / 64> seen{};
    std::array<uint16_t, kPotentials> stack;
    int top = 0, count = 1;
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
      ++count;
      push_parents(entries_[entry_of_[stack[--top]]]);
    }
    return count;
  }

  std::array<int16_t, kPotentials> entry_of_;
  std::vector<Entry> entries_;
  std::vector<uint16_t> pool_;  // the entries' parents
  std::vector<uint16_t> ons_, offs_;
  bool absurd_ = false;
  Entry absurd_new_{};
};

enum class Producer : uint8_t { kNishio, kMultiple, kDynamic, kDynamicPlus };

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
  Searcher(const Board& board, Producer producer, Scratch* scratch)
      : producer_(producer), scratch_(*scratch) {
    rules_.cell_rules = producer != Producer::kNishio;
    rules_.dynamic = producer != Producer::kMultiple;
    rules_.level = producer == Producer::kDynamicPlus ? 1 : 0;
    rules_.source = &source_;
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
            best_.Offer(on.AbsurdComplexity(), kAbsurdKey, Off(cell, digit),
                        Variant(kContradictionVariant), cell, digit, -1);
          }
          Implications& off = scratch_.off;
          off.Propagate(rules_, Off(cell, digit), &scratch_.grid);
          if (off.Absurd()) {
            best_.Offer(off.AbsurdComplexity(), kAbsurdKey, On(cell, digit),
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
  // chain's 4 (cell) and 5 (region), a dynamic chain's 6-9, at level 1 10-13.
  uint8_t Variant(int kind) const {
    if (producer_ == Producer::kNishio) return 3;
    if (producer_ == Producer::kMultiple) return static_cast<uint8_t>(kind == kCellVariant ? 4 : 5);
    return static_cast<uint8_t>(producer_ == Producer::kDynamic ? kind : kind + 4);
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
        best_.Offer(first + off.Ancestors(target), kDoubleKey, target, Variant(kDoubleVariant),
                    cell, digit, -1);
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
        for (int i = 0; i < count && complexity <= best_.complexity; ++i) {
          complexity += chains[i]->Ancestors(target);
        }
        if (complexity > best_.complexity) continue;
        best_.Offer(complexity, sort_key, target, variant, cell, digit, unit);
      }
    }
  }

  Producer producer_;
  Scratch& scratch_;
  Rules rules_;
  Grid9 source_;
  Best best_;
};

int BaseTenths(Producer producer) {
  switch (producer) {
    case Producer::kNishio: return 75;
    case Producer::kMultiple: return 80;
    case Producer::kDynamic: return 85;
    case Producer::kDynamicPlus: return 90;
  }
  return 85;
}

// The step `producer` finds, SE's first, taken; false when it finds none.
bool ProducerStep(Producer producer, Board& board, Step* step) {
  thread_local Scratch scratch;
  const bool nishio = producer == Producer::kNishio;
  const Best best = Searcher(board, producer, &scratch)
                        .Search(nishio ? board.DigitsToSearch(Search::kSeNishio) : kEveryDigit);
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

}  // namespace

bool SeChains(Board& board, Step* step) {
  for (const Producer producer :
       {Producer::kNishio, Producer::kMultiple, Producer::kDynamic, Producer::kDynamicPlus}) {
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
