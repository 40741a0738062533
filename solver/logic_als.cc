// Als-xz (logic_board.h). An almost locked set (ALS) is N open cells of one unit holding N + 1
// digits together: take any one digit out and the rest are locked. Two ALSs A and B with a
// restricted common digit x (every x of A sees every x of B, so x is in at most one of them)
// lock whichever holds no x; so for another common digit z, one of A's or B's z cells is z,
// and z leaves every cell seeing all of the z cells of both.
//
// SeWing: Sudoku Explainer's WXYZ-, VWXYZ- and UVWXYZ-wings, the ALS-XZ of a set of three,
// four or five cells and a bivalue cell, which SE rates 5.5-6.6 (below its chains): found on its
// path only, by SE's rules.
//
// SueDeCoq: HoDoKu's Sue de Coq, two almost locked sets sharing the cells where a line crosses
// a box: found on its path only, as HoDoKu finds it.
#include <algorithm>
#include <cstdlib>
#include <array>
#include <bit>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "solver/logic_board.h"

namespace sudoku::logic::internal {
namespace {

// Cells per set searched: larger sets make a rare step much dearer to find.
constexpr int kLargestSet = 4;

struct Als {
  int unit = 0;
  CellSet cells;
  std::array<uint8_t, kLargestSet> list{};
  int size = 0;
  uint16_t digits = 0;
  std::array<CellSet, 10> with{};     // per digit of the set, its cells holding it
  std::array<CellSet, 10> seeing{};  // per digit of the set, the cells seeing all of with[]
};

// A set being grown: its cells and their digits.
struct Growing {
  std::array<uint8_t, kLargestSet> list{};
  int size = 0;
  CellSet cells;
  uint16_t digits = 0;
};

// The set `grown` of `unit` into `als` (empty), with what the pair search asks of it per digit.
void Complete(const Board& board, int unit, const Growing& grown, Als& als) {
  als.unit = unit;
  als.cells = grown.cells;
  als.list = grown.list;
  als.size = grown.size;
  als.digits = grown.digits;
  for (int k = 0; k < als.size; ++k) {
    for (uint16_t d = board.open[als.list[k]]; d; d = WithoutLowest(d)) {
      als.with[LowestDigit(d)].Add(als.list[k]);
    }
  }
  for (uint16_t d = als.digits; d; d = WithoutLowest(d)) {
    const int digit = LowestDigit(d);
    CellSet seen{~uint64_t{0}, ~uint32_t{0}};  // with[digit] is not empty: narrowed to peers
    als.with[digit].ForEach([&](int cell) { seen = seen & Table().peer_set[cell]; });
    als.seeing[digit] = seen;
  }
}

// A box's sets that lie in one row or column are found in that line already.
bool InOneLine(const Growing& als) {
  bool row = true, column = true;
  for (int i = 1; i < als.size; ++i) {
    row &= RowOf(als.list[i]) == RowOf(als.list[0]);
    column &= ColumnOf(als.list[i]) == ColumnOf(als.list[0]);
  }
  return row || column;
}

// Grows `als` by the unit's open cells from `from` on, keeping each set of N cells with N + 1
// digits (but a box's in one line); a set with more digits than the largest set could have is
// not grown further. Each set kept is completed in place: it is large, and copying it in
// stalled on reading back its own stores.
void Grow(const Board& board, int unit, std::span<const uint8_t> open, size_t from,
          const Growing& als, std::vector<Als>& sets) {
  for (size_t i = from; i < open.size(); ++i) {
    Growing grown = als;
    grown.list[grown.size++] = open[i];
    grown.cells.Add(open[i]);
    grown.digits |= board.open[open[i]];
    if (Count(grown.digits) > kLargestSet + 1) continue;
    if (Count(grown.digits) == grown.size + 1 && !(unit >= 18 && InOneLine(grown))) {
      Complete(board, unit, grown, sets.emplace_back());
    }
    if (grown.size < kLargestSet) Grow(board, unit, open, i + 1, grown, sets);
  }
}

void CollectSets(const Board& board, int unit, std::vector<Als>& sets) {
  std::array<uint8_t, 9> open;
  size_t count = 0;
  for (uint8_t cell : Table().cells[unit]) {
    if (board.open[cell]) open[count++] = cell;
  }
  Grow(board, unit, std::span<const uint8_t>(open.data(), count), 0, Growing{}, sets);
}

// A and B share two digits or more and no cell (the caller checks).
bool TryPair(Board& board, const Als& a, const Als& b, Step* step) {
  const uint16_t common = a.digits & b.digits;
  for (uint16_t xs = common; xs; xs = WithoutLowest(xs)) {
    const int x = LowestDigit(xs);
    // Restricted: every x of A sees every x of B.
    if ((b.with[x] & a.seeing[x]) != b.with[x]) continue;
    for (uint16_t zs = common & ~Bit(x); zs; zs = WithoutLowest(zs)) {
      const int z = LowestDigit(zs);
      const CellSet targets = (board.CellsWith(z) & a.seeing[z] & b.seeing[z])
                                  .Without(a.cells | b.cells);
      if (targets.Empty()) continue;
      Step found;
      targets.ForEach([&](int cell) { Eliminate(board, &found, cell, Bit(z)); });
      found.technique = Technique::kAlsXz;
      found.units = {UnitOf(a.unit), UnitOf(b.unit)};
      found.cells.assign(a.list.begin(), a.list.begin() + a.size);
      found.cells.insert(found.cells.end(), b.list.begin(), b.list.begin() + b.size);
      found.variant = static_cast<uint8_t>(a.size);
      found.digits = {static_cast<uint8_t>(x), static_cast<uint8_t>(z)};
      *step = std::move(found);
      return true;
    }
  }
  return false;
}

// What the pair loop reads of every set, packed: most pairs fail on these alone.
struct Key {
  CellSet cells;
  uint16_t digits = 0;
};

}  // namespace

bool AlsXz(Board& board, Step* step) {
  std::vector<Als> found;
  found.reserve(512);
  for (int unit = 0; unit < kUnits; ++unit) CollectSets(board, unit, found);
  // Smaller pairs first: they read more easily. (By size, in the order found.)
  std::vector<const Als*> sets;
  sets.reserve(found.size());
  for (int size = 1; size <= kLargestSet; ++size) {
    for (const Als& als : found) {
      if (als.size == size) sets.push_back(&als);
    }
  }
  std::vector<Key> keys;
  keys.reserve(sets.size());
  for (const Als* als : sets) keys.push_back({als->cells, als->digits});
  // A pair needs a restricted common digit x: B's x cells all see A's. To try only such pairs,
  // bitsets over `sets`: per digit, the sets holding it, and per candidate, the sets holding it
  // in that cell. Those holding x only where A's x cells see are the sets with x, less those
  // holding it in some other cell.
  const size_t words = (sets.size() + 63) / 64;
  std::vector<uint64_t> with_digit(10 * words), holding(kCells * 9 * words);
  for (size_t j = 0; j < sets.size(); ++j) {
    const uint64_t bit = uint64_t{1} << (j % 64);
    for (uint16_t d = sets[j]->digits; d; d = WithoutLowest(d)) {
      const int x = LowestDigit(d);
      with_digit[static_cast<size_t>(x) * words + j / 64] |= bit;
      sets[j]->with[x].ForEach([&](int cell) {
        holding[static_cast<size_t>(cell * 9 + x - 1) * words + j / 64] |= bit;
      });
    }
  }
  std::vector<uint64_t> partners(words), elsewhere(words);
  for (size_t i = 0; i < sets.size(); ++i) {
    const Als& a = *sets[i];
    // One order is enough: the restricted common digit and the removals are symmetric, so
    // only the sets after A, in the words from A's on. A pair also needs two common digits (x
    // and z) and no common cell.
    const size_t first = i / 64;
    std::fill(partners.begin() + first, partners.end(), 0);
    for (uint16_t d = a.digits; d; d = WithoutLowest(d)) {
      const int x = LowestDigit(d);
      std::fill(elsewhere.begin() + first, elsewhere.end(), 0);
      board.CellsWith(x).Without(a.seeing[x]).ForEach([&](int cell) {
        const uint64_t* sets_there = &holding[static_cast<size_t>(cell * 9 + x - 1) * words];
        for (size_t w = first; w < words; ++w) elsewhere[w] |= sets_there[w];
      });
      for (size_t w = first; w < words; ++w) {
        partners[w] |= with_digit[static_cast<size_t>(x) * words + w] & ~elsewhere[w];
      }
    }
    for (size_t w = first; w < words; ++w) {
      uint64_t bits = partners[w];
      if (w == i / 64) bits &= ~uint64_t{0} << (i % 64) << 1;
      for (; bits; bits &= bits - 1) {
        const size_t j = w * 64 + static_cast<size_t>(std::countr_zero(bits));
        const Key& b = keys[j];
        if (Count(keys[i].digits & b.digits) < 2 || !(keys[i].cells & b.cells).Empty()) continue;
        if (TryPair(board, a, *sets[j], step)) return true;
      }
    }
  }
  return false;
}

namespace {

constexpr int kLargestWing = 5;  // cells of the set: SE's UVWXYZ-wing

// One wing: `size` cells of a unit holding size + 1 digits, and a bivalue cell.
struct Wing {
  std::array<int, kLargestWing> set{};
  int size = 0;
  int unit = 0;
  int bivalue = 0;
  int x = 0, z = 0;  // x restricted common (when `doubly`, z too), z removed
  bool doubly = false;
  int biggest = 0;     // the most candidates of the set's cells
  int candidates = 0;  // theirs together

