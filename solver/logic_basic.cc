// The basic techniques of logic_board.h: singles, pointing and claiming, naked and hidden
// pairs, triples and quads, x-wing, swordfish and jellyfish, and the finned and sashimi fish.
#include <array>
#include <bit>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "solver/logic_board.h"

namespace sudoku::logic::internal {
namespace {

// Boxes first, then rows, then columns: the order in which people scan.
constexpr std::array<int, kUnits> kScanOrder = {18, 19, 20, 21, 22, 23, 24, 25, 26,
                                                0,  1,  2,  3,  4,  5,  6,  7,  8,
                                                9,  10, 11, 12, 13, 14, 15, 16, 17};

// The other unit holding every place of `places` (positions within `unit`, two or more): for
// a box, the row, else the column, they lie on; for a row or column, the box they lie in. -1
// when there is none. Positions are row-major in a box, so a row of it is three bits in a row
// and a column every third bit.
int SharedUnit(int unit, uint16_t places) {
  const auto within = [places](int mask) { return (places & ~mask) == 0; };
  if (unit >= 18) {
    const int box = unit - 18;
    for (int r = 0; r < 3; ++r) {
      if (within(0007 << (3 * r))) return box / 3 * 3 + r;
    }
    for (int c = 0; c < 3; ++c) {
      if (within(0111 << c)) return 9 + box % 3 * 3 + c;
    }
    return -1;
  }
  for (int third = 0; third < 3; ++third) {
    if (!within(0007 << (3 * third))) continue;
    return 18 + (unit < 9 ? unit / 3 * 3 + third : third * 3 + (unit - 9) / 3);
  }
  return -1;
}

// Calls visit(chosen, spread) for each set `chosen` of `size` items of `within` (bit i for item
// i) whose masks together (`spread`) have at most `most` bits, in the order of their items,
// until visit returns true. A partial set past `most` bits is not extended.
template <typename Visit>
bool ForNarrowSets(uint16_t within, const std::array<uint16_t, 9>& masks, int size, int most,
                   Visit&& visit) {
  const auto extend = [&](const auto& self, uint16_t from, uint16_t chosen, uint16_t spread,
                          int left) -> bool {
    if (left == 0) return visit(chosen, spread);
    for (uint16_t rest = from; rest; rest = WithoutLowest(rest)) {
      const int item = std::countr_zero(rest);
      const uint16_t wider = spread | masks[item];
      if (Count(wider) > most) continue;
      if (self(self, WithoutLowest(rest), static_cast<uint16_t>(chosen | (1u << item)), wider,
               left - 1)) {
        return true;
      }
    }
    return false;
  };
  return extend(extend, within, 0, 0, size);
}

// Calls visit(chosen) for each set `chosen` of `size` items of `within` (bit i for item i;
// `size` 2 to 4) whose masks together have exactly `size` bits, until visit returns true. The
// sets come in the order of their items, ascending (first item, then second, ...); a partial
// set whose masks have more than `size` bits already is not extended.
template <typename Visit>
bool ForLockedSets(uint16_t within, const std::array<uint16_t, 9>& masks, int size,
                   Visit&& visit) {
  return ForNarrowSets(within, masks, size, size, [&](uint16_t chosen, uint16_t spread) {
    return Count(spread) == size && visit(chosen);
  });
}

// The places of `digit` along each line from `first` (0 rows, 9 columns) into `places`; returns
// the lines with `fewest` to `most` of them.
uint16_t LinePlaces(const Board& board, int first, int digit, int fewest, int most,
                    std::array<uint16_t, 9>* places) {
  uint16_t lines = 0;
  for (int line = 0; line < 9; ++line) {
    (*places)[line] = board.Places(first + line, digit);
    const int count = Count((*places)[line]);
    if (count >= fewest && count <= most) lines |= static_cast<uint16_t>(1u << line);
  }
  return lines;
}

enum class FinnedKind { kNone, kFinned, kSashimi };

// Whether `lines` (base lines), `covers` and `fin_positions` (positions along the base lines)
// make a finned fish, its fins in one box, that removes something, and of which kind. With
// `take` (once a call without it found one), fills the step and plays it.
FinnedKind Finned(Board& board, Step* step, const Tables& table, uint16_t lines,
                  const std::array<uint16_t, 9>& places, uint16_t covers, uint16_t fin_positions,
                  int base_first, int cover_first, int digit, int size, bool take) {
  int fin_band = -1;
  bool thin = false;  // a base line with one place in the cover lines
  for (uint16_t l = lines; l; l = WithoutLowest(l)) {
    const int line = std::countr_zero(l);
    const int in_covers = Count(places[line] & covers);
    if (in_covers == 0) return FinnedKind::kNone;  // a line of fins only: no fish to speak of
    thin |= in_covers == 1;
    if (!(places[line] & fin_positions)) continue;
    if (fin_band >= 0 && fin_band != line / 3) return FinnedKind::kNone;
    fin_band = line / 3;
  }
  const int fin_position = std::countr_zero(fin_positions);
  const FinnedKind kind = thin ? FinnedKind::kSashimi : FinnedKind::kFinned;
  if (!take) {
    // What the digit leaves: the cover lines' cells in the fins' box, outside the base lines;
    // that is, where the fins' band of base lines crosses the covers in the fins' box. Read
    // from the places at hand: the search asks this for thousands of candidate fish.
    const uint16_t box_covers = static_cast<uint16_t>(covers & (0007 << (fin_position / 3 * 3)));
    for (int line = fin_band * 3; line < fin_band * 3 + 3; ++line) {
      if (!(lines & (1u << line)) && (places[line] & box_covers)) return kind;
    }
    return FinnedKind::kNone;
  }
  const int fin_cell = table.cells[base_first + fin_band * 3][fin_position];
  const int fin_box = BoxOf(fin_cell);
  CellSet removed;
  for (uint16_t c = covers; c; c = WithoutLowest(c)) {
    for (int i = 0; i < 9; ++i) {
      const int cell = table.cells[cover_first + std::countr_zero(c)][i];
      if (!(lines & (1u << i)) && BoxOf(cell) == fin_box) removed.Add(cell);
    }
  }
  Step found;
  removed.ForEach([&](int cell) { Eliminate(board, &found, cell, Bit(digit)); });
  found.technique = thin ? Technique::kSashimiFish : Technique::kFinnedFish;
  found.variant = static_cast<uint8_t>(size);
  for (uint16_t l = lines; l; l = WithoutLowest(l)) {
    const int line = std::countr_zero(l);
    found.units.push_back(UnitOf(base_first + line));
    for (uint16_t p = places[line]; p; p = WithoutLowest(p)) {
      found.cells.push_back(table.cells[base_first + line][std::countr_zero(p)]);
    }
  }
  for (uint16_t c = covers; c; c = WithoutLowest(c)) {
    found.units.push_back(UnitOf(cover_first + std::countr_zero(c)));
  }
  found.units.push_back(UnitOf(18 + fin_box));
  found.digits.push_back(static_cast<uint8_t>(digit));
  *step = std::move(found);
  return kind;
}

// Puts back the candidates a step removed (a step found, then not taken).
void Restore(Board& board, const Step& step) {
  for (const CellDigit& removed : step.eliminations) {
    board.open[removed.cell] |= Bit(removed.digit);
  }
}

// The places of `digit` in `unit` on the board as it is now (not the cached ones).
int PlacesNow(const Board& board, int unit, int digit) {
  int count = 0;
  for (uint8_t cell : Table().cells[unit]) count += (board.open[cell] & Bit(digit)) != 0;
  return count;
}

// The one place left for `digit` in `unit` (PlacesNow() == 1).
int OnlyPlaceNow(const Board& board, int unit, int digit) {
  for (uint8_t cell : Table().cells[unit]) {
    if (board.open[cell] & Bit(digit)) return cell;
  }
  return -1;
}

// SE's direct kind of a step: the hidden single it leaves, placed, with the removals that led
// to it restored, as SE removes nothing then (its direct hints only place). `unit`: where the
// digit has that one place.
void TakeDirectSingle(Board& board, Step* step, int unit, int digit) {
  const int cell = OnlyPlaceNow(board, unit, digit);
  Restore(board, *step);
  step->eliminations.clear();
  step->variant = 1;
  step->units.push_back(UnitOf(unit));
  step->placements.push_back({static_cast<uint8_t>(cell), static_cast<uint8_t>(digit)});
  board.Place(cell, digit);
}

// After an intersection of `digit` in `unit` and `other` removed its candidates: the first
// other unit of `unit`'s kind crossing `other` with one place left for the digit, or -1.
int LeavesSingle(const Board& board, int unit, int other, int digit) {
  const Tables& table = Table();
  const int first = unit < 9 ? 0 : unit < 18 ? 9 : 18;
  for (int third = first; third < first + 9; ++third) {
    if (third == unit || (table.unit_set[third] & table.unit_set[other]).Empty()) continue;
    if (Count(board.Places(third, digit)) >= 2 && PlacesNow(board, third, digit) == 1) return third;
  }
  return -1;
}

// After a hidden subset of `digits` in `unit` removed the other candidates of its cells: the
// first other digit with one place left in the unit, or 0. (`places`: each digit's places
// before.)
int LeavesSingleIn(const Board& board, int unit, uint16_t digits,
                   const std::array<uint16_t, 10>& places) {
  for (int digit = 1; digit <= 9; ++digit) {
    if ((digits & Bit(digit)) || Count(places[digit]) < 2) continue;
    if (PlacesNow(board, unit, digit) == 1) return digit;
  }
  return 0;
}

}  // namespace

namespace {

// The first cell with one candidate, or kCells: sixteen cells at a time, without a branch per
// cell, as every turn of an easy puzzle's path asks it.
int FirstNakedSingle(const Board& board) {
#if defined(__SSE2__)
  // A cell holds one candidate when it holds some and clearing its lowest leaves none.
  const __m128i zero = _mm_setzero_si128();
  const __m128i one = _mm_set1_epi16(1);
  const auto singles_of = [&](const uint16_t* cells) {
    const __m128i digits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(cells));
    const __m128i rest = _mm_and_si128(digits, _mm_sub_epi16(digits, one));
    return _mm_andnot_si128(_mm_cmpeq_epi16(digits, zero), _mm_cmpeq_epi16(rest, zero));
  };
  for (int start = 0; start + 16 <= kCells; start += 16) {
    const __m128i low = singles_of(&board.open[start]);
    const __m128i high = singles_of(&board.open[start + 8]);
    const auto singles = static_cast<uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(low, high)));
    if (singles) return start + std::countr_zero(singles);
  }
