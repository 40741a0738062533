// SeDirectTenths (rating.h): Sudoku Explainer's own path through a puzzle its direct techniques
// solve. Its rating is the hardest of those steps, and SE's order of preference decides which it
// takes (a naked single at 2.3 only where no hidden single, direct intersection or direct hidden
// pair is left), so the path is replayed here rather than read from ours. Only placements: a
// direct technique names the single it leads to, and SE places just that digit.
#include <algorithm>
#include <array>
#include <bit>
#include <span>

#include "solver/rating.h"

namespace sudoku::rating {
namespace {

constexpr int kSize = 9;
enum UnitKind { kBox, kColumn, kRow };  // SE scans boxes, then columns, then rows

// The unit numbering SE's scan uses, by table: the searches below ask it in their inner loops.
struct UnitTables {
  std::array<std::array<std::array<uint8_t, kSize>, kSize>, 3> cell{};  // [kind][unit][position]
  std::array<std::array<uint8_t, kCells>, 3> unit{};                     // [kind][cell]
  std::array<std::array<uint8_t, kCells>, 3> position{};  // [kind][cell]: as `cell` numbers it
  // [first kind][unit][second kind][other unit]: the positions of the first unit's cells that
  // lie in the other unit.
  std::array<std::array<std::array<std::array<uint16_t, kSize>, 3>, kSize>, 3> inside{};
};

constexpr UnitTables kUnits = [] {
  UnitTables t;
  for (int cell = 0; cell < kCells; ++cell) {
    const int row = cell / kSize, column = cell % kSize;
    const int units[3] = {row / 3 * 3 + column / 3, column, row};
    const int positions[3] = {row % 3 * 3 + column % 3, row, column};
    for (int kind = 0; kind < 3; ++kind) {
      t.unit[kind][cell] = static_cast<uint8_t>(units[kind]);
      t.position[kind][cell] = static_cast<uint8_t>(positions[kind]);
      t.cell[kind][units[kind]][positions[kind]] = static_cast<uint8_t>(cell);
    }
    for (int first = 0; first < 3; ++first) {
      for (int second = 0; second < 3; ++second) {
        t.inside[first][units[first]][second][units[second]] |=
            static_cast<uint16_t>(1u << positions[first]);
      }
    }
  }
  return t;
}();

constexpr int CellOf(UnitKind kind, int unit, int position) {
  return kUnits.cell[kind][unit][position];
}
constexpr int UnitOf(UnitKind kind, int cell) { return kUnits.unit[kind][cell]; }
// The cell's position (0-8) in its unit of `kind`, as CellOf numbers them.
constexpr int PositionOf(UnitKind kind, int cell) { return kUnits.position[kind][cell]; }

// Bits set among nine, by table: std::popcount is a library call where the build does not
// assume the instruction (the solver's kernels pick theirs at run time).
constexpr std::array<uint8_t, 512> kCounts = [] {
  std::array<uint8_t, 512> counts{};
  for (int bits = 1; bits < 512; ++bits) counts[bits] = counts[bits & (bits - 1)] + 1;
  return counts;
}();
constexpr int Count(uint16_t bits) { return kCounts[bits & 0x1ff]; }

constexpr uint16_t Bit(int digit) { return static_cast<uint16_t>(1u << (digit - 1)); }

// The placed digits and, for each open cell, the digits its placed peers allow, kept up to date
// as digits are placed; each unit's open cells; and each digit's places in each unit, computed
// on demand (ComputePlaces): hidden singles, SE's most frequent step, need only the candidates.
class DirectBoard {
 public:
  // The givens' cells, then what they leave the other cells.
  explicit DirectBoard(const Grid& puzzle) {
    std::array<std::array<uint16_t, kSize>, 3> placed_digits{};
    for (auto& units : open_) units.fill(kSize);
    for (int cell = 0; cell < kCells; ++cell) {
      if (!puzzle[cell]) continue;
      ++placed_;
      for (UnitKind kind : {kBox, kColumn, kRow}) {
        --open_[kind][UnitOf(kind, cell)];
        placed_digits[kind][UnitOf(kind, cell)] |= Bit(puzzle[cell]);
      }
    }
    for (int cell = 0; cell < kCells; ++cell) {
      if (puzzle[cell]) continue;
      candidates_[cell] = static_cast<uint16_t>(
          0x1ff & ~(placed_digits[kBox][UnitOf(kBox, cell)] |
                    placed_digits[kColumn][UnitOf(kColumn, cell)] |
                    placed_digits[kRow][UnitOf(kRow, cell)]));
    }
  }

