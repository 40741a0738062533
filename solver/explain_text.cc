#include "solver/explain_text.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <vector>

#include "solver/logic_board.h"

namespace sudoku::logic {
namespace {

// "rows 2, 5" / "columns 3, 8": the lines of a fish, all of one kind.
std::string LineNames(const std::vector<Unit>& units, size_t from, size_t count) {
  std::string text = units[from].kind == Unit::Kind::kRow ? "rows " : "columns ";
  for (size_t i = from; i < from + count; ++i) {
    if (i > from) text += ", ";
    text += std::to_string(units[i].index + 1);
  }
  return text;
}

// Cells grouped one way: `line` of a cell is its row (by rows) or its column, `across` the other.
// Lines holding the same set of cells across share one group, "r13c45" by rows, in the order
// their first line comes.
std::vector<std::pair<uint16_t, uint16_t>> GroupCells(const std::vector<uint8_t>& cells,
                                                      bool by_rows) {
  std::array<uint16_t, 9> across_of_line{};
  for (uint8_t cell : cells) {
    const int line = by_rows ? cell / 9 : cell % 9, across = by_rows ? cell % 9 : cell / 9;
    across_of_line[static_cast<size_t>(line)] |= static_cast<uint16_t>(1u << across);
  }
  std::vector<std::pair<uint16_t, uint16_t>> groups;  // (lines, across) as bit masks
  for (int line = 0; line < 9; ++line) {
    const uint16_t across = across_of_line[static_cast<size_t>(line)];
    if (!across) continue;
    auto same = std::find_if(groups.begin(), groups.end(),
                             [&](const auto& group) { return group.second == across; });
    if (same == groups.end()) same = groups.insert(groups.end(), {0, across});
    same->first |= static_cast<uint16_t>(1u << line);
  }
  return groups;
}

// HoDoKu's compact notation: "r9c128" for r9c1, r9c2, r9c8; "r13c45" for the four corners of
// rows 1, 3 and columns 4, 5; groups separated by commas ("r2c4,r3c56"), by rows or by
// columns, whichever takes fewer groups (rows on a tie).
std::string CellList(const std::vector<uint8_t>& cells) {
  const auto rows = GroupCells(cells, true);
  const auto columns = GroupCells(cells, false);
  const bool by_rows = rows.size() <= columns.size();
  std::string text;
  for (const auto& [lines, across] : by_rows ? rows : columns) {
    if (!text.empty()) text += ',';
    const uint16_t row_mask = by_rows ? lines : across, column_mask = by_rows ? across : lines;
    text += 'r';
    for (int i = 0; i < 9; ++i) {
      if (row_mask >> i & 1) text += static_cast<char>('1' + i);
    }
    text += 'c';
    for (int i = 0; i < 9; ++i) {
      if (column_mask >> i & 1) text += static_cast<char>('1' + i);
    }
  }
  return text;
}

std::vector<uint8_t> SortedDigits(std::vector<uint8_t> digits) {
  std::sort(digits.begin(), digits.end());
  return digits;
}

std::string DigitList(const std::vector<uint8_t>& digits) {
  std::string text;
  for (uint8_t digit : digits) {
    if (!text.empty()) text += ' ';
    text += std::to_string(digit);
  }
  return text;
}

// "removes 2 from r4c7; 8 from r4c7, r4c9": eliminations grouped by digit.
std::string Removals(const std::vector<CellDigit>& eliminations) {
  std::map<int, std::vector<uint8_t>> by_digit;
  for (const CellDigit& e : eliminations) by_digit[e.digit].push_back(e.cell);
  std::string text = "removes ";
  bool first = true;
  for (const auto& [digit, cells] : by_digit) {
    if (!first) text += "; ";
    first = false;
    text += std::to_string(digit) + " from " + CellList(cells);
  }
  return text;
}

std::string Placement(const CellDigit& placement) {
  return CellName(placement.cell) + " = " + std::to_string(placement.digit);
}

// What an intersection or hidden subset concludes: its removals, or, of SE's direct kind
// (variant 1), the single they leave, placed (the last unit), the removals left undone.
std::string Outcome(const Step& step) {
  if (step.variant != 1) return Removals(step.eliminations);
  const CellDigit& single = step.placements[0];
  return "so " + std::to_string(single.digit) + " has one place left in " +
         UnitName(step.units.back()) + ": " + Placement(single);
}

std::string Cells(const Step& step, size_t from, size_t count) {
  return CellList(std::vector<uint8_t>(step.cells.begin() + static_cast<long>(from),
                                       step.cells.begin() + static_cast<long>(from + count)));
}

// "r2c3 holds 4 7": a cell and the candidates named by two or three of the step's digits.
std::string Holds(int cell, std::initializer_list<int> digits) {
  std::string text = CellName(cell) + " holds";
  for (int digit : digits) {
    text += ' ';
    text += std::to_string(digit);
  }
  return text;
}

// Each chain of `links`: a chain starts again where a link does not go on from the last.
std::vector<std::pair<size_t, size_t>> ChainRanges(const std::vector<Link>& links) {
  std::vector<std::pair<size_t, size_t>> ranges;
  for (size_t i = 0; i < links.size(); ++i) {
    if (i == 0 || !(links[i].from == links[i - 1].to)) ranges.push_back({i, i});
    ranges.back().second = i + 1;
  }
  return ranges;
}

// "(4)r2c3=(4)r2c7-(4)r6c7" for the links [from, to).
std::string Chain(const std::vector<Link>& links, size_t from, size_t to) {
  if (from >= to) return "";
  std::string text = NodeName(links[from].from);
  for (size_t i = from; i < to; ++i) {
    text += links[i].strong ? "=" : "-";
    text += NodeName(links[i].to);
  }
  return text;
}

std::string WholeChain(const std::vector<Link>& links) { return Chain(links, 0, links.size()); }

// A net of implications: its chains (ChainRanges) separated by "; ", each starting again where
// a link does not go on from the one before.
std::string ChainsOf(const std::vector<Link>& links) {
  std::string text;
  for (const auto& [from, to] : ChainRanges(links)) {
    if (from > 0) text += "; ";
    text += Chain(links, from, to);
  }
  return text;
}

// How a contradiction ends: the last link's candidate was the cell's last, or (with a unit)
// the digit's last place in the unit.
std::string ContradictionText(const std::vector<Link>& links, const std::vector<Unit>& units) {
  if (links.empty()) return "a contradiction";
  const Node& last = links.back().to;
  if (!units.empty()) {
    return std::to_string(last.digit) + " has no place left in " + UnitName(units[0]);
  }
  return CellName(last.cells[0]) + " has no candidate left";
}

// "r2c2 with 3 or 6": a nesting cell and the digits its branches try.
std::string LeftWith(int cell, const std::vector<int>& digits) {
  std::string text = CellName(cell) + " with ";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0) text += i + 1 == digits.size() ? " or " : ", ";
    text += std::to_string(digits[i]);
  }
  return text;
}

