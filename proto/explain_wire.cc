#include "proto/explain_wire.h"

#include <string>

namespace sudoku::wire {
namespace {

using logic::CellDigit;
using logic::Step;
using logic::Unit;

constexpr uint32_t kDigits = 9;
constexpr uint32_t kCandidateNumbers = kCells * kDigits;  // 729
constexpr uint32_t kUnitNumbers = 3 * kDigits;            // 27

// The wire's enums mirror the solver's value for value; the casts below rely on it.
static_assert(static_cast<int>(logic::Technique::kNakedSingle) == NAKED_SINGLE);
static_assert(static_cast<int>(logic::Technique::kSwordfish) == SWORDFISH);
static_assert(static_cast<int>(logic::Technique::kGuess) == GUESS);
static_assert(logic::kTechniqueCount == GUESS + 1);

uint32_t CandidateNumber(const CellDigit& candidate) {
  return candidate.cell * kDigits + candidate.digit - 1u;
}

CellDigit CandidateOf(uint32_t value) {
  if (value >= kCandidateNumbers) {
    throw BadStep("candidate " + std::to_string(value) + " is out of range (0-728)");
  }
  return {static_cast<uint8_t>(value / kDigits), static_cast<uint8_t>(value % kDigits + 1)};
}

// What each technique has in units, cells and digits.
void CheckShape(const Step& step) {
  const size_t units = step.units.size();
  const size_t digits = step.digits.size();
  bool ok = true;
  using enum logic::Technique;
  switch (step.technique) {
    case kNakedSingle:
    case kGuess: ok = step.placements.size() == 1 && step.cells.size() == 1 && digits == 1; break;
    case kHiddenSingle: ok = step.placements.size() == 1 && units == 1 && digits == 1; break;
    case kPointing:
    case kClaiming: ok = units == 2 && digits == 1; break;
    case kNakedPair:
    case kHiddenPair: ok = units == 1 && digits == 2 && step.cells.size() == 2; break;
    case kNakedTriple:
    case kHiddenTriple: ok = units == 1 && digits == 3 && step.cells.size() == 3; break;
    case kXWing: ok = units == 4 && digits == 1; break;
    case kSwordfish: ok = units == 6 && digits == 1; break;
  }
  if (!ok) {
    throw BadStep(std::string(logic::Name(step.technique)) + " with " + std::to_string(units) +
                  " units, " + std::to_string(step.cells.size()) + " cells, " +
                  std::to_string(digits) + " digits and " +
                  std::to_string(step.placements.size()) + " placements");
  }
}

}  // namespace

void StepToWire(const Step& step, ExplainStep* out) {
  out->Clear();
  out->set_technique(static_cast<Technique>(step.technique));
  for (const CellDigit& placement : step.placements) {
    out->add_placements(CandidateNumber(placement));
  }
  for (const CellDigit& elimination : step.eliminations) {
    out->add_eliminations(CandidateNumber(elimination));
  }
  for (const Unit& unit : step.units) {
    out->add_units(static_cast<uint32_t>(unit.kind) * kDigits + unit.index);
  }
  for (uint8_t cell : step.cells) out->add_cells(cell);
  for (uint8_t digit : step.digits) out->add_digits(digit);
}

Step StepFromWire(const ExplainStep& wire_step) {
  Step step;
  if (wire_step.technique() < 0 || wire_step.technique() >= logic::kTechniqueCount) {
    throw BadStep("unknown technique " + std::to_string(wire_step.technique()));
  }
  step.technique = static_cast<logic::Technique>(wire_step.technique());
  for (uint32_t value : wire_step.placements()) step.placements.push_back(CandidateOf(value));
  for (uint32_t value : wire_step.eliminations()) step.eliminations.push_back(CandidateOf(value));
  for (uint32_t value : wire_step.units()) {
    if (value >= kUnitNumbers) {
      throw BadStep("unit " + std::to_string(value) + " is out of range (0-26)");
    }
    step.units.push_back(
        {static_cast<Unit::Kind>(value / kDigits), static_cast<uint8_t>(value % kDigits)});
  }
  for (uint32_t value : wire_step.cells()) {
    if (value >= static_cast<uint32_t>(kCells)) {
      throw BadStep("cell " + std::to_string(value) + " is out of range (0-80)");
    }
    step.cells.push_back(static_cast<uint8_t>(value));
  }
  for (uint32_t value : wire_step.digits()) {
    if (value < 1 || value > kDigits) {
      throw BadStep("digit " + std::to_string(value) + " is not 1-9");
    }
    step.digits.push_back(static_cast<uint8_t>(value));
  }
  CheckShape(step);
  return step;
}

std::vector<Step> StepsFromWire(const ExplainResponse& response) {
  std::vector<Step> steps;
  steps.reserve(static_cast<size_t>(response.steps_size()));
  for (int i = 0; i < response.steps_size(); ++i) {
    try {
      steps.push_back(StepFromWire(response.steps(i)));
    } catch (const BadStep& error) {
      throw BadStep("step " + std::to_string(i + 1) + ": " + error.what());
    }
  }
  return steps;
}

}  // namespace sudoku::wire
