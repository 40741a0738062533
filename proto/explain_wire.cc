#include "proto/explain_wire.h"

#include <array>
#include <optional>
#include <string>
#include <utility>

#include "solver/explain_text.h"

namespace sudoku::wire {
namespace {

using logic::CellDigit;
using logic::Step;
using logic::Unit;

constexpr uint32_t kDigits = 9;
constexpr uint32_t kCandidateNumbers = kCells * kDigits;  // 729
constexpr uint32_t kUnitNumbers = 3 * kDigits;            // 27

// The solver's techniques (difficulty order) and the wire's numbers (fixed), side by side.
constexpr std::array<std::pair<logic::Technique, Technique>, logic::kTechniqueCount> kTechniques{{
    {logic::Technique::kNakedSingle, NAKED_SINGLE},
    {logic::Technique::kHiddenSingle, HIDDEN_SINGLE},
    {logic::Technique::kPointing, POINTING},
    {logic::Technique::kClaiming, CLAIMING},
    {logic::Technique::kNakedPair, NAKED_PAIR},
    {logic::Technique::kHiddenPair, HIDDEN_PAIR},
    {logic::Technique::kNakedTriple, NAKED_TRIPLE},
    {logic::Technique::kHiddenTriple, HIDDEN_TRIPLE},
    {logic::Technique::kNakedQuad, NAKED_QUAD},
    {logic::Technique::kHiddenQuad, HIDDEN_QUAD},
    {logic::Technique::kXWing, X_WING},
    {logic::Technique::kSwordfish, SWORDFISH},
    {logic::Technique::kJellyfish, JELLYFISH},
    {logic::Technique::kRemotePair, REMOTE_PAIR},
    {logic::Technique::kSkyscraper, SKYSCRAPER},
    {logic::Technique::kTwoStringKite, TWO_STRING_KITE},
    {logic::Technique::kTurbotFish, TURBOT_FISH},
    {logic::Technique::kEmptyRectangle, EMPTY_RECTANGLE},
    {logic::Technique::kXYWing, XY_WING},
    {logic::Technique::kXYZWing, XYZ_WING},
    {logic::Technique::kWWing, W_WING},
    {logic::Technique::kSimpleColouring, SIMPLE_COLOURING},
    {logic::Technique::kMultiColours, MULTI_COLOURS},
    {logic::Technique::kUniqueRectangle, UNIQUE_RECTANGLE},
    {logic::Technique::kHiddenRectangle, HIDDEN_RECTANGLE},
    {logic::Technique::kBugPlusOne, BUG_PLUS_ONE},
    {logic::Technique::kFinnedFish, FINNED_FISH},
    {logic::Technique::kSashimiFish, SASHIMI_FISH},
    {logic::Technique::kSueDeCoq, SUE_DE_COQ},
    {logic::Technique::kXChain, X_CHAIN},
    {logic::Technique::kXYChain, XY_CHAIN},
    {logic::Technique::kAic, AIC},
    {logic::Technique::kAlsXz, ALS_XZ},
    {logic::Technique::kWxyzWing, WXYZ_WING},
    {logic::Technique::kForcingChain, FORCING_CHAIN},
    {logic::Technique::kTrial, TRIAL},
}};

// The table is in the solver's order, so that a technique is its own index.
constexpr bool InSolverOrder() {
  for (size_t i = 0; i < kTechniques.size(); ++i) {
    if (static_cast<size_t>(kTechniques[i].first) != i) return false;
  }
  return true;
}
static_assert(InSolverOrder());
static_assert(Technique_ARRAYSIZE == logic::kTechniqueCount);

uint32_t CandidateNumber(const CellDigit& candidate) {
  return candidate.cell * kDigits + candidate.digit - 1u;
}

CellDigit CandidateOf(uint32_t value) {
  if (value >= kCandidateNumbers) {
    throw BadStep("candidate " + std::to_string(value) + " is out of range (0-728)");
  }
  return {static_cast<uint8_t>(value / kDigits), static_cast<uint8_t>(value % kDigits + 1)};
}

// A chain's node: 1-3 candidates of one digit, cells ascending, and more than one only within
// one box-line intersection.
logic::Node NodeOf(const google::protobuf::RepeatedField<uint32_t>& candidates) {
  if (candidates.empty() || candidates.size() > 3) {
    throw BadStep("a node of " + std::to_string(candidates.size()) + " candidates (1-3)");
  }
  logic::Node node;
  for (uint32_t value : candidates) {
    const CellDigit candidate = CandidateOf(value);
    if (node.digit != 0 && candidate.digit != node.digit) {
      throw BadStep("a node of more than one digit");
    }
    if (!node.cells.empty() && candidate.cell <= node.cells.back()) {
      throw BadStep("a node whose cells are not ascending");
    }
    node.digit = candidate.digit;
    node.cells.push_back(candidate.cell);
  }
  const auto same = [&](auto part) {
    for (uint8_t cell : node.cells) {
      if (part(cell) != part(node.cells[0])) return false;
    }
    return true;
  };
  const bool one_box = same([](int cell) { return cell / 27 * 3 + cell % 9 / 3; });
  const bool one_line =
      same([](int cell) { return cell / 9; }) || same([](int cell) { return cell % 9; });
  if (!one_box || !one_line) throw BadStep("a grouped node outside one box and line");
  return node;
}

std::vector<uint32_t> NodeNumbers(const logic::Node& node) {
  std::vector<uint32_t> numbers;
  for (uint8_t cell : node.cells) numbers.push_back(CandidateNumber({cell, node.digit}));
  return numbers;
}

uint32_t UnitNumber(const Unit& unit) {
  return static_cast<uint32_t>(unit.kind) * kDigits + unit.index;
}

Unit UnitOf(uint32_t value) {
  if (value >= kUnitNumbers) {
    throw BadStep("unit " + std::to_string(value) + " is out of range (0-26)");
  }
  return {static_cast<Unit::Kind>(value / kDigits), static_cast<uint8_t>(value % kDigits)};
}

uint8_t CellOf(uint32_t value) {
  if (value >= static_cast<uint32_t>(kCells)) {
    throw BadStep("cell " + std::to_string(value) + " is out of range (0-80)");
  }
  return static_cast<uint8_t>(value);
}

void LinksToWire(const std::vector<logic::Link>& links,
                 google::protobuf::RepeatedPtrField<ChainLink>* out) {
  for (const logic::Link& link : links) {
    ChainLink* wire_link = out->Add();
    for (uint32_t number : NodeNumbers(link.from)) wire_link->add_from(number);
    for (uint32_t number : NodeNumbers(link.to)) wire_link->add_to(number);
    wire_link->set_strong(link.strong);
  }
}

std::vector<logic::Link> LinksFromWire(const google::protobuf::RepeatedPtrField<ChainLink>& wire) {
  std::vector<logic::Link> links;
  links.reserve(static_cast<size_t>(wire.size()));
  for (int i = 0; i < wire.size(); ++i) {
    const ChainLink& link = wire.Get(i);
    try {
      links.push_back({NodeOf(link.from()), NodeOf(link.to()), link.strong()});
    } catch (const BadStep& error) {
      throw BadStep("link " + std::to_string(i + 1) + ": " + error.what());
    }
  }
  return links;
}

// The next branch of `step` (whose branches so far are read), checked: it nests in the step or
// a branch before it that nests deeper, and tries a candidate of the cell that one nests at.
logic::TrialBranch BranchFromWire(const TrialBranch& wire, const Step& step) {
  logic::TrialBranch branch;
  if (wire.parent() > step.branches.size()) {
    throw BadStep("parent " + std::to_string(wire.parent()) + " is not a branch before it");
  }
  branch.parent = static_cast<int32_t>(wire.parent()) - 1;
  const int parent_cell = branch.parent < 0
                              ? step.cells[1]
                              : step.branches[static_cast<size_t>(branch.parent)].nesting_cell;
  if (parent_cell < 0) {
    throw BadStep("parent " + std::to_string(wire.parent()) + " ends in a contradiction");
  }
  branch.assumption = CandidateOf(wire.assumption());
  if (branch.assumption.cell != parent_cell) {
    throw BadStep("it tries " + logic::CellName(branch.assumption.cell) + ", not " +
                  logic::CellName(parent_cell) + " where its parent nests");
  }
  branch.links = LinksFromWire(wire.links());
  for (uint32_t value : wire.units()) branch.units.push_back(UnitOf(value));
  if (wire.has_nesting_cell()) branch.nesting_cell = CellOf(wire.nesting_cell());
  if (branch.units.size() > 1) {
    throw BadStep(std::to_string(branch.units.size()) + " units (a contradiction has at most one)");
  }
  if (branch.nesting_cell >= 0 && !branch.units.empty()) {
    throw BadStep("a nesting cell and a unit: a branch ends in one or the other");
  }
  return branch;
}

struct Counts {
  size_t units, cells, digits, placements, links;
  uint32_t variant;
};

// A naked subset of `size`: its unit, or the two its cells share; variant 1 (locked) has two.
bool NakedSubsetFits(const Counts& n, size_t size) {
  return n.links == 0 && n.placements == 0 && n.digits == size && n.cells == size &&
         (n.units == 1 || n.units == 2) && (n.variant == 0 || (n.variant == 1 && n.units == 2));
}

// SE's unique rectangles and loops (logic.h): variant = 10 * the loop's cells (an even four or
// more) + the type (1-4, 5 for type 3 by a hidden subset); the loop, then its cells holding
// more than a and b (one for type 1, two or more for type 2, two for types 3 and 4), then type
// 3's subset cells.
bool SeLoopFits(const Counts& n) {
  const uint32_t size = n.variant / 10, type = n.variant % 10;
  if (size < 4 || size % 2 != 0 || n.links != 0 || n.placements != 0) return false;
  switch (type) {
    case 1: return n.cells == size + 1 && n.digits == 2 && n.units == 0;
    case 2: return n.cells >= size + 2 && n.digits == 3 && n.units == 0;
    case 3: return n.cells >= size + 3 && n.digits >= 4 && n.units == 1;
    case 4: return n.cells == size + 2 && n.digits == 2 && n.units == 1;
    case 5: return n.cells >= size + 3 && n.digits >= 2 && n.units == 1;
    default: return false;
  }
}

// What each technique has in units, cells, digits, placements, links and variant.
bool ShapeFits(const Step& step) {
  const Counts n{step.units.size(), step.cells.size(), step.digits.size(),
                 step.placements.size(), step.links.size(), step.variant};
  const bool plain = n.links == 0 && n.variant == 0;
  using enum logic::Technique;
  switch (step.technique) {
    case kNakedSingle:  // variant 1: a full house, in its unit
      return n.links == 0 && n.placements == 1 && n.cells == 1 && n.digits == 1 &&
             ((n.variant == 0 && n.units == 0) || (n.variant == 1 && n.units == 1));
    case kHiddenSingle: return plain && n.placements == 1 && n.units == 1 && n.digits == 1;
    case kPointing:
    case kClaiming: return plain && n.units == 2 && n.digits == 1;
    case kNakedPair:  // the unit, or as HoDoKu has them, the two the cells share; variant 1:
                      // locked (the box, then the line)
      return NakedSubsetFits(n, 2);
    case kHiddenPair: return plain && n.units == 1 && n.digits == 2 && n.cells == 2;
    case kNakedTriple: return NakedSubsetFits(n, 3);
    case kHiddenTriple: return plain && n.units == 1 && n.digits == 3 && n.cells == 3;
    case kNakedQuad:
    case kHiddenQuad: return plain && n.units == 1 && n.digits == 4 && n.cells == 4;
    case kXWing: return plain && n.units == 4 && n.digits == 1;
    case kSwordfish: return plain && n.units == 6 && n.digits == 1;
    case kJellyfish: return plain && n.units == 8 && n.digits == 1;
    case kFinnedFish:
    case kSashimiFish:  // base lines, cover lines, the fins' box; the base lines' places (a
                        // place or more a line, and a fin)
      return n.links == 0 && n.placements == 0 && n.variant >= 2 && n.variant <= 4 &&
             n.units == 2 * n.variant + 1 && n.digits == 1 && n.cells > n.variant;
    case kSueDeCoq: {  // C (2-3 cells) holding C's size + 2 digits or more, A and D non-empty
      const uint32_t c = n.variant % 10, a = n.variant / 10;
      return n.placements == 0 && n.links == 0 && n.units == 2 && (c == 2 || c == 3) && a >= 1 &&
             n.cells > c + a && n.digits >= c + 2;
    }
    case kRemotePair:  // the two colours' cells, four or more; a link for each but the first
      return n.units == 0 && n.placements == 0 && n.digits == 2 && n.cells >= 4 &&
             n.variant >= 1 && n.variant < n.cells && n.links == n.cells - 1;
    case kSkyscraper: return n.variant == 0 && n.units == 2 && n.cells == 4 && n.digits == 1;
    case kTwoStringKite: return n.variant == 0 && n.units == 3 && n.cells == 4 && n.digits == 1;
    case kTurbotFish: return n.variant == 0 && n.units == 2 && n.cells == 4 && n.digits == 1;
    case kEmptyRectangle: return n.variant == 0 && n.units == 4 && n.cells == 2 && n.digits == 1;
    case kXYWing:
    case kXYZWing: return n.variant == 0 && n.cells == 3 && n.digits == 3;
    case kWWing: return n.variant == 0 && n.units == 1 && n.cells == 4 && n.digits == 2;
    case kSimpleColouring: return n.digits == 1 && n.variant >= 1 && n.variant < n.cells;
    case kMultiColours:  // two clusters of two cells or more, each coloured by a tree of pairs
      return n.units == 0 && n.placements == 0 && n.digits == 1 &&
             (n.variant == 1 || n.variant == 2) && n.cells >= 4 && n.links == n.cells - 2;
    case kUniqueRectangle:
      if (n.variant >= 10) return SeLoopFits(n);
      return n.cells >= 4 && n.digits >= 2 &&
             ((n.variant == 1 && n.cells == 4 && n.digits == 2 && n.units == 0) ||
              (n.variant == 2 && n.cells == 4 && n.digits == 3 && n.units == 0) ||
              (n.variant == 3 && n.cells > 4 && n.digits > 2 && n.units == 1) ||
              (n.variant == 4 && n.cells == 4 && n.digits == 2 && n.units == 1) ||
              (n.variant == 6 && n.cells == 4 && n.digits == 2 && n.units == 4));
    case kHiddenRectangle: return plain && n.units == 2 && n.cells == 4 && n.digits == 2;
    case kBugPlusOne: return plain && n.placements == 1 && n.cells == 1 && n.digits == 1;
    case kXChain:  // variants 3 and 4: SE's strong links, a chain or a loop, on its path: a
                   // unit for each link
      if (n.variant == 3 || n.variant == 4) {
        return n.digits == 1 && n.placements == 0 && n.links >= 3 && n.units == n.links;
      }
      [[fallthrough]];
    case kXYChain:  // variants 1 and 2: SE's cycles and forcing chains, on its path
    case kAic: return n.variant <= 2 && n.links >= 1;
    case kAlsXz: return n.units == 2 && n.digits == 2 && n.variant >= 1 && n.variant < n.cells;
    case kWxyzWing:
      return n.units == 1 && n.cells >= 4 && n.cells <= 6 && n.digits == 2 && n.variant >= 2 &&
             n.variant <= n.cells;
    case kForcingChain:
      return n.links >= 1 &&
             ((n.variant == 0 && n.cells == 1 && n.digits == 1 && n.units <= 1) ||
              (n.variant == 1 && n.cells == 1 && n.digits == 2) ||
              (n.variant == 2 && n.units == 1 && n.cells == 2 && n.digits == 1));
    case kTrial:
      if (n.variant >= 2) {
        return n.cells == 2 && n.digits >= 3 && n.units == 0 && n.placements == 0;
      }
      return n.cells == 1 && n.digits == 1 && n.units <= 1 &&
             (n.variant == 0 ? n.placements == 1 : n.placements == 0);
  }
  return false;
}

void CheckShape(const Step& step) {
  if (ShapeFits(step)) return;
  throw BadStep(std::string(logic::Name(step.technique)) + " with " +
                std::to_string(step.units.size()) + " units, " +
                std::to_string(step.cells.size()) + " cells, " +
                std::to_string(step.digits.size()) + " digits, " +
                std::to_string(step.placements.size()) + " placements, " +
                std::to_string(step.links.size()) + " links and variant " +
                std::to_string(step.variant));
}

}  // namespace

Technique TechniqueToWire(logic::Technique technique) {
  return kTechniques[static_cast<size_t>(technique)].second;
}

std::optional<logic::Technique> TechniqueFromWire(int number) {
  for (const auto& [technique, wire] : kTechniques) {
    if (wire == number) return technique;
  }
  return std::nullopt;
}

void StepToWire(const Step& step, ExplainStep* out) {
  out->Clear();
  out->set_technique(TechniqueToWire(step.technique));
  for (const CellDigit& placement : step.placements) {
    out->add_placements(CandidateNumber(placement));
  }
  for (const CellDigit& elimination : step.eliminations) {
    out->add_eliminations(CandidateNumber(elimination));
  }
  for (const Unit& unit : step.units) {
    out->add_units(UnitNumber(unit));
  }
  for (uint8_t cell : step.cells) out->add_cells(cell);
  for (uint8_t digit : step.digits) out->add_digits(digit);
  out->set_variant(step.variant);
  LinksToWire(step.links, out->mutable_links());
  for (const logic::TrialBranch& branch : step.branches) {
    TrialBranch* wire_branch = out->add_branches();
    wire_branch->set_parent(static_cast<uint32_t>(branch.parent + 1));
    wire_branch->set_assumption(CandidateNumber(branch.assumption));
    LinksToWire(branch.links, wire_branch->mutable_links());
    for (const Unit& unit : branch.units) wire_branch->add_units(UnitNumber(unit));
    if (branch.nesting_cell >= 0) {
      wire_branch->set_nesting_cell(static_cast<uint32_t>(branch.nesting_cell));
    }
  }
}

Step StepFromWire(const ExplainStep& wire_step) {
  Step step;
  const std::optional<logic::Technique> technique = TechniqueFromWire(wire_step.technique());
  if (!technique) throw BadStep("unknown technique " + std::to_string(wire_step.technique()));
  step.technique = *technique;
  for (uint32_t value : wire_step.placements()) step.placements.push_back(CandidateOf(value));
  for (uint32_t value : wire_step.eliminations()) step.eliminations.push_back(CandidateOf(value));
  for (uint32_t value : wire_step.units()) step.units.push_back(UnitOf(value));
  for (uint32_t value : wire_step.cells()) step.cells.push_back(CellOf(value));
  for (uint32_t value : wire_step.digits()) {
    if (value < 1 || value > kDigits) {
      throw BadStep("digit " + std::to_string(value) + " is not 1-9");
    }
    step.digits.push_back(static_cast<uint8_t>(value));
  }
  if (wire_step.variant() > kCells) {
    throw BadStep("variant " + std::to_string(wire_step.variant()) + " is out of range (0-81)");
  }
  step.variant = static_cast<uint8_t>(wire_step.variant());
  step.links = LinksFromWire(wire_step.links());
  CheckShape(step);
  if (wire_step.branches_size() > 0 &&
      (step.technique != logic::Technique::kTrial || step.variant < 2)) {
    throw BadStep(std::string(logic::Name(step.technique)) + " (variant " +
                  std::to_string(step.variant) + ") with branches: only a nested trial has them");
  }
  if (wire_step.branches_size() > static_cast<int>(logic::kMaxTrialBranches)) {
    throw BadStep(std::to_string(wire_step.branches_size()) + " branches (at most " +
                  std::to_string(logic::kMaxTrialBranches) + ")");
  }
  for (int i = 0; i < wire_step.branches_size(); ++i) {
    try {
      step.branches.push_back(BranchFromWire(wire_step.branches(i), step));
    } catch (const BadStep& error) {
      throw BadStep("branch " + std::to_string(i + 1) + ": " + error.what());
    }
  }
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
