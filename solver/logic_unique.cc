// The uniqueness techniques of logic_board.h: unique rectangles (types 1-4), hidden rectangles
// and bug+1. Both
// rest on the puzzle having one solution, so they apply only when the fast solver found it
// unique (Board::unique); on a puzzle with several they could remove a solution's digit.
#include <algorithm>
#include <array>
#include <bit>
#include <utility>
#include <vector>

#include "solver/logic_board.h"

namespace sudoku::logic::internal {
namespace {

// Four open cells at two rows and two columns, in two boxes, each holding both a and b.
struct Rectangle {
  std::array<int, 4> cells{};  // floor, floor, roof, roof: each pair shares a row or a column
  uint16_t ab = 0;
};

// The units both `a` and `b` lie in (their row or column, and their box if they share it).
std::vector<int> SharedUnits(int a, int b) {
  std::vector<int> units;
  for (int k = 0; k < 3; ++k) {
    if (Table().units[a][k] == Table().units[b][k]) units.push_back(Table().units[a][k]);
  }
  return units;
}

Step RectangleStep(const Rectangle& rectangle, int type) {
  Step step;
  step.technique = Technique::kUniqueRectangle;
  step.variant = static_cast<uint8_t>(type);
  for (int cell : rectangle.cells) step.cells.push_back(static_cast<uint8_t>(cell));
  AddDigits(&step, rectangle.ab);
  return step;
}

// Type 3: the roof's extra digits act as one cell of a naked subset with `size` - 1 other
// cells of a unit the roof shares; the subset's digits leave the unit's other cells.
bool TypeThree(Board& board, const Rectangle& rectangle, Step* step) {
  const int roof1 = rectangle.cells[2], roof2 = rectangle.cells[3];
  const uint16_t extra =
      static_cast<uint16_t>((board.open[roof1] | board.open[roof2]) & ~rectangle.ab);
  for (int unit : SharedUnits(roof1, roof2)) {
    std::vector<int> others;
    for (uint8_t cell : Table().cells[unit]) {
      if (cell != roof1 && cell != roof2 && board.open[cell]) others.push_back(cell);
    }
    // Subsets of the unit's other open cells, by bitmask over `others`, smallest first.
    for (int size = 1; size <= 3; ++size) {
      for (uint32_t chosen = 1; chosen < (1u << others.size()); ++chosen) {
        if (std::popcount(chosen) != size) continue;
        uint16_t digits = extra;
        for (size_t i = 0; i < others.size(); ++i) {
          if (chosen >> i & 1) digits |= board.open[others[i]];
        }
        if (Count(digits) != size + 1) continue;
        Step found = RectangleStep(rectangle, 3);
        for (size_t i = 0; i < others.size(); ++i) {
          if (!(chosen >> i & 1)) Eliminate(board, &found, others[i], digits);
        }
        if (found.eliminations.empty()) continue;
        for (size_t i = 0; i < others.size(); ++i) {
          if (chosen >> i & 1) found.cells.push_back(static_cast<uint8_t>(others[i]));
        }
        AddDigits(&found, extra);
        found.units = {UnitOf(unit)};
        *step = std::move(found);
        return true;
      }
    }
  }
  return false;
}

// Types 2-4 (`type`, or 0 for any, the easiest first), with the floor two cells holding only a
// and b and the roof the other two.
bool RoofTypes(Board& board, const Rectangle& rectangle, int type, Step* step) {
  const int roof1 = rectangle.cells[2], roof2 = rectangle.cells[3];
  const uint16_t extra1 = static_cast<uint16_t>(board.open[roof1] & ~rectangle.ab);
  const uint16_t extra2 = static_cast<uint16_t>(board.open[roof2] & ~rectangle.ab);
  const auto wanted = [type](int t) { return type == 0 || type == t; };
  if (wanted(2) && extra1 == extra2 && Count(extra1) == 1) {  // one extra digit, in both
    Step found = RectangleStep(rectangle, 2);
    CellSet targets = board.CellsWith(LowestDigit(extra1)) & Table().peer_set[roof1] &
                      Table().peer_set[roof2];
    targets.ForEach([&](int cell) { Eliminate(board, &found, cell, extra1); });
    if (!found.eliminations.empty()) {
      AddDigits(&found, extra1);
      *step = std::move(found);
      return true;
    }
  }
  if (wanted(3) && TypeThree(board, rectangle, step)) return true;
  if (!wanted(4)) return false;
  // Type 4: a or b confined to the roof in a unit the roof shares: the other leaves the roof.
  for (int unit : SharedUnits(roof1, roof2)) {
    for (uint16_t kept = rectangle.ab; kept; kept = WithoutLowest(kept)) {
      const int digit = LowestDigit(kept);
      if (Count(board.Places(unit, digit)) != 2) continue;
      const uint16_t other = static_cast<uint16_t>(rectangle.ab & ~Bit(digit));
      Step found = RectangleStep(rectangle, 4);
      Eliminate(board, &found, roof1, other);
      Eliminate(board, &found, roof2, other);
      found.digits = {static_cast<uint8_t>(digit), static_cast<uint8_t>(LowestDigit(other))};
      found.units = {UnitOf(unit)};
      *step = std::move(found);
      return true;
    }
  }
  return false;
}

// A unique rectangle on `corners` (r1c1, r1c2, r2c1, r2c2) and a, b, of any type (1-4).
bool RectangleAt(Board& board, std::array<int, 4> corners, uint16_t ab, Step* step) {
  // Bivalue corners ({a, b} alone): three make type 1; two sharing a line make the floor.
  int bivalue = 0;
  for (int cell : corners) bivalue += board.open[cell] == ab;
  if (bivalue == 3) {
    int fourth = 0;
    while (board.open[corners[fourth]] == ab) ++fourth;
    std::swap(corners[fourth], corners[3]);
    Step found = RectangleStep({corners, ab}, 1);
    Eliminate(board, &found, corners[3], ab);
    *step = std::move(found);
    return true;
  }
  if (bivalue != 2) return false;
  // corners are r1c1, r1c2, r2c1, r2c2: the floor is a row (0,1 / 2,3) or a column (0,2 / 1,3).
  for (const auto& order : {std::array{0, 1, 2, 3}, std::array{2, 3, 0, 1},
                            std::array{0, 2, 1, 3}, std::array{1, 3, 0, 2}}) {
    if (board.open[corners[order[0]]] != ab || board.open[corners[order[1]]] != ab) continue;
    const Rectangle rectangle{{corners[order[0]], corners[order[1]], corners[order[2]],
                               corners[order[3]]},
                              ab};
    if (RoofTypes(board, rectangle, 0, step)) return true;
  }
  return false;
}

// Calls visit(corners, common) for each rectangle of four open cells in two rows, two columns and
// two boxes whose cells share two digits or more (`common`), corners r1c1, r1c2, r2c1, r2c2,
// until visit returns true.
template <typename Visit>
bool ForRectangles(const Board& board, Visit&& visit) {
  for (int r1 = 0; r1 < 9; ++r1) {
    for (int r2 = r1 + 1; r2 < 9; ++r2) {
      // The digits both rows hold in each column, and the columns where they hold two or more:
      // only those can be a rectangle's side.
      std::array<uint16_t, 9> both;
      uint16_t columns = 0;
      for (int c = 0; c < 9; ++c) {
        both[c] = board.open[r1 * 9 + c] & board.open[r2 * 9 + c];
        if (Count(both[c]) >= 2) columns |= static_cast<uint16_t>(1u << c);
      }
      for (uint16_t first = columns; first; first = WithoutLowest(first)) {
        const int c1 = std::countr_zero(first);
        for (uint16_t second = WithoutLowest(first); second; second = WithoutLowest(second)) {
          const int c2 = std::countr_zero(second);
          if ((r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3)) continue;  // two boxes exactly
          const uint16_t common = both[c1] & both[c2];
          if (Count(common) < 2) continue;
          if (visit(std::array<int, 4>{r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2},
                    common)) {
            return true;
          }
        }
      }
    }
  }
  return false;
}

// Rectangles as HoDoKu finds them, visit(corners, ab): from each bivalue cell, ascending (its
// two digits a and b), each open cell of its box in its row or column, then each pair of cells
// across from those two, along their lines. A corner needs a and b only where no placed digit
// rules them out (HoDoKu's default, "allow missing candidates": a digit an earlier step removed
// from a corner would still make the swapped grid a second solution, so the rectangle still
// threatens one); as HoDoKu, the third corner is asked only for a. Each rectangle once, at its
// first meeting; HoDoKu knows one by a number made of its four cells (sorted) that two
// rectangles can share, and skips the later: so does this.
template <typename Visit>
bool ForHodokuRectangles(const Board& board, Visit&& visit) {
  const Tables& table = Table();
  // The open cells where no placed digit rules each digit out.
  std::array<CellSet, 10> allowed;
  allowed.fill(board.OpenCells());
  for (int cell = 0; cell < kCells; ++cell) {
    if (board.values[cell]) {
      allowed[board.values[cell]] = allowed[board.values[cell]].Without(table.peer_set[cell]);
    }
  }
  std::vector<int> seen;
  for (int first = 0; first < kCells; ++first) {
    const uint16_t ab = board.open[first];
    if (Count(ab) != 2) continue;
    const int a = LowestDigit(ab), b = LowestDigit(WithoutLowest(ab));
    const auto holds = [&](int cell, int digit) { return allowed[digit].Has(cell); };
    const int box = BoxOf(first);
    for (const uint8_t second : table.cells[18 + box]) {
      if (second == first || !holds(second, a) || !holds(second, b)) continue;
      const bool in_row = RowOf(second) == RowOf(first);
      if (!in_row && ColumnOf(second) != ColumnOf(first)) continue;
      // The lines through each that cross their shared one: columns for a row, rows for a column.
      const auto& across_first = table.cells[in_row ? 9 + ColumnOf(first) : RowOf(first)];
      const auto& across_second = table.cells[in_row ? 9 + ColumnOf(second) : RowOf(second)];
      for (int j = 0; j < 9; ++j) {
        const int third = across_first[j], fourth = across_second[j];
        if (BoxOf(third) == box || !holds(third, a) || !holds(fourth, a) || !holds(fourth, b)) {
          continue;
        }
        std::array<int, 4> sorted = {first, second, third, fourth};
        std::sort(sorted.begin(), sorted.end());
        const int number = ((sorted[0] * 10 + sorted[1]) * 10 + sorted[2]) * 10 + sorted[3];
        if (std::find(seen.begin(), seen.end(), number) != seen.end()) continue;
        seen.push_back(number);
        // As r1c1, r1c2, r2c1, r2c2: first and second share a row, or first and third do.
        const std::array<int, 4> corners =
            in_row ? std::array{first, static_cast<int>(second), third, fourth}
                   : std::array{first, third, static_cast<int>(second), fourth};
        if (visit(corners, ab)) return true;
      }
    }
  }
  return false;
}

// A unique rectangle of `type` (1-4, 6) on `corners` (r1c1, r1c2, r2c1, r2c2) and a, b as
// HoDoKu checks one: its "two" corners hold nothing but a and b, the others ("additional") may
// lack one of them. Type 1: three two corners, a and b leave the fourth. Type 2: two or one
// two corners, every additional one holding the same one extra digit (two of them sharing a
// line), which leaves the cells seeing all of them. Type 3: two two corners, the additional
// ones sharing a unit, where their extra digits make a naked subset. Type 4: two additional
// corners sharing a line, and a digit of a and b held by no other cell seeing both: the other
// digit leaves them. Type 6: two additional corners, opposite, and a digit of a and b held
// nowhere else in their rows and columns: it leaves them (it lies in one opposite pair, and in
// theirs the other two would read b, b, the four a swappable a b a b).
bool HodokuRectangleAt(Board& board, const std::array<int, 4>& corners, uint16_t ab, int type,
                       Step* step) {
  std::array<int, 4> two{}, additional{};
  int two_count = 0, additional_count = 0;
  for (const int cell : corners) {
    if (board.open[cell] & ~ab) {
      additional[additional_count++] = cell;
    } else {
      two[two_count++] = cell;
    }
  }
  const int a = LowestDigit(ab), b = LowestDigit(WithoutLowest(ab));
  // The step: the two corners first (type 1: the one losing digits last), a and b.
  const auto rectangle_step = [&](int variant) {
    std::array<int, 4> cells{};
    std::copy(two.begin(), two.begin() + two_count, cells.begin());
    std::copy(additional.begin(), additional.begin() + additional_count,
              cells.begin() + two_count);
    return RectangleStep({cells, ab}, variant);
  };
  switch (type) {
    case 1: {
      if (two_count != 3) return false;
      Step found = rectangle_step(1);
      Eliminate(board, &found, additional[0], ab);
      if (found.eliminations.empty()) return false;
      *step = std::move(found);
      return true;
    }
    case 2:
    case 3: {
      // The additional corners share a line (opposite ones make HoDoKu's types 5 and 6).
      if (two_count != 2 || !Sees(additional[0], additional[1])) return false;
      return RoofTypes(board, {{two[0], two[1], additional[0], additional[1]}, ab}, type, step);
    }
    case 4:
    case 6: {
      if (two_count != 2) return false;
      const int x1 = additional[0], x2 = additional[1];
      const bool opposite = RowOf(x1) != RowOf(x2) && ColumnOf(x1) != ColumnOf(x2);
      if (opposite != (type == 6)) return false;
      // Type 4: the cells seeing both; type 6: their rows and columns outside the rectangle.
      CellSet region = Table().peer_set[x1] & Table().peer_set[x2];
      if (type == 6) {
        CellSet rectangle;
        for (const int cell : corners) rectangle.Add(cell);
        region = (Table().unit_set[RowOf(x1)] | Table().unit_set[9 + ColumnOf(x1)] |
                  Table().unit_set[RowOf(x2)] | Table().unit_set[9 + ColumnOf(x2)])
                     .Without(rectangle);
      }
      // The first of a and b held nowhere in the region: type 4 keeps it, type 6 removes it.
      const int absent = (board.CellsWith(a) & region).Empty()   ? a
                         : (board.CellsWith(b) & region).Empty() ? b
                                                                 : 0;
      if (absent == 0) return false;
      const int other = absent == a ? b : a;
      const int removed = type == 4 ? other : absent;
      Step found = rectangle_step(type);
      Eliminate(board, &found, x1, Bit(removed));
      Eliminate(board, &found, x2, Bit(removed));
      if (found.eliminations.empty()) return false;
      // Type 4: the digit kept first, and the line the two share (HoDoKu asks their box too,
      // where they share one); type 6: the digit removed first, and their rows and columns.
      found.digits = {static_cast<uint8_t>(absent), static_cast<uint8_t>(other)};
      if (type == 4) {
        found.units = {UnitOf(RowOf(x1) == RowOf(x2) ? RowOf(x1) : 9 + ColumnOf(x1))};
      } else {
        found.units = {UnitOf(RowOf(x1)), UnitOf(9 + ColumnOf(x1)), UnitOf(RowOf(x2)),
                       UnitOf(9 + ColumnOf(x2))};
      }
      *step = std::move(found);
      return true;
    }
    default: return false;
  }
}

}  // namespace

bool UniqueRectangle(Board& board, Step* step, bool hodoku_order) {
  if (!board.unique) return false;
  if (hodoku_order) {
    // HoDoKu looks for each type over every rectangle before the next type.
    for (const int type : {1, 2, 3, 4, 6}) {
      if (ForHodokuRectangles(board, [&](const std::array<int, 4>& corners, uint16_t ab) {
            return HodokuRectangleAt(board, corners, ab, type, step);
          })) {
        return true;
      }
    }
    return false;
  }
  return ForRectangles(board, [&](const std::array<int, 4>& corners, uint16_t common) {
    // Some corner must hold only two digits: those are a and b.
    for (int cell : corners) {
      const uint16_t ab = board.open[cell];
      if (Count(ab) == 2 && (ab & common) == ab && RectangleAt(board, corners, ab, step)) {
        return true;
      }
    }
    return false;
  });
}

// A bivalue corner ab; at the opposite corner, x has no other place in its row or its column.
// Were that corner y, its row partner and column partner would be x, the bivalue corner y: the
// four would read x y x y and could swap. So y leaves the opposite corner.
bool HiddenRectangle(Board& board, Step* step) {
  if (!board.unique) return false;
  return ForHodokuRectangles(board, [&](const std::array<int, 4>& corners, uint16_t ab) {
    // As HoDoKu: one bivalue corner, or two opposite ones, each tried (the lower cell first).
    int bivalue = 0;
    for (int cell : corners) bivalue += board.open[cell] == ab;
    const bool diagonal = (board.open[corners[0]] == ab) == (board.open[corners[3]] == ab);
    if (bivalue > 2 || (bivalue == 2 && !diagonal)) return false;
    std::array<int, 4> order = {0, 1, 2, 3};
    std::sort(order.begin(), order.end(), [&](int a, int b) { return corners[a] < corners[b]; });
    for (const int i : order) {
      if (board.open[corners[i]] != ab) continue;
      // Corners r1c1, r1c2, r2c1, r2c2: the opposite of i is 3 - i; its row partner 3 - i ^ 1
      // shares its row, its column partner 3 - i ^ 2 its column.
      const int opposite = corners[3 - i];
      const int row_partner = corners[(3 - i) ^ 1], column_partner = corners[(3 - i) ^ 2];
      const int row = RowOf(opposite), column = 9 + ColumnOf(opposite);
      const uint16_t in_row = static_cast<uint16_t>((1u << ColumnOf(opposite)) |
                                                    (1u << ColumnOf(row_partner)));
      const uint16_t in_column = static_cast<uint16_t>((1u << RowOf(opposite)) |
                                                       (1u << RowOf(column_partner)));
      for (uint16_t d = ab; d; d = WithoutLowest(d)) {
        const int x = LowestDigit(d);
        const int y = LowestDigit(static_cast<uint16_t>(ab & ~Bit(x)));
        if (board.Places(row, x) != in_row || board.Places(column, x) != in_column) continue;
        Step found;
        Eliminate(board, &found, opposite, Bit(y));
        if (found.eliminations.empty()) continue;
        found.technique = Technique::kHiddenRectangle;
        found.cells = {static_cast<uint8_t>(corners[i]), static_cast<uint8_t>(row_partner),
                       static_cast<uint8_t>(column_partner), static_cast<uint8_t>(opposite)};
        found.digits = {static_cast<uint8_t>(x), static_cast<uint8_t>(y)};
        found.units = {UnitOf(row), UnitOf(column)};
        *step = std::move(found);
        return true;
      }
    }
    return false;
  });
}

bool BugPlusOne(Board& board, Step* step) {
  if (!board.unique) return false;
  int three = -1;
  for (int cell = 0; cell < kCells; ++cell) {
    const int count = Count(board.open[cell]);
    if (count == 0 || count == 2) continue;
    if (count != 3 || three >= 0) return false;
    three = cell;
  }
  if (three < 0) return false;
  // The digit of the cell with three places in its row: without it, every digit would have two
  // places in every unit, a deadly pattern with two solutions.
  const int row = RowOf(three);
  for (uint16_t d = board.open[three]; d; d = WithoutLowest(d)) {
    const int digit = LowestDigit(d);
    if (Count(board.Places(row, digit)) != 3) continue;
    step->technique = Technique::kBugPlusOne;
    step->placements = {{static_cast<uint8_t>(three), static_cast<uint8_t>(digit)}};
    step->cells = {static_cast<uint8_t>(three)};
    step->digits = {static_cast<uint8_t>(digit)};
    board.Place(three, digit);
    return true;
  }
  return false;
}

}  // namespace sudoku::logic::internal