// "x-wing", "swordfish", "jellyfish" for a fish of 2, 3, 4 lines; capitalised as HoDoKu does.
const char* FishName(int size, bool capitalised) {
  switch (size) {
    case 2: return capitalised ? "X-Wing" : "x-wing";
    case 3: return capitalised ? "Swordfish" : "swordfish";
    default: return capitalised ? "Jellyfish" : "jellyfish";
  }
}

// finned x-wing: 4 in rows 2, 5 lies only in columns 3, 7 but for the fin r2c8 in box 3
// (r2c378,r5c37): removes 4 from r1c7
std::string DescribeFinnedFish(const Step& step) {
  const size_t lines = step.variant;
  const Unit& box = step.units[2 * lines];
  std::vector<uint8_t> fins;
  for (uint8_t cell : step.cells) {
    bool covered = false;
    for (size_t i = lines; i < 2 * lines; ++i) {
      const Unit& cover = step.units[i];
      covered |= cover.kind == Unit::Kind::kRow ? cell / 9 == cover.index : cell % 9 == cover.index;
    }
    if (!covered) fins.push_back(cell);
  }
  return std::string(step.technique == Technique::kSashimiFish ? "sashimi " : "finned ") +
         FishName(step.variant, false) + ": " + std::to_string(step.digits[0]) + " in " +
         LineNames(step.units, 0, lines) + " lies only in " + LineNames(step.units, lines, lines) +
         " but for the " + (fins.size() == 1 ? "fin " : "fins ") + CellList(fins) + " in " +
         UnitName(box) + " (" + CellList(step.cells) + "): " + Removals(step.eliminations);
}

std::string DescribeRectangle(const Step& step) {
  const std::string name = std::string(Name(step.technique)) + " type " +
                           std::to_string(step.variant) + ": ";
  const std::string removals = Removals(step.eliminations);
  const int a = std::min(step.digits[0], step.digits[1]);
  const int b = std::max(step.digits[0], step.digits[1]);
  const std::string on = Cells(step, 0, 4) + " on " + std::to_string(a) + " " +
                         std::to_string(b) + " (else two solutions)";
  switch (step.variant) {
    case 1:
      return name + Cells(step, 0, 3) + " hold only " + std::to_string(a) + " " +
             std::to_string(b) + ", so " + CellName(step.cells[3]) +
             " must not (else two solutions): " + removals;
    case 2:
      return name + on + ": " + Cells(step, 2, 2) + " hold " + std::to_string(step.digits[2]) +
             ", one of them is it: " + removals;
    case 3:
      return name + on + ": the extra " +
             DigitList(std::vector<uint8_t>(step.digits.begin() + 2, step.digits.end())) +
             " of " + Cells(step, 2, 2) + " with " + Cells(step, 4, step.cells.size() - 4) +
             " make a naked subset in " + UnitName(step.units[0]) + ": " + removals;
    case 6:
      return name + on + ": " + std::to_string(step.digits[0]) + " lies in " +
             UnitName(step.units[0]) + ", " + UnitName(step.units[1]) + ", " +
             UnitName(step.units[2]) + " and " + UnitName(step.units[3]) +
             " only in the rectangle, so in " + Cells(step, 0, 2) + ": " + removals;
    default:
      return name + on + ": " + std::to_string(step.digits[0]) + " in " +
             UnitName(step.units[0]) + " lies only in " + Cells(step, 2, 2) + ": " + removals;
  }
}

