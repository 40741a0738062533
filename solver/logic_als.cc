// Als-xz (logic_board.h). An almost locked set (ALS) is N open cells of one unit holding N + 1
// digits together: take any one digit out and the rest are locked. Two ALSs A and B with a
// restricted common digit x (every x of A sees every x of B, so x is in at most one of them)
// lock whichever holds no x; so for another common digit z, one of A's or B's z cells is z,
// and z leaves every cell seeing all of the z cells of both.
#include <algorithm>
#include <array>
#include <bit>
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
  std::vector<uint8_t> list;
  uint16_t digits = 0;
  std::array<CellSet, 10> with{};  // per digit, the set's cells holding it
};

void CollectSets(const Board& board, int unit, std::vector<Als>& sets) {
  std::vector<uint8_t> open;
  for (uint8_t cell : Table().cells[unit]) {
    if (board.open[cell]) open.push_back(cell);
  }
  for (uint32_t chosen = 1; chosen < (1u << open.size()); ++chosen) {
    const int size = std::popcount(chosen);
    if (size > kLargestSet) continue;
    Als als{unit, {}, {}, 0, {}};
    for (size_t i = 0; i < open.size(); ++i) {
      if (!(chosen >> i & 1)) continue;
      als.cells.Add(open[i]);
      als.list.push_back(open[i]);
      als.digits |= board.open[open[i]];
    }
    if (Count(als.digits) != size + 1) continue;
    bool seen = false;  // the same cells found in another unit already
    for (const Als& other : sets) seen |= other.cells == als.cells;
    if (seen) continue;
    for (uint8_t cell : als.list) {
      for (uint16_t d = board.open[cell]; d; d = WithoutLowest(d)) als.with[LowestDigit(d)].Add(cell);
    }
    sets.push_back(std::move(als));
  }
}

// Every cell of `a` sees every cell of `b`.
bool AllSee(const CellSet& a, const CellSet& b) {
  bool all = true;
  a.ForEach([&](int cell) { all &= (b & Table().peer_set[cell]) == b; });
  return all;
}

CellSet SeeingAll(const Board& board, int digit, const CellSet& cells) {
  CellSet seen = board.CellsWith(digit);
  cells.ForEach([&](int cell) { seen = seen & Table().peer_set[cell]; });
  return seen;
}

bool TryPair(Board& board, const Als& a, const Als& b, Step* step) {
  const uint16_t common = a.digits & b.digits;
  if (Count(common) < 2 || !(a.cells & b.cells).Empty()) return false;
  for (uint16_t xs = common; xs; xs = WithoutLowest(xs)) {
    const int x = LowestDigit(xs);
    if (!AllSee(a.with[x], b.with[x])) continue;
    for (uint16_t zs = common & ~Bit(x); zs; zs = WithoutLowest(zs)) {
      const int z = LowestDigit(zs);
      const CellSet targets =
          (SeeingAll(board, z, a.with[z]) & SeeingAll(board, z, b.with[z])).Without(a.cells | b.cells);
      if (targets.Empty()) continue;
      Step found;
      targets.ForEach([&](int cell) { Eliminate(board, &found, cell, Bit(z)); });
      found.technique = Technique::kAlsXz;
      found.units = {UnitOf(a.unit), UnitOf(b.unit)};
      found.cells = a.list;
      found.cells.insert(found.cells.end(), b.list.begin(), b.list.end());
      found.variant = static_cast<uint8_t>(a.list.size());
      found.digits = {static_cast<uint8_t>(x), static_cast<uint8_t>(z)};
      *step = std::move(found);
      return true;
    }
  }
  return false;
}

}  // namespace

bool AlsXz(Board& board, Step* step) {
  std::vector<Als> sets;
  for (int unit = 0; unit < kUnits; ++unit) CollectSets(board, unit, sets);
  // Smaller pairs first: they read more easily.
  std::stable_sort(sets.begin(), sets.end(),
                   [](const Als& a, const Als& b) { return a.list.size() < b.list.size(); });
  for (size_t i = 0; i < sets.size(); ++i) {
    for (size_t j = i + 1; j < sets.size(); ++j) {
      if (TryPair(board, sets[i], sets[j], step) || TryPair(board, sets[j], sets[i], step)) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace sudoku::logic::internal
