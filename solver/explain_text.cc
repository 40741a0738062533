#include "solver/explain_text.h"

#include <map>
#include <vector>

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

std::string CellList(const std::vector<uint8_t>& cells) {
  std::string text;
  for (uint8_t cell : cells) {
    if (!text.empty()) text += ", ";
    text += CellName(cell);
  }
  return text;
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

}  // namespace

std::string UnitName(const Unit& unit) {
  const char* kind = unit.kind == Unit::Kind::kRow      ? "row "
                     : unit.kind == Unit::Kind::kColumn ? "column "
                                                        : "box ";
  return kind + std::to_string(unit.index + 1);
}

std::string Describe(const Step& step) {
  const std::string name = Name(step.technique);
  switch (step.technique) {
    case Technique::kNakedSingle:
      return name + ": " + Placement(step.placements[0]) + " (its only candidate)";
    case Technique::kHiddenSingle:
      return name + ": " + Placement(step.placements[0]) + " (the only place for " +
             std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) + ")";
    case Technique::kPointing:
    case Technique::kClaiming:
      return name + ": " + std::to_string(step.digits[0]) + " in " + UnitName(step.units[0]) +
             " lies only in " + UnitName(step.units[1]) + " (" + CellList(step.cells) +
             "): " + Removals(step.eliminations);
    case Technique::kNakedPair:
    case Technique::kNakedTriple:
      return name + ": " + CellList(step.cells) + " hold only " + DigitList(step.digits) + " in " +
             UnitName(step.units[0]) + ": " + Removals(step.eliminations);
    case Technique::kHiddenPair:
    case Technique::kHiddenTriple:
      return name + ": " + DigitList(step.digits) + " go only in " + CellList(step.cells) + " in " +
             UnitName(step.units[0]) + ": " + Removals(step.eliminations);
    case Technique::kXWing:
    case Technique::kSwordfish: {
      const size_t lines = step.units.size() / 2;
      return name + ": " + std::to_string(step.digits[0]) + " in " +
             LineNames(step.units, 0, lines) + " lies only in " +
             LineNames(step.units, lines, lines) + " (" + CellList(step.cells) +
             "): " + Removals(step.eliminations);
    }
    case Technique::kGuess:
      return "no technique applies: guess " + Placement(step.placements[0]) +
             " (the solution's digit; the explanation goes on)";
  }
  return name;
}

}  // namespace sudoku::logic