#else
  for (int start = 0; start + 16 <= kCells; start += 16) {
    uint32_t singles = 0;
    for (int i = 0; i < 16; ++i) {
      const uint16_t digits = board.open[start + i];
      singles |= static_cast<uint32_t>(digits != 0 && (digits & (digits - 1)) == 0) << i;
    }
    if (singles) return start + std::countr_zero(singles);
  }
#endif
  const uint16_t last = board.open[kCells - 1];
  return last != 0 && (last & (last - 1)) == 0 ? kCells - 1 : kCells;
}

// A single of `technique` (its units and variant already in the step): the step names the
// cell and digit, and the digit is placed.
bool TakeSingle(Board& board, Step* step, Technique technique, int cell, int digit) {
  step->technique = technique;
  step->placements.push_back({static_cast<uint8_t>(cell), static_cast<uint8_t>(digit)});
  step->cells.push_back(static_cast<uint8_t>(cell));
  step->digits.push_back(static_cast<uint8_t>(digit));
  board.Place(cell, digit);
  return true;
}

}  // namespace

bool NakedSingle(Board& board, Step* step) {
  const int cell = FirstNakedSingle(board);
  if (cell == kCells) return false;
  // HoDoKu's full house: the last open cell of a unit (SE rates it as its easiest single).
  for (int k = 0; k < 3; ++k) {
    const int unit = Table().units[cell][k];
    if (board.unit_open_cells[unit] == 1) {
      step->variant = 1;
      step->units.push_back(UnitOf(unit));
      break;
    }
  }
  return TakeSingle(board, step, Technique::kNakedSingle, cell,
                    std::countr_zero(board.open[cell]) + 1);
}