// The type of SE's unique rectangle or loop (logic.h): 1-4 (a hidden subset's is type 3).
int SeLoopType(const Step& step) { return step.variant % 10 == 5 ? 3 : step.variant % 10; }

// SE's name: "Unique Rectangle type 2", "Unique Loop 6 type 2".
std::string SeLoopName(const Step& step) {
  const int size = step.variant / 10;
  return (size == 4 ? std::string("Unique Rectangle") : "Unique Loop " + std::to_string(size)) +
         " type " + std::to_string(SeLoopType(step));
}

// SE's unique rectangle or loop: its cells in loop order, each sharing a unit with the next.
std::string DescribeSeLoop(const Step& step) {
  const size_t size = step.variant / 10;
  const int variant = step.variant % 10;
  std::string loop;
  for (size_t i = 0; i < size; ++i) {
    if (i > 0) loop += '-';
    loop += CellName(step.cells[i]);
  }
  const int a = std::min(step.digits[0], step.digits[1]);
  const int b = std::max(step.digits[0], step.digits[1]);
  const std::string head = SeLoopName(step) + ": " + loop + " on " + std::to_string(a) + " " +
                           std::to_string(b) + " (else two solutions): ";
  const std::string removals = Removals(step.eliminations);
  const size_t extra = step.cells.size() - size;  // types 1 and 2: the cells holding more
  switch (variant) {
    case 1:
      return head + "only " + CellName(step.cells[size]) + " holds more, so it is not " +
             std::to_string(a) + " or " + std::to_string(b) + ": " + removals;
    case 2:
      return head + Cells(step, size, extra) + " hold " + std::to_string(step.digits[2]) +
             " besides, one of them is it: " + removals;
    case 3:
      return head + "the extra digits of " + Cells(step, size, 2) + " with " +
             Cells(step, size + 2, step.cells.size() - size - 2) + " make a naked subset of " +
             DigitList(std::vector<uint8_t>(step.digits.begin() + 2, step.digits.end())) +
             " in " + UnitName(step.units[0]) + ": " + removals;
    case 5: {
      std::vector<uint8_t> digits(step.digits.begin() + 2, step.digits.end());
      digits.push_back(static_cast<uint8_t>(a));
      digits.push_back(static_cast<uint8_t>(b));
      return head + "one of " + Cells(step, size, 2) + " holds another digit, and " +
             DigitList(SortedDigits(digits)) + " lie in " + UnitName(step.units[0]) +
             ", but for " + CellName(step.cells[size + 1]) + ", only in " +
             CellName(step.cells[size]) + " and " +
             Cells(step, size + 2, step.cells.size() - size - 2) + ", a hidden subset: " +
             removals;
    }
    default:
      return head + std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) +
             " lies only in " + Cells(step, size, 2) + ": " + removals;
  }
}

// A simple colouring's wrap: it removes from a coloured cell (that colour meets itself in a
// unit); else it is a trap (each cell it removes from sees both colours).
bool IsWrap(const Step& step) {
  for (const CellDigit& e : step.eliminations) {
    if (std::find(step.cells.begin(), step.cells.end(), e.cell) != step.cells.end()) return true;
  }
  return false;
}

std::string DescribeColouring(const Step& step) {
  const std::string digit = std::to_string(step.digits[0]);
  const bool wrap = IsWrap(step);
  return std::string(Name(step.technique)) + ": " + digit + " coloured " +
         Cells(step, 0, step.variant) + " / " +
         Cells(step, step.variant, step.cells.size() - step.variant) +
         (wrap ? " (one colour meets itself in a unit: it is false): "
               : " (each cell removed sees both colours): ") +
         Removals(step.eliminations);
}

