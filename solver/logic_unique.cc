// The uniqueness techniques of logic_board.h: unique rectangles (types 1-4), hidden rectangles,
// SE's unique rectangles and loops, and bug+1. All
// rest on the puzzle having one solution, so they apply only when the fast solver found it
// unique (Board::unique); on a puzzle with several they could remove a solution's digit.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>
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
        if (Count(static_cast<uint16_t>(chosen)) != size) continue;
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

// Type 2 or 3 (`type`), with the floor two cells holding only a and b and the roof the other
// two.
bool RoofTypes(Board& board, const Rectangle& rectangle, int type, Step* step) {
  if (type == 3) return TypeThree(board, rectangle, step);
  const int roof1 = rectangle.cells[2], roof2 = rectangle.cells[3];
  const uint16_t extra1 = static_cast<uint16_t>(board.open[roof1] & ~rectangle.ab);
  const uint16_t extra2 = static_cast<uint16_t>(board.open[roof2] & ~rectangle.ab);
  if (extra1 != extra2 || Count(extra1) != 1) return false;  // one extra digit, in both
  Step found = RectangleStep(rectangle, 2);
  CellSet targets = board.CellsWith(LowestDigit(extra1)) & Table().peer_set[roof1] &
                    Table().peer_set[roof2];
  targets.ForEach([&](int cell) { Eliminate(board, &found, cell, extra1); });
  if (found.eliminations.empty()) return false;
  AddDigits(&found, extra1);
  *step = std::move(found);
  return true;
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
  thread_local std::vector<int> seen;  // kept from call to call: its room is reused
  seen.clear();
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

bool UniqueRectangle(Board& board, Step* step) {
  if (!board.unique) return false;
  // HoDoKu looks for each type over every rectangle before the next type: the rectangles are
  // met once, and the types tried on each in turn. The board changes only with the step found.
  thread_local std::vector<std::pair<std::array<int, 4>, uint16_t>> rectangles;
  rectangles.clear();
  ForHodokuRectangles(board, [&](const std::array<int, 4>& corners, uint16_t ab) {
    rectangles.emplace_back(corners, ab);
    return false;
  });
  for (const int type : {1, 2, 3, 4, 6}) {
    for (const auto& [corners, ab] : rectangles) {
      if (HodokuRectangleAt(board, corners, ab, type, step)) return true;
    }
  }
  return false;
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


namespace {

// SE's kinds of unit in the order it tries them (a box, a row, a column), as indices into
// Tables::units (row, column, box).
constexpr std::array<int, 3> kSeKinds = {2, 0, 1};

// SE's cycles of cells holding a and b: a loop of four cells is its unique rectangle, of more
// its unique loop. Every loop found as SE finds them, each valid one handed to visit(loop, ab).
class SeLoopSearch {
 public:
  explicit SeLoopSearch(const Board& board) : board_(board) {}

  // From each bivalue cell, ascending (its digits a and b), every path SE follows: each next
  // cell in a unit of the last one (not of the kind the last step took) and holding a and b; a
  // cell holding more joins while fewer than two such have, or while the extra digits so far
  // are one digit. Returns true as soon as visit does.
  template <typename Visit>
  bool ForLoops(Visit&& visit) {
    for (int cell = 0; cell < kCells; ++cell) {
      if (Count(board_.open[cell]) != 2) continue;
      ab_ = board_.open[cell];
      if (Extend(cell, 2, 0, -1, visit)) return true;
    }
    return false;
  }

 private:
  // A loop needs each of its units to hold two of its cells, one at an even place in the loop
  // and one at an odd: a path that already has two at places of one parity in a unit leads to
  // no loop (SE finds the loops and then drops those).
  bool Fits(int cell, int parity) const {
    for (const uint8_t unit : Table().units[cell]) {
      if (visits_[unit][parity]) return false;
    }
    return true;
  }
  void Mark(int cell, int parity, int by) {
    for (const uint8_t unit : Table().units[cell]) visits_[unit][parity] += by;
  }
  bool Closed() const {
    for (const auto& visits : visits_) {
      if (visits[0] != visits[1]) return false;
    }
    return true;
  }

  template <typename Visit>
  bool Extend(int cell, int extra_allowed, uint16_t extra_digits, int last_kind, Visit& visit) {
    const int parity = static_cast<int>(path_.size() % 2);
    path_.push_back(cell);
    on_path_[cell] = true;
    Mark(cell, parity, 1);
    bool done = false;
    for (const int kind : kSeKinds) {
      if (kind == last_kind) continue;
      for (const uint8_t next : Table().cells[Table().units[cell][kind]]) {
        if (next == path_[0] && path_.size() >= 4) {
          if (Closed() && visit(path_, ab_)) done = true;
        } else if (!on_path_[next] && (board_.open[next] & ab_) == ab_) {
          const uint16_t open = board_.open[next];
          const uint16_t extra = static_cast<uint16_t>(extra_digits | (open & ~ab_));
          const bool more = Count(open) > 2;
          if ((!more || Count(extra) == 1 || extra_allowed > 0) &&
              Fits(next, 1 - parity) &&
              Extend(next, extra_allowed - (more ? 1 : 0), extra, kind, visit)) {
            done = true;
          }
        }
        if (done) break;
      }
      if (done) break;
    }
    Mark(cell, parity, -1);
    on_path_[cell] = false;
    path_.pop_back();
    return done;
  }

  const Board& board_;
  uint16_t ab_ = 0;
  std::vector<int> path_;
  std::array<bool, kCells> on_path_{};
  std::array<std::array<uint8_t, 2>, kUnits> visits_{};
};

// One of SE's hints on a loop, before it is played: SE takes the easiest (its difficulty, as a
// double computed as SE computes it, so that ties fall as in SE), then the lowest type, then the
// first found.
struct SeLoopHint {
  double difficulty = 0;
  int type = 0;  // 1-4; 5 for type 3 by a hidden subset
  std::vector<int> loop;
  std::vector<int> extra_cells;   // those holding more than a and b (type 3, 4: the two)
  std::vector<int> subset_cells;  // type 3: the subset's cells outside the loop
  std::vector<uint8_t> digits;
  int unit = -1;                                   // type 3, 4
  std::vector<std::pair<int, uint16_t>> removals;  // cell, digits
};

// SE's difficulty of a loop of `size` cells by its original rating (not the revised one): 4.5,
// 4.6 for six cells, 4.7 for eight, 5.0 for ten or more.
double SeLoopDifficulty(size_t size) {
  double difficulty = 4.5;
  if (size >= 10) difficulty += 0.3;
  if (size >= 8) {
    difficulty += 0.2;
  } else if (size >= 6) {
    difficulty += 0.1;
  }
  return difficulty;
}

// The cells of `unit` at the positions of `mask` (bit i: its i-th cell).
std::vector<int> AtPositions(int unit, uint32_t mask) {
  std::vector<int> cells;
  for (int i = 0; i < 9; ++i) {
    if (mask >> i & 1) cells.push_back(Table().cells[unit][i]);
  }
  return cells;
}

// The k-subsets of n bits in SE's order (its Permutations: ascending as numbers). Each next
// mask is the least larger one with k bits (the carry of the lowest run of ones moves up one
// place, the rest of the run drops to the bottom).
template <typename Visit>
void ForSubsets(int k, int n, Visit&& visit) {
  if (k > n) return;
  if (k == 0) {
    visit(0u);
    return;
  }
  for (uint32_t mask = (1u << k) - 1; mask < (1u << n);) {
    visit(mask);
    const uint32_t lowest = mask & -mask;
    const uint32_t carried = mask + lowest;
    mask = carried | (((mask ^ carried) >> 2) / lowest);
  }
}

class SeLoopHints {
 public:
  explicit SeLoopHints(const Board& board) : board_(board) {}

  // The hints of one loop, in SE's order, each offered to Offer().
  void OfLoop(const std::vector<int>& loop, uint16_t ab) {
    ab_ = ab;
    loop_ = &loop;
    std::vector<int> extra_cells;
    for (const int cell : loop) {
      if (Count(board_.open[cell]) > 2) extra_cells.push_back(cell);
    }
    if (extra_cells.size() == 1) {
      SeLoopHint hint = Base(1, extra_cells);
      hint.removals = {{extra_cells[0], ab}};
      Offer(std::move(hint));
      return;
    }
    if (extra_cells.size() < 2) return;
    uint16_t extra = 0;
    for (const int cell : extra_cells) extra |= board_.open[cell] & ~ab;
    if (extra_cells.size() > 2 || Count(extra) == 1) {
      TypeTwo(extra_cells);
    } else {
      TypeThree(extra_cells[0], extra_cells[1], extra);
    }
    if (extra_cells.size() == 2) TypeFour(extra_cells[0], extra_cells[1]);
  }

  // SE's easiest hint so far, if any.
  const std::optional<SeLoopHint>& best() const { return best_; }
  // Nothing can come before a rectangle's type 1.
  bool Unbeatable() const { return best_ && best_->difficulty == 4.5 && best_->type == 1; }

 private:
  SeLoopHint Base(int type, std::vector<int> extra_cells) const {
    SeLoopHint hint;
    hint.difficulty = SeLoopDifficulty(loop_->size());
    hint.type = type;
    hint.loop = *loop_;
    hint.extra_cells = std::move(extra_cells);
    for (uint16_t d = ab_; d; d = WithoutLowest(d)) {
      hint.digits.push_back(static_cast<uint8_t>(LowestDigit(d)));
    }
    return hint;
  }

  void Offer(SeLoopHint hint) {
    if (hint.removals.empty()) return;
    const int order = hint.type == 5 ? 3 : hint.type;
    if (!best_ || hint.difficulty < best_->difficulty ||
        (hint.difficulty == best_->difficulty && order < (best_->type == 5 ? 3 : best_->type))) {
      best_ = std::move(hint);
    }
  }

  // The extra cells hold one extra digit, the same: it leaves the cells that see them all.
  void TypeTwo(const std::vector<int>& extra_cells) {
    const uint16_t digit = static_cast<uint16_t>(board_.open[extra_cells[0]] & ~ab_);
    SeLoopHint hint = Base(2, extra_cells);
    CellSet seeing = Table().peer_set[extra_cells[0]];
    for (const int cell : extra_cells) seeing = seeing & Table().peer_set[cell];
    seeing.ForEach([&](int cell) {
      if (board_.open[cell] & digit) hint.removals.push_back({cell, digit});
    });
    hint.digits.push_back(static_cast<uint8_t>(LowestDigit(digit)));
    Offer(std::move(hint));
  }

  // The two extra cells share a unit where one of a and b has no other place: the other
  // leaves them. SE keeps the last kind of unit that has one (box, row, column), a before b.
  void TypeFour(int c1, int c2) {
    int kept_unit[2] = {-1, -1};
    const int a = LowestDigit(ab_), b = LowestDigit(WithoutLowest(ab_));
    for (const int kind : kSeKinds) {
      const int unit = Table().units[c1][kind];
      if (unit != Table().units[c2][kind]) continue;
      uint16_t elsewhere = 0;
      for (const uint8_t cell : Table().cells[unit]) {
        if (cell != c1 && cell != c2) elsewhere |= board_.open[cell];
      }
      if (!(elsewhere & Bit(a))) kept_unit[0] = unit;
      if (!(elsewhere & Bit(b))) kept_unit[1] = unit;
    }
    const int which = kept_unit[0] >= 0 ? 0 : kept_unit[1] >= 0 ? 1 : -1;
    if (which < 0) return;
    const int kept = which == 0 ? a : b, removed = which == 0 ? b : a;
    SeLoopHint hint = Base(4, {c1, c2});
    hint.digits = {static_cast<uint8_t>(kept), static_cast<uint8_t>(removed)};
    hint.unit = kept_unit[which];
    hint.removals = {{c1, Bit(removed)}, {c2, Bit(removed)}};
    Offer(std::move(hint));
  }

  // The two extra cells, sharing a unit, act as one cell holding their extra digits: with
  // other cells of the unit they make a naked subset, or with a and b a hidden one. By the
  // subset's size (2-7), then the unit's kind, naked before hidden, as SE tries them.
  void TypeThree(int c1, int c2, uint16_t extra) {
    for (int degree = 2; degree <= 7; ++degree) {
      for (const int kind : kSeKinds) {
        const int unit = Table().units[c1][kind];
        if (unit != Table().units[c2][kind]) continue;
        const int index1 = Table().positions[c1][kind], index2 = Table().positions[c2][kind];
        int empty = 0;
        for (const uint8_t cell : Table().cells[unit]) empty += board_.open[cell] != 0;
        if (degree * 2 <= empty && degree >= Count(extra)) {
          NakedSubsets(c1, c2, extra, unit, index1, index2, degree);
        }
        if (degree * 2 < empty) HiddenSubsets(c1, c2, extra, unit, index1, index2, degree);
      }
    }
  }

  void NakedSubsets(int c1, int c2, uint16_t extra, int unit, int index1, int index2,
                    int degree) {
    const uint16_t shared = static_cast<uint16_t>(extra & board_.open[c1] & board_.open[c2]);
    ForSubsets(degree, 9, [&](uint32_t positions) {
      if (!(positions >> index1 & 1) || (positions >> index2 & 1)) return;
      const uint32_t others = positions & ~(1u << index1);  // the subset's cells but c1
      // SE asks two digits or more of every cell (the extra digits, two or more, stand for c1).
      uint16_t held = 0;
      for (uint32_t rest = others; rest; rest &= rest - 1) {
        const uint16_t open = board_.open[Table().cells[unit][std::countr_zero(rest)]];
        if (Count(open) < 2) return;
        held |= open;
      }
      const uint16_t digits = static_cast<uint16_t>(held | extra);
      if (Count(static_cast<uint16_t>(held | shared)) != degree || Count(digits) != degree) {
        return;
      }
      SeLoopHint hint = Base(3, {c1, c2});
      hint.difficulty += (degree - 1) * 0.1;
      hint.subset_cells = AtPositions(unit, others);
      AddTo(&hint.digits, digits);
      hint.unit = unit;
      for (int i = 0; i < 9; ++i) {
        const int cell = Table().cells[unit][i];
        if (cell == c1 || cell == c2 || (others >> i & 1)) continue;
        if (board_.open[cell] & digits) {
          hint.removals.push_back({cell, static_cast<uint16_t>(board_.open[cell] & digits)});
        }
      }
      Offer(std::move(hint));
    });
  }

  void HiddenSubsets(int c1, int c2, uint16_t extra, int unit, int index1, int index2,
                     int degree) {
    std::vector<int> rest;  // the digits neither a, b nor extra
    for (int digit = 1; digit <= 9; ++digit) {
      if (!((ab_ | extra) & Bit(digit))) rest.push_back(digit);
    }
    if (rest.empty() || degree - 2 > static_cast<int>(rest.size())) return;
    ForSubsets(degree - 2, static_cast<int>(rest.size()), [&](uint32_t chosen) {
      uint16_t digits = ab_;
      for (size_t i = 0; i < rest.size(); ++i) {
        if (chosen >> i & 1) digits |= Bit(rest[i]);
      }
      uint32_t positions = 0;
      for (uint16_t d = digits; d; d = WithoutLowest(d)) {
        uint32_t places = 0;
        for (int i = 0; i < 9; ++i) {
          if (board_.open[Table().cells[unit][i]] & Bit(LowestDigit(d))) places |= 1u << i;
        }
        places &= ~(1u << index2);
        if (places == 0) return;
        positions |= places;
      }
      if (Count(static_cast<uint16_t>(positions)) != degree) return;
      positions &= ~((1u << index1) | (1u << index2));
      SeLoopHint hint = Base(5, {c1, c2});
      hint.difficulty += (Count(static_cast<uint16_t>(positions)) - 1) * 0.1;
      hint.subset_cells = AtPositions(unit, positions);
      AddTo(&hint.digits, static_cast<uint16_t>(digits & ~ab_));
      hint.unit = unit;
      for (const int cell : hint.subset_cells) {
        const uint16_t others = static_cast<uint16_t>(board_.open[cell] & ~digits);
        if (others) hint.removals.push_back({cell, others});
      }
      Offer(std::move(hint));
    });
  }

  static void AddTo(std::vector<uint8_t>* digits, uint16_t mask) {
    for (; mask; mask = WithoutLowest(mask)) {
      digits->push_back(static_cast<uint8_t>(LowestDigit(mask)));
    }
  }

  const Board& board_;
  uint16_t ab_ = 0;
  const std::vector<int>* loop_ = nullptr;
  std::optional<SeLoopHint> best_;
};

}  // namespace

bool SeUniqueLoops(Board& board, Step* step) {
  if (!board.unique) return false;
  SeLoopHints hints(board);
  SeLoopSearch(board).ForLoops([&](const std::vector<int>& loop, uint16_t ab) {
    hints.OfLoop(loop, ab);
    return hints.Unbeatable();
  });
  if (!hints.best()) return false;
  const SeLoopHint& hint = *hints.best();
  Step found;
  found.technique = Technique::kUniqueRectangle;
  found.variant = static_cast<uint8_t>(10 * hint.loop.size() + hint.type);
  for (const auto* cells : {&hint.loop, &hint.extra_cells, &hint.subset_cells}) {
    for (const int cell : *cells) found.cells.push_back(static_cast<uint8_t>(cell));
  }
  found.digits = hint.digits;
  if (hint.unit >= 0) found.units = {UnitOf(hint.unit)};
  found.se_tenths = static_cast<uint8_t>(std::lround(hint.difficulty * 10));
  for (const auto& [cell, digits] : hint.removals) Eliminate(board, &found, cell, digits);
  *step = std::move(found);
  return true;
}

}  // namespace sudoku::logic::internal
