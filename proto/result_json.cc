#include "proto/result_json.h"

#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "proto/explain_wire.h"
#include "proto/verdicts.h"
#include "solver/explain_text.h"
#include "solver/logic.h"
#include "solver/rating.h"
#include "solver/solver.h"

namespace sudoku::wire {
namespace {

OrderedJson CellDigits(const std::vector<logic::CellDigit>& list) {
  OrderedJson out = OrderedJson::array();
  for (const logic::CellDigit& item : list) {
    out.push_back(OrderedJson{{"cell", logic::CellName(item.cell)}, {"digit", item.digit}});
  }
  return out;
}

// The digits still possible in each cell, as 81 strings ("", "1357", ...).
OrderedJson CandidateStrings(const logic::Candidates& candidates) {
  OrderedJson out = OrderedJson::array();
  for (int cell = 0; cell < kCells; ++cell) {
    std::string digits;
    for (int digit = 1; digit <= 9; ++digit) {
      if ((candidates[cell] >> (digit - 1)) & 1) digits += static_cast<char>('0' + digit);
    }
    out.push_back(std::move(digits));
  }
  return out;
}

// {"digit": 4, "cells": ["r2c7", "r2c8"]}: a chain's node.
OrderedJson NodeJson(const logic::Node& node) {
  OrderedJson cells = OrderedJson::array();
  for (const uint8_t cell : node.cells) cells.push_back(logic::CellName(cell));
  return OrderedJson{{"digit", node.digit}, {"cells", std::move(cells)}};
}

OrderedJson LinksJson(const std::vector<logic::Link>& links) {
  OrderedJson out = OrderedJson::array();
  for (const logic::Link& link : links) {
    out.push_back(OrderedJson{
        {"from", NodeJson(link.from)}, {"to", NodeJson(link.to)}, {"strong", link.strong}});
  }
  return out;
}

// The branches of `step` nested in each (index + 1; 0: in the step itself).
std::vector<std::vector<size_t>> NestedBranches(const logic::Step& step) {
  std::vector<std::vector<size_t>> nested(step.branches.size() + 1);
  for (size_t i = 0; i < step.branches.size(); ++i) {
    nested[static_cast<size_t>(step.branches[i].parent + 1)].push_back(i);
  }
  return nested;
}

// The branches of `step` listed in `nested`[at], each with those nested in it: a tree a reader
// opens branch by branch.
OrderedJson BranchesJson(const logic::Step& step, const std::vector<std::vector<size_t>>& nested,
                         size_t at) {
  OrderedJson out = OrderedJson::array();
  for (const size_t i : nested[at]) {
    const logic::TrialBranch& branch = step.branches[i];
    OrderedJson units = OrderedJson::array();
    for (const logic::Unit& unit : branch.units) units.push_back(logic::UnitName(unit));
    out.push_back(OrderedJson{
        {"tries",
         {{"cell", logic::CellName(branch.assumption.cell)}, {"digit", branch.assumption.digit}}},
        {"text", logic::DescribeTrialBranch(step, i)},
        {"links", LinksJson(branch.links)},
        {"units", std::move(units)},
        {"nesting_cell", branch.nesting_cell < 0
                             ? OrderedJson(nullptr)
                             : OrderedJson(logic::CellName(branch.nesting_cell))},
        {"branches", BranchesJson(step, nested, i + 1)}});
  }
  return out;
}

// SE's name of the step's technique, or null where SE has no such technique.
OrderedJson SeNameJson(const logic::Step& step) {
  std::string name = logic::SeName(step);
  return name.empty() ? OrderedJson(nullptr) : OrderedJson(std::move(name));
}

OrderedJson StepJson(const logic::Step& step, int number, const logic::Candidates* candidates) {
  OrderedJson units = OrderedJson::array();
  for (const logic::Unit& unit : step.units) units.push_back(logic::UnitName(unit));
  OrderedJson cells = OrderedJson::array();
  for (const uint8_t cell : step.cells) cells.push_back(logic::CellName(cell));
  OrderedJson json = {{"step", number},
                      {"technique", logic::Name(step.technique)},
                      {"hodoku_name", logic::HodokuName(step)},
                      {"se_name", SeNameJson(step)},
                      {"text", logic::Describe(step)},
                      {"placements", CellDigits(step.placements)},
                      {"eliminations", CellDigits(step.eliminations)},
                      {"units", std::move(units)},
                      {"cells", std::move(cells)},
                      {"digits", step.digits},
                      {"variant", step.variant},
                      {"links", LinksJson(step.links)},
                      {"branches", BranchesJson(step, NestedBranches(step), 0)}};
  if (candidates != nullptr) json["candidates"] = CandidateStrings(*candidates);
  return json;
}

}  // namespace

std::string LevelName(int level) {
  return level >= 0 && level <= static_cast<int>(logic::Level::kExpert)
             ? logic::Name(static_cast<logic::Level>(level))
             : "unknown";
}

std::string TechniqueName(int technique) {
  const std::optional<logic::Technique> known = TechniqueFromWire(technique);
  return known ? logic::Name(*known) : "unknown";
}

std::string HodokuLevelName(int level) {
  return level >= 0 && level < rating::kHodokuLevelCount
             ? rating::Name(static_cast<rating::HodokuLevel>(level))
             : "unknown";
}

RatingColumns RatingOf(const SolveResponse& response, int index) {
  // Columns a daemon older than the HoDoKu and SE columns does not send read as zero (and SE's
  // as absent).
  auto at = [index](const auto& column) { return index < column.size() ? column.Get(index) : 0; };
  return RatingColumns{.level = at(response.levels()),
                       .hardest = at(response.hardest_techniques()),
                       .steps = at(response.steps()),
                       .guesses = at(response.guesses()),
                       .logic_guesses = at(response.logic_guesses()),
                       .hodoku_level = at(response.hodoku_levels()),
                       .hodoku_score = at(response.hodoku_scores()),
                       .se_tenths = at(response.se_ratings()),
                       .se_pearl_tenths = at(response.se_pearls()),
                       .se_diamond_tenths = at(response.se_diamonds()),
                       .hodoku_path = !response.levels().empty(),
                       .se_path = !response.se_ratings().empty()};
}

OrderedJson RatingJson(const RatingColumns& rating) {
  OrderedJson out = OrderedJson::object();
  if (rating.hodoku_path) {
    out["level"] = LevelName(rating.level);
    out["hardest"] = TechniqueName(rating.hardest);
    out["steps"] = rating.steps;
  }
  out["guesses"] = rating.guesses;
  if (rating.hodoku_path) {
    out["logic_guesses"] = rating.logic_guesses;
    out["hodoku_level"] = HodokuLevelName(rating.hodoku_level);
    out["hodoku_score"] = rating.hodoku_score;
  }
  if (rating.se_path) {
    out["se"] = rating.se_tenths / 10.0;
    out["se_pearl"] = rating.se_pearl_tenths / 10.0;
    out["se_diamond"] = rating.se_diamond_tenths / 10.0;
  }
  return out;
}

OrderedJson InvalidJson(std::string_view puzzle, std::string_view where, std::string_view reason) {
  OrderedJson out = OrderedJson::object();
  if (!puzzle.empty()) out["puzzle"] = puzzle;
  out["verdict"] = VerdictName(INVALID);
  std::string error = "invalid: ";
  error.append(where).append(": ").append(reason);
  out["error"] = std::move(error);
  out["where"] = where;
  out["reason"] = reason;
  return out;
}

OrderedJson UnsolvableJson(std::string_view puzzle, std::string_view reason) {
  OrderedJson out{{"puzzle", puzzle}, {"verdict", VerdictName(UNSOLVABLE)}};
  if (!reason.empty()) out["reason"] = reason;
  return out;
}

const OrderedJson& SolveResultJson::Of(const SolveResult& result) {
  if (result.verdict == INVALID) {
    keys_ = ~0u;  // rare: a fresh object, and a fresh one after it
    object_ = InvalidJson(result.puzzle, result.where, result.reason);
    return object_;
  }
  const bool solved = !result.solution.empty();
  const unsigned keys =
      (result.puzzle.empty() ? 0 : 1) | (solved ? 2 : 0) | (result.rating ? 4 : 0);
  if (keys != keys_) {
    object_ = OrderedJson::object();  // the keys go in afresh, in order
    keys_ = keys;
  }
  if (!result.puzzle.empty()) Set("puzzle", result.puzzle);
  Set("verdict", VerdictName(result.verdict));
  if (solved) Set("solution", result.solution);
  object_["solutions"] = result.solutions;
  object_["guesses"] = result.guesses;
  if (result.rating) object_["rating"] = RatingJson(*result.rating);
  return object_;
}

void SolveResultJson::Set(const char* key, std::string_view text) {
  OrderedJson& value = object_[key];
  if (value.is_string()) {
    value.get_ref<std::string&>().assign(text);
  } else {
    value = text;
  }
}

OrderedJson ExplanationJson(const ExplainResponse& response, std::string_view puzzle,
                            bool candidates) {
  Grid grid{};
  logic::Candidates remaining{};
  if (!logic::ExplanationStart(puzzle, &grid, &remaining)) {
    throw std::invalid_argument("an explanation of a puzzle that is not valid");
  }
  OrderedJson steps = OrderedJson::array();
  uint32_t logic_guesses = 0;
  int number = 0;
  for (const logic::Step& step : StepsFromWire(response)) {
    if (step.technique == logic::Technique::kTrial) ++logic_guesses;
    steps.push_back(StepJson(step, ++number, candidates ? &remaining : nullptr));
    logic::Apply(step, &grid, &remaining);
  }
  return OrderedJson{{"puzzle", puzzle},
                     {"verdict", VerdictName(response.verdict())},
                     {"steps", std::move(steps)},
                     {"solution", response.solution()},
                     {"rating", RatingJson({.level = response.level(),
                                            .hardest = response.hardest_technique(),
                                            .steps = static_cast<uint32_t>(response.steps_size()),
                                            .guesses = response.guesses(),
                                            .logic_guesses = logic_guesses,
                                            .hodoku_level = response.hodoku_level(),
                                            .hodoku_score = response.hodoku_score(),
                                            .se_tenths = response.se_rating(),
                                            .se_pearl_tenths = response.se_pearl(),
                                            .se_diamond_tenths = response.se_diamond()})}};
}

}  // namespace sudoku::wire