// Multi colours: the two clusters' colours, read back from the links that coloured them (a
// link from a cell not coloured yet starts the second cluster).
std::string DescribeMultiColours(const Step& step) {
  std::array<int8_t, kCells> colour;
  colour.fill(-1);
  std::array<size_t, 4> sizes{};  // A's colours, then B's
  size_t cluster = 0;
  for (size_t i = 0; i < step.links.size(); ++i) {
    const int from = step.links[i].from.cells[0], to = step.links[i].to.cells[0];
    if (colour[from] < 0) {
      cluster = i == 0 ? 0 : 1;
      colour[from] = 0;
      ++sizes[2 * cluster];
    }
    colour[to] = static_cast<int8_t>(1 - colour[from]);
    ++sizes[2 * cluster + colour[to]];
  }
  // A step from the wire has the shape of one (its cells two more than its links), not
  // necessarily its truth: links that colour a cell twice would count past the cells.
  std::array<std::string, 4> groups;
  size_t from = 0;
  for (size_t g = 0; g < 4; ++g) {
    const size_t count = std::min(sizes[g], step.cells.size() - from);
    groups[g] = Cells(step, from, count);
    from += count;
  }
  const std::string digit = std::to_string(step.digits[0]);
  return std::string(Name(step.technique)) + ": " + digit + " coloured " + groups[0] + " / " +
         groups[1] + " and " + groups[2] + " / " + groups[3] +
         (step.variant == 2
              ? " (a colour of one sees both colours of the other: it is false): "
              : " (a colour of each sees the other: one of their opposites holds " + digit +
                    ", and each cell removed sees both): ") +
         Removals(step.eliminations);
}

// SE's own forcing chains (variants 3-9): where they start and what they conclude.
std::string DescribeSeChain(const Step& step) {
  std::string text = SeName(step) + ": ";
  const std::string assumed = CellName(step.cells[0]) + " = " + std::to_string(step.digits[0]);
  // Past the multiple chains (4, 5), each level of SE's dynamic chains has its four kinds.
  const int kind = step.variant < 6 ? step.variant : 6 + (step.variant - 6) % 4;
  switch (kind) {
    case 3:
    case 6:
      // Its conclusion is the opposite of what led to the contradiction.
      text += step.placements.empty() ? assumed + " leads to a contradiction"
                                      : "removing " + std::to_string(step.digits[0]) + " from " +
                                            CellName(step.cells[0]) + " leads to a contradiction";
      break;
    case 7: text += assumed + " and its removal lead to the same"; break;
    case 4:
    case 8: text += "each candidate of " + CellName(step.cells[0]) + " (" +
                    DigitList(step.digits) + ") leads to the same";
      break;
    default: text += "each place of " + std::to_string(step.digits[0]) + " in " +
                     UnitName(step.units[0]) + " leads to the same";
      break;
  }
  text += ": ";
  return text + (step.placements.empty() ? Removals(step.eliminations)
                                         : Placement(step.placements[0]));
}

std::string DescribeForcingChain(const Step& step) {
  if (step.variant >= 3) return DescribeSeChain(step);
  const std::string name = std::string(Name(step.technique)) + ": ";
  if (step.variant == 0) {
    return name + CellName(step.cells[0]) + " = " + std::to_string(step.digits[0]) + " leads to " +
           ChainsOf(step.links) + ", and " + ContradictionText(step.links, step.units) + ": " +
           Removals(step.eliminations);
  }
  std::string text = name;
  text += step.variant == 1 ? CellName(step.cells[0]) + " is " + std::to_string(step.digits[0]) +
                                  " or " + std::to_string(step.digits[1])
                            : std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) +
                                  " is in " + Cells(step, 0, 2);
  text += "; " + ChainsOf(step.links);
  return text + ": either way " + Removals(step.eliminations);
}

std::string DescribeTrial(const Step& step) {
  const std::string tried = CellName(step.cells[0]) + " = " + std::to_string(step.digits[0]);
  if (step.variant == 0) return "the puzzle has several solutions: " + tried + " chosen";
  std::string text = std::string(Name(step.technique)) + ": " + tried + " leads to a contradiction";
  if (step.variant == 1) {
    text += " by singles: " + ChainsOf(step.links) + ", and " +
            ContradictionText(step.links, step.units);
  } else {
    text += " within " + std::to_string(step.variant - 1) + " nested trial" +
            (step.variant == 2 ? "" : "s") + ": ";
    if (!step.links.empty()) text += "by singles " + ChainsOf(step.links) + ", ";
    text += "it leaves " +
            LeftWith(step.cells[1], std::vector<int>(step.digits.begin() + 1, step.digits.end())) +
            ", each of which leads to a contradiction";
  }
  return text + ": " + Removals(step.eliminations);
}

}  // namespace

std::string DescribeTrialBranch(const Step& step, size_t index) {
  const TrialBranch& branch = step.branches[index];
  std::string text = CellName(branch.assumption.cell) + " = " +
                     std::to_string(branch.assumption.digit) + " leads ";
  if (!branch.links.empty()) text += "by singles to " + ChainsOf(branch.links) + ", ";
  if (branch.nesting_cell < 0) return text + "and " + ContradictionText(branch.links, branch.units);
  std::vector<int> tried;
  for (const TrialBranch& nested : step.branches) {
    if (nested.parent == static_cast<int>(index)) tried.push_back(nested.assumption.digit);
  }
  return text + "and leaves " + LeftWith(branch.nesting_cell, tried) +
         ", each of which leads to a contradiction";
}

