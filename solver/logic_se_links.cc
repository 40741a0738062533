// Sudoku Explainer's strong links (its "StrongLinks" rules, 2 to 6 links): one digit's strong
// links in distinct units, each end of one sharing a unit with the start of the next. Its turbot
// fish (2 links), 3 skyscrapers, string kites, grouped links and X-loops are all this one search,
// rated as SE rates them, on SE's path only.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "solver/logic_board.h"

namespace sudoku::logic::internal {
namespace {

// SE's kinds of unit, which its ratings and names read: 0 a box, 1 a row, 2 a column.
int SeKind(int unit) { return unit < 9 ? 1 : unit < 18 ? 2 : 0; }

// A strong link of one digit: in `unit` the digit lies in one end or in the other. An end is a
// cell, or (grouped) the cells of one line within a box. An end beside a single cell across a
// box's crossing lines takes the crossing cell in even where the digit is not: SE does, so that
// the end lies along the line it means, and what sees the end sees that cell too.
struct SeLink {
  int unit = 0;
  bool grouped = false;
  CellSet places;               // the digit's places in the unit
  std::array<CellSet, 2> ends;  // as SE takes them, the crossing cell included
  std::array<uint32_t, 2> within{};  // the units (bit u) holding all of each end
};

struct SeLinks {
  std::array<SeLink, 2 * kUnits> list;
  int count = 0;
  void Add(int unit, bool grouped, CellSet places, CellSet first, CellSet second);
};

CellSet CellsAt(int unit, uint16_t positions) {
  CellSet cells;
  for (; positions; positions = WithoutLowest(positions)) {
    cells.Add(Table().cells[unit][std::countr_zero(positions)]);
  }
  return cells;
}

// The units (bit u) holding every cell of `cells`.
uint32_t UnitsHolding(const CellSet& cells) {
  uint32_t units = kEveryUnit;
  cells.ForEach([&](int cell) {
    const auto& of = Table().units[cell];
    units &= (1u << of[0]) | (1u << of[1]) | (1u << of[2]);
  });
  return units;
}

// The unit two ends share, as SE looks for it (a column, a row, then a box), from the units
// holding each; -1 if none.
int SharedUnit(uint32_t a, uint32_t b) {
  const uint32_t both = a & b;
  if (!both) return -1;
  constexpr uint32_t kColumns = 0777u << 9, kRows = 0777u;
  const uint32_t first = both & kColumns ? both & kColumns : both & kRows ? both & kRows : both;
  return std::countr_zero(first);
}

void SeLinks::Add(int unit, bool grouped, CellSet places, CellSet first, CellSet second) {
  list[count++] = {unit, grouped, places, {first, second},
                   {UnitsHolding(first), UnitsHolding(second)}};
}

// A line's places in two of its three boxes: the two box segments, SE's grouped line link.
void AddLineLink(SeLinks& links, int unit, uint16_t places) {
  for (int empty = 0; empty < 3; ++empty) {
    if (places & (7u << (3 * empty))) continue;
    const int a = empty == 0 ? 1 : 0, b = empty == 2 ? 1 : 2;
    const uint16_t first = places & (7u << (3 * a)), second = places & (7u << (3 * b));
    if (first && second) {
      links.Add(unit, true, CellsAt(unit, places), CellsAt(unit, first), CellsAt(unit, second));
    }
    return;
  }
}

// A box's places in three to six cells of two of its lines: SE takes the first of its fifteen
// shapes that holds them (a row and a column crossing at each of the nine cells, then two rows,
// then two columns), and links the lines' parts.
void AddBoxLink(SeLinks& links, int unit, uint16_t places) {
  constexpr uint16_t kRow[3] = {0007, 0070, 0700}, kColumn[3] = {0111, 0222, 0444};
  const int count = Count(places);
  const CellSet all = CellsAt(unit, places);
  for (int shape = 0; shape < 15; ++shape) {
    if (shape < 9) {
      const int heart = shape;
      const uint16_t cross = kRow[heart / 3] | kColumn[heart % 3];
      if (places & ~cross) continue;
      const uint16_t along_column = places & kColumn[heart % 3] & ~(1u << heart);
      const uint16_t along_row = places & kRow[heart / 3] & ~(1u << heart);
      if (!along_column || !along_row) return;
      const CellSet heart_cell = CellsAt(unit, 1u << heart);
      const CellSet column = CellsAt(unit, along_column), row = CellsAt(unit, along_row);
      if (Count(along_column) == 1) {
        // SE links this lone cell with the other line's cells alone where that line has one
        // too, which the crossing cell's candidate would break: the crossing cell stays in.
        links.Add(unit, true, all, column, row | heart_cell);
      } else if (Count(along_row) == 1) {
        links.Add(unit, true, all, row, column | heart_cell);
      } else {
        const CellSet centre = (places >> heart) & 1 ? heart_cell : CellSet{};
        links.Add(unit, true, all, column | centre, row | centre);
      }
      return;
    }
    if (count < 4) continue;
    const int pair = (shape - 9) % 3;
    const uint16_t* lines = shape < 12 ? kRow : kColumn;
    const int a = pair == 2 ? 1 : 0, b = pair == 0 ? 1 : 2;
    if (places & lines[3 - a - b]) continue;
    const uint16_t first = places & lines[a], second = places & lines[b];
    if (!first || !second) return;
    links.Add(unit, true, all, CellsAt(unit, first), CellsAt(unit, second));
    // Four places in a square: the other two lines link them as well.
    if (count == 4 && (shape < 12 ? (first >> (3 * a)) == (second >> (3 * b))
                                   : (first >> a) == (second >> b))) {
      const CellSet one = CellsAt(unit, static_cast<uint16_t>(1u << std::countr_zero(first)) |
                                            static_cast<uint16_t>(1u << std::countr_zero(second)));
      links.Add(unit, true, all, one, all.Without(one));
    }
    return;
  }
}

SeLinks LinksOf(const Board& board, int digit) {
  SeLinks links;
  for (int unit = 0; unit < kUnits; ++unit) {
    const uint16_t places = board.Places(unit, digit);
    const int count = Count(places);
    if (count < 2 || count > 6) continue;
    if (count == 2) {
      const int a = Table().cells[unit][std::countr_zero(places)];
      const int b = Table().cells[unit][std::countr_zero(WithoutLowest(places))];
      // A box's pair along a line is that line's link.
      if (unit >= 18 && (RowOf(a) == RowOf(b) || ColumnOf(a) == ColumnOf(b))) continue;
      CellSet first, second;
      first.Add(a);
      second.Add(b);
      links.Add(unit, false, first | second, first, second);
    } else if (unit < 18) {
      AddLineLink(links, unit, places);
    } else {
      AddBoxLink(links, unit, places);
    }
  }
  return links;
}

CellSet SeeingAll(const CellSet& cells) {
  CellSet seeing{~uint64_t{0}, (1u << (kCells - 64)) - 1};
  cells.ForEach([&](int cell) { seeing = seeing & Table().peer_set[cell]; });
  return seeing;
}

// A chain found: its links in order, each entered by end `entry[i]`.
struct SeChain {
  int digit = 0;
  std::array<int, 6> link{};
  std::array<int, 6> entry{};
  bool loop = false;
  int tenths = 0;
  int removals = 0;  // as SE counts them: a loop's per weak link
  std::string suffix;
  CellSet victims;
};

// What SE's hints sort by: the rating, then the most removals, then its suffix.
bool Before(const SeChain& a, const SeChain& b) {
  if (a.tenths != b.tenths) return a.tenths < b.tenths;
  if (a.removals != b.removals) return a.removals > b.removals;
  return a.suffix < b.suffix;
}

class ChainSearch {
 public:
  ChainSearch(const Board& board, int size) : board_(board), size_(size) {}

