// Tests for the logical solver (solver/logic.h): each technique on a grid where it is the next
// step, and every explanation replayed: each placement and elimination agrees with the unique
// solution, and the last grid is that solution.
#include "solver/logic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "solver/explain_text.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/puzzles.h"
#include "tests/support/paths.h"

namespace sudoku::logic {
namespace {

using ::sudoku::testing::kUnsolvable;

Grid ParseOrDie(std::string_view text) {
  Grid grid{};
  const PuzzleError error = ParsePuzzle(text, &grid);
  EXPECT_FALSE(error) << Describe(error) << " in " << text;
  return grid;
}

// The cells of a unit, computed here rather than taken from the solver.
std::vector<int> CellsOf(const Unit& unit) {
  std::vector<int> cells;
  for (int cell = 0; cell < kCells; ++cell) {
    const int row = cell / 9, column = cell % 9, box = row / 3 * 3 + column / 3;
    const int index = unit.kind == Unit::Kind::kRow      ? row
                      : unit.kind == Unit::Kind::kColumn ? column
                                                         : box;
    if (index == unit.index) cells.push_back(cell);
  }
  return cells;
}

bool Has(const Candidates& candidates, int cell, int digit) {
  return (candidates[cell] >> (digit - 1)) & 1;
}

using CandidateSet = std::set<std::pair<int, int>>;

CandidateSet AsSet(const std::vector<CellDigit>& list) {
  CandidateSet set;
  for (const CellDigit& c : list) set.insert({c.cell, c.digit});
  return set;
}

// SE's direct kind of an intersection or hidden subset (logic.h: variant 1).
bool IsSeDirect(const Step& step) {
  return step.variant == 1 &&
         (step.technique == Technique::kPointing || step.technique == Technique::kClaiming ||
          step.technique == Technique::kHiddenPair || step.technique == Technique::kHiddenTriple);
}

// A direct step removes nothing and places the single that the pattern's removals (`removable`)
// would leave: its digit's one place in the step's last unit.
void ExpectDirectSingle(const Step& step, const Grid& grid, const Candidates& candidates,
                        const CandidateSet& removable) {
  EXPECT_TRUE(step.eliminations.empty());
  ASSERT_EQ(step.placements.size(), 1u);
  const CellDigit single = step.placements[0];
  for (int cell : CellsOf(step.units.back())) {
    const bool left = grid[cell] == 0 && Has(candidates, cell, single.digit) &&
                      !removable.count({cell, single.digit});
    EXPECT_EQ(left, cell == single.cell) << CellName(cell);
  }
}

// Checks that `step` is what its technique says, on the grid and candidates before it: the
// pattern holds, and the eliminations are exactly the candidates the pattern removes (of SE's
// direct kind: none, and the single they would leave placed).
// SE's unique rectangle or loop (logic.h): the loop's cells, open, hold a and b, each shares
// a unit with the next, and every unit holding one holds two, at places of different parity in
// the loop (so a and b could swap round it); the cells listed next are loop cells holding more
// than a and b (type 1: the only one; type 2: each with the one extra digit). Its removals'
// soundness is the replay's to check.
void ExpectSeLoop(const Step& step, const Grid& grid, const Candidates& candidates) {
  const size_t size = step.variant / 10;
  const int type = step.variant % 10;
  ASSERT_GE(size, 4u);
  ASSERT_EQ(size % 2, 0u);
  ASSERT_GE(step.cells.size(), size + 1);
  ASSERT_GE(step.digits.size(), 2u);
  const uint16_t ab = static_cast<uint16_t>((1u << (step.digits[0] - 1)) |
                                            (1u << (step.digits[1] - 1)));
  const auto units_of = [](int cell) {
    return std::array<int, 3>{cell / 9, 9 + cell % 9, 18 + cell / 27 * 3 + cell % 9 / 3};
  };
  std::map<int, std::array<int, 2>> by_parity;
  for (size_t i = 0; i < size; ++i) {
    const int cell = step.cells[i], next = step.cells[(i + 1) % size];
    EXPECT_EQ(grid[cell], 0) << CellName(cell);
    EXPECT_EQ(candidates[cell] & ab, ab) << CellName(cell);
    const auto units = units_of(cell), next_units = units_of(next);
    bool shared = false;
    for (int k = 0; k < 3; ++k) shared = shared || units[k] == next_units[k];
    EXPECT_TRUE(shared) << CellName(cell) << " " << CellName(next);
    for (int unit : units) ++by_parity[unit][i % 2];
  }
  for (const auto& [unit, counts] : by_parity) {
    EXPECT_EQ(counts[0], 1) << "unit " << unit;
    EXPECT_EQ(counts[1], 1) << "unit " << unit;
  }
  const std::vector<uint8_t> loop(step.cells.begin(), step.cells.begin() + static_cast<long>(size));
  size_t more = 0;
  for (uint8_t cell : loop) more += candidates[cell] != ab;
  const size_t extra = type == 1 ? 1 : type == 2 ? step.cells.size() - size : 2;
  if (type <= 2) {
    EXPECT_EQ(more, extra);
  }
  for (size_t i = size; i < size + extra; ++i) {
    const uint8_t cell = step.cells.at(i);
    EXPECT_NE(std::find(loop.begin(), loop.end(), cell), loop.end()) << CellName(cell);
    EXPECT_NE(candidates[cell], ab) << CellName(cell);
    if (type == 2) {
      EXPECT_EQ(candidates[cell] & ~ab, 1u << (step.digits.at(2) - 1)) << CellName(cell);
    }
  }
}

void ExpectValidPattern(const Step& step, const Grid& grid, const Candidates& candidates) {
  const auto open = [&](int cell) { return grid[cell] == 0; };
  CandidateSet expected;
  switch (step.technique) {
    case Technique::kNakedSingle: {
      const CellDigit p = step.placements.at(0);
      EXPECT_EQ(candidates[p.cell], 1u << (p.digit - 1)) << CellName(p.cell);
      return;
    }
    case Technique::kHiddenSingle: {
      const CellDigit p = step.placements.at(0);
      for (int cell : CellsOf(step.units.at(0))) {
        EXPECT_EQ(open(cell) && Has(candidates, cell, p.digit), cell == p.cell) << CellName(cell);
      }
      return;
    }
    case Technique::kPointing:
    case Technique::kClaiming: {
      ASSERT_EQ(step.units.size(), step.variant == 1 ? 3u : 2u);
      EXPECT_EQ(step.units[0].kind == Unit::Kind::kBox, step.technique == Technique::kPointing);
      const int digit = step.digits.at(0);
      const std::vector<int> first = CellsOf(step.units[0]), second = CellsOf(step.units[1]);
      for (int cell : first) {
        if (open(cell) && Has(candidates, cell, digit)) {
          EXPECT_NE(std::find(second.begin(), second.end(), cell), second.end())
              << digit << " at " << CellName(cell) << " outside " << int{step.units[1].index};
        }
      }
      for (int cell : second) {
        if (std::find(first.begin(), first.end(), cell) == first.end() && open(cell) &&
            Has(candidates, cell, digit)) {
          expected.insert({cell, digit});
        }
      }
      break;
    }
    case Technique::kNakedPair:
    case Technique::kNakedTriple:
    case Technique::kNakedQuad: {
      uint16_t digits = 0;
      for (uint8_t cell : step.cells) digits |= candidates[cell];
      uint16_t named = 0;
      for (uint8_t digit : step.digits) named |= static_cast<uint16_t>(1u << (digit - 1));
      EXPECT_EQ(digits, named);
      EXPECT_EQ(std::popcount(digits), static_cast<int>(step.cells.size()));
      // HoDoKu's path clears every unit the cells share (two: a box and a line); a locked
      // subset (variant 1) is one that clears the box and the line outside it.
      ASSERT_FALSE(step.units.empty());
      ASSERT_LE(step.units.size(), 2u);
      for (const Unit& unit : step.units) {
        const std::vector<int> unit_cells = CellsOf(unit);
        for (uint8_t cell : step.cells) {
          EXPECT_NE(std::find(unit_cells.begin(), unit_cells.end(), cell), unit_cells.end())
              << CellName(cell) << " outside " << UnitName(unit);
        }
        for (int cell : unit_cells) {
          if (std::find(step.cells.begin(), step.cells.end(), cell) != step.cells.end() ||
              !open(cell)) {
            continue;
          }
          for (uint8_t digit : step.digits) {
            if (Has(candidates, cell, digit)) expected.insert({cell, digit});
          }
        }
      }
      if (step.variant == 1) {
        ASSERT_EQ(step.units.size(), 2u);
        EXPECT_EQ(step.units[0].kind, Unit::Kind::kBox);
        bool box = false, line_outside = false;
        const std::vector<int> box_cells = CellsOf(step.units[0]);
        for (const CellDigit& e : step.eliminations) {
          const bool in_box =
              std::find(box_cells.begin(), box_cells.end(), e.cell) != box_cells.end();
          (in_box ? box : line_outside) = true;
        }
        EXPECT_TRUE(box && line_outside) << "a locked subset that clears only one unit";
      }
      break;
    }
    case Technique::kHiddenPair:
    case Technique::kHiddenTriple:
    case Technique::kHiddenQuad: {
      EXPECT_EQ(step.digits.size(), step.cells.size());
      for (int cell : CellsOf(step.units.at(0))) {
        const bool inside =
            std::find(step.cells.begin(), step.cells.end(), cell) != step.cells.end();
        for (uint8_t digit : step.digits) {
          if (open(cell) && Has(candidates, cell, digit)) {
            EXPECT_TRUE(inside) << CellName(cell);
          }
        }
      }
      for (uint8_t cell : step.cells) {
        for (int digit = 1; digit <= 9; ++digit) {
          const bool named =
              std::find(step.digits.begin(), step.digits.end(), digit) != step.digits.end();
          if (!named && Has(candidates, cell, digit)) expected.insert({cell, digit});
        }
      }
      break;
    }
    case Technique::kXWing:
    case Technique::kSwordfish:
    case Technique::kJellyfish: {
      const size_t n = step.technique == Technique::kXWing     ? 2
                       : step.technique == Technique::kSwordfish ? 3
                                                                 : 4;
      ASSERT_EQ(step.units.size(), 2 * n);
      const int digit = step.digits.at(0);
      std::set<int> base_cells, cover_cells;
      for (size_t i = 0; i < n; ++i) {
        for (int cell : CellsOf(step.units[i])) base_cells.insert(cell);
        for (int cell : CellsOf(step.units[n + i])) cover_cells.insert(cell);
      }
      for (int cell : base_cells) {
        if (open(cell) && Has(candidates, cell, digit)) {
          EXPECT_TRUE(cover_cells.count(cell)) << digit << " at " << CellName(cell);
        }
      }
      for (int cell : cover_cells) {
        if (!base_cells.count(cell) && open(cell) && Has(candidates, cell, digit)) {
          expected.insert({cell, digit});
        }
      }
      break;
    }
    case Technique::kFinnedFish:
    case Technique::kSashimiFish: {
      // The base lines' places lie in the cover lines or in the fins' box, which holds at least
      // one; the digit leaves what the cover lines have in that box outside the base lines.
      const size_t n = step.variant;
      ASSERT_GE(n, 2u);
      ASSERT_LE(n, 4u);
      ASSERT_EQ(step.units.size(), 2 * n + 1);
      ASSERT_EQ(step.units[2 * n].kind, Unit::Kind::kBox);
      const int digit = step.digits.at(0);
      std::set<int> base_cells, cover_cells;
      for (size_t i = 0; i < n; ++i) {
        for (int cell : CellsOf(step.units[i])) base_cells.insert(cell);
        for (int cell : CellsOf(step.units[n + i])) cover_cells.insert(cell);
      }
      const std::vector<int> box = CellsOf(step.units[2 * n]);
      const auto in_box = [&](int cell) {
        return std::find(box.begin(), box.end(), cell) != box.end();
      };
      int fins = 0;
      bool thin = false;  // a base line with one place in the cover lines
      for (size_t i = 0; i < n; ++i) {
        int in_covers = 0;
        for (int cell : CellsOf(step.units[i])) {
          if (!open(cell) || !Has(candidates, cell, digit)) continue;
          if (cover_cells.count(cell)) {
            ++in_covers;
          } else {
            EXPECT_TRUE(in_box(cell)) << "fin " << CellName(cell) << " outside the box";
            ++fins;
          }
        }
        EXPECT_GE(in_covers, 1);
        thin |= in_covers == 1;
      }
      EXPECT_GE(fins, 1);
      EXPECT_EQ(thin, step.technique == Technique::kSashimiFish);
      for (int cell : cover_cells) {
        if (!base_cells.count(cell) && in_box(cell) && open(cell) && Has(candidates, cell, digit)) {
          expected.insert({cell, digit});
        }
      }
      break;
    }
    case Technique::kRemotePair: {
      // Cells holding only the two digits, each joined by a link to one coloured before it
      // that it sees, the link's ends of opposite colours; what sees both colours loses both.
      ASSERT_EQ(step.digits.size(), 2u);
      const uint16_t pair = static_cast<uint16_t>((1u << (step.digits[0] - 1)) |
                                                  (1u << (step.digits[1] - 1)));
      ASSERT_GE(step.cells.size(), 4u);
      std::map<int, int> colour;
      for (size_t i = 0; i < step.cells.size(); ++i) {
        EXPECT_EQ(candidates[step.cells[i]], pair) << CellName(step.cells[i]);
        colour[step.cells[i]] = i < step.variant ? 0 : 1;
      }
      ASSERT_EQ(step.links.size(), step.cells.size() - 1);
      std::set<int> reached = {step.links.at(0).from.cells.at(0)};
      for (const Link& link : step.links) {
        const int from = link.from.cells.at(0), to = link.to.cells.at(0);
        const int row_a = from / 9, col_a = from % 9, row_b = to / 9, col_b = to % 9;
        EXPECT_TRUE(row_a == row_b || col_a == col_b ||
                    (row_a / 3 == row_b / 3 && col_a / 3 == col_b / 3));
        EXPECT_TRUE(reached.count(from)) << CellName(from) << " not coloured yet";
        EXPECT_NE(colour.at(from), colour.at(to)) << CellName(from) << "-" << CellName(to);
        reached.insert(to);
      }
      EXPECT_EQ(reached.size(), step.cells.size());
      for (int cell = 0; cell < kCells; ++cell) {
        if (colour.count(cell) || !open(cell)) continue;
        std::array<bool, 2> sees{};
        for (const auto& [coloured, c] : colour) {
          const int r = cell / 9, k = cell % 9, rc = coloured / 9, kc = coloured % 9;
          sees[c] |= r == rc || k == kc || (r / 3 == rc / 3 && k / 3 == kc / 3);
        }
        if (!sees[0] || !sees[1]) continue;
        for (uint8_t digit : step.digits) {
          if (Has(candidates, cell, digit)) expected.insert({cell, digit});
        }
      }
      break;
    }
    case Technique::kUniqueRectangle:
      if (step.variant >= 10) ExpectSeLoop(step, grid, candidates);
      return;
    default:
      // The techniques past the fish: their soundness is checked by the replay.
      return;
  }
  EXPECT_FALSE(expected.empty());
  if (IsSeDirect(step)) {
    ExpectDirectSingle(step, grid, candidates, expected);
    return;
  }
  EXPECT_EQ(AsSet(step.eliminations), expected);
}

bool SeeEachOther(int a, int b) {
  const int row_a = a / 9, column_a = a % 9, row_b = b / 9, column_b = b % 9;
  return a != b && (row_a == row_b || column_a == column_b ||
                    (row_a / 3 == row_b / 3 && column_a / 3 == column_b / 3));
}

// What the links of a forcing chain or trial prove from its assumptions, read from the links
// alone: a candidate placed or removed.
struct Derived {
  std::bitset<kCells * 9> on, off;  // bit cell * 9 + digit - 1