std::string NodeName(const Node& node) {
  // Appended piece by piece: g++ 12 draws a false -Wrestrict from "(" + std::to_string(...).
  std::string text = "(";
  text += std::to_string(node.digit);
  text += ")r";
  const int row = node.cells[0] / 9, column = node.cells[0] % 9;
  bool same_row = true;
  for (uint8_t cell : node.cells) same_row &= cell / 9 == row;
  if (same_row) {
    text += static_cast<char>('1' + row);
    text += 'c';
    for (uint8_t cell : node.cells) text += static_cast<char>('1' + cell % 9);
  } else {
    for (uint8_t cell : node.cells) text += static_cast<char>('1' + cell / 9);
    text += 'c';
    text += static_cast<char>('1' + column);
  }
  return text;
}

std::string UnitName(const Unit& unit) {
  const char* kind = unit.kind == Unit::Kind::kRow      ? "row "
                     : unit.kind == Unit::Kind::kColumn ? "column "
                                                        : "box ";
  return kind + std::to_string(unit.index + 1);
}

std::string HodokuName(const Step& step) {
  switch (step.technique) {
    case Technique::kNakedSingle: return step.variant == 1 ? "Full House" : "Naked Single";
    case Technique::kHiddenSingle: return "Hidden Single";
    case Technique::kPointing: return "Locked Candidates Type 1 (Pointing)";
    case Technique::kClaiming: return "Locked Candidates Type 2 (Claiming)";
    case Technique::kNakedPair: return step.variant == 1 ? "Locked Pair" : "Naked Pair";
    case Technique::kHiddenPair: return "Hidden Pair";
    case Technique::kNakedTriple: return step.variant == 1 ? "Locked Triple" : "Naked Triple";
    case Technique::kHiddenTriple: return "Hidden Triple";
    case Technique::kNakedQuad: return "Naked Quadruple";
    case Technique::kHiddenQuad: return "Hidden Quadruple";
    case Technique::kXWing: return "X-Wing";
    case Technique::kSwordfish: return "Swordfish";
    case Technique::kJellyfish: return "Jellyfish";
    case Technique::kFinnedFish: return std::string("Finned ") + FishName(step.variant, true);
    case Technique::kSashimiFish: return std::string("Sashimi ") + FishName(step.variant, true);
    case Technique::kSueDeCoq: return "Sue de Coq";
    case Technique::kRemotePair: return "Remote Pair";
    case Technique::kSkyscraper: return "Skyscraper";
    case Technique::kTwoStringKite: return "2-String Kite";
    case Technique::kTurbotFish: return "Turbot Fish";
    case Technique::kEmptyRectangle: return "Empty Rectangle";
    case Technique::kXYWing: return "XY-Wing";
    case Technique::kXYZWing: return "XYZ-Wing";
    case Technique::kWWing: return "W-Wing";
    case Technique::kSimpleColouring:
      return IsWrap(step) ? "Simple Colors Wrap" : "Simple Colors Trap";
    case Technique::kMultiColours: return "Multi Colors " + std::to_string(step.variant);
    case Technique::kUniqueRectangle:  // HoDoKu has no loop of more than four cells
      if (step.variant < 10) return "Uniqueness Test " + std::to_string(step.variant);
      return step.variant / 10 == 4 ? "Uniqueness Test " + std::to_string(SeLoopType(step)) : "";
    case Technique::kHiddenRectangle: return "Hidden Rectangle";
    case Technique::kBugPlusOne: return "Bivalue Universal Grave + 1";
    case Technique::kXChain:
    case Technique::kXYChain:
      // SE's cycles and forcing chains (variants 1 and 2) and X-loops (4) are HoDoKu's nice
      // loops.
      if (step.variant == 1 || step.variant == 4) return "Continuous Nice Loop";
      if (step.variant == 2) return "Discontinuous Nice Loop";
      return step.technique == Technique::kXChain ? "X-Chain" : "XY-Chain";
    case Technique::kAic: {
      // HoDoKu's nice loops (variants 1 and 2) and AICs, "Grouped" with a grouped node.
      const char* kind = step.variant == 1   ? "Continuous Nice Loop"
                         : step.variant == 2 ? "Discontinuous Nice Loop"
                                             : "AIC";
      return std::string(HasGroupedNode(step) ? "Grouped " : "") + kind;
    }
    case Technique::kAlsXz:
    case Technique::kWxyzWing: return "Almost Locked Set XZ-Rule";  // HoDoKu finds it so
    case Technique::kForcingChain:
      return step.variant == 0 || step.variant == 3 ||
                     (step.variant >= 6 && (step.variant - 6) % 4 == 0)
                 ? "Forcing Chain Contradiction"
                 : "Forcing Chain Verity";
    // HoDoKu has no trial: a contradiction by singles is its forcing net; nesting, brute force.
    case Technique::kTrial: return step.variant == 1 ? "Forcing Net Contradiction" : "Brute Force";
  }
  return "";
}

