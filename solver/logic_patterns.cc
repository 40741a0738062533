// The pattern techniques of logic_board.h on conjugate pairs: skyscraper, two-string kite,
// empty rectangle, w-wing and simple colouring (one digit, or two bivalue cells, in a fixed
// shape). The xy- and xyz-wings are in logic_wings.cc, unique rectangles and bug+1 in
// logic_unique.cc.
#include <array>
#include <optional>
#include <initializer_list>
#include <utility>
#include <vector>

#include "solver/logic_board.h"

namespace sudoku::logic::internal {
namespace {

// A conjugate pair: a digit's only two places in a unit.
struct Pair {
  int unit = 0;
  int first = 0;
  int second = 0;
};

// Conjugate pairs of one digit, at most one a unit: a list of fixed room, as these searches run
// at most steps and mostly find nothing, so listing the pairs should not allocate.
struct Pairs {
  std::array<Pair, kUnits> list;
  size_t count = 0;
  size_t size() const { return count; }
  const Pair* begin() const { return list.data(); }
  const Pair* end() const { return list.data() + count; }
  const Pair& operator[](size_t i) const { return list[i]; }
};

// The conjugate pairs of `digit` in the units [from, to).
Pairs PairsOf(const Board& board, int digit, int from, int to) {
  Pairs pairs;
  for (int unit = from; unit < to; ++unit) {
    const uint16_t places = board.Places(unit, digit);
    if (Count(places) != 2) continue;
    pairs.list[pairs.count++] = {unit, Table().cells[unit][std::countr_zero(places)],
                                Table().cells[unit][std::countr_zero(WithoutLowest(places))]};
  }
  return pairs;
}

// far1 = near1 - near2 = far2, all of one digit: what sees both far ends loses the digit.
bool TurbotStep(Board& board, Step* step, Technique technique, int digit,
                std::array<int, 4> cells, std::initializer_list<Unit> units) {
  Step found;
  EliminateSeeingAll(board, &found, digit, {cells[0], cells[3]});
  if (found.eliminations.empty()) return false;
  found.technique = technique;
  found.units = units;
  for (int cell : cells) found.cells.push_back(static_cast<uint8_t>(cell));
  found.digits = {static_cast<uint8_t>(digit)};
  found.links = {MakeLink(cells[0], digit, cells[1], digit, true),
                 MakeLink(cells[1], digit, cells[2], digit, false),
                 MakeLink(cells[2], digit, cells[3], digit, true)};
  *step = std::move(found);
  return true;
}

}  // namespace

bool Skyscraper(Board& board, Step* step) {
  const uint16_t digits = board.DigitsToSearch(Search::kSkyscraper);
  for (int digit = 1; digit <= 9; ++digit) {
    if (!(digits & Bit(digit))) continue;
    for (int first_line : {0, 9}) {  // conjugate pairs in rows, or in columns
      const Pairs pairs = PairsOf(board, digit, first_line, first_line + 9);
      for (size_t i = 0; i < pairs.size(); ++i) {
        for (size_t j = i + 1; j < pairs.size(); ++j) {
          // The near ends share a line across the pairs' lines; the far ends do not.
          const auto across = [&](int cell) {
            return first_line == 0 ? ColumnOf(cell) : RowOf(cell);
          };
          const Pair& a = pairs[i];
          const Pair& b = pairs[j];
          for (const auto& [a_near, a_far] : {std::pair{a.first, a.second}, {a.second, a.first}}) {
            for (const auto& [b_near, b_far] :
                 {std::pair{b.first, b.second}, {b.second, b.first}}) {
              if (across(a_near) != across(b_near) || across(a_far) == across(b_far)) continue;
              if (TurbotStep(board, step, Technique::kSkyscraper, digit,
                             {a_far, a_near, b_near, b_far}, {UnitOf(a.unit), UnitOf(b.unit)})) {
                return true;
              }
            }
          }
        }
      }
    }
  }
  return board.NothingFound(Search::kSkyscraper);
}

bool TurbotFish(Board& board, Step* step) {
  struct Found {
    int digit = 0;
    std::array<int, 4> cells{};
    std::array<int, 2> units{};
    int removals = 0;
    int cell_sum = 0;
  };
  std::optional<Found> best;
  const uint16_t digits = board.DigitsToSearch(Search::kTurbotFish);
  for (int digit = 1; digit <= 9; ++digit) {
    if (!(digits & Bit(digit))) continue;
    const Pairs pairs = PairsOf(board, digit, 0, kUnits);
    // Each pair of pairs once: a chain read backwards is the same chain (its far ends, so its
    // removals, the same), and the forward one comes first.
    for (size_t i = 0; i < pairs.size(); ++i) {
      for (size_t j = i + 1; j < pairs.size(); ++j) {
        const Pair& a = pairs[i];
        const Pair& b = pairs[j];
        for (const auto& [a_far, a_near] : {std::pair{a.first, a.second}, {a.second, a.first}}) {
          for (const auto& [b_near, b_far] :
               {std::pair{b.first, b.second}, {b.second, b.first}}) {
            // far = near - near = far: four cells, the near ends seeing each other.
            const std::array<int, 4> cells = {a_far, a_near, b_near, b_far};
            if (!Sees(a_near, b_near) || a_far == b_near || a_far == b_far || a_near == b_far) {
              continue;
            }
            CellSet targets = board.CellsWith(digit) & Table().peer_set[a_far] &
                              Table().peer_set[b_far];
            int removals = 0, cell_sum = 0;
            // (The ends copied: clang 14 cannot capture structured bindings.)
            targets.ForEach([&, ends = cells](int cell) {
              if (cell == ends[1] || cell == ends[2]) return;
              ++removals;
              cell_sum += cell;
            });
            if (removals == 0) continue;
            // HoDoKu's sort: most removals, then the lowest sum of their cells.
            if (best && (removals < best->removals ||
                         (removals == best->removals && cell_sum >= best->cell_sum))) {
              continue;
            }
            best = Found{digit, cells, {a.unit, b.unit}, removals, cell_sum};
          }
        }
      }
    }
  }
  if (!best) return board.NothingFound(Search::kTurbotFish);
  return TurbotStep(board, step, Technique::kTurbotFish, best->digit, best->cells,
                    {UnitOf(best->units[0]), UnitOf(best->units[1])});
}

bool TwoStringKite(Board& board, Step* step) {
  const uint16_t digits = board.DigitsToSearch(Search::kTwoStringKite);
  for (int digit = 1; digit <= 9; ++digit) {
    if (!(digits & Bit(digit))) continue;
    const Pairs rows = PairsOf(board, digit, 0, 9);
    const Pairs columns = PairsOf(board, digit, 9, 18);
    for (const Pair& row : rows) {
      for (const Pair& column : columns) {
        for (const auto& [r_near, r_far] : {std::pair{row.first, row.second},
                                            {row.second, row.first}}) {
          for (const auto& [c_near, c_far] : {std::pair{column.first, column.second},
                                              {column.second, column.first}}) {
            // The near ends share a box, all four cells apart.
            if (BoxOf(r_near) != BoxOf(c_near) || r_near == c_near || r_far == c_far ||
                r_near == c_far || r_far == c_near || BoxOf(r_far) == BoxOf(r_near) ||
                BoxOf(c_far) == BoxOf(c_near)) {
              continue;
            }
            if (TurbotStep(board, step, Technique::kTwoStringKite, digit,
                           {r_far, r_near, c_near, c_far},
                           {UnitOf(row.unit), UnitOf(column.unit), UnitOf(18 + BoxOf(r_near))})) {
              return true;
            }
          }
        }
      }
    }
  }
  return board.NothingFound(Search::kTwoStringKite);
}

namespace {

// The digit's cells in `box` that lie in `line` (true) or outside it (false), as a node.
Node BoxPart(const Board& board, int digit, int box, int line, bool inside) {
  Node node{static_cast<uint8_t>(digit), {}};
  for (uint8_t cell : Table().cells[18 + box]) {
    if ((board.open[cell] & Bit(digit)) && Table().unit_set[line].Has(cell) == inside) {
      node.cells.push_back(cell);
    }
  }
  return node;
}

// An empty rectangle in `box` on `row` and `column` (unit numbers) with the conjugate pair
// `pair`, whose end `near` sees the box's part in `near_line` (the row or the column).
bool EmptyRectangleWith(Board& board, Step* step, int digit, int box, int row, int column,
                        const Pair& pair, int near, int far) {
  const bool near_in_row = Table().unit_set[row].Has(near);
  const int near_line = near_in_row ? row : column;
  const int far_line = near_in_row ? column : row;
  // The target: where far's line (the one across the pair's) meets the box's other line.
  const int target = near_in_row ? RowOf(far) * 9 + (column - 9) : row * 9 + ColumnOf(far);
  if (BoxOf(target) == box || !(board.open[target] & Bit(digit))) return false;
  const Node in_near_line = BoxPart(board, digit, box, near_line, true);
  const Node rest = BoxPart(board, digit, box, near_line, false);
  if (in_near_line.cells.empty() || rest.cells.empty()) return false;
  for (uint8_t cell : rest.cells) {
    if (!Table().unit_set[far_line].Has(cell)) return false;  // not the cross's other arm
  }
  Step found;
  Eliminate(board, &found, target, Bit(digit));
  found.technique = Technique::kEmptyRectangle;
  found.units = {UnitOf(18 + box), UnitOf(row), UnitOf(column), UnitOf(pair.unit)};
  found.cells = {static_cast<uint8_t>(near), static_cast<uint8_t>(far)};
  found.digits = {static_cast<uint8_t>(digit)};
  found.links = {MakeLink(far, digit, near, digit, true),
                 Link{SingleNode(near, digit), in_near_line, false},
                 Link{in_near_line, rest, true}};
  *step = std::move(found);
  return true;
}

}  // namespace

bool EmptyRectangle(Board& board, Step* step) {
  const uint16_t digits = board.DigitsToSearch(Search::kEmptyRectangle);
  for (int digit = 1; digit <= 9; ++digit) {
    if (!(digits & Bit(digit))) continue;
    const Pairs pairs = PairsOf(board, digit, 0, 18);
    if (pairs.size() == 0) continue;
    for (int box = 0; box < 9; ++box) {
      const uint16_t places = board.Places(18 + box, digit);  // positions in the box, row-major
      if (Count(places) < 2) continue;
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
          const int row = box / 3 * 3 + r;
          const int column = 9 + box % 3 * 3 + c;
          // Every place in the box on the row or the column, and not all on one of them.
          const uint16_t on_row = static_cast<uint16_t>(0007 << (3 * r));
          const uint16_t on_column = static_cast<uint16_t>(0111 << c);
          if ((places & ~(on_row | on_column)) || !(places & ~on_row) || !(places & ~on_column)) {
            continue;
          }
          for (const Pair& pair : pairs) {
            for (const auto& [near, far] : {std::pair{pair.first, pair.second},
                                            {pair.second, pair.first}}) {
              // The pair lies outside the box, its near end on the cross's row or column.
              if (BoxOf(near) == box || BoxOf(far) == box) continue;
              const bool on_row = RowOf(near) == row && RowOf(far) != row && pair.unit >= 9;
              const bool on_column =
                  9 + ColumnOf(near) == column && 9 + ColumnOf(far) != column && pair.unit < 9;
              if (!on_row && !on_column) continue;
              if (EmptyRectangleWith(board, step, digit, box, row, column, pair, near, far)) {
                return true;
              }
            }
          }
        }
      }
    }
  }
  return board.NothingFound(Search::kEmptyRectangle);
}