bool FullHouse(Board& board, Step* step) {
  const Tables& table = Table();
  for (int unit : kScanOrder) {
    if (board.unit_open_cells[unit] != 1) continue;
    int last = 0;
    for (uint8_t cell : table.cells[unit]) {
      if (!board.values[cell]) last = cell;
    }
    step->variant = 1;
    step->units.push_back(UnitOf(unit));
    return TakeSingle(board, step, Technique::kNakedSingle, last,
                      std::countr_zero(board.open[last]) + 1);
  }
  return false;
}

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
    step->units.push_back(UnitOf(unit));
    return TakeSingle(board, step, Technique::kHiddenSingle, cell, digit);
  }
  return false;
}

// Pointing (a digit of a box on one line) and claiming (a digit of a line in one box): the
// digit leaves the rest of the other unit.
bool Intersection(Board& board, Step* step, bool pointing, bool direct) {
  const Tables& table = Table();
  const int first = pointing ? 18 : 0;
  const int last = pointing ? 27 : 18;
  const Search search = pointing ? (direct ? Search::kDirectPointing : Search::kPointing)
                                 : (direct ? Search::kDirectClaiming : Search::kClaiming);
  const uint16_t digits = board.DigitsToSearch(search);
  for (int unit = first; unit < last && digits; ++unit) {
    for (int digit = 1; digit <= 9; ++digit) {
      if (!(digits & Bit(digit))) continue;
      const uint16_t places = board.Places(unit, digit);
      if (Count(places) < 2) continue;
      // The other unit shared by every place: a line for a box, the box for a line.
      const int other = SharedUnit(unit, places);
      if (other < 0) continue;
      // The digit elsewhere in the other unit: most intersections remove nothing.
      if ((board.CellsWith(digit) & table.unit_set[other]).Without(table.unit_set[unit]).Empty()) {
        continue;
      }
      Step found;
      for (uint8_t cell : table.cells[other]) {
        const int in_unit = unit < 9    ? RowOf(cell) == unit
                            : unit < 18 ? ColumnOf(cell) == unit - 9
                                        : BoxOf(cell) == unit - 18;
        if (!in_unit) Eliminate(board, &found, cell, Bit(digit));
      }
      if (found.eliminations.empty()) continue;
      const int single_unit = direct ? LeavesSingle(board, unit, other, digit) : -1;
      if (direct && single_unit < 0) {
        Restore(board, found);
        continue;
      }
      found.technique = pointing ? Technique::kPointing : Technique::kClaiming;
      found.units = {UnitOf(unit), UnitOf(other)};
      if (direct) TakeDirectSingle(board, &found, single_unit, digit);
      found.digits.push_back(static_cast<uint8_t>(digit));
      for (uint16_t p = places; p; p &= static_cast<uint16_t>(p - 1)) {
        found.cells.push_back(table.cells[unit][std::countr_zero(p)]);
      }
      *step = std::move(found);
      return true;
    }
  }
  return board.NothingFound(search);
}

