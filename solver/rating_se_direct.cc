// SeDirectTenths (rating.h): Sudoku Explainer's own path through a puzzle its direct techniques
// solve. Its rating is the hardest of those steps, and SE's order of preference decides which it
// takes (a naked single at 2.3 only where no hidden single, direct intersection or direct hidden
// pair is left), so the path is replayed here rather than read from ours. Only placements: a
// direct technique names the single it leads to, and SE places just that digit.
#include <algorithm>
#include <array>
#include <bit>

#include "solver/rating.h"

namespace sudoku::rating {
namespace {

constexpr int kSize = 9;
enum UnitKind { kBox, kColumn, kRow };  // SE scans boxes, then columns, then rows

constexpr int CellOf(UnitKind kind, int unit, int position) {
  switch (kind) {
    case kBox: return (unit / 3 * 3 + position / 3) * kSize + unit % 3 * 3 + position % 3;
    case kColumn: return position * kSize + unit;
    case kRow: return unit * kSize + position;
  }
  return 0;
}

constexpr int UnitOf(UnitKind kind, int cell) {
  const int row = cell / kSize, column = cell % kSize;
  switch (kind) {
    case kBox: return row / 3 * 3 + column / 3;
    case kColumn: return column;
    case kRow: return row;
  }
  return 0;
}

constexpr uint16_t Bit(int digit) { return static_cast<uint16_t>(1u << (digit - 1)); }

// The placed digits and, for each open cell, the digits its placed peers allow.
class DirectBoard {
 public:
  explicit DirectBoard(const Grid& puzzle) : values_(puzzle) {
    for (int cell = 0; cell < kCells; ++cell) {
      candidates_[cell] = values_[cell] ? 0 : 0x1ff;
    }
    for (int cell = 0; cell < kCells; ++cell) {
      if (values_[cell]) Strike(cell, values_[cell]);
    }
  }

  bool Solved() const {
    return std::none_of(values_.begin(), values_.end(), [](uint8_t v) { return v == 0; });
  }

  void Place(int cell, int digit) {
    values_[cell] = static_cast<uint8_t>(digit);
    candidates_[cell] = 0;
    Strike(cell, digit);
  }

  // The positions (bit i: the unit's i-th cell) where `digit` may go in the unit.
  uint16_t Places(UnitKind kind, int unit, int digit) const {
    uint16_t places = 0;
    for (int i = 0; i < kSize; ++i) {
      if (candidates_[CellOf(kind, unit, i)] & Bit(digit)) places |= static_cast<uint16_t>(1u << i);
    }
    return places;
  }

  int OpenCells(UnitKind kind, int unit) const {
    int open = 0;
    for (int i = 0; i < kSize; ++i) open += values_[CellOf(kind, unit, i)] == 0;
    return open;
  }

  uint16_t Candidates(int cell) const { return candidates_[cell]; }

 private:
  void Strike(int cell, int digit) {
    for (UnitKind kind : {kBox, kColumn, kRow}) {
      const int unit = UnitOf(kind, cell);
      for (int i = 0; i < kSize; ++i) {
        candidates_[CellOf(kind, unit, i)] &= static_cast<uint16_t>(~Bit(digit));
      }
    }
  }