bool WWing(Board& board, Step* step) {
  // Each digit's conjugate pairs, listed once rather than for every pair of cells tried.
  std::array<Pairs, 10> pairs_of;
  for (int digit = 1; digit <= 9; ++digit) pairs_of[digit] = PairsOf(board, digit, 0, kUnits);
  for (int first = 0; first < kCells; ++first) {
    const uint16_t xy = board.open[first];
    if (Count(xy) != 2) continue;
    for (int second = first + 1; second < kCells; ++second) {
      if (board.open[second] != xy || Sees(first, second)) continue;
      for (uint16_t x = xy; x; x = WithoutLowest(x)) {
        const int dx = LowestDigit(x);
        const int dy = LowestDigit(static_cast<uint16_t>(xy & ~Bit(dx)));
        // What a wing on x would remove does not depend on its strong link: none, none tried.
        if ((board.CellsWith(dy) & Table().peer_set[first] & Table().peer_set[second]).Empty()) {
          continue;
        }
        for (const Pair& pair : pairs_of[dx]) {
          for (const auto& [a, b] : {std::pair{pair.first, pair.second},
                                     {pair.second, pair.first}}) {
            if (a == first || b == second || a == second || b == first || !Sees(a, first) ||
                !Sees(b, second)) {
              continue;
            }
            Step found;
            EliminateSeeingAll(board, &found, dy, {first, second});
            if (found.eliminations.empty()) continue;
            found.technique = Technique::kWWing;
            found.units = {UnitOf(pair.unit)};
            found.cells = {static_cast<uint8_t>(first), static_cast<uint8_t>(second),
                           static_cast<uint8_t>(a), static_cast<uint8_t>(b)};
            found.digits = {static_cast<uint8_t>(dx), static_cast<uint8_t>(dy)};
            found.links = {MakeLink(first, dy, first, dx, true),
                           MakeLink(first, dx, a, dx, false), MakeLink(a, dx, b, dx, true),
                           MakeLink(b, dx, second, dx, false),
                           MakeLink(second, dx, second, dy, true)};
            *step = std::move(found);
            return true;
          }
        }
      }
    }
  }
  return false;
}