// Naked subsets: `size` open cells of a unit whose candidates together are `size` digits; those
// digits leave the unit's other cells. As HoDoKu has them (`kind` not kOneUnit), they leave
// every unit the cells share: a subset within a box and a line clears both, and is locked
// (variant 1) when both lose candidates, the line outside the box. kLocked takes only locked
// subsets, searched in boxes; kHodoku only the others (HoDoKu looks for locked ones first).
bool NakedSubset(Board& board, Step* step, int size, SubsetKind kind) {
  const Tables& table = Table();
  const Search search = Sized(kind == SubsetKind::kOneUnit ? Search::kNakedSubset2
                              : kind == SubsetKind::kLocked ? Search::kLockedSubset2
                                                            : Search::kHodokuSubset2,
                              size);
  // HoDoKu's kinds clear the unit the cells share with this one too: it is read as well.
  const uint32_t units = board.UnitsToSearch(search, kind != SubsetKind::kOneUnit);
  for (int unit : kScanOrder) {
    if (kind == SubsetKind::kLocked && unit < 18) break;  // boxes come first in kScanOrder
    if (!(units & (1u << unit))) continue;
    const auto& cells = table.cells[unit];
    uint16_t eligible = 0;
    int open = 0;
    for (int i = 0; i < 9; ++i) {
      const int count = Count(board.open[cells[i]]);
      if (count) ++open;
      if (count >= 2 && count <= size) eligible |= static_cast<uint16_t>(1u << i);
    }
    if (open <= size && kind == SubsetKind::kOneUnit) continue;  // nothing left to eliminate
    std::array<uint16_t, 9> masks;
    for (int i = 0; i < 9; ++i) masks[i] = board.open[cells[i]];
    const bool found = ForLockedSets(eligible, masks, size, [&](uint16_t positions) {
      uint16_t digits = 0;
      for (uint16_t p = positions; p; p &= static_cast<uint16_t>(p - 1)) {
        digits |= board.open[cells[std::countr_zero(p)]];
      }
      if (Count(digits) != size) return false;
      // The cells that lose digits: the unit's others, then (HoDoKu's kinds) the shared unit's
      // others outside this unit. Counted before anything is taken.
      CellSet subset, losing_here, losing_there;
      for (uint16_t p = positions; p; p &= static_cast<uint16_t>(p - 1)) {
        subset.Add(cells[std::countr_zero(p)]);
      }
      for (const uint8_t cell : cells) {
        if (!subset.Has(cell) && (board.open[cell] & digits)) losing_here.Add(cell);
      }
      const int shared = kind == SubsetKind::kOneUnit ? -1 : SharedUnit(unit, positions);
      if (shared >= 0) {
        for (const uint8_t cell : table.cells[shared]) {
          if (!subset.Has(cell) && !table.unit_set[unit].Has(cell) &&
              (board.open[cell] & digits)) {
            losing_there.Add(cell);
          }
        }
      }
      if (losing_here.Empty() && losing_there.Empty()) return false;
      // Locked: the box and the line outside it both lose digits. A subset in a box and a line
      // is met in its box first (boxes lead kScanOrder), where that is what the two sets hold.
      const bool locked = !losing_here.Empty() && !losing_there.Empty();
      if ((kind == SubsetKind::kLocked) != locked && kind != SubsetKind::kOneUnit) return false;
      Step found_step;
      found_step.technique = size == 2   ? Technique::kNakedPair
                              : size == 3 ? Technique::kNakedTriple
                                          : Technique::kNakedQuad;
      found_step.variant = locked ? 1 : 0;
      // The unit scanned, then the one shared (a locked subset: the box, then the line).
      found_step.units.push_back(UnitOf(unit));
      if (shared >= 0) found_step.units.push_back(UnitOf(shared));
      if (locked && unit < 18) std::swap(found_step.units[0], found_step.units[1]);
      for (uint16_t p = positions; p; p &= static_cast<uint16_t>(p - 1)) {
        found_step.cells.push_back(cells[std::countr_zero(p)]);
      }
      (losing_here | losing_there).ForEach([&](int cell) {
        Eliminate(board, &found_step, cell, digits);
      });
      AddDigits(&found_step, digits);
      *step = std::move(found_step);
      return true;
    });
    if (found) return true;
  }
  return board.NothingFound(search);
}