  bool On(int cell, int digit) const { return on[static_cast<size_t>(cell * 9 + digit - 1)]; }
  bool Off(int cell, int digit) const { return off[static_cast<size_t>(cell * 9 + digit - 1)]; }
};

// Follows `links` from `assumptions` (placed), atop what `from` derived already, on the grid and
// candidates before the step,
// taking a link only once its start is derived (on for a weak link, off for a strong one) and
// only when it holds there: a weak link joins two candidates of one cell, or one digit in two
// cells that see each other; a strong link ends at a single, every other candidate of its cell,
// or every other place of its digit in one of its units, derived off already. (A net lists each
// link after those it rests on, so that one pass mostly suffices; passes repeat until none
// derives more, so that order is not what is checked.)
Derived FollowShownLinks(const std::vector<Link>& links,
                         const std::vector<std::pair<int, int>>& assumptions, const Grid& grid,
                         const Candidates& candidates, Derived from = {}) {
  Derived derived = std::move(from);
  for (const auto& [cell, digit] : assumptions) derived.on.set(cell * 9 + digit - 1);
  const auto single = [&](int cell, int digit) {
    bool naked = true;
    for (int other = 1; other <= 9; ++other) {
      if (other != digit && Has(candidates, cell, other)) {
        naked &= derived.Off(cell, other);
      }
    }
    if (naked) return true;
    for (Unit::Kind kind : {Unit::Kind::kRow, Unit::Kind::kColumn, Unit::Kind::kBox}) {
      const int index = kind == Unit::Kind::kRow      ? cell / 9
                        : kind == Unit::Kind::kColumn ? cell % 9
                                                      : cell / 27 * 3 + cell % 9 / 3;
      bool hidden = true;
      for (int other : CellsOf(Unit{kind, static_cast<uint8_t>(index)})) {
        if (other != cell && !grid[other] && Has(candidates, other, digit)) {
          hidden &= derived.Off(other, digit);
        }
      }
      if (hidden) return true;
    }
    return false;
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (const Link& link : links) {
      if (link.from.cells.size() != 1 || link.to.cells.size() != 1) continue;
      const int from_cell = link.from.cells[0], from_digit = link.from.digit;
      const int to_cell = link.to.cells[0], to_digit = link.to.digit;
      if (grid[to_cell] || !Has(candidates, to_cell, to_digit)) continue;
      if (link.strong) {
        if (derived.On(to_cell, to_digit) || !derived.Off(from_cell, from_digit)) continue;
        if (!single(to_cell, to_digit)) continue;
        derived.on.set(to_cell * 9 + to_digit - 1);
      } else {
        if (derived.Off(to_cell, to_digit) || !derived.On(from_cell, from_digit)) continue;
        const bool same_cell = from_cell == to_cell && from_digit != to_digit;
        const bool same_digit = from_digit == to_digit && SeeEachOther(from_cell, to_cell);
        if (!same_cell && !same_digit) continue;
        derived.off.set(to_cell * 9 + to_digit - 1);
      }
      progress = true;
    }
  }
  return derived;
}

const std::string kInLinksShown = " in the links shown";

// "" when `derived` removes `digit` from `cell` (or the cell never had it), else what it keeps.
std::string Loses(const Derived& derived, const Candidates& candidates, int cell, int digit) {
  if (!Has(candidates, cell, digit) || derived.Off(cell, digit)) return "";
  return CellName(cell) + " keeps " + std::to_string(digit) + kInLinksShown;
}

// "" when `derived` is a contradiction, as `last` (the last link shown) and `units` say: the
// unit left without a place for the last link's digit, or (no unit) the last link's cell left
// without a candidate.
std::string ContradictionUnproven(const Derived& derived, const Link* last,
                                  const std::vector<Unit>& units, const Grid& grid,
                                  const Candidates& candidates) {
  if (last == nullptr) return "no links";
  if (!units.empty()) {
    for (int cell : CellsOf(units[0])) {
      if (grid[cell] == last->to.digit) return UnitName(units[0]) + " holds the digit";
      if (std::string kept = grid[cell] ? "" : Loses(derived, candidates, cell, last->to.digit);
          !kept.empty()) {
        return kept;
      }
    }
    return "";
  }
  for (int digit = 1; digit <= 9; ++digit) {
    if (std::string kept = Loses(derived, candidates, last->to.cells[0], digit); !kept.empty()) {
      return kept;
    }
  }
  return "";
}

// "" when `derived` leaves `cell` exactly the digits `tried` (ascending) of those it had.
std::string NestingUnproven(const Derived& derived, int cell, const std::vector<int>& tried,
                            const Candidates& candidates) {
  std::vector<int> left;
  for (int digit = 1; digit <= 9; ++digit) {
    if (Has(candidates, cell, digit) && !derived.Off(cell, digit)) left.push_back(digit);
  }
  if (left == tried) return "";
  for (int digit = 1; digit <= 9; ++digit) {
    const bool is_tried = std::find(tried.begin(), tried.end(), digit) != tried.end();
    if (!is_tried) {
      if (std::string kept = Loses(derived, candidates, cell, digit); !kept.empty()) return kept;
    } else if (!Has(candidates, cell, digit) || derived.Off(cell, digit)) {
      return "its branch " + CellName(cell) + " = " + std::to_string(digit) +
             " tries a digit the cell has lost";
    }
  }
  return "";
}

// What a nested trial's branches fail to prove, or "": each branch, from its assumption and
// those of the branches it nests in (and the step's), by the links of all of them, reaches its
// contradiction, or leaves its nesting cell exactly the digits its nested branches try; the
// step's own cell is left the digits its top branches try.
std::string BranchesUnproven(const Step& step, const Grid& grid, const Candidates& candidates) {
  if (step.branches.empty()) return "no branches";
  // The digits tried below each branch (index + 1; 0: the step's), in order.
  std::vector<std::vector<int>> tried(step.branches.size() + 1);
  for (size_t i = 0; i < step.branches.size(); ++i) {
    const TrialBranch& branch = step.branches[i];
    if (branch.parent >= static_cast<int>(i) || branch.parent < -1) {
      return "branch " + std::to_string(i) + " nests in a branch listed after it";
    }
    const int parent_cell =
        branch.parent < 0 ? step.cells[1] : step.branches[branch.parent].nesting_cell;
    if (branch.assumption.cell != parent_cell) {
      return "branch " + std::to_string(i) + " tries " + CellName(branch.assumption.cell) +
             ", not its parent's nesting cell";
    }
    tried[static_cast<size_t>(branch.parent + 1)].push_back(branch.assumption.digit);
  }
  if (const std::vector<int> step_tried(step.digits.begin() + 1, step.digits.end());
      tried[0] != step_tried) {
    return "the top branches try other digits than the step names";
  }
  // What each branch derives, atop what its parent derived (a branch's links build on its
  // parent's facts, never the other way): the step's own first.
  std::vector<Derived> derived(step.branches.size() + 1);
  derived[0] = FollowShownLinks(step.links, {{step.cells[0], step.digits[0]}}, grid, candidates);
  for (size_t i = 0; i < step.branches.size(); ++i) {
    const TrialBranch& branch = step.branches[i];
    derived[i + 1] =
        FollowShownLinks(branch.links, {{branch.assumption.cell, branch.assumption.digit}}, grid,
                         candidates, derived[static_cast<size_t>(branch.parent + 1)]);
    const std::string unproven =
        branch.nesting_cell < 0
            ? ContradictionUnproven(derived[i + 1],
                                    branch.links.empty() ? nullptr : &branch.links.back(),
                                    branch.units, grid, candidates)
            : NestingUnproven(derived[i + 1], branch.nesting_cell, tried[i + 1], candidates);
    if (!unproven.empty()) {
      return "branch " + std::to_string(i) + " (" + CellName(branch.assumption.cell) + " = " +
             std::to_string(branch.assumption.digit) + "): " + unproven;
    }
  }
  return "";
}

// What the links of a forcing chain or a trial fail to prove, or "" when they show every
// inference its conclusion rests on: from the links alone (FollowShownLinks), the assumption
// empties a cell or leaves a digit no place in a unit (variant 0; a trial of variant 1), both
// branches remove every candidate the step removes (variants 1 and 2), or the nested trials'
// cell is left with the digits the step names and each of its branches fails
// (BranchesUnproven; a trial nested deeper).
std::string UnprovenByShownLinks(const Step& step, const Grid& grid, const Candidates& candidates) {
  const bool forcing = step.technique == Technique::kForcingChain;
  if (!forcing && !(step.technique == Technique::kTrial && step.variant >= 1)) return "";
  if (forcing && step.variant >= 1) {
    std::vector<std::pair<int, int>> assumptions;
    if (step.variant == 1) {
      assumptions = {{step.cells[0], step.digits[0]}, {step.cells[0], step.digits[1]}};
    } else {
      assumptions = {{step.cells[0], step.digits[0]}, {step.cells[1], step.digits[0]}};
    }
    for (const auto& [cell, digit] : assumptions) {
      const Derived derived = FollowShownLinks(step.links, {{cell, digit}}, grid, candidates);
      for (const CellDigit& e : step.eliminations) {
        if (derived.Off(e.cell, e.digit)) continue;
        return std::to_string(digit) + " in " + CellName(cell) + " does not remove " +
               std::to_string(e.digit) + " from " + CellName(e.cell) + kInLinksShown;
      }
    }
    return "";
  }
  const Derived derived =
      FollowShownLinks(step.links, {{step.cells[0], step.digits[0]}}, grid, candidates);
  if (!forcing && step.variant >= 2) {
    const std::vector<int> tried(step.digits.begin() + 1, step.digits.end());
    if (std::string unproven = NestingUnproven(derived, step.cells[1], tried, candidates);
        !unproven.empty()) {
      return unproven;
    }
    return BranchesUnproven(step, grid, candidates);
  }
  return ContradictionUnproven(derived, step.links.empty() ? nullptr : &step.links.back(),
                               step.units, grid, candidates);
}

// Replays `explanation` from `puzzle` against `solution` (81 digits), failing on the first
// unsound step.
void ExpectSoundReplay(const std::string& puzzle, const std::string& solution,
                       const Explanation& explanation) {
  Grid grid = ParseOrDie(puzzle);
  Candidates candidates = InitialCandidates(grid);
  for (size_t i = 0; i < explanation.steps.size(); ++i) {
    const Step& step = explanation.steps[i];
    SCOPED_TRACE(puzzle + " step " + std::to_string(i) + " (" + Name(step.technique) + ")");
    ASSERT_FALSE(step.placements.empty() && step.eliminations.empty());
    // A choice is only for puzzles with several solutions: here every step must be forced.
    ASSERT_FALSE(step.technique == Technique::kTrial && step.variant == 0) << "a choice";
    for (const CellDigit& placement : step.placements) {
      ASSERT_EQ(grid[placement.cell], 0) << CellName(placement.cell) << " filled twice";
      ASSERT_EQ(placement.digit, solution[placement.cell] - '0') << CellName(placement.cell);
      ASSERT_TRUE(candidates[placement.cell] & (1u << (placement.digit - 1)))
          << CellName(placement.cell) << " had no candidate " << int{placement.digit};
    }
    for (const CellDigit& elimination : step.eliminations) {
      ASSERT_NE(elimination.digit, solution[elimination.cell] - '0')
          << CellName(elimination.cell) << " lost its solution digit";
      ASSERT_TRUE(candidates[elimination.cell] & (1u << (elimination.digit - 1)))
          << CellName(elimination.cell) << ": " << int{elimination.digit} << " was gone already";
    }
    ExpectValidPattern(step, grid, candidates);
    EXPECT_EQ(UnprovenByShownLinks(step, grid, candidates), "");
    if (::testing::Test::HasFailure()) return;
    Apply(step, &grid, &candidates);
  }
  for (int cell = 0; cell < kCells; ++cell) {
    ASSERT_EQ(grid[cell], solution[cell] - '0') << puzzle << " at " << CellName(cell);
  }
  EXPECT_EQ(explanation.solution, grid);
}

TEST(Logic, ReplaysEveryUniqueFixture) {
  int checked = 0;
  for (const auto& fixture : testing::LoadFixtures("solver_puzzles.txt")) {
    if (fixture.count != "1") continue;
    const Explanation explanation = Explain(ParseOrDie(fixture.puzzle));
    EXPECT_EQ(explanation.verdict, Verdict::kSolved) << fixture.puzzle;
    ExpectSoundReplay(fixture.puzzle, fixture.solution, explanation);
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

// "naked pair p= e=r7c7#2,... u=b9, c=r9c8,r9c9, d=2,7,": a step in the fixture notation, with
// " v=2" for a variant and " l=(4)r2c3=(4)r2c7-..." for links.
std::string Compact(const Step& step) {
  std::string text = Name(step.technique);
  text += " p=";
  for (const CellDigit& c : step.placements) {
    text += CellName(c.cell) + "#" + std::to_string(c.digit) + ",";
  }
  text += " e=";
  for (const CellDigit& c : step.eliminations) {
    text += CellName(c.cell) + "#" + std::to_string(c.digit) + ",";
  }
  text += " u=";
  for (const Unit& u : step.units) {
    text += u.kind == Unit::Kind::kRow ? "r" : u.kind == Unit::Kind::kColumn ? "c" : "b";
    text += std::to_string(u.index + 1) + ",";
  }
  text += " c=";
  for (uint8_t cell : step.cells) text += CellName(cell) + ",";
  text += " d=";
  for (uint8_t digit : step.digits) text += std::to_string(digit) + ",";
  // Appended piece by piece: g++ 12 draws a false -Wrestrict from " v=" + std::to_string().
  if (step.variant) {
    text += " v=";
    text += std::to_string(step.variant);
  }
  if (!step.links.empty()) {
    text += " l=";
    text += NodeName(step.links[0].from);
    for (size_t i = 0; i < step.links.size(); ++i) {
      if (i > 0 && !(step.links[i].from == step.links[i - 1].to)) {
        text += ',';
        text += NodeName(step.links[i].from);
      }
      text += step.links[i].strong ? '=' : '-';
      text += NodeName(step.links[i].to);
    }
  }
  return text;
}

// A forcing chain's links show every removal its contradiction rests on. One used to show a
// single chain and claim that r2c8 had no candidate left while it held 3, 5 and 7 as well. Here
// the contradiction is column 9 left without a 4: the links without the removals of 4 from the
// column's other cells prove nothing, and the checker says which cell keeps it.
TEST(Logic, AForcingChainShowsEveryRemovalItsContradictionRestsOn) {
  const std::string puzzle =
      "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
  const Explanation explanation = Explain(ParseOrDie(puzzle));
  Grid grid = ParseOrDie(puzzle);
  Candidates candidates = InitialCandidates(grid);
  for (size_t i = 0; i < 24; ++i) Apply(explanation.steps[i], &grid, &candidates);
  const Step& step = explanation.steps[24];
  ASSERT_EQ(step.technique, Technique::kForcingChain);
  EXPECT_EQ(Describe(step).substr(0, 24), "forcing chain: r1c3 = 2 ");
  EXPECT_EQ(UnprovenByShownLinks(step, grid, candidates), "");
  ASSERT_EQ(step.units, (std::vector<Unit>{{Unit::Kind::kColumn, 8}}));
  ASSERT_EQ(NodeName(step.links.back().to), "(4)r2c9");
  Step cut = step;
  cut.links.pop_back();
  std::erase_if(cut.links, [&](const Link& link) {
    return link.to.digit == 4 && link.to.cells.size() == 1 && link.to.cells[0] % 9 == 8;
  });
  cut.links.push_back(step.links.back());
  EXPECT_EQ(UnprovenByShownLinks(cut, grid, candidates), "r6c9 keeps 4 in the links shown");
}

// A nested trial carries its whole refutation: r2c1 = 4 leaves r2c2 with 3 or 6, and each of
// those two branches reaches its contradiction by links of its own that start from the
// step's. Without a link of the step's that a branch rests on, or with a branch missing, the
// checker says what is no longer shown.
TEST(Logic, ANestedTrialShowsEachBranchToItsContradiction) {
  const Explanation explanation = Explain(ParseOrDie(testing::kNestedTrialPuzzle));
  Grid grid = ParseOrDie(testing::kNestedTrialPuzzle);
  Candidates candidates = InitialCandidates(grid);
  for (size_t i = 0; i < testing::kNestedTrialStep; ++i) {
    Apply(explanation.steps[i], &grid, &candidates);
  }
  const Step& step = explanation.steps[testing::kNestedTrialStep];
  ASSERT_EQ(step.technique, Technique::kTrial);
  EXPECT_EQ(step.variant, 2);
  EXPECT_EQ(step.cells, (std::vector<uint8_t>{9, 10}));  // r2c1, then r2c2
  EXPECT_EQ(step.digits, (std::vector<uint8_t>{4, 3, 6}));
  ASSERT_EQ(step.branches.size(), 2u);
  for (const TrialBranch& branch : step.branches) {
    EXPECT_EQ(branch.parent, -1);
    EXPECT_EQ(branch.nesting_cell, -1);
    EXPECT_EQ(branch.units, (std::vector<Unit>{{Unit::Kind::kRow, 3}}));
  }
  EXPECT_EQ(DescribeTrialBranch(step, 1).substr(0, 72),
            "r2c2 = 6 leads by singles to (6)r2c2-(6)r2c7; (6)r2c2-(6)r2c5; (4)r2c5=(");
  const std::string text = DescribeTrialBranch(step, 1);
  EXPECT_EQ(text.substr(text.size() - 66),
            "(7)r6c6-(7)r4c4; (7)r6c6-(7)r4c6, and 7 has no place left in row 4");
  EXPECT_EQ(UnprovenByShownLinks(step, grid, candidates), "");

  Step cut = step;  // the step's (8)r4c7-(7)r4c7: r4c7's 7 goes before either branch starts
  std::erase_if(cut.links, [](const Link& link) {
    return link.to.digit == 7 && link.to.cells == std::vector<uint8_t>{33};
  });
  ASSERT_EQ(cut.links.size() + 1, step.links.size());
  EXPECT_EQ(UnprovenByShownLinks(cut, grid, candidates),
            "branch 0 (r2c2 = 3): r4c7 keeps 7 in the links shown");
  cut = step;
  cut.branches.pop_back();
  EXPECT_EQ(UnprovenByShownLinks(cut, grid, candidates),
            "the top branches try other digits than the step names");
  cut.branches.clear();
  EXPECT_EQ(UnprovenByShownLinks(cut, grid, candidates), "no branches");
}

// HoDoKu's nice loops on its path: each case is the step HoDoKu 2.2.4's path takes there (its
// solution path, /vp, quoted), the same loop read the other way round at most.
TEST(Logic, HodokuPathTakesHodokusNiceLoops) {
  struct Case {
    const char* puzzle;
    size_t index;
    uint8_t variant;
    const char* hodoku;  // HoDoKu's step
    const char* expected;
  };
  const Case cases[] = {
      // Continuous Nice Loop: 4/7/8 8= r2c5 =7= r1c5 -7- r1c3 -8- r2c2 =8= r2c5 =7
      //   => r2c5<>4, r1c179<>7, r13c1,r3c23<>8
      {".9.2.6.5.5.13.92.6..........5.....8..26.9.43...3.1.6.............45.79..9.5.2.8.4", 13,
       1, "Continuous Nice Loop",
       "alternating inference chain p= e=r2c5#4,r1c1#7,r1c7#7,r1c9#7,r1c1#8,r3c1#8,r3c2#8,"
       "r3c3#8, u= c= d= v=1 l=(7)r1c5=(7)r2c5-(8)r2c5=(8)r2c2-(8)r1c3=(7)r1c3-(7)r1c5"},
      // Discontinuous Nice Loop: 1 r1c9 -1- r4c9 =1= r6c7 =8= r3c7 =3= r1c9 => r1c9<>1
      {"......2..3...8..49.....4.67.4.26..7.9.......4.7..49.3.85.1.....43..2...8..6......", 25,
       2, "Discontinuous Nice Loop",
       "alternating inference chain p= e=r1c9#1, u= c= d= v=2 l=(1)r1c9-(3)r1c9=(3)r3c7-"
       "(8)r3c7=(8)r6c7-(1)r6c7=(1)r4c9-(1)r1c9"},
      // Discontinuous Nice Loop: 4/8 r9c3 =1= r9c2 -1- r5c2 -6- r3c2 =6= r2c3 =1= r9c3
      //   => r9c3<>4, r9c3<>8
      {"....16..5.8.....9.7....2..8.5.2....1..29.34..3....1.8.9..1....4.7.....1.6..53....", 8,
       2, "Discontinuous Nice Loop",
       "alternating inference chain p= e=r9c3#4,r9c3#8, u= c= d= v=2 l=(1)r9c3=(1)r2c3-"
       "(6)r2c3=(6)r3c2-(6)r5c2=(1)r5c2-(1)r9c2=(1)r9c3"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.puzzle);
    const Explanation explanation = Explain(ParseOrDie(c.puzzle));
    ASSERT_LT(c.index, explanation.steps.size());
    const Step& step = explanation.steps[c.index];
    EXPECT_EQ(step.technique, Technique::kAic);
    EXPECT_EQ(step.variant, c.variant);
    EXPECT_EQ(HodokuName(step), c.hodoku);
    EXPECT_EQ(Compact(step), c.expected);
    ASSERT_FALSE(step.links.empty());
    EXPECT_EQ(step.links.front().from, step.links.back().to) << "a loop";
    const Result solved = SolveGrid(ParseOrDie(c.puzzle), Limits{.max_solutions = 2});
    ASSERT_EQ(solved.verdict, Verdict::kSolved);
    ExpectSoundReplay(c.puzzle, std::string(solved.solution.data(), kCells), explanation);
  }
  // Its texts: what the loop proves.
  const Explanation continuous = Explain(ParseOrDie(cases[0].puzzle));
  EXPECT_EQ(Describe(continuous.steps[cases[0].index]),
            "continuous nice loop: (7)r1c5=(7)r2c5-(8)r2c5=(8)r2c2-(8)r1c3=(7)r1c3-(7)r1c5 (a "
            "loop: each weak link holds both ways): removes 4 from r2c5; 7 from r1c179; 8 from "
            "r1c1,r3c123");
  const Explanation placing = Explain(ParseOrDie(cases[2].puzzle));
  EXPECT_EQ(Describe(placing.steps[cases[2].index]),
            "discontinuous nice loop: (1)r9c3=(1)r2c3-(6)r2c3=(6)r3c2-(6)r5c2=(1)r5c2-(1)r9c2="
            "(1)r9c3 ((1)r9c3 false leads to it true): removes 4 from r9c3; 8 from r9c3");
}

TEST(Logic, EachTechniqueIsTheExpectedStepOnItsFixture) {
  const std::string path = testing::TestPath("SUDOKU_TEST_DATA_DIR") + "/logic_steps.txt";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::set<std::string> techniques;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t bar = line.find('|'), next = line.find('|', bar + 1);
    ASSERT_NE(next, std::string::npos) << line;
    const std::string puzzle = line.substr(0, bar);
    const size_t index = std::stoul(line.substr(bar + 1, next - bar - 1));
    const std::string expected = line.substr(next + 1);
    const Explanation explanation = Explain(ParseOrDie(puzzle));
    ASSERT_LT(index, explanation.steps.size()) << puzzle;
    EXPECT_EQ(Compact(explanation.steps[index]), expected) << puzzle;
    techniques.insert(Name(explanation.steps[index].technique));
    Result solved = SolveGrid(ParseOrDie(puzzle), Limits{.max_solutions = 2});
    if (solved.verdict == Verdict::kMultiple) {
      // A choice: the steps still end in a solution, which no step read.
      EXPECT_EQ(SolveGrid(explanation.solution).verdict, Verdict::kSolved) << puzzle;
      continue;
    }
    ASSERT_EQ(solved.verdict, Verdict::kSolved);
    ExpectSoundReplay(puzzle, std::string(solved.solution.data(), kCells), explanation);
  }
  for (int t = 0; t < kTechniqueCount; ++t) {
    EXPECT_TRUE(techniques.count(Name(static_cast<Technique>(t))) ||
                t == static_cast<int>(Technique::kNakedSingle) ||
                t == static_cast<int>(Technique::kHiddenSingle) ||
                // SE's path only: SePathTakesWxyzWingsInSesOrder
                t == static_cast<int>(Technique::kWxyzWing))
        << Name(static_cast<Technique>(t)) << " has no fixture";
  }
}

// Puzzles replayed per shared set: the first ones of each file, fewer under the sanitizers
// (which run the solver some ten times slower) so that the test stays under a minute there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr size_t kReplayedPerSet = 20;
#else
constexpr size_t kReplayedPerSet = 300;
#endif

// Every puzzle of the shared sets (the first kReplayedPerSet of each file, the QQWing sets'
// easy levels ten times as many) explains soundly.
TEST(Logic, ReplaysTheSharedSets) {
  const auto files = testing::SharedDataFiles();
  if (files.empty()) GTEST_SKIP() << "no shared puzzle sets (SUDOKU_SHARED_DATA_DIR)";
  for (const std::string& file : files) {
    // The hardest sets are replayed whole, by HardestSetShard.
    if (file.find("hardest") != std::string::npos || file.find("magictour") != std::string::npos) {
      continue;
    }
    const bool easy = file.find("qqwing_") != std::string::npos &&
                      file.find("mixed") == std::string::npos &&
                      file.find("expert") == std::string::npos;
    const size_t limit = easy ? 10 * kReplayedPerSet : kReplayedPerSet;
    const auto lines = testing::ReadLines(file);
    for (size_t i = 0; i < lines.size() && i < limit; i += testing::PublicSetStride()) {
      const Grid grid = ParseOrDie(lines[i]);
      const Result solved = SolveGrid(grid, Limits{.max_solutions = 2});
      ASSERT_EQ(solved.verdict, Verdict::kSolved) << file << ": " << lines[i];
      ExpectSoundReplay(lines[i], std::string(solved.solution.data(), kCells), Explain(grid));
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// The shared hardest sets, every puzzle (under the sanitizers every 50th): each explanation
// replays soundly, so that every trial, its branches and every forcing chain are shown to
// their ends (UnprovenByShownLinks). Split in shards that ctest runs side by side.
constexpr int kHardestShards = 4;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr size_t kHardestStride = 50;
#else
constexpr size_t kHardestStride = 1;
#endif

class HardestSetShard : public ::testing::TestWithParam<int> {};

TEST_P(HardestSetShard, ReplaysEveryTrialAndChain) {
  int files = 0;
  size_t nested_trials = 0;
  for (const std::string& file : testing::SharedDataFiles()) {
    if (file.find("hardest") == std::string::npos && file.find("magictour") == std::string::npos) {
      continue;
    }
    ++files;
    const auto lines = testing::ReadLines(file);
    const size_t stride = kHardestStride * kHardestShards;
    for (size_t i = static_cast<size_t>(GetParam()) * kHardestStride; i < lines.size();
         i += stride) {
      const Grid grid = ParseOrDie(lines[i]);
      const Result solved = SolveGrid(grid, Limits{.max_solutions = 2});
      ASSERT_EQ(solved.verdict, Verdict::kSolved) << file << ": " << lines[i];
      const Explanation explanation = Explain(grid);
      for (const Step& step : explanation.steps) {
        nested_trials += step.technique == Technique::kTrial && step.variant >= 2;
      }
      ExpectSoundReplay(lines[i], std::string(solved.solution.data(), kCells), explanation);
      if (::testing::Test::HasFailure()) return;
    }
  }
  if (files == 0) GTEST_SKIP() << "no shared hardest sets (SUDOKU_SHARED_DATA_DIR)";
  EXPECT_GT(nested_trials, 0u);
}

INSTANTIATE_TEST_SUITE_P(Logic, HardestSetShard, ::testing::Range(0, kHardestShards));

// QQWing's own labels, for its generated sets: our level must match (see README, "Explain and
// rate"; tests/rate_qqwing.sh prints the confusion matrix).
TEST(Logic, LevelsMatchQqwingLabels) {
  int files = 0;
  for (const std::string& file : testing::SharedDataFiles()) {
    for (const char* level : {"simple", "easy", "intermediate", "expert"}) {
      if (file.find(std::string("qqwing_") + level + ".txt") == std::string::npos) continue;
      ++files;
      int agree = 0, total = 0;
      for (const std::string& line : testing::ReadLines(file)) {
        ++total;
        agree += Rate(ParseOrDie(line)).level == ParseLevel(level);
      }
      EXPECT_EQ(agree, total) << file;
    }
  }
  if (files == 0) GTEST_SKIP() << "no qqwing_* sets (SUDOKU_SHARED_DATA_DIR)";
}

TEST(Logic, NamesAndLevels) {
  EXPECT_STREQ(Name(Technique::kNakedSingle), "naked single");
  EXPECT_STREQ(Name(Technique::kXWing), "x-wing");
  EXPECT_STREQ(Name(Technique::kTrial), "trial");
  EXPECT_STREQ(Name(Level::kIntermediate), "intermediate");
  EXPECT_EQ(ParseLevel("expert"), Level::kExpert);
  EXPECT_EQ(ParseLevel("simple"), Level::kSimple);
  EXPECT_EQ(ParseLevel("Expert"), std::nullopt);
  EXPECT_EQ(ParseLevel(""), std::nullopt);
  EXPECT_EQ(LevelOf(Technique::kHiddenSingle), Level::kEasy);
  EXPECT_EQ(LevelOf(Technique::kHiddenPair), Level::kIntermediate);
  EXPECT_EQ(LevelOf(Technique::kNakedTriple), Level::kExpert);
  EXPECT_EQ(CellName(0), "r1c1");
  EXPECT_EQ(CellName(80), "r9c9");
  EXPECT_EQ(CellName(22), "r3c5");
}

// A naked single in the last open cell of a unit is HoDoKu's full house (variant 1, the unit):
// the last step of every explanation is one. Each step carries HoDoKu's and Sudoku Explainer's
// names beside its own.
TEST(Logic, ParseTechniqueReadsEveryNameBack) {
  for (int i = 0; i < kTechniqueCount; ++i) {
    const auto technique = static_cast<Technique>(i);
    EXPECT_EQ(ParseTechnique(Name(technique)), technique) << Name(technique);
  }
  EXPECT_EQ(ParseTechnique("xy-chain"), Technique::kXYChain);
  EXPECT_EQ(ParseTechnique("alternating inference chain"), Technique::kAic);
  EXPECT_EQ(ParseTechnique("bug+1"), Technique::kBugPlusOne);
  // Case-sensitive, and only the names as written.
  EXPECT_EQ(ParseTechnique("X-Wing"), std::nullopt);
  EXPECT_EQ(ParseTechnique("xy chain"), std::nullopt);
  EXPECT_EQ(ParseTechnique("aic"), std::nullopt);
  EXPECT_EQ(ParseTechnique("unknown"), std::nullopt);
  EXPECT_EQ(ParseTechnique(""), std::nullopt);
}

TEST(Logic, FullHouseAndTheOtherProgramsNames) {
  const Explanation explanation = Explain(ParseOrDie(testing::kWikipediaPuzzle));
  ASSERT_FALSE(explanation.steps.empty());
  const Step& last = explanation.steps.back();
  EXPECT_EQ(last.technique, Technique::kNakedSingle);
  EXPECT_EQ(last.variant, 1);
  ASSERT_EQ(last.units.size(), 1u);
  EXPECT_EQ(Describe(last), "full house: " + CellName(last.cells[0]) + " = " +
                                std::to_string(last.digits[0]) + " (the last open cell of " +
                                UnitName(last.units[0]) + ")");
  EXPECT_EQ(HodokuName(last), "Full House");
  EXPECT_EQ(SeName(last), "Hidden Single");

  Step step;
  step.technique = Technique::kNakedSingle;
  EXPECT_EQ(HodokuName(step), "Naked Single");
  EXPECT_EQ(SeName(step), "Naked Single");
  const std::vector<std::tuple<Technique, int, std::string, std::string>> names = {
      {Technique::kPointing, 0, "Locked Candidates Type 1 (Pointing)", "Pointing"},
      {Technique::kClaiming, 0, "Locked Candidates Type 2 (Claiming)", "Claiming"},
      {Technique::kNakedPair, 1, "Locked Pair", "Naked Pair"},
      {Technique::kNakedTriple, 0, "Naked Triple", "Naked Triplet"},
      {Technique::kNakedTriple, 1, "Locked Triple", "Naked Triplet"},
      {Technique::kHiddenTriple, 0, "Hidden Triple", "Hidden Triplet"},
      {Technique::kNakedQuad, 0, "Naked Quadruple", "Naked Quad"},
      {Technique::kHiddenQuad, 0, "Hidden Quadruple", "Hidden Quad"},
      {Technique::kJellyfish, 0, "Jellyfish", "Jellyfish"},
      {Technique::kFinnedFish, 2, "Finned X-Wing", ""},
      {Technique::kSashimiFish, 3, "Sashimi Swordfish", ""},
      {Technique::kFinnedFish, 4, "Finned Jellyfish", ""},
      {Technique::kRemotePair, 0, "Remote Pair", ""},
      {Technique::kTwoStringKite, 0, "2-String Kite", ""},
      {Technique::kTurbotFish, 0, "Turbot Fish", ""},
      {Technique::kSueDeCoq, 12, "Sue de Coq", ""},
      {Technique::kMultiColours, 1, "Multi Colors 1", ""},
      {Technique::kMultiColours, 2, "Multi Colors 2", ""},
      {Technique::kUniqueRectangle, 2, "Uniqueness Test 2", "Unique Rectangle type 2"},
      {Technique::kUniqueRectangle, 6, "Uniqueness Test 6", ""},
      // SE's, on its path only: 10 * the loop's cells + the type (5: type 3, a hidden subset).
      {Technique::kUniqueRectangle, 45, "Uniqueness Test 3", "Unique Rectangle type 3"},
      {Technique::kUniqueRectangle, 62, "", "Unique Loop 6 type 2"},
      {Technique::kUniqueRectangle, 84, "", "Unique Loop 8 type 4"},
      {Technique::kHiddenRectangle, 0, "Hidden Rectangle", ""},
      {Technique::kBugPlusOne, 0, "Bivalue Universal Grave + 1", "BUG type 1"},
      {Technique::kXYChain, 0, "XY-Chain", "Forcing Y-Chain"},
      {Technique::kAic, 0, "AIC", "Forcing Chain"},
      {Technique::kAlsXz, 0, "Almost Locked Set XZ-Rule", ""},
      {Technique::kWxyzWing, 3, "Almost Locked Set XZ-Rule", "WXYZ-Wing"},
      {Technique::kForcingChain, 0, "Forcing Chain Contradiction",
       "Dynamic Contradiction Forcing Chains"},
      {Technique::kForcingChain, 1, "Forcing Chain Verity", "Dynamic Cell Forcing Chains"},
      {Technique::kForcingChain, 2, "Forcing Chain Verity", "Dynamic Region Forcing Chains"},
      // SE's own chains, on its path only.
      {Technique::kForcingChain, 3, "Forcing Chain Contradiction", "Nishio Forcing Chains"},
      {Technique::kForcingChain, 4, "Forcing Chain Verity", "Cell Forcing Chains"},
      {Technique::kForcingChain, 5, "Forcing Chain Verity", "Region Forcing Chains"},
      {Technique::kForcingChain, 6, "Forcing Chain Contradiction",
       "Dynamic Contradiction Forcing Chains"},
      {Technique::kForcingChain, 7, "Forcing Chain Verity", "Dynamic Double Forcing Chains"},
      {Technique::kForcingChain, 9, "Forcing Chain Verity", "Dynamic Region Forcing Chains"},
      {Technique::kForcingChain, 10, "Forcing Chain Contradiction",
       "Dynamic Contradiction Forcing Chains (+)"},
      {Technique::kForcingChain, 12, "Forcing Chain Verity", "Dynamic Cell Forcing Chains (+)"},
      {Technique::kForcingChain, 14, "Forcing Chain Contradiction",
       "Dynamic Contradiction Forcing Chains (+ Forcing Chains)"},
      {Technique::kForcingChain, 17, "Forcing Chain Verity",
       "Dynamic Region Forcing Chains (+ Forcing Chains)"},
      {Technique::kForcingChain, 18, "Forcing Chain Contradiction",
       "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)"},
      {Technique::kForcingChain, 20, "Forcing Chain Verity",
       "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)"},
      {Technique::kTrial, 1, "Forcing Net Contradiction", "Dynamic Contradiction Forcing Chains"},
      {Technique::kTrial, 4, "Brute Force", "Nested Forcing Chains"},
  };
  for (const auto& [technique, variant, hodoku, se] : names) {
    step.technique = technique;
    step.variant = static_cast<uint8_t>(variant);
    EXPECT_EQ(HodokuName(step), hodoku) << Name(technique);
    EXPECT_EQ(SeName(step), se) << Name(technique);
  }
  // Simple colouring: a removal from a coloured cell is a wrap, else a trap.
  step = Step{};
  step.technique = Technique::kSimpleColouring;
  step.variant = 1;
  step.cells = {0, 10};
  step.digits = {5};
  step.eliminations = {{20, 5}};
  EXPECT_EQ(HodokuName(step), "Simple Colors Trap");
  step.eliminations = {{10, 5}};
  EXPECT_EQ(HodokuName(step), "Simple Colors Wrap");
}

// HoDoKu looks for a unique rectangle of each type over every rectangle before the next type,
// the rectangles from each bivalue cell in turn: here a type 1 from r1c5, where the first
// rectangle by rows (r12c48) has a type 4. HoDoKu 2.2.4's path takes the same steps
// ("Uniqueness Test 1: 2/7 in r1c45,r5c45 => r1c4<>2, r1c4<>7", then the type 4).
TEST(Logic, UniqueRectanglesComeTypeByTypeInHodokusOrder) {
  const std::string puzzle =
      ".....4...2...6.3...1..5.......3...2.4....19...7.68.1.485...2..1....97..8..7......";
  const Explanation explanation = Explain(ParseOrDie(puzzle));
  ASSERT_GT(explanation.steps.size(), 21u);
  const Step& step = explanation.steps[21];
  EXPECT_EQ(Describe(step),
            "unique rectangle type 1: r1c5,r5c45 hold only 2 7, so r1c4 must not (else two "
            "solutions): removes 2 from r1c4; 7 from r1c4");
  EXPECT_EQ(HodokuName(step), "Uniqueness Test 1");
  // That step took 7 from r1c4; HoDoKu still counts r12c48 a rectangle on 1 7 (no placed 7
  // rules r1c4 out), and so does its path here: "Uniqueness Test 4: 1/7 in r1c48,r2c48 =>
  // r1c8<>7".
  EXPECT_EQ(Describe(explanation.steps[22]),
            "unique rectangle type 4: r12c48 on 1 7 (else two solutions): 1 in row 1 lies only "
            "in r1c48: removes 7 from r1c8");
}

TEST(Logic, UnsolvableAndMultiple) {
  const Grid unsolvable = ParseOrDie(
      kUnsolvable);
  const Explanation none = Explain(unsolvable);
  EXPECT_EQ(none.verdict, Verdict::kUnsolvable);
  EXPECT_TRUE(none.steps.empty());
  EXPECT_EQ(Rate(unsolvable).verdict, Verdict::kUnsolvable);

  // The empty grid: explained along the first solution, with guesses.
  const Grid empty{};
  const Explanation many = Explain(empty);
  EXPECT_EQ(many.verdict, Verdict::kMultiple);
  EXPECT_GT(many.logic_guesses, 0u);
  Grid grid{};
  Candidates candidates = InitialCandidates(grid);
  for (const Step& step : many.steps) Apply(step, &grid, &candidates);
  EXPECT_EQ(grid, many.solution);
  std::string text;
  for (uint8_t digit : grid) text += static_cast<char>('0' + digit);
  EXPECT_EQ(SolveGrid(grid).verdict, Verdict::kSolved) << text;
  EXPECT_EQ(std::count(grid.begin(), grid.end(), 0), 0);
}

// A player's notes as the page sends them: the candidates left after `steps` steps of
// `explanation` from `grid`, a placed cell as its one candidate. Null when a cell still open has
// one candidate left (a naked single not taken yet), which the state would show as placed.
std::optional<CandidateGrid> StateAfter(const Grid& puzzle, const Explanation& explanation,
                                        size_t steps) {
  Grid grid = puzzle;
  Candidates candidates = InitialCandidates(grid);
  for (size_t i = 0; i < steps; ++i) Apply(explanation.steps[i], &grid, &candidates);
  CandidateGrid state{};
  for (int cell = 0; cell < kCells; ++cell) {
    if (!grid[cell] && std::popcount(candidates[cell]) == 1) return std::nullopt;
    state[cell] = candidates[cell];
  }
  return state;
}

// Explained from a state that steps of its own explanation reached, a puzzle goes on with the
// rest of those steps, one for one: nothing the state already shows is offered again, and the
// steps are those a walk from the givens takes from there.
TEST(Logic, ExplainingFromCandidatesGoesOnWhereTheStepsLeftOff) {
  int checked = 0;
  for (const auto& fixture : testing::LoadFixtures("solver_puzzles.txt")) {
    if (fixture.count != "1") continue;
    const Grid puzzle = ParseOrDie(fixture.puzzle);
    const Explanation whole = Explain(puzzle);
    for (size_t at = whole.steps.size() / 2; at < whole.steps.size(); ++at) {
      const std::optional<CandidateGrid> state = StateAfter(puzzle, whole, at);
      if (!state) continue;
      SCOPED_TRACE(fixture.puzzle + " from step " + std::to_string(at + 1));
      const Explanation rest = Explain(*state);
      EXPECT_EQ(rest.verdict, Verdict::kSolved);
      EXPECT_EQ(rest.solution, whole.solution);
      ASSERT_EQ(rest.steps.size(), whole.steps.size() - at);
      for (size_t i = 0; i < rest.steps.size(); ++i) {
        EXPECT_EQ(Compact(rest.steps[i]), Compact(whole.steps[at + i])) << "step " << i + 1;
      }
      EXPECT_EQ(Walk(*state, Preference::kHodoku, nullptr).steps, rest.steps.size());
      ++checked;
      break;
    }
  }
  EXPECT_GT(checked, 10);
}

// A candidate state: single candidates are placed digits and take their digit from their
// peers; singles that clash, or a cell left without a candidate, leave nothing to explain.
TEST(Logic, ExplainingFromCandidatesPlacesSinglesAndRefusesContradictions) {
  const Grid puzzle = ParseOrDie(testing::kWikipediaPuzzle);
  CandidateGrid state{};
  for (int cell = 0; cell < kCells; ++cell) {
    state[cell] = puzzle[cell] ? static_cast<uint16_t>(1u << (puzzle[cell] - 1)) : 0x1ff;
  }
  // Every digit in every open cell: the givens still rule their peers out.
  EXPECT_EQ(PlacedCells(state), puzzle);
  EXPECT_EQ(InitialCandidates(state), InitialCandidates(puzzle));
  const Explanation from_state = Explain(state);
  const Explanation from_givens = Explain(puzzle);
  ASSERT_EQ(from_state.steps.size(), from_givens.steps.size());
  for (size_t i = 0; i < from_state.steps.size(); ++i) {
    EXPECT_EQ(Compact(from_state.steps[i]), Compact(from_givens.steps[i]));
  }
  Grid grid{};
  Candidates candidates{};
  ASSERT_TRUE(ExplanationStart(std::string(81, '.'), &grid, &candidates));
  EXPECT_EQ(candidates[0], 0x1ff);
  EXPECT_FALSE(ExplanationStart(std::string(728, '1'), &grid, &candidates));

  CandidateGrid clash = state;
  clash[2] = 1u << 4;  // r1c3 holds 5, as r1c1 does
  EXPECT_EQ(Explain(clash).verdict, Verdict::kUnsolvable);
  EXPECT_TRUE(Explain(clash).steps.empty());
  int cell = -1;
  EXPECT_EQ(ImmediateContradiction(clash, &cell), "r1c3 holds only 5, as r1c1 does, in row 1");
  EXPECT_EQ(cell, 2);
  CandidateGrid emptied = state;
  emptied[2] = (1u << 4) | (1u << 2);  // r1c3 holds only 5 and 3, which r1c1 and r1c2 hold
  EXPECT_EQ(Explain(emptied).verdict, Verdict::kUnsolvable);
  EXPECT_EQ(Walk(emptied, Preference::kHodoku, nullptr).verdict, Verdict::kUnsolvable);
  EXPECT_EQ(ImmediateContradiction(emptied, &cell),
            "r1c3 has no candidate left: 3 5 are placed among its peers (r1c2, r1c1)");
  // The solution's 5 struck from r5c5, which the givens leave only 5: seen at once.
  CandidateGrid struck = state;
  struck[4 * 9 + 4] &= static_cast<uint16_t>(~(1u << 4));
  EXPECT_EQ(Explain(struck).verdict, Verdict::kUnsolvable);
  EXPECT_EQ(ImmediateContradiction(struck, &cell),
            "r5c5 has no candidate left: 1 2 3 4 6 7 8 9 are placed among its peers (r5c9, r6c5, "
            "r5c6, r5c1, r4c5, r1c5, r5c4, r2c5)");
  EXPECT_EQ(cell, 4 * 9 + 4);
  // The solution's 4 struck from r1c3, which keeps 1 and 2: no solution, nothing seen at once.
  CandidateGrid deeper = state;
  deeper[2] &= static_cast<uint16_t>(~(1u << 3));
  EXPECT_EQ(Explain(deeper).verdict, Verdict::kUnsolvable);
  EXPECT_EQ(ImmediateContradiction(deeper, &cell), "");
}

// HoDoKu's order takes a naked triple before a hidden pair; QQWing knows pairs and no triples.
// A puzzle whose path takes a triple is still intermediate when pairs solve it.
TEST(Logic, QqwingLevelIsWhatItsPairsSolve) {
  const Grid grid = ParseOrDie(
      "2.....3.4.....1.8.3........7..36......4....9.....2.....8.9......5....2.....7..6..");
  const Rating rating = Rate(grid);
  EXPECT_GT(rating.hardest, Technique::kHiddenPair);
  EXPECT_EQ(LevelOf(rating.hardest), Level::kExpert);
  EXPECT_EQ(rating.level, Level::kIntermediate);
  EXPECT_EQ(QqwingLevel(grid, Technique::kHiddenPair), Level::kIntermediate);
  EXPECT_EQ(QqwingLevel(grid, Technique::kTrial), Level::kExpert);
  // A puzzle that needs chains needs more than pairs.
  const Grid hard = ParseOrDie(
      "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........");
  EXPECT_EQ(QqwingLevel(hard, Technique::kNakedTriple), Level::kExpert);
}

// The leveler's pairs check starts where the path first went past QQWing's techniques, and
// finds what the check from the givens finds: intermediate and expert both among the fixtures
// whose paths go past pairs, and the technique's own level where they do not.
TEST(Logic, QqwingLevelerAgreesWithTheCheckFromTheGivens) {
  int intermediate = 0;
  int expert = 0;
  for (const auto& fixture : testing::LoadFixtures("solver_puzzles.txt")) {
    if (fixture.count != "1") continue;
    const Grid grid = ParseOrDie(fixture.puzzle);
    QqwingLeveler leveler(grid);
    EXPECT_EQ(leveler.Result(), Level::kSimple) << fixture.puzzle;  // no step yet
    Technique hardest = Technique::kNakedSingle;
    for (const Step& step : Explain(grid).steps) {
      leveler.Add(step);
      hardest = std::max(hardest, step.technique);
    }
    const Level level = QqwingLevel(grid, hardest);
    EXPECT_EQ(leveler.Result(), level) << fixture.puzzle;
    if (hardest > Technique::kHiddenPair && hardest != Technique::kTrial) {
      intermediate += level == Level::kIntermediate;
      expert += level == Level::kExpert;
    } else {
      EXPECT_EQ(level, LevelOf(hardest)) << fixture.puzzle;
    }
  }
  EXPECT_GT(intermediate, 0);
  EXPECT_GT(expert, 0);
  // The puzzle of QqwingLevelIsWhatItsPairsSolve: a triple on the path, pairs solve it.
  const Grid grid = ParseOrDie(
      "2.....3.4.....1.8.3........7..36......4....9.....2.....8.9......5....2.....7..6..");
  QqwingLeveler leveler(grid);
  for (const Step& step : Explain(grid).steps) leveler.Add(step);
  EXPECT_EQ(leveler.Result(), Level::kIntermediate);
}

// The path rated for SE takes Sudoku Explainer's wings as serate 1.18.1 does on these puzzles
// ("WXYZ-Wing 139: Cells r3c7,r8c7,r9c7,r1c9 on value 3", then 138 on 5, then "137: Cells
// r1c4,r2c6,r3c6,r4c6 on value 8", the bivalue cell last: SE's easiest first, then the one
// removing most, then the greater name, then the first cells; then, past its 7.1 forcing chain,
// "VWXYZ-Wing 1310: Cells r2c6,r3c6,r4c6,r8c6,r7c4 on value 4"); HoDoKu's never does.
TEST(Logic, SePathTakesWxyzWingsInSesOrder) {
  const std::string puzzle =
      "6....97.........1...83.........4...21895...367.2............251.5..........2.7.8.";
  const Grid grid = ParseOrDie(puzzle);
  std::vector<std::string> wings;
  const Explanation se_path = Explain(grid, Preference::kEasiestSe);
  for (const Step& step : se_path.steps) {
    if (step.technique == Technique::kWxyzWing) wings.push_back(Describe(step));
  }
  const Result solved = SolveGrid(grid);
  ExpectSoundReplay(puzzle, std::string(solved.solution.data(), kCells), se_path);
  EXPECT_EQ(wings, (std::vector<std::string>{
                       "wxyz-wing: r389c7 in column 7 and r1c9, restricted common 5, both "
                       "holding 3: removes 3 from r2c7,r9c9",
                       "wxyz-wing: r1c23,r2c3 in box 1 and r2c6, restricted common 4, both "
                       "holding 5: removes 5 from r2c1",
                       "wxyz-wing: r1c4,r23c6 in box 2 and r4c6, restricted common 1, both "
                       "holding 8: removes 8 from r6c4",
                       "vwxyz-wing: r2348c6 in column 6 and r7c4, restricted common 6, both "
                       "holding 4: removes 4 from r1c4,r7c6"}));
  for (const Step& step : Explain(grid).steps) EXPECT_NE(step.technique, Technique::kWxyzWing);
  // A set of four cells: serate's "VWXYZ-Wing 1412: Cells r7c7,r8c7,r8c8,r8c9,r7c2 on value 8".
  const std::string vwxyz =
      "...8..9...93..1.758................3..76.5...36.........42....1..1.94....7.1...5.";
  std::vector<std::string> larger;
  for (const Step& step : Explain(ParseOrDie(vwxyz), Preference::kEasiestSe).steps) {
    if (step.technique == Technique::kWxyzWing && step.cells.size() == 5) {
      larger.push_back(Describe(step));
      EXPECT_EQ(SeName(step), "VWXYZ-Wing");
    }
  }
  EXPECT_EQ(larger, (std::vector<std::string>{
                        "vwxyz-wing: r7c7,r8c789 in box 9 and r7c2, restricted common 3, both "
                        "holding 8: removes 8 from r7c8,r8c2"}));
}

// The path rated for SE takes Sudoku Explainer's unique loops as serate 1.18.1 does on these
// puzzles ("Unique Loop 6 type 2: Cells r4c5,r6c5,r6c3,r5c3,r5c9,r4c9 on 3, 6", its 4.6, where
// without loops the path went on to 5.6; "Unique Loop 6 type 3: Cells r2c1,r2c2,r7c2,r7c5,
// r8c5,r8c1 on 2, 7", by a hidden pair; "Unique Loop 8 type 2: Cells r1c7,r1c9,r4c9,r4c4,r5c4,
// r5c8,r8c8,r8c7 on 3, 7", 4.7): the cells in SE's loop order, rated as SE rates them. HoDoKu's
// path has no loop.
TEST(Logic, SePathTakesUniqueLoopsAsSeDoes) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {".......52....2.8...61..5.3..491.........7....7.....489.....7.2...2.56..43.8......",
       "Unique Loop 6 type 2: r4c5-r6c5-r6c3-r5c3-r5c9-r4c9 on 3 6 (else two solutions): "
       "r4c9,r5c39 hold 5 besides, one of them is it: removes 5 from r5c7"},
      {"16.7.2.........4.5...96......84...23........859.1.....3.4..9.........5..9..8....7",
       "Unique Loop 6 type 3: r2c1-r2c2-r7c2-r7c5-r8c5-r8c1 on 2 7 (else two solutions): one "
       "of r78c5 holds another digit, and 2 7 lie in box 8, but for r8c5, only in r7c5 and "
       "r9c5, a hidden subset: removes 1 from r9c5"},
      {"8....1.....12........93.2...............196....3..4..85.4.7..2.........4738..615.",
       "Unique Loop 8 type 2: r1c7-r1c9-r4c9-r4c4-r5c4-r5c8-r8c8-r8c7 on 3 7 (else two "
       "solutions): r45c4 hold 5 besides, one of them is it: removes 5 from r1c4,r6c45"},
  };
  for (const auto& [puzzle, expected] : cases) {
    const Grid grid = ParseOrDie(puzzle);
    const Explanation se_path = Explain(grid, Preference::kEasiestSe);
    ExpectSoundReplay(puzzle, std::string(SolveGrid(grid).solution.data(), kCells), se_path);
    std::vector<std::string> loops;
    for (const Step& step : se_path.steps) {
      if (step.technique != Technique::kUniqueRectangle) continue;
      loops.push_back(Describe(step));
      const size_t size = step.variant / 10;
      EXPECT_EQ(step.se_tenths, size == 6 ? 46 : 47) << puzzle;
      // Every loop cell holds a and b, and each shares a unit with the next.
      for (size_t i = 0; i < size; ++i) {
        const int cell = step.cells[i], next = step.cells[(i + 1) % size];
        EXPECT_TRUE(cell / 9 == next / 9 || cell % 9 == next % 9 ||
                    (cell / 27 == next / 27 && cell % 9 / 3 == next % 9 / 3))
            << CellName(cell) << " " << CellName(next);
      }
    }
    EXPECT_EQ(loops, std::vector<std::string>{expected}) << puzzle;
    for (const Step& step : Explain(grid).steps) {
      EXPECT_FALSE(step.technique == Technique::kUniqueRectangle && step.variant >= 10);
    }
  }
  const Explanation first = Explain(ParseOrDie(cases[0].first), Preference::kEasiestSe);
  for (const Step& step : first.steps) {
    if (step.technique != Technique::kUniqueRectangle) continue;
    EXPECT_EQ(step.variant, 62);
    EXPECT_EQ(step.eliminations, (std::vector<CellDigit>{{4 * 9 + 6, 5}}));
    EXPECT_EQ(SeName(step), "Unique Loop 6 type 2");
  }
}

// SE's direct techniques place the single they leave and remove nothing, as serate 1.18.1
// does ("Direct Hidden Triplet: Cells r5c6,r6c5,r6c6: 2,4,7 in block", then "Claiming: Cells
// r4c5,r4c6: 5 in row and block", its 2.8): had the triple's removals been made, 5 would have
// left box 5's other cells before, and the path would have gone on by a pointing (2.6).
TEST(Logic, SePathsDirectStepsPlaceTheirSingleAndRemoveNothing) {
  const std::string puzzle =
      ".........496...2...2....867..46..172.1..8..........9..8.......6.42..9.5.....2879.";
  const Grid grid = ParseOrDie(puzzle);
  const Explanation se_path = Explain(grid, Preference::kEasiestSe);
  ExpectSoundReplay(puzzle, std::string(SolveGrid(grid).solution.data(), kCells), se_path);
  std::vector<std::string> past_singles;
  for (const Step& step : se_path.steps) {
    if (step.technique > Technique::kHiddenSingle) past_singles.push_back(Describe(step));
    if (step.variant == 1 && step.technique == Technique::kHiddenTriple) {
      EXPECT_TRUE(step.eliminations.empty());
      EXPECT_EQ(step.placements, (std::vector<CellDigit>{{5 * 9 + 3, 1}}));
    }
  }
  EXPECT_EQ(past_singles,
            (std::vector<std::string>{
                "hidden triple: 2 4 7 go only in r5c6,r6c56 in box 5: so 1 has one place left "
                "in box 5: r6c4 = 1",
                "claiming: 5 in row 4 lies only in box 5 (r4c56): removes 5 from r5c46,r6c56"}));
}

// The path rated for SE takes Sudoku Explainer's strong links as serate 1.18.1 does on these
// puzzles: "3 Skyscrapers 0111: Cell r3c6,r3c9,r9c9,r9c3,r4c3,r4c5 on value 8" (5.4), "3-String
// Kite 0112: Cell r3c1,r3c4,r8c4,r8c7,r9c8,r2c8 on value 7" (5.5, after its 2-string kite),
// then "Grouped 2 Strong links 101: Cell r4c2,r6c1,r6c7,r8c7 on value 2"; "Grouped 2 Strong
// links 101: Cell r8c8,r7c9,r7c4,r6c4 on value 7", "Grouped Skyscraper 111: Cell r3c8,r3c4,
// r7c4,r7c8 on value 5", "(3 Strong Links) Grouped X-Loop 1012: Cell r1c5,r3c4,r7c4,r7c8,r9c7,
// r1c7 on value 5" (5.7) and "2 Strong links 001: Cell r9c6,r7c4,r7c9,r5c9 on value 5". HoDoKu's
// path never does.
TEST(Logic, SePathTakesSesStrongLinks) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> puzzles = {
      {".7.........45..3..9.6....1.2....493.4............9..67.2.....7....81....61....29.",
       {"Skyscraper 011: 5 in column 2, column 9: (5)r6c2=(5)r3c2-(5)r3c9=(5)r4c9: removes 5 "
        "from r4c3",
        "3 Skyscrapers 0111: 8 in row 3, row 9, row 4: (8)r3c6=(8)r3c9-(8)r9c9=(8)r9c3-(8)r4c3="
        "(8)r4c5: removes 8 from r1c5,r6c6"}},
      {"....8.31...2..6..4..8.43.255.31..49.4.....1.....8......7.....3.....51..6...4.....",
       {"2-String Kite 012: 7 in row 8, column 8: (7)r8c4=(7)r8c7-(7)r9c8=(7)r2c8: removes 7 "
        "from r2c4",
        "3-String Kite 0112: 7 in row 3, row 8, column 8: (7)r3c1=(7)r3c4-(7)r8c4=(7)r8c7-(7)r9c8="
        "(7)r2c8: removes 7 from r2c1",
        "Grouped 2 Strong links 101: 2 in column 7, box 4: (2)r8c7=(2)r6c7-(2)r6c1=(2)r456c2: "
        "removes 2 from r8c2"}},
      {"...4...23.......8.1.7..8.....5...16.42.............9.238..162..6..2....8..4.3....",
       {"Grouped 2 Strong links 101: 7 in column 4, box 9: (7)r6c4=(7)r7c4-(7)r7c89=(7)r8c8: "
        "removes 7 from r6c8",
        "Grouped Skyscraper 111: 5 in row 3, row 7: (5)r3c8=(5)r3c4-(5)r7c4=(5)r7c89: removes 5 "
        "from r8c8",
        "(3 Strong Links) Grouped X-Loop 1012: 5 in row 7, column 7, box 2: (5)r7c4=(5)r7c89-"
        "(5)r9c7=(5)r1c7-(5)r1c5=(5)r3c4-(5)r7c4 (a loop: each weak link holds both ways): "
        "removes 5 from r6c4",
        "2 Strong links 001: 5 in column 9, box 8: (5)r5c9=(5)r7c9-(5)r7c4=(5)r9c6: removes 5 "
        "from r5c6"}},
  };
  const std::vector<int> tenths = {40, 54, 41, 55, 43, 43, 43, 57, 41};
  std::vector<int> rated;
  for (const auto& [puzzle, expected] : puzzles) {
    SCOPED_TRACE(puzzle);
    const Grid grid = ParseOrDie(puzzle);
    const Explanation se_path = Explain(grid, Preference::kEasiestSe);
    std::vector<std::string> links;
    Grid board = grid;
    Candidates candidates = InitialCandidates(grid);
    for (const Step& step : se_path.steps) {
      if (step.technique != Technique::kXChain || step.variant < 3) {
        Apply(step, &board, &candidates);
        continue;
      }
      // Each strong link's nodes hold every place of the digit in its unit (units, in chain
      // order), each weak link's lie in one unit (the units after them).
      const size_t size = (step.links.size() + 1) / 2;
      const int digit = step.digits.at(0);
      for (size_t i = 0; i < step.links.size(); ++i) {
        const Link& link = step.links[i];
        std::vector<int> cells(link.from.cells.begin(), link.from.cells.end());
        cells.insert(cells.end(), link.to.cells.begin(), link.to.cells.end());
        for (int cell : cells) EXPECT_TRUE(Has(candidates, cell, digit)) << CellName(cell);
        const std::vector<int> unit = CellsOf(step.units.at(i % 2 == 0 ? i / 2 : size + i / 2));
        for (int cell : cells) EXPECT_NE(std::find(unit.begin(), unit.end(), cell), unit.end());
        if (i % 2 != 0) continue;
        for (int cell : unit) {
          EXPECT_TRUE(!Has(candidates, cell, digit) ||
                      std::find(cells.begin(), cells.end(), cell) != cells.end())
              << CellName(cell);
        }
      }
      Apply(step, &board, &candidates);
      links.push_back(Describe(step));
      rated.push_back(step.se_tenths);
      EXPECT_EQ(SeName(step), links.back().substr(0, links.back().find(':')));
      // Strong and weak in turn, each going on from the last; a loop back to its start.
      for (size_t i = 0; i < step.links.size(); ++i) {
        EXPECT_EQ(step.links[i].strong, i % 2 == 0);
        if (i > 0) {
          EXPECT_EQ(step.links[i].from, step.links[i - 1].to);
        }
      }
      EXPECT_EQ(step.variant == 4, step.links.back().to == step.links.front().from);
    }
    EXPECT_EQ(links, expected);
    const Result solved = SolveGrid(grid);
    ExpectSoundReplay(puzzle, std::string(solved.solution.data(), kCells), se_path);
    for (const Step& step : Explain(grid).steps) {
      EXPECT_FALSE(step.technique == Technique::kXChain && step.variant >= 3);
    }
  }
  EXPECT_EQ(rated, tenths);
}

// SE has no finned fish and no simple colouring: its chains find their removals, rated by
// their length (serate 1.18.1 rates this puzzle 7.9 through them). HoDoKu's path takes four
// finned fish here; the path rated for SE takes none of them, nor a colouring.
TEST(Logic, SePathTakesNoFinnedFishNorColouring) {
  const Grid grid = ParseOrDie(
      ".9.68.......4...2..75.1....1.....36......87...6.93..8.92......73..2......17......");
  const auto count = [](const Explanation& explanation, std::initializer_list<Technique> kinds) {
    return std::count_if(explanation.steps.begin(), explanation.steps.end(), [&](const Step& s) {
      return std::find(kinds.begin(), kinds.end(), s.technique) != kinds.end();
    });
  };
  EXPECT_EQ(count(Explain(grid), {Technique::kFinnedFish}), 4);
  EXPECT_EQ(count(Explain(grid, Preference::kEasiestSe),
                  {Technique::kFinnedFish, Technique::kSashimiFish, Technique::kSimpleColouring}),
            0);
}

TEST(Logic, RateAgreesWithExplain) {
  for (const auto& fixture : testing::LoadFixtures("solver_puzzles.txt")) {
    if (fixture.count != "1") continue;
    const Grid grid = ParseOrDie(fixture.puzzle);
    const Explanation explanation = Explain(grid);
    const Rating rating = Rate(grid);
    Technique hardest = Technique::kNakedSingle;
    for (const Step& step : explanation.steps) hardest = std::max(hardest, step.technique);
    EXPECT_EQ(rating.steps, explanation.steps.size()) << fixture.puzzle;
    EXPECT_EQ(rating.hardest, hardest) << fixture.puzzle;
    EXPECT_EQ(rating.level, QqwingLevel(grid, hardest)) << fixture.puzzle;
    EXPECT_EQ(rating.guesses, SolveGrid(grid, Limits{.max_solutions = 2}).guesses)
        << fixture.puzzle;
  }
}

}  // namespace
}  // namespace sudoku::logic