  bool Solved() const { return placed_ == kCells; }

  void Place(int cell, int digit) {
    ++placed_;
    candidates_[cell] = 0;
    for (UnitKind kind : {kBox, kColumn, kRow}) {
      const int unit = UnitOf(kind, cell);
      --open_[kind][unit];
      for (int i = 0; i < kSize; ++i) {
        candidates_[CellOf(kind, unit, i)] &= static_cast<uint16_t>(~Bit(digit));
      }
    }
  }

  // Each digit's places in each unit, as the candidates are now: Places() reads them until the
  // next Place().
  void ComputePlaces() {
    places_ = {};
    for (int cell = 0; cell < kCells; ++cell) {
      for (uint16_t digits = candidates_[cell]; digits; digits &= digits - 1) {
        const int digit = std::countr_zero(digits) + 1;
        for (UnitKind kind : {kBox, kColumn, kRow}) {
          places_[kind][UnitOf(kind, cell)][digit] |=
              static_cast<uint16_t>(1u << PositionOf(kind, cell));
        }
      }
    }
  }

  // The positions (bit i: the unit's i-th cell) where `digit` may go in the unit.
  uint16_t Places(UnitKind kind, int unit, int digit) const { return places_[kind][unit][digit]; }
  int OpenCells(UnitKind kind, int unit) const { return open_[kind][unit]; }
  uint16_t Candidates(int cell) const { return candidates_[cell]; }