  std::span<const int> Cells() const { return std::span<const int>(set).first(size); }

  // SE's difficulty in tenths: WXYZ 5.5, 5.6 where the biggest cell holds three; VWXYZ 6.2 plus
  // 0.1 for each step the biggest cell is from five or two (6.3 at two or four, 6.4 at three);
  // UVWXYZ 6.6.
  int Tenths() const {
    switch (size) {
      case 3: return biggest == 3 ? 56 : 55;
      case 4: return 62 + 2 - std::abs(3 - biggest);
      default: return 66;
    }
  }

  // SE's name for it ("WXYZ-Wing 138"): linked once or twice, the biggest cell, the candidates.
  // Of two as easy, removing as much, SE takes the greater name, compared as text: here padded
  // with NULs, which sort before the digits as a shorter text does.
  std::array<char, 4> Suffix() const {
    std::array<char, 4> text{};
    text[0] = doubly ? '2' : '1';
    text[1] = static_cast<char>('0' + biggest);
    if (candidates >= 10) {
      text[2] = static_cast<char>('0' + candidates / 10);
      text[3] = static_cast<char>('0' + candidates % 10);
    } else {
      text[2] = static_cast<char>('0' + candidates);
    }
    return text;
  }
};

// The cells seeing `wing`'s bivalue cell (unless `without_it`) and every cell of its set holding
// `digit`, but those, that hold `digit`.
CellSet Victims(const Board& board, const Wing& wing, int digit, bool without_it) {
  const Tables& table = Table();
  CellSet seen =
      without_it ? CellSet{~uint64_t{0}, ~uint32_t{0}} : table.peer_set[wing.bivalue];
  CellSet own;
  own.Add(wing.bivalue);
  for (int cell : wing.Cells()) {
    if (board.open[cell] & Bit(digit)) seen = seen & table.peer_set[cell];
    own.Add(cell);
  }
  return (seen & board.CellsWith(digit)).Without(own);
}

// Calls remove(cell, digit) for each candidate `wing` removes: x and z where both are
// restricted, and then each other digit of the set from the cells seeing all of the set's cells
// holding it; else z.
template <typename Remove>
void ForWingRemovals(const Board& board, const Wing& wing, Remove&& remove) {
  uint16_t set_digits = 0;
  for (int cell : wing.Cells()) set_digits |= board.open[cell];
  auto from = [&](int digit, bool without_bivalue) {
    Victims(board, wing, digit, without_bivalue).ForEach([&](int cell) { remove(cell, digit); });
  };
  if (wing.doubly) {
    for (uint16_t ws = set_digits & ~Bit(wing.x) & ~Bit(wing.z); ws; ws = WithoutLowest(ws)) {
      from(LowestDigit(ws), true);
    }
    from(wing.x, false);
  }
  from(wing.z, false);
}

// Whether SE takes wing `a` (removing `a_removals`) before `b`: the easier on its scale, then
// the one removing more, then the greater name; then, as SE lists them, the one whose cells
// come first.
bool Before(const Wing& a, size_t a_removals, const Wing& b, size_t b_removals) {
  const auto key = [](const Wing& wing, size_t removals) {
    // The set's cells ascend already: a unit lists its cells so.
    std::array<int, kLargestWing + 1> cells{};
    std::copy(wing.set.begin(), wing.set.begin() + wing.size, cells.begin());
    cells[static_cast<size_t>(wing.size)] = wing.bivalue;
    // The greater name first: each character negated, as a number whatever char's sign.
    std::array<int, 4> name{};
    const std::array<char, 4> suffix = wing.Suffix();
    for (size_t i = 0; i < name.size(); ++i) name[i] = -static_cast<int>(suffix[i]);
    return std::make_tuple(wing.Tenths(), -static_cast<long>(removals), name, cells);
  };
  return key(a, a_removals) < key(b, b_removals);
}

}  // namespace

bool SeWing(Board& board, Step* step, int size) {
  const Tables& table = Table();
  std::array<uint8_t, kCells> bivalues;
  int bivalue_count = 0;
  for (int cell = 0; cell < kCells; ++cell) {
    if (Count(board.open[cell]) == 2) bivalues[bivalue_count++] = static_cast<uint8_t>(cell);
  }
  if (bivalue_count == 0) return false;
  // SE lists every wing and takes the easiest, then the one removing most, then the one of
  // the greater name.
  std::optional<Wing> best;
  size_t best_removals = 0;
  // A set of a unit's cells holding size + 1 digits, with each bivalue cell.
  const auto consider = [&](Wing& wing, uint16_t digits) {
    const auto cells = wing.Cells();
    bool one_row = true, one_column = true;
    wing.biggest = wing.candidates = 0;
    for (int cell : cells) {
      wing.biggest = std::max(wing.biggest, Count(board.open[cell]));
      wing.candidates += Count(board.open[cell]);
      one_row &= RowOf(cell) == RowOf(cells[0]);
      one_column &= ColumnOf(cell) == ColumnOf(cells[0]);
    }
    // A box's set in one line is that line's too: counted once.
    if (wing.unit >= 18 && (one_row || one_column)) return;
    for (int b = 0; b < bivalue_count; ++b) {
      const int bivalue = bivalues[b];
      if ((board.open[bivalue] & ~digits) != 0) continue;
      if (std::find(cells.begin(), cells.end(), bivalue) != cells.end()) continue;
      // A digit is restricted when every cell of the set holding it sees the bivalue cell.
      auto restricted = [&](int digit) {
        for (int cell : cells) {
          if ((board.open[cell] & Bit(digit)) && !table.peer_set[cell].Has(bivalue)) {
            return false;
          }
        }
        return true;
      };
      const int low = LowestDigit(board.open[bivalue]);
      const int high = LowestDigit(WithoutLowest(board.open[bivalue]));
      const bool low_restricted = restricted(low), high_restricted = restricted(high);
      if (!low_restricted && !high_restricted) continue;
      wing.bivalue = bivalue;
      wing.x = low_restricted ? low : high;
      wing.z = low_restricted ? high : low;
      wing.doubly = low_restricted && high_restricted;
      size_t removals = 0;
      ForWingRemovals(board, wing, [&](int, int) { ++removals; });
      if (removals == 0) continue;
      if (!best || Before(wing, removals, *best, best_removals)) {
        best = wing;
        best_removals = removals;
      }
    }
  };
  for (int unit = 0; unit < kUnits; ++unit) {
    std::array<int, 9> open;
    int count = 0;
    for (uint8_t cell : table.cells[unit]) {
      if (Count(board.open[cell]) >= 2) open[count++] = cell;
    }
    if (count < size) continue;
    // Each set of `size` of those cells holding size + 1 digits: grown cell by cell, a set
    // past size + 1 digits is not grown further.
    Wing wing;
    wing.size = size;
    wing.unit = unit;
    const auto grow = [&](const auto& self, int from, int k, uint16_t digits) -> void {
      if (k < size) {
        for (int i = from; i <= count - (size - k); ++i) {
          const uint16_t wider = digits | board.open[open[i]];
          if (Count(wider) > size + 1) continue;
          wing.set[k] = open[i];
          self(self, i + 1, k + 1, wider);
        }
        return;
      }
      if (Count(digits) != size + 1) return;
      consider(wing, digits);
    };
    grow(grow, 0, 0, 0);
  }
  if (!best) return false;
  Step found;
  ForWingRemovals(board, *best,
                  [&](int cell, int digit) { Eliminate(board, &found, cell, Bit(digit)); });
  found.technique = Technique::kWxyzWing;
  found.units = {UnitOf(best->unit)};
  for (int cell : best->Cells()) found.cells.push_back(static_cast<uint8_t>(cell));
  found.cells.push_back(static_cast<uint8_t>(best->bivalue));
  found.digits = {static_cast<uint8_t>(best->x), static_cast<uint8_t>(best->z)};
  found.variant = static_cast<uint8_t>(best->biggest);
  *step = std::move(found);
  return true;
}

namespace {

// The cells of `cells`, ascending, into `list`; returns how many.
int ListCells(const CellSet& cells, std::array<uint8_t, 9>& list) {
  int count = 0;
  cells.ForEach([&](int cell) { list[count++] = static_cast<uint8_t>(cell); });
  return count;
}

// Calls visit(chosen, digits) for each non-empty set of `cells` (`count` of them), depth first
// with the sets that extend the current one first ({a}, {a, b}, {a, b, c}, ..., {a, c}, ...),
// HoDoKu's order, until visit returns true. A set whose digits meet `barred` is not extended
// (no set extending it can avoid them either).
template <typename Visit>
bool ForCellSets(const Board& board, const std::array<uint8_t, 9>& cells, int count,
                 uint16_t barred, Visit&& visit) {
  const auto extend = [&](const auto& self, int from, CellSet chosen, uint16_t digits) -> bool {
    for (int i = from; i < count; ++i) {
      CellSet wider = chosen;
      wider.Add(cells[i]);
      const uint16_t more = digits | board.open[cells[i]];
      if (more & barred) continue;
      if (visit(wider, more) || self(self, i + 1, wider, more)) return true;
    }
    return false;
  };
  return extend(extend, 0, CellSet{}, 0);
}

}  // namespace

bool SueDeCoq(Board& board, Step* step) {
  const Tables& table = Table();
  const CellSet open_cells = board.OpenCells();
  // C, the intersection's chosen cells holding V (|V| >= |C| + 2); A, cells of the line's rest
  // (its other open cells, those of the intersection not in C among them); D, cells of the
  // box's rest outside A. A and D share no digit of V, and C, A and D hold as many digits of
  // V, counted in each, as they have cells less their digits outside V.
  const auto try_intersection = [&](int line, int box, const CellSet& chosen, uint16_t v) {
    const CellSet line_open = open_cells & table.unit_set[line];
    const CellSet box_open = open_cells & table.unit_set[box];
    const int n_plus = Count(v) - chosen.Count();
    std::array<uint8_t, 9> line_rest;
    const int line_count = ListCells(line_open.Without(chosen), line_rest);
    return ForCellSets(board, line_rest, line_count, 0, [&](const CellSet& a, uint16_t a_digits) {
      const int a_cells = a.Count();
      const int a_extra = Count(static_cast<uint16_t>(a_digits & ~v));
      if (!(a_digits & v) || a_cells <= a_extra || a_cells - a_extra >= n_plus) return false;
      const int d_needs = n_plus - (a_cells - a_extra);
      std::array<uint8_t, 9> box_rest;
      const int box_count = ListCells(box_open.Without(chosen).Without(a), box_rest);
      const uint16_t a_from_v = a_digits & v;
      return ForCellSets(board, box_rest, box_count, a_from_v, [&](const CellSet& d,
                                                                   uint16_t d_digits) {
        const int d_extra = Count(static_cast<uint16_t>(d_digits & ~v));
        if (!(d_digits & v) || d.Count() - d_extra != d_needs) return false;
        // An extra digit held by both A and D leaves the rest of both units too (HoDoKu's rule).
        const uint16_t shared_extra = a_digits & d_digits;
        const uint16_t from_box = static_cast<uint16_t>(((v | d_digits) & ~a_digits) | shared_extra);
        const uint16_t from_line =
            static_cast<uint16_t>(((v | a_digits) & ~d_digits) | shared_extra);
        std::array<uint16_t, kCells> losing{};
        bool any = false;
        box_open.Without(d).Without(chosen).ForEach([&](int cell) {
          losing[cell] |= board.open[cell] & from_box;
          any |= losing[cell] != 0;
        });
        line_open.Without(a).Without(chosen).ForEach([&](int cell) {
          losing[cell] |= board.open[cell] & from_line;
          any |= losing[cell] != 0;
        });
        if (!any) return false;
        Step found;
        found.technique = Technique::kSueDeCoq;
        found.variant = static_cast<uint8_t>(10 * a_cells + chosen.Count());
        found.units = {UnitOf(line), UnitOf(box)};
        for (const CellSet* part : {&chosen, &a, &d}) {
          part->ForEach([&](int cell) { found.cells.push_back(static_cast<uint8_t>(cell)); });
        }
        AddDigits(&found, v);
        for (int cell = 0; cell < kCells; ++cell) {
          if (losing[cell]) Eliminate(board, &found, cell, losing[cell]);
        }
        *step = std::move(found);
        return true;
      });
    });
  };
  // Rows, then columns, each with the boxes it crosses; in an intersection of two or three open
  // cells, each pair and then each triple (a pair's triple right after it), in HoDoKu's order.
  const uint32_t changed = board.UnitsToSearch(Search::kSueDeCoq);
  for (int line = 0; line < 18; ++line) {
    for (int box = 18; box < kUnits; ++box) {
      if (!(changed & ((1u << line) | (1u << box)))) continue;
      std::array<uint8_t, 9> shared;
      const int count =
          ListCells(open_cells & table.unit_set[line] & table.unit_set[box], shared);
      for (int i1 = 0; i1 + 1 < count; ++i1) {
        for (int i2 = i1 + 1; i2 < count; ++i2) {
          CellSet pair;
          pair.Add(shared[i1]);
          pair.Add(shared[i2]);
          const uint16_t two = board.open[shared[i1]] | board.open[shared[i2]];
          if (Count(two) >= 4 && try_intersection(line, box, pair, two)) return true;
          for (int i3 = i2 + 1; i3 < count; ++i3) {
            CellSet triple = pair;
            triple.Add(shared[i3]);
            const uint16_t three = two | board.open[shared[i3]];
            if (Count(three) >= 5 && try_intersection(line, box, triple, three)) return true;
          }
        }
      }
    }
  }
  return board.NothingFound(Search::kSueDeCoq);
}

}  // namespace sudoku::logic::internal