  Grid values_;
  std::array<uint16_t, kCells> candidates_{};
};

struct Single {
  int cell = -1;
  int digit = 0;
  uint32_t tenths = 0;  // SE's difficulty of the step that found it
};

// A hidden single: alone in its unit (1.0) first, then in a box (1.2), a column or a row (1.5).
Single HiddenSingle(const DirectBoard& board) {
  for (bool alone : {true, false}) {
    for (UnitKind kind : {kBox, kColumn, kRow}) {
      for (int unit = 0; unit < kSize; ++unit) {
        if ((board.OpenCells(kind, unit) == 1) != alone) continue;
        for (int digit = 1; digit <= 9; ++digit) {
          const uint16_t places = board.Places(kind, unit, digit);
          if (std::popcount(places) != 1) continue;
          const uint32_t tenths = alone ? 10 : kind == kBox ? 12 : 15;
          return {CellOf(kind, unit, std::countr_zero(places)), digit, tenths};
        }
      }
    }
  }
  return {};
}

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
        if (std::popcount(places) < 2) continue;
        const int other = UnitOf(second, CellOf(first, unit, std::countr_zero(places)));
        bool confined = true;
        for (uint16_t p = places; p; p &= static_cast<uint16_t>(p - 1)) {
          confined &= UnitOf(second, CellOf(first, unit, std::countr_zero(p))) == other;
        }
        if (!confined) continue;
        // Another unit of the first kind crossing `other`: its places outside `other` left.
        for (int third = 0; third < kSize; ++third) {
          if (third == unit) continue;
          const uint16_t third_places = board.Places(first, third, digit);
          if (std::popcount(third_places) < 2) continue;
          int left = 0, cell = -1;
          bool crosses = false;
          for (int i = 0; i < kSize; ++i) {
            const int c = CellOf(first, third, i);
            const bool in_other = UnitOf(second, c) == other;
            crosses |= in_other;
            if ((third_places >> i & 1) && !in_other) {
              ++left;
              cell = c;
            }
          }
          if (crosses && left == 1) return {cell, digit, tenths};
        }
      }
    }
  }
  return {};
}

// `size` digits whose places in a unit are `size` cells, after which another digit has one
// place left in the unit (a hidden pair 2.0, a hidden triple 2.5).
Single DirectHiddenSet(const DirectBoard& board, int size) {
  for (UnitKind kind : {kBox, kColumn, kRow}) {
    for (int unit = 0; unit < kSize; ++unit) {
      if (board.OpenCells(kind, unit) <= size) continue;
      std::array<uint16_t, 10> places{};
      for (int digit = 1; digit <= 9; ++digit) places[digit] = board.Places(kind, unit, digit);
      for (uint16_t set = 0; set < 0x200; ++set) {
        if (std::popcount(set) != size) continue;
        uint16_t cells = 0;
        bool each_placed = true;
        for (int digit = 1; digit <= 9; ++digit) {
          if (!(set & Bit(digit))) continue;
          each_placed &= places[digit] != 0;
          cells |= places[digit];
        }
        if (!each_placed || std::popcount(cells) != size) continue;
        for (int digit = 1; digit <= 9; ++digit) {
          if ((set & Bit(digit)) || std::popcount(places[digit]) < 2) continue;
          const uint16_t left = static_cast<uint16_t>(places[digit] & ~cells);
          if (std::popcount(left) == 1) {
            return {CellOf(kind, unit, std::countr_zero(left)), digit, size == 2 ? 20u : 25u};
          }
        }
      }
    }
  }
  return {};
}

Single NakedSingle(const DirectBoard& board) {
  for (int cell = 0; cell < kCells; ++cell) {
    const uint16_t candidates = board.Candidates(cell);
    if (std::popcount(candidates) == 1) return {cell, std::countr_zero(candidates) + 1, 23};
  }
  return {};
}

// SE's next direct step, in its order; cell -1 when none applies.
Single NextDirect(const DirectBoard& board) {
  for (const auto& find : {+[](const DirectBoard& b) { return HiddenSingle(b); },
                           +[](const DirectBoard& b) { return DirectIntersection(b); },
                           +[](const DirectBoard& b) { return DirectHiddenSet(b, 2); },
                           +[](const DirectBoard& b) { return NakedSingle(b); },
                           +[](const DirectBoard& b) { return DirectHiddenSet(b, 3); }}) {
    const Single single = find(board);
    if (single.cell >= 0) return single;
  }
  return {};
}

}  // namespace

std::optional<uint32_t> SeDirectTenths(const Grid& puzzle) {
  DirectBoard board(puzzle);
  uint32_t hardest = kSeMinTenths;
  while (!board.Solved()) {
    const Single single = NextDirect(board);
    if (single.cell < 0) return std::nullopt;
    hardest = std::max(hardest, single.tenths);
    board.Place(single.cell, single.digit);
  }
  return hardest;
}

}  // namespace sudoku::rating