namespace {

// SE's name of its strong links (kXChain variants 3 and 4, on its path), its suffix after it:
// how many links are grouped, then the kinds of their units (0 a box, 1 a row, 2 a column).
// Parallel lines alone are skyscrapers, a row's and a column's links with no box's a string kite
// (to three links), a loop back to the start an X-loop.
// How many strong links such a step has: its units are the links' units, then the units joining
// them (one fewer along a chain, as many round a loop).
size_t SeLinkCount(const Step& step) {
  return step.variant == 4 ? step.units.size() / 2 : (step.units.size() + 1) / 2;
}

std::string SeLinksName(const Step& step) {
  const bool loop = step.variant == 4;
  const size_t size = SeLinkCount(step);
  std::array<int, 6> kinds{};
  int grouped = 0;
  for (size_t k = 0; k < size; ++k) {
    const Unit::Kind kind = step.units[k].kind;
    kinds[k] = kind == Unit::Kind::kBox ? 0 : kind == Unit::Kind::kRow ? 1 : 2;
    const Link& link = step.links[2 * k];
    grouped += link.from.cells.size() > 1 || link.to.cells.size() > 1;
  }
  const int links = static_cast<int>(size);
  const std::string suffix = internal::SeLinksSuffix(kinds.data(), links, grouped);
  const std::string count = std::to_string(links);
  if (loop) {
    return "(" + count + " Strong Links) " + (grouped ? "Grouped " : "") + "X-Loop " + suffix;
  }
  const bool box = suffix.find('0', 1) != std::string::npos;
  const bool crossed = suffix.find('2', 1) != std::string::npos;
  const std::string name = !box && !crossed ? (links < 3 ? "Skyscraper" : count + " Skyscrapers")
                           : !box && links < 4 ? count + "-String Kite"
                                               : count + " Strong links";
  return (grouped ? "Grouped " : "") + name + " " + suffix;
}

std::string DescribeSeLinks(const Step& step) {
  const size_t size = SeLinkCount(step);
  std::string units;
  for (size_t k = 0; k < size; ++k) units += (k ? ", " : "") + UnitName(step.units[k]);
  return SeLinksName(step) + ": " + std::to_string(step.digits[0]) + " in " + units + ": " +
         WholeChain(step.links) +
         (step.variant == 4 ? " (a loop: each weak link holds both ways)" : "") + ": " +
         Removals(step.eliminations);
}

// SE's names of its cycles and forcing chains (variants 1 and 2 on its path, rated by SE's
// rules: se_tenths), by their links: X, Y or both. A cycle of X links through four cells is its
// generalized x-wing, a forcing X-chain of five links its turbot fish. An alternating chain
// found otherwise goes by the name SE gives the chain it would find instead.
std::string SeChainName(const Step& step) {
  const bool se = step.se_tenths != 0;
  switch (step.technique) {
    case Technique::kXChain:
      if (step.variant >= 3) return SeLinksName(step);
      if (se && step.variant == 1) {
        std::vector<uint8_t> cells;
        for (const Link& link : step.links) cells.push_back(link.to.cells[0]);
        std::sort(cells.begin(), cells.end());
        const auto distinct = std::unique(cells.begin(), cells.end()) - cells.begin();
        return distinct == 4 ? "Generalized X-Wing" : "Bidirectional X-Cycle";
      }
      return se && step.variant == 2 && step.links.size() == 5 ? "Turbot Fish" : "Forcing X-Chain";
    case Technique::kXYChain:
      return se && step.variant == 1 ? "Bidirectional Y-Cycle" : "Forcing Y-Chain";
    default: return se && step.variant == 1 ? "Bidirectional Cycle" : "Forcing Chain";
  }
}

}  // namespace