namespace {

// One connected set of conjugate pairs of a digit, coloured two ways: the cells of each
// colour, and the pairs that coloured them (in the order they did), as (coloured from, cell).
// Fixed room: most sets remove nothing, and are dropped.
struct Colouring {
  std::array<std::array<uint8_t, kCells>, 2> cells;
  std::array<int, 2> count{};
  std::array<std::pair<uint8_t, uint8_t>, kCells> links;
  int link_count = 0;
};

// Colours the component of `start` through `pairs`; false if the colours clash (a board with
// no solution). `colour` is -1 for cells not yet coloured.
bool ColourFrom(int start, const Pairs& pairs, std::array<int8_t, kCells>& colour,
                Colouring* out) {
  colour[start] = 0;
  out->cells[0][out->count[0]++] = static_cast<uint8_t>(start);
  std::array<uint8_t, kCells> queue;
  size_t queued = 0;
  queue[queued++] = static_cast<uint8_t>(start);
  for (size_t head = 0; head < queued; ++head) {
    const int cell = queue[head];
    for (const Pair& pair : pairs) {
      if (pair.first != cell && pair.second != cell) continue;
      const int other = pair.first == cell ? pair.second : pair.first;
      if (colour[other] == colour[cell]) return false;
      if (colour[other] >= 0) continue;
      colour[other] = static_cast<int8_t>(1 - colour[cell]);
      out->cells[colour[other]][out->count[colour[other]]++] = static_cast<uint8_t>(other);
      out->links[out->link_count++] = {static_cast<uint8_t>(cell), static_cast<uint8_t>(other)};
      queue[queued++] = static_cast<uint8_t>(other);
    }
  }
  return true;
}

// Removes from `step` what `colouring` of `digit` rules out: a colour with two cells in one
// unit (a wrap: that colour is false), else each open cell seeing both colours (a trap).
void ColouringEliminations(Board& board, const Colouring& colouring, int digit, Step* step) {
  for (int c = 0; c < 2; ++c) {
    const auto& cells = colouring.cells[c];
    const int count = colouring.count[c];
    for (int i = 0; i < count; ++i) {
      for (int j = i + 1; j < count; ++j) {
        if (!Sees(cells[i], cells[j])) continue;
        for (int k = 0; k < count; ++k) Eliminate(board, step, cells[k], Bit(digit));
        return;
      }
    }
  }
  std::array<CellSet, 2> seen;
  std::array<CellSet, 2> coloured;
  for (int c = 0; c < 2; ++c) {
    for (int k = 0; k < colouring.count[c]; ++k) {
      const int cell = colouring.cells[c][k];
      seen[c] = seen[c] | Table().peer_set[cell];
      coloured[c].Add(cell);
    }
  }
  const CellSet targets =
      (board.CellsWith(digit) & seen[0] & seen[1]).Without(coloured[0] | coloured[1]);
  targets.ForEach([&](int cell) { Eliminate(board, step, cell, Bit(digit)); });
}

}  // namespace