// Hidden subsets: `size` digits whose places in a unit together are `size` cells; those cells
// lose every other candidate.
bool HiddenSubset(Board& board, Step* step, int size, bool direct) {
  const Tables& table = Table();
  const Search search =
      Sized(direct ? Search::kDirectHiddenSubset2 : Search::kHiddenSubset2, size);
  const uint32_t units = board.UnitsToSearch(search);
  for (int unit : kScanOrder) {
    if (!(units & (1u << unit))) continue;
    const auto& cells = table.cells[unit];
    std::array<uint16_t, 10> places{};
    uint16_t eligible = 0;  // bit d-1: digit d has 2..size places
    for (int digit = 1; digit <= 9; ++digit) {
      places[digit] = board.Places(unit, digit);
      const int count = Count(places[digit]);
      if (count >= 2 && count <= size) eligible |= Bit(digit);
    }
    std::array<uint16_t, 9> masks;
    for (int digit = 1; digit <= 9; ++digit) masks[digit - 1] = places[digit];
    const bool found = ForLockedSets(eligible, masks, size, [&](uint16_t digits) {
      uint16_t positions = 0;
      for (uint16_t d = digits; d; d &= static_cast<uint16_t>(d - 1)) {
        positions |= places[std::countr_zero(d) + 1];
      }
      if (Count(positions) != size) return false;
      Step found_step;
      for (uint16_t p = positions; p; p &= static_cast<uint16_t>(p - 1)) {
        const int cell = cells[std::countr_zero(p)];
        Eliminate(board, &found_step, cell, static_cast<uint16_t>(kAllDigits & ~digits));
      }
      if (found_step.eliminations.empty()) return false;
      const int single_digit = direct ? LeavesSingleIn(board, unit, digits, places) : 0;
      if (direct && single_digit == 0) {
        Restore(board, found_step);
        return false;
      }
      for (uint16_t p = positions; p; p &= static_cast<uint16_t>(p - 1)) {
        found_step.cells.push_back(cells[std::countr_zero(p)]);
      }
      found_step.technique = size == 2   ? Technique::kHiddenPair
                              : size == 3 ? Technique::kHiddenTriple
                                          : Technique::kHiddenQuad;
      found_step.units.push_back(UnitOf(unit));
      if (direct) TakeDirectSingle(board, &found_step, unit, single_digit);
      AddDigits(&found_step, digits);
      *step = std::move(found_step);
      return true;
    });
    if (found) return true;
  }
  return board.NothingFound(search);
}