  void Digit(int digit) {
    digit_ = digit;
    links_ = LinksOf(board_, digit);
    if (links_.count < size_) return;
    with_ = board_.CellsWith(digit);
    for (int i = 0; i < links_.count; ++i) {
      for (int entry = 0; entry < 2; ++entry) {
        chain_.link[0] = i;
        chain_.entry[0] = entry;
        Extend(1, 1u << links_.list[i].unit, links_.list[i].places);
      }
    }
  }

  const SeChain* best() const { return found_ ? &best_ : nullptr; }

 private:
  // Links in distinct units, none sharing a place with another (SE's rule): `units` and
  // `places` those of the chain so far.
  void Extend(int depth, uint32_t units, const CellSet& places) {
    if (depth == size_) return Evaluate();
    const SeLink& last = links_.list[chain_.link[depth - 1]];
    const uint32_t out = last.within[1 - chain_.entry[depth - 1]];
    for (int j = 0; j < links_.count; ++j) {
      const SeLink& next = links_.list[j];
      if ((units >> next.unit) & 1 || !(places & next.places).Empty()) continue;
      for (int entry = 0; entry < 2; ++entry) {
        if (!(out & next.within[entry])) continue;
        chain_.link[depth] = j;
        chain_.entry[depth] = entry;
        Extend(depth + 1, units | 1u << next.unit, places | next.places);
      }
    }
  }