std::string SeName(const Step& step) {
  switch (step.technique) {
    case Technique::kNakedSingle: return step.variant == 1 ? "Hidden Single" : "Naked Single";
    case Technique::kHiddenSingle: return "Hidden Single";
    case Technique::kPointing: return "Pointing";
    case Technique::kClaiming: return "Claiming";
    case Technique::kNakedPair: return "Naked Pair";
    case Technique::kHiddenPair: return "Hidden Pair";
    case Technique::kNakedTriple: return "Naked Triplet";
    case Technique::kHiddenTriple: return "Hidden Triplet";
    case Technique::kNakedQuad: return "Naked Quad";
    case Technique::kHiddenQuad: return "Hidden Quad";
    case Technique::kXWing: return "X-Wing";
    case Technique::kSwordfish: return "Swordfish";
    case Technique::kJellyfish: return "Jellyfish";
    case Technique::kXYWing: return "XY-Wing";
    case Technique::kXYZWing: return "XYZ-Wing";
    case Technique::kWxyzWing:
      return step.cells.size() == 6 ? "UVWXYZ-Wing"
             : step.cells.size() == 5 ? "VWXYZ-Wing"
                                      : "WXYZ-Wing";
    case Technique::kUniqueRectangle:  // SE has types 1-4
      if (step.variant >= 10) return SeLoopName(step);
      return step.variant <= 4 ? "Unique Rectangle type " + std::to_string(step.variant) : "";
    case Technique::kBugPlusOne: return "BUG type 1";
    case Technique::kXChain:
    case Technique::kXYChain:
    case Technique::kAic: return SeChainName(step);
    // Singles followed from an assumption, each with what came before: SE's dynamic chains.
    case Technique::kForcingChain:
      switch (step.variant) {
        case 0:
        case 6: return "Dynamic Contradiction Forcing Chains";
        case 1:
        case 8: return "Dynamic Cell Forcing Chains";
        case 3: return "Nishio Forcing Chains";
        case 4: return "Cell Forcing Chains";
        case 5: return "Region Forcing Chains";
        case 7: return "Dynamic Double Forcing Chains";
        case 2:
        case 9: return "Dynamic Region Forcing Chains";
        default: {
          // Levels 1-3 (variants 10-21): SE's dynamic chains with its other rules within.
          static constexpr const char* kKinds[] = {"Contradiction", "Double", "Cell", "Region"};
          static constexpr const char* kLevels[] = {"(+)", "(+ Forcing Chains)",
                                                    "(+ Multiple Forcing Chains)"};
          const int level = std::min((step.variant - 6) / 4, 3);
          return std::string("Dynamic ") + kKinds[(step.variant - 6) % 4] + " Forcing Chains " +
                 kLevels[level - 1];
        }
      }
    case Technique::kTrial:
      return step.variant == 1 ? "Dynamic Contradiction Forcing Chains" : "Nested Forcing Chains";
    case Technique::kRemotePair:
    case Technique::kSkyscraper:
    case Technique::kTwoStringKite:
    case Technique::kTurbotFish:
    case Technique::kEmptyRectangle:
    case Technique::kWWing:
    case Technique::kSimpleColouring:
    case Technique::kMultiColours:
    case Technique::kHiddenRectangle:
    case Technique::kFinnedFish:
    case Technique::kSashimiFish:
    case Technique::kSueDeCoq:
    case Technique::kAlsXz: return "";
  }
  return "";
}