bool SimpleColouring(Board& board, Step* step) {
  const uint16_t digits = board.DigitsToSearch(Search::kSimpleColouring);
  for (int digit = 1; digit <= 9; ++digit) {
    if (!(digits & Bit(digit))) continue;
    const Pairs pairs = PairsOf(board, digit, 0, kUnits);
    std::array<int8_t, kCells> colour;
    colour.fill(-1);
    for (const Pair& pair : pairs) {
      if (colour[pair.first] >= 0) continue;
      Colouring colouring;
      if (!ColourFrom(pair.first, pairs, colour, &colouring)) continue;
      if (colouring.link_count < 2) continue;  // one pair alone: an intersection's work
      Step found;
      ColouringEliminations(board, colouring, digit, &found);
      if (found.eliminations.empty()) continue;
      found.technique = Technique::kSimpleColouring;
      found.digits = {static_cast<uint8_t>(digit)};
      for (int c = 0; c < 2; ++c) {
        const auto& cells = colouring.cells[c];
        found.cells.insert(found.cells.end(), cells.begin(), cells.begin() + colouring.count[c]);
      }
      found.variant = static_cast<uint8_t>(colouring.count[0]);
      for (int k = 0; k < colouring.link_count; ++k) {
        const auto [from, to] = colouring.links[k];
        found.links.push_back(MakeLink(from, digit, to, digit, true));
      }
      *step = std::move(found);
      return true;
    }
  }
  return board.NothingFound(Search::kSimpleColouring);
}