  // The unit joining link k to the next.
  int Joint(int k) const {
    return SharedUnit(links_.list[chain_.link[k]].within[1 - chain_.entry[k]],
                      links_.list[chain_.link[k + 1]].within[chain_.entry[k + 1]]);
  }

  const CellSet& End(int k, bool entry) const {
    const int side = entry ? chain_.entry[k] : 1 - chain_.entry[k];
    return links_.list[chain_.link[k]].ends[side];
  }

  void Evaluate() {
    const int n = size_;
    const CellSet& start = End(0, true);
    const CellSet& end = End(n - 1, false);
    CellSet base;
    for (int k = 0; k < n; ++k) base = base | Table().unit_set[links_.list[chain_.link[k]].unit];
    const bool loop = (links_.list[chain_.link[0]].within[chain_.entry[0]] &
                       links_.list[chain_.link[n - 1]].within[1 - chain_.entry[n - 1]]) != 0;
    CellSet victims;
    int removals = 0;
    if (loop) {
      // Each loop once: from its first link in the list, entered by its first end.
      for (int k = 1; k < n; ++k) {
        if (chain_.link[k] < chain_.link[0]) return;
      }
      if (chain_.entry[0] != 0) return;
      auto weak = [&](const CellSet& a, const CellSet& b) {
        const CellSet removed = (SeeingAll(a | b) & with_).Without(base);
        removals += removed.Count();
        victims = victims | removed;
      };
      weak(end, start);
      for (int k = 0; k + 1 < n; ++k) weak(End(k, false), End(k + 1, true));
    } else {
      // Each chain once, not again backwards.
      if (chain_.link[0] > chain_.link[n - 1]) return;
      CellSet shared;
      for (int k = 0; k + 1 < n; ++k) {
        shared = shared | Table().unit_set[Joint(k)];
      }
      victims = (SeeingAll(start | end) & with_).Without(base).Without(shared);
      removals = victims.Count();
    }
    if (victims.Empty()) return;
    std::array<int, 6> kinds{};
    int grouped = 0;
    for (int k = 0; k < n; ++k) {
      kinds[k] = SeKind(links_.list[chain_.link[k]].unit);
      grouped += links_.list[chain_.link[k]].grouped;
    }
    SeChain candidate = chain_;
    candidate.digit = digit_;
    candidate.loop = loop;
    candidate.tenths = SeLinksTenths(kinds.data(), n, grouped);
    candidate.removals = removals;
    candidate.victims = victims;
    if (found_ && (candidate.tenths > best_.tenths ||
                   (candidate.tenths == best_.tenths && candidate.removals < best_.removals))) {
      return;
    }
    candidate.suffix = SeLinksSuffix(kinds.data(), n, grouped);
    if (!found_ || Before(candidate, best_)) {
      best_ = std::move(candidate);
      found_ = true;
    }
  }