// Fish: `size` base lines (rows, or columns) in which a digit's places all lie in `size` cover
// lines (columns, or rows); the digit leaves the cover lines outside the base lines.
bool Fish(Board& board, Step* step, int size) {
  const Tables& table = Table();
  const Search search = Sized(Search::kFish2, size);
  const uint16_t digits = board.DigitsToSearch(search);
  for (int orientation = 0; orientation < 2 && digits; ++orientation) {
    const int base_first = orientation == 0 ? 0 : 9;
    const int cover_first = orientation == 0 ? 9 : 0;
    for (int digit = 1; digit <= 9; ++digit) {
      if (!(digits & Bit(digit))) continue;
      std::array<uint16_t, 9> places{};
      const uint16_t eligible = LinePlaces(board, base_first, digit, 2, size, &places);
      const bool found = ForLockedSets(eligible, places, size, [&](uint16_t lines) {
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
        found_step.technique = size == 2   ? Technique::kXWing
                              : size == 3 ? Technique::kSwordfish
                                          : Technique::kJellyfish;
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
  return board.NothingFound(search);
}


// Finned fish: `size` base lines whose places of a digit lie in `size` cover lines but for
// fins, the places outside them, all in one box. If no fin holds the digit, the lines are a
// fish; if one does, it sees the whole box: either way the digit leaves the cells of the cover
// lines in the fins' box outside the base lines. A finned fish first, else a sashimi one (a
// base line with one place in the cover lines: without its fins the fish would be none), the
// first of each in the same order, from one search.
bool FinnedFish(Board& board, Step* step, int size) {
  const Tables& table = Table();
  struct Found {
    int orientation = -1, digit = 0;
    uint16_t lines = 0, covers = 0, fins = 0;
  } sashimi;
  const Search search = Sized(Search::kFinnedFish2, size);
  const uint16_t digits = board.DigitsToSearch(search);
  for (int orientation = 0; orientation < 2 && digits; ++orientation) {
    const int base_first = orientation == 0 ? 0 : 9;
    const int cover_first = orientation == 0 ? 9 : 0;
    for (int digit = 1; digit <= 9; ++digit) {
      if (!(digits & Bit(digit))) continue;
      // At most `size` places in the cover lines, and the fins within one box's three.
      std::array<uint16_t, 9> places{};
      const uint16_t eligible = LinePlaces(board, base_first, digit, 1, size + 3, &places);
      // spread: every position the base lines hold the digit in.
      const auto try_lines = [&](uint16_t lines, uint16_t spread) {
        if (Count(spread) <= size) return false;
        for (int band = 0; band < 3; ++band) {
          const uint16_t in_band = static_cast<uint16_t>(spread & (0007 << (3 * band)));
          const uint16_t outside = static_cast<uint16_t>(spread & ~in_band);
          // The cover lines: every position outside the band, and some of those in it.
          for (uint16_t kept = in_band;; kept = static_cast<uint16_t>((kept - 1) & in_band)) {
            const uint16_t covers = outside | kept;
            const uint16_t fins = static_cast<uint16_t>(in_band & ~kept);
            if (Count(covers) == size && kept && fins) {
              const FinnedKind kind = Finned(board, step, table, lines, places, covers, fins,
                                             base_first, cover_first, digit, size, false);
              if (kind == FinnedKind::kFinned) {
                Finned(board, step, table, lines, places, covers, fins, base_first, cover_first,
                       digit, size, true);
                return true;
              }
              if (kind == FinnedKind::kSashimi && sashimi.orientation < 0) {
                sashimi = {orientation, digit, lines, covers, fins};
              }
            }
            if (kept == 0) break;
          }
        }
        return false;
      };
      if (ForNarrowSets(eligible, places, size, size + 3, try_lines)) return true;
    }
  }
  if (sashimi.orientation < 0) return board.NothingFound(search);
  const int base_first = sashimi.orientation == 0 ? 0 : 9;
  std::array<uint16_t, 9> places{};
  LinePlaces(board, base_first, sashimi.digit, 0, 9, &places);
  Finned(board, step, table, sashimi.lines, places, sashimi.covers, sashimi.fins, base_first,
         9 - base_first, sashimi.digit, size, true);
  return true;
}

}  // namespace sudoku::logic::internal