 private:
  int placed_ = 0;
  std::array<uint16_t, kCells> candidates_{};
  std::array<std::array<std::array<uint16_t, 10>, kSize>, 3> places_{};
  std::array<std::array<int, kSize>, 3> open_{};
};

struct Single {
  int cell = -1;
  int digit = 0;
  uint32_t tenths = 0;  // SE's difficulty of the step that found it
};

// A pointing (a box's digit on one line: 1.7) or claiming (a line's digit in one box: 1.9)
// after which another unit of the first kind crossing the second has one place left.
Single DirectIntersection(const DirectBoard& board) {
  constexpr std::array<std::pair<UnitKind, UnitKind>, 4> kPairs = {
      {{kBox, kColumn}, {kBox, kRow}, {kColumn, kBox}, {kRow, kBox}}};
  for (const auto& [first, second] : kPairs) {
    const uint32_t tenths = first == kBox ? 17 : 19;
    for (int digit = 1; digit <= 9; ++digit) {
      for (int unit = 0; unit < kSize; ++unit) {
        const uint16_t places = board.Places(first, unit, digit);
        if (Count(places) < 2) continue;
        const int other = UnitOf(second, CellOf(first, unit, std::countr_zero(places)));
        if (places & ~kUnits.inside[first][unit][second][other]) continue;  // not confined
        // Another unit of the first kind crossing `other`: its places outside `other` left.
        for (int third = 0; third < kSize; ++third) {
          if (third == unit) continue;
          const uint16_t third_places = board.Places(first, third, digit);
          if (Count(third_places) < 2) continue;
          const uint16_t crossing = kUnits.inside[first][third][second][other];
          const uint16_t left = static_cast<uint16_t>(third_places & ~crossing);
          if (crossing && Count(left) == 1) {
            return {CellOf(first, third, std::countr_zero(left)), digit, tenths};
          }
        }
      }
    }
  }
  return {};
}

// Calls `visit` with each subset of `bits` that has `size` members, largest first (so in the
// order a walk down every subset, `set = (set - 1) & bits`, meets them, without the walk's
// hundreds of other subsets), until `visit` returns true; returns whether one did.
template <typename Visit>
bool FirstSubset(uint16_t bits, int size, uint16_t chosen, const Visit& visit) {
  if (size == 0) return visit(chosen);
  for (uint16_t rest = bits; Count(rest) >= size;) {
    const uint16_t highest = static_cast<uint16_t>(1u << (31 - std::countl_zero(uint32_t{rest})));
    rest = static_cast<uint16_t>(rest & ~highest);
    if (FirstSubset(rest, size - 1, static_cast<uint16_t>(chosen | highest), visit)) return true;
  }
  return false;
}

// `size` digits whose places in a unit are `size` cells, after which another digit has one
// place left in the unit (a hidden pair 2.0, a hidden triple 2.5).
Single DirectHiddenSet(const DirectBoard& board, int size) {
  for (UnitKind kind : {kBox, kColumn, kRow}) {
    for (int unit = 0; unit < kSize; ++unit) {
      if (board.OpenCells(kind, unit) <= size) continue;
      std::array<uint16_t, 10> places{};
      uint16_t eligible = 0;  // the digits with two places or more, and at most `size`
      for (int digit = 1; digit <= 9; ++digit) {
        places[digit] = board.Places(kind, unit, digit);
        const int count = Count(places[digit]);
        if (count >= 2 && count <= size) eligible |= Bit(digit);
      }
      Single single;
      FirstSubset(eligible, size, 0, [&](uint16_t set) {
        uint16_t cells = 0;
        for (uint16_t digits = set; digits; digits &= digits - 1) {
          cells |= places[std::countr_zero(digits) + 1];
        }
        if (Count(cells) != size) return false;
        for (int digit = 1; digit <= 9; ++digit) {
          if ((set & Bit(digit)) || Count(places[digit]) < 2) continue;
          const uint16_t left = static_cast<uint16_t>(places[digit] & ~cells);
          if (Count(left) == 1) {
            single = {CellOf(kind, unit, std::countr_zero(left)), digit, size == 2 ? 20u : 25u};
            return true;
          }
        }
        return false;
      });
      if (single.cell >= 0) return single;
    }
  }
  return {};
}

Single NakedSingle(const DirectBoard& board) {
  for (int cell = 0; cell < kCells; ++cell) {
    const uint16_t candidates = board.Candidates(cell);
    if (Count(candidates) == 1) return {cell, std::countr_zero(candidates) + 1, 23};
  }
  return {};
}

// SE's next direct step past the hidden singles, in its order; cell -1 when none applies.
// `board` has its places computed.
Single NextDirect(const DirectBoard& board) {
  for (const auto& find : {+[](const DirectBoard& b) { return DirectIntersection(b); },
                           +[](const DirectBoard& b) { return DirectHiddenSet(b, 2); },
                           +[](const DirectBoard& b) { return NakedSingle(b); },
                           +[](const DirectBoard& b) { return DirectHiddenSet(b, 3); }}) {
    const Single single = find(board);
    if (single.cell >= 0) return single;
  }
  return {};
}

// Every hidden single of the easiest kind there is (alone in its unit, then in a box, then in a
// column or row), or of none, in `singles`; returns how many. SE would place them one at a
// time, but each stays a single of that kind or easier until placed, so the hardest step is
// the same. One pass: a single of an easier kind than those so far starts the list again.
int EasiestHiddenSingles(const DirectBoard& board, std::array<Single, kCells>* singles) {
  int count = 0;
  int easiest = 3;  // the kind of those listed: 0 alone, 1 in a box, 2 in a line
  for (UnitKind kind : {kBox, kColumn, kRow}) {
    for (int unit = 0; unit < kSize; ++unit) {
      const bool alone = board.OpenCells(kind, unit) == 1;
      const int rank = alone ? 0 : kind == kBox ? 1 : 2;
      if (rank > easiest) continue;
      // The digits that one of the unit's cells allows, and those that more than one does.
      uint16_t once = 0;
      uint16_t more = 0;
      for (int i = 0; i < kSize; ++i) {
        const uint16_t digits = board.Candidates(CellOf(kind, unit, i));
        more |= static_cast<uint16_t>(once & digits);
        once |= digits;
      }
      for (uint16_t single = once & ~more; single; single &= single - 1) {
        const int digit = std::countr_zero(single) + 1;
        int position = 0;
        while (!(board.Candidates(CellOf(kind, unit, position)) & Bit(digit))) ++position;
        if (rank < easiest) {
          easiest = rank;
          count = 0;
        }
        const uint32_t tenths = alone ? 10 : kind == kBox ? 12 : 15;
        (*singles)[count++] = {CellOf(kind, unit, position), digit, tenths};
      }
    }
  }
  return count;
}

}  // namespace

std::optional<SeDirect> SeDirectTenths(const Grid& puzzle) {
  DirectBoard board(puzzle);
  uint32_t hardest = kSeMinTenths;
  uint32_t first = 0;
  std::array<Single, kCells> singles;
  while (!board.Solved()) {
    int count = EasiestHiddenSingles(board, &singles);
    if (count == 0) {
      board.ComputePlaces();
      singles[0] = NextDirect(board);
      if (singles[0].cell < 0) return std::nullopt;
      count = 1;
    }
    for (const Single& single : std::span(singles).first(count)) {
      hardest = std::max(hardest, single.tenths);
      if (first == 0) first = std::max(single.tenths, kSeMinTenths);
      if (board.Candidates(single.cell)) board.Place(single.cell, single.digit);
    }
  }
  return SeDirect{.tenths = hardest, .first_tenths = first == 0 ? kSeMinTenths : first};
}

}  // namespace sudoku::rating