  const Board& board_;
  const int size_;
  int digit_ = 0;
  SeLinks links_;
  CellSet with_;
  SeChain chain_;
  SeChain best_;
  bool found_ = false;
};

Node NodeOf(const CellSet& cells, const CellSet& places, int digit) {
  Node node{static_cast<uint8_t>(digit), {}};
  (cells & places).ForEach([&](int cell) { node.cells.push_back(static_cast<uint8_t>(cell)); });
  return node;
}

}  // namespace

int SeLinksTenths(const int* kinds, int size, int grouped) {
  constexpr int kBase[] = {0, 0, 40, 54, 58, 62, 66};
  if (grouped > 0) return kBase[size] + 3;
  bool box = false, row = false, column = false;
  for (int k = 0; k < size; ++k) {
    box |= kinds[k] == 0;
    row |= kinds[k] == 1;
    column |= kinds[k] == 2;
  }
  return kBase[size] + box + (row && column);
}

std::string SeLinksSuffix(const int* kinds, int size, int grouped) {
  std::string forward, backward;
  for (int k = 0; k < size; ++k) {
    forward += static_cast<char>('0' + kinds[k]);
    backward += static_cast<char>('0' + kinds[size - 1 - k]);
  }
  const std::string& kept = std::min(forward, backward);
  std::string lines = kept;
  if (kept.find('1') == std::string::npos) {
    // Columns alone read as rows.
    std::replace(lines.begin(), lines.end(), '2', '1');
  } else {
    // Rows and columns swapped, either way round: the least of these and the sequence itself.
    std::string swapped = kept;
    for (char& kind : swapped) kind = kind == '1' ? '2' : kind == '2' ? '1' : kind;
    std::string reversed(swapped.rbegin(), swapped.rend());
    lines = std::min({kept, swapped, reversed});
  }
  return std::to_string(grouped) + lines;
}

bool SeStrongLinks(Board& board, Step* step, int size) {
  // A digit's chains read its places alone: one unchanged since the search found nothing
  // still has none.
  const Search memo = Sized(Search::kSeLinks2, size);
  ChainSearch search(board, size);
  for (uint16_t digits = board.DigitsToSearch(memo); digits; digits = WithoutLowest(digits)) {
    search.Digit(LowestDigit(digits));
  }
  const SeChain* best = search.best();
  if (best == nullptr) return board.NothingFound(memo);
  // The links again, as the search saw them for its digit.
  const SeLinks links = LinksOf(board, best->digit);
  const CellSet places = board.CellsWith(best->digit);
  step->technique = Technique::kXChain;
  step->variant = best->loop ? 4 : 3;
  step->se_tenths = static_cast<uint8_t>(best->tenths);
  step->digits = {static_cast<uint8_t>(best->digit)};
  auto end = [&](int k, bool entry) -> const CellSet& {
    const SeLink& link = links.list[best->link[k]];
    return link.ends[entry ? best->entry[k] : 1 - best->entry[k]];
  };
  for (int k = 0; k < size; ++k) step->units.push_back(UnitOf(links.list[best->link[k]].unit));
  for (int k = 0; k + 1 < size; ++k) {
    step->units.push_back(UnitOf(SharedUnit(UnitsHolding(end(k, false)),
                                            UnitsHolding(end(k + 1, true)))));
  }
  if (best->loop) {
    step->units.push_back(
        UnitOf(SharedUnit(UnitsHolding(end(size - 1, false)), UnitsHolding(end(0, true)))));
  }
  for (int k = 0; k < size; ++k) {
    step->links.push_back({NodeOf(end(k, true), places, best->digit),
                           NodeOf(end(k, false), places, best->digit), true});
    if (k + 1 < size) {
      step->links.push_back({NodeOf(end(k, false), places, best->digit),
                             NodeOf(end(k + 1, true), places, best->digit), false});
    }
  }
  if (best->loop) {
    step->links.push_back({NodeOf(end(size - 1, false), places, best->digit),
                           NodeOf(end(0, true), places, best->digit), false});
  }
  best->victims.ForEach([&](int cell) { Eliminate(board, step, cell, Bit(best->digit)); });
  return true;
}

}  // namespace sudoku::logic::internal