bool MultiColours(Board& board, Step* step) {
  const uint16_t digits = board.DigitsToSearch(Search::kMultiColours);
  for (int digit = 1; digit <= 9; ++digit) {
    if (!(digits & Bit(digit))) continue;
    const Pairs pairs = PairsOf(board, digit, 0, kUnits);
    if (pairs.size() < 2) continue;
    CellSet paired;
    for (const Pair& pair : pairs) {
      paired.Add(pair.first);
      paired.Add(pair.second);
    }
    // Every cluster, each from the lowest paired cell not coloured yet (HoDoKu's order): at
    // most one a pair. Its colours' cells, and the cells seeing some cell of each colour.
    struct Cluster {
      Colouring colouring;
      std::array<CellSet, 2> cells, seen;
    };
    std::array<Cluster, kUnits> clusters;
    int cluster_count = 0;
    std::array<int8_t, kCells> colour;
    colour.fill(-1);
    bool clash = false;
    paired.ForEach([&](int cell) {
      if (colour[cell] >= 0 || clash) return;
      Cluster& cluster = clusters[cluster_count++];
      clash = !ColourFrom(cell, pairs, colour, &cluster.colouring);
      for (int c = 0; c < 2; ++c) {
        for (int k = 0; k < cluster.colouring.count[c]; ++k) {
          const int coloured = cluster.colouring.cells[c][k];
          cluster.cells[c].Add(coloured);
          cluster.seen[c] = cluster.seen[c] | Table().peer_set[coloured];
        }
      }
    });
    if (clash) continue;  // a board with no solution: nothing to say
    for (int i = 0; i < cluster_count; ++i) {
      for (int j = 0; j < cluster_count; ++j) {
        if (i == j) continue;
        const Cluster& a = clusters[i];
        const Cluster& b = clusters[j];
        const auto meets = [](const CellSet& seen, const CellSet& cells) {
          return !(seen & cells).Empty();
        };
        // Type 2: a colour of A seeing both colours of B is false.
        CellSet targets;
        for (int c = 0; c < 2; ++c) {
          if (meets(a.seen[c], b.cells[0]) && meets(a.seen[c], b.cells[1])) {
            targets = targets | a.cells[c];
          }
        }
        int type = 2;
        if (targets.Empty()) {
          // Type 1: colours of A and B that see each other are not both true, so one of their
          // opposites is: what sees both opposites loses the digit.
          type = 1;
          for (int ca = 0; ca < 2; ++ca) {
            for (int cb = 0; cb < 2; ++cb) {
              if (meets(a.seen[ca], b.cells[cb])) {
                targets = targets | (board.CellsWith(digit) & a.seen[1 - ca] & b.seen[1 - cb]);
              }
            }
          }
        }
        if (targets.Empty()) continue;
        Step found;
        targets.ForEach([&](int cell) { Eliminate(board, &found, cell, Bit(digit)); });
        found.technique = Technique::kMultiColours;
        found.variant = static_cast<uint8_t>(type);
        found.digits = {static_cast<uint8_t>(digit)};
        for (const Cluster* cluster : {&a, &b}) {
          const Colouring& colouring = cluster->colouring;
          for (int c = 0; c < 2; ++c) {
            const auto& cells = colouring.cells[c];
            found.cells.insert(found.cells.end(), cells.begin(),
                               cells.begin() + colouring.count[c]);
          }
          for (int k = 0; k < colouring.link_count; ++k) {
            const auto [from, to] = colouring.links[k];
            found.links.push_back(MakeLink(from, digit, to, digit, true));
          }
        }
        *step = std::move(found);
        return true;
      }
    }
  }
  return board.NothingFound(Search::kMultiColours);
}

