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
  std::array<uint8_t, kLargestSet> list{};
  int size = 0;
  uint16_t digits = 0;
  std::array<CellSet, 10> with{};  // per digit, the set's cells holding it (once it is kept)
};

// Grows `als` by the unit's open cells from `from` on, keeping each set of N cells with N + 1
// digits; a set with more digits than the largest set could have is not grown further.
void Grow(const Board& board, const std::vector<uint8_t>& open, size_t from, Als& als,
          std::vector<Als>& sets) {
  for (size_t i = from; i < open.size(); ++i) {
    Als grown = als;
    grown.list[grown.size++] = open[i];
    grown.cells.Add(open[i]);
    grown.digits |= board.open[open[i]];
    if (Count(grown.digits) > kLargestSet + 1) continue;
    if (Count(grown.digits) == grown.size + 1) {
      for (int k = 0; k < grown.size; ++k) {
        for (uint16_t d = board.open[grown.list[k]]; d; d = WithoutLowest(d)) {
          grown.with[LowestDigit(d)].Add(grown.list[k]);
        }
      }
      sets.push_back(grown);
      grown.with = {};
    }
    if (grown.size < kLargestSet) Grow(board, open, i + 1, grown, sets);
  }
}

// A box's sets that lie in one row or column are found in that line already.
bool InOneLine(const Als& als) {
  bool row = true, column = true;
  for (int i = 1; i < als.size; ++i) {
    row &= RowOf(als.list[i]) == RowOf(als.list[0]);
    column &= ColumnOf(als.list[i]) == ColumnOf(als.list[0]);
  }
  return row || column;
}

void CollectSets(const Board& board, int unit, std::vector<Als>& sets) {
  std::vector<uint8_t> open;
  for (uint8_t cell : Table().cells[unit]) {
    if (board.open[cell]) open.push_back(cell);
  }
  const size_t first = sets.size();
  Als empty{unit, {}, {}, 0, 0, {}};
  Grow(board, open, 0, empty, sets);
  if (unit < 18) return;
  sets.erase(std::remove_if(sets.begin() + static_cast<long>(first), sets.end(), InOneLine),
             sets.end());
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
          (SeeingAll(board, z, a.with[z]) & SeeingAll(board, z, b.with[z]))
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

}  // namespace

bool AlsXz(Board& board, Step* step) {
  std::vector<Als> sets;
  for (int unit = 0; unit < kUnits; ++unit) CollectSets(board, unit, sets);
  // Smaller pairs first: they read more easily.
  std::stable_sort(sets.begin(), sets.end(),
                   [](const Als& a, const Als& b) { return a.size < b.size; });
  for (size_t i = 0; i < sets.size(); ++i) {
    for (size_t j = i + 1; j < sets.size(); ++j) {
      // One order is enough: the restricted common digit and the removals are symmetric.
      if (TryPair(board, sets[i], sets[j], step)) return true;
    }
  }
  return false;
}

}  // namespace sudoku::logic::internal