std::string Describe(const Step& step) {
  const std::string name = Name(step.technique);
  switch (step.technique) {
    case Technique::kNakedSingle:
      if (step.variant == 1) {
        return "full house: " + Placement(step.placements[0]) + " (the last open cell of " +
               UnitName(step.units[0]) + ")";
      }
      return name + ": " + Placement(step.placements[0]) + " (its only candidate)";
    case Technique::kHiddenSingle:
      return name + ": " + Placement(step.placements[0]) + " (the only place for " +
             std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) + ")";
    case Technique::kPointing:
    case Technique::kClaiming:
      return name + ": " + std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) +
             " lies only in " + UnitName(step.units[1]) + " (" + CellList(step.cells) +
             "): " + Outcome(step);
    case Technique::kNakedPair:
    case Technique::kNakedTriple:
    case Technique::kNakedQuad:
      // A locked pair or triple (variant 1) clears both the box and the line it lies in.
      return (step.variant == 1 ? step.technique == Technique::kNakedPair ? "locked pair"
                                                                           : "locked triple"
                                : name) +
             ": " + CellList(step.cells) + " hold only " + DigitList(step.digits) + " in " +
             UnitName(step.units[0]) +
             (step.units.size() > 1 ? " and " + UnitName(step.units[1]) : "") + ": " +
             Removals(step.eliminations);
    case Technique::kHiddenPair:
    case Technique::kHiddenTriple:
    case Technique::kHiddenQuad:
      return name + ": " + DigitList(step.digits) + " go only in " + CellList(step.cells) + " in " +
             UnitName(step.units[0]) + ": " + Outcome(step);
    case Technique::kFinnedFish:
    case Technique::kSashimiFish: return DescribeFinnedFish(step);
    case Technique::kXWing:
    case Technique::kSwordfish:
    case Technique::kJellyfish: {
      const size_t lines = step.units.size() / 2;
      return name + ": " + std::to_string(step.digits[0]) + " in " +
             LineNames(step.units, 0, lines) + " lies only in " +
             LineNames(step.units, lines, lines) + " (" + CellList(step.cells) +
             "): " + Removals(step.eliminations);
    }
    case Technique::kSkyscraper:
      return name + ": " + std::to_string(step.digits[0]) + " in " +
             LineNames(step.units, 0, 2) + ": " + WholeChain(step.links) + ": " +
             Removals(step.eliminations);
    case Technique::kTwoStringKite:
      return name + ": " + std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) +
             " and " + UnitName(step.units[1]) + ", joined in " + UnitName(step.units[2]) + ": " +
             WholeChain(step.links) + ": " + Removals(step.eliminations);
    case Technique::kTurbotFish:
      return name + ": " + std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) +
             " and " + UnitName(step.units[1]) + ": " + WholeChain(step.links) + ": " +
             Removals(step.eliminations);
    case Technique::kEmptyRectangle:
      return name + ": " + std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) +
             " lies only in " + UnitName(step.units[1]) + " and " + UnitName(step.units[2]) +
             ", with " + UnitName(step.units[3]) + ": " + WholeChain(step.links) + ": " +
             Removals(step.eliminations);
    case Technique::kXYWing:
    case Technique::kXYZWing: {
      const int x = step.digits[0], y = step.digits[1], z = step.digits[2];
      const std::string pivot = step.technique == Technique::kXYWing
                                    ? Holds(step.cells[0], {std::min(x, y), std::max(x, y)})
                                    : CellName(step.cells[0]) + " holds " +
                                          DigitList(SortedDigits(step.digits));
      return name + ": " + pivot + ", " + Holds(step.cells[1], {std::min(x, z), std::max(x, z)}) +
             ", " + Holds(step.cells[2], {std::min(y, z), std::max(y, z)}) + ": " +
             Removals(step.eliminations);
    }
    case Technique::kWWing:
      return name + ": " + Cells(step, 0, 2) + " hold " +
             DigitList(SortedDigits(step.digits)) + ", joined by " +
             std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) + ": " +
             WholeChain(step.links) + ": " + Removals(step.eliminations);
    case Technique::kSimpleColouring: return DescribeColouring(step);
    case Technique::kMultiColours: return DescribeMultiColours(step);
    case Technique::kRemotePair:
      return name + ": " + Cells(step, 0, step.variant) + " / " +
             Cells(step, step.variant, step.cells.size() - step.variant) + " hold only " +
             DigitList(step.digits) + ", each seeing another, the two groups opposite (each cell " +
             "removed sees both): " + Removals(step.eliminations);
    case Technique::kUniqueRectangle:
      return step.variant >= 10 ? DescribeSeLoop(step) : DescribeRectangle(step);
    case Technique::kHiddenRectangle: {
      const int x = step.digits[0], y = step.digits[1];
      return name + ": " + Cells(step, 0, 4) + " on " + std::to_string(std::min(x, y)) + " " +
             std::to_string(std::max(x, y)) + " (else two solutions): " +
             Holds(step.cells[0], {std::min(x, y), std::max(x, y)}) + ", and " +
             std::to_string(x) + " lies in " + UnitName(step.units[0]) + " only in " +
             CellList({step.cells[3], step.cells[1]}) + " and in " + UnitName(step.units[1]) +
             " only in " + CellList({step.cells[3], step.cells[2]}) + ": " +
             Removals(step.eliminations);
    }
    case Technique::kBugPlusOne:
      return name + ": " + Placement(step.placements[0]) +
             " (every other open cell holds two candidates: without it, two solutions)";
    case Technique::kXChain:
    case Technique::kXYChain:
    case Technique::kAic:
      if (step.technique == Technique::kXChain && step.variant >= 3) return DescribeSeLinks(step);
      if (step.variant == 1) {
        return "continuous nice loop: " + WholeChain(step.links) +
               " (a loop: each weak link holds both ways): " + Removals(step.eliminations);
      }
      if (step.variant == 2) {
        const Node& start = step.links.front().from;
        return "discontinuous nice loop: " + WholeChain(step.links) + " (" + NodeName(start) +
               (step.links.front().strong ? " false leads to it true" : " true leads to it false") +
               "): " + Removals(step.eliminations);
      }
      return name + ": " + WholeChain(step.links) + ": " + Removals(step.eliminations);
    case Technique::kAlsXz: {
      const size_t a = step.variant;
      return name + ": " + Cells(step, 0, a) + " in " + UnitName(step.units[0]) + " and " +
             Cells(step, a, step.cells.size() - a) + " in " + UnitName(step.units[1]) +
             ", restricted common " + std::to_string(step.digits[0]) + ", both holding " +
             std::to_string(step.digits[1]) + ": " + Removals(step.eliminations);
    }
    case Technique::kSueDeCoq: {
      const size_t c = step.variant % 10, a = step.variant / 10;
      return name + ": " + Cells(step, 0, c) + " hold " + DigitList(step.digits) + " where " +
             UnitName(step.units[0]) + " crosses " + UnitName(step.units[1]) + "; with " +
             Cells(step, c, a) + " in " + UnitName(step.units[0]) + " and " +
             Cells(step, c + a, step.cells.size() - c - a) + " in " + UnitName(step.units[1]) +
             " they hold as many digits as cells: " + Removals(step.eliminations);
    }
    case Technique::kWxyzWing:
      // SE's names: wxyz-, vwxyz-, uvwxyz-wing by the set's size.
      return std::string(step.cells.size() == 6 ? "uv" : step.cells.size() == 5 ? "v" : "") +
             name + ": " + Cells(step, 0, step.cells.size() - 1) + " in " +
             UnitName(step.units[0]) + " and " + Cells(step, step.cells.size() - 1, 1) +
             ", restricted common " + std::to_string(step.digits[0]) +
             ", both holding " + std::to_string(step.digits[1]) + ": " +
             Removals(step.eliminations);
    case Technique::kForcingChain: return DescribeForcingChain(step);
    case Technique::kTrial: return DescribeTrial(step);
  }
  return name;
}

}  // namespace sudoku::logic