// A remote pair's candidates: its cells by colour, the links that coloured them, and the cells
// seeing both colours (the candidates of a and b there go).
struct RemotePairFound {
  std::array<std::vector<uint8_t>, 2> cells;
  std::vector<std::pair<uint8_t, uint8_t>> links;
  std::vector<uint8_t> losing;
  int removals = 0;
  int cell_sum = 0;
};

bool RemotePair(Board& board, Step* step) {
  std::array<bool, kCells> seen{};
  std::optional<RemotePairFound> best;
  uint16_t best_pair = 0;
  for (int start = 0; start < kCells; ++start) {
    const uint16_t pair = board.open[start];
    if (seen[start] || Count(pair) != 2) continue;
    // The cells holding `pair` joined to `start`, coloured breadth first: a chain through them
    // alternates the two digits, so cells of one colour hold the same digit.
    std::array<int8_t, kCells> colour;
    colour.fill(-1);
    std::array<CellSet, 2> by_colour;
    std::array<uint8_t, kCells> queue, reached_from;
    int queued = 0;
    queue[queued++] = static_cast<uint8_t>(start);
    colour[start] = 0;
    seen[start] = true;
    bool clash = false;
    for (int head = 0; head < queued; ++head) {
      const uint8_t cell = queue[head];
      by_colour[colour[cell]].Add(cell);
      for (const uint8_t peer : Table().peers[cell]) {
        if (board.open[peer] != pair) continue;
        if (colour[peer] >= 0) {
          clash |= colour[peer] == colour[cell];  // an odd loop: no solution has it
          continue;
        }
        colour[peer] = static_cast<int8_t>(1 - colour[cell]);
        seen[peer] = true;
        reached_from[peer] = cell;
        queue[queued++] = peer;
      }
    }
    if (clash || queued < 4) continue;  // two or three cells: a naked pair's or a wing's
    // The cells by colour and the links, in the order the search met them.
    RemotePairFound found;
    for (int i = 0; i < queued; ++i) {
      found.cells[colour[queue[i]]].push_back(queue[i]);
      if (i > 0) found.links.push_back({reached_from[queue[i]], queue[i]});
    }
    for (int cell = 0; cell < kCells; ++cell) {
      if (colour[cell] >= 0 || !(board.open[cell] & pair)) continue;
      const CellSet& peers = Table().peer_set[cell];
      if ((peers & by_colour[0]).Empty() || (peers & by_colour[1]).Empty()) continue;
      found.losing.push_back(static_cast<uint8_t>(cell));
      found.removals += Count(board.open[cell] & pair);
      found.cell_sum += cell * Count(board.open[cell] & pair);
    }
    if (found.losing.empty()) continue;
    // HoDoKu's sort: most removals, then the lowest sum of their cells.
    if (best && (found.removals < best->removals ||
                 (found.removals == best->removals && found.cell_sum >= best->cell_sum))) {
      continue;
    }
    best = std::move(found);
    best_pair = pair;
  }
  if (!best) return false;
  Step found;
  found.technique = Technique::kRemotePair;
  AddDigits(&found, best_pair);
  for (const auto& cells : best->cells) found.cells.insert(found.cells.end(), cells.begin(), cells.end());
  found.variant = static_cast<uint8_t>(best->cells[0].size());
  const int a = LowestDigit(best_pair);
  for (const auto& [from, to] : best->links) found.links.push_back(MakeLink(from, a, to, a, false));
  for (const uint8_t cell : best->losing) Eliminate(board, &found, cell, best_pair);
  *step = std::move(found);
  return true;
}

}  // namespace sudoku::logic::internal
