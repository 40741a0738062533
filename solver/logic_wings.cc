// The wings of logic_board.h that turn on a pivot cell: xy-wing and xyz-wing (bivalue cells
// around a pivot of two or three digits). The w-wing, built on a conjugate pair, is in
// logic_patterns.cc.
#include <cstdint>
#include <utility>

#include "solver/logic_board.h"

namespace sudoku::logic::internal {

bool XYWing(Board& board, Step* step) {
  for (int pivot = 0; pivot < kCells; ++pivot) {
    const uint16_t xy = board.open[pivot];
    if (Count(xy) != 2) continue;
    for (uint8_t a : Table().peers[pivot]) {
      const uint16_t xz = board.open[a];
      if (Count(xz) != 2 || Count(static_cast<uint16_t>(xz & xy)) != 1) continue;
      const uint16_t x = xz & xy;
      const uint16_t z = xz & ~xy;
      const uint16_t yz = static_cast<uint16_t>((xy & ~x) | z);
      for (uint8_t b : Table().peers[pivot]) {
        if (b == a || board.open[b] != yz) continue;
        const int dx = LowestDigit(x), dy = LowestDigit(static_cast<uint16_t>(xy & ~x));
        const int dz = LowestDigit(z);
        Step found;
        EliminateSeeingAll(board, &found, dz, {a, b});
        if (found.eliminations.empty()) continue;
        found.technique = Technique::kXYWing;
        found.cells = {static_cast<uint8_t>(pivot), a, b};
        found.digits = {static_cast<uint8_t>(dx), static_cast<uint8_t>(dy),
                        static_cast<uint8_t>(dz)};
        found.links = {MakeLink(a, dz, a, dx, true), MakeLink(a, dx, pivot, dx, false),
                       MakeLink(pivot, dx, pivot, dy, true), MakeLink(pivot, dy, b, dy, false),
                       MakeLink(b, dy, b, dz, true)};
        *step = std::move(found);
        return true;
      }
    }
  }
  return false;
}

bool XYZWing(Board& board, Step* step) {
  for (int pivot = 0; pivot < kCells; ++pivot) {
    const uint16_t xyz = board.open[pivot];
    if (Count(xyz) != 3) continue;
    for (uint8_t a : Table().peers[pivot]) {
      const uint16_t xz = board.open[a];
      if (Count(xz) != 2 || (xz & ~xyz)) continue;
      for (uint8_t b : Table().peers[pivot]) {
        const uint16_t yz = board.open[b];
        if (b <= a || Count(yz) != 2 || (yz & ~xyz) || yz == xz) continue;
        const uint16_t z = xz & yz;  // the digit the three cells share
        const int dz = LowestDigit(z);
        const int dx = LowestDigit(static_cast<uint16_t>(xz & ~z));
        const int dy = LowestDigit(static_cast<uint16_t>(yz & ~z));
        Step found;
        EliminateSeeingAll(board, &found, dz, {pivot, a, b});
        if (found.eliminations.empty()) continue;
        found.technique = Technique::kXYZWing;
        found.cells = {static_cast<uint8_t>(pivot), a, b};
        found.digits = {static_cast<uint8_t>(dx), static_cast<uint8_t>(dy),
                        static_cast<uint8_t>(dz)};
        *step = std::move(found);
        return true;
      }
    }
  }
  return false;
}

}  // namespace sudoku::logic::internal
