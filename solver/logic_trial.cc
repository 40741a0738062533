// Forcing chains and trials (logic_board.h): what follows from assuming a candidate, by naked
// and hidden singles. A branch remembers why each candidate changed, so that a result can be
// shown as the net of implications that led to it: every removal a single rests on, not only
// the last one, so that a reader can check each conclusion from the links shown alone.
//
// Trials nest: a branch that singles leave open is refuted when every candidate of its cell
// with fewest candidates is refuted in turn. That is a full search in the end, but it reads
// only the board: a false candidate leads to a contradiction, and a puzzle with several
// solutions shows itself by two candidates of one cell that both lead to a solution.
#include <algorithm>
#include <array>
#include <span>
#include <utility>
#include <vector>

#include "solver/logic_board.h"

namespace sudoku::logic::internal {
namespace {

constexpr int kCandidates = kCells * 9;
constexpr int16_t kNoCause = -1;

constexpr int CandidateOf(int cell, int digit) { return cell * 9 + digit - 1; }
constexpr int CellOfCandidate(int candidate) { return candidate / 9; }
constexpr int DigitOfCandidate(int candidate) { return candidate % 9 + 1; }

// A set of candidates, bit CandidateOf(cell, digit).
struct CandidateBits {
  std::array<uint64_t, (kCandidates + 63) / 64> words{};

  void Add(int candidate) { words[candidate / 64] |= uint64_t{1} << (candidate % 64); }
  bool Intersects(const CandidateBits& other) const {
    uint64_t any = 0;
    for (size_t i = 0; i < words.size(); ++i) any |= words[i] & other.words[i];
    return any != 0;
  }
};

// A board under an assumption, carried forward by singles.
class Branch {
 public:
  explicit Branch(const Board& board) : open_(board.open), open_cells_(board.open_cells) {
    for (int cell = 0; cell < kCells; ++cell) {
      for (int k = 0; k < 3; ++k) {
        const int unit = Table().units[cell][k];
        if (board.values[cell]) placed_[unit] |= Bit(board.values[cell]);
        for (uint16_t d = open_[cell]; d; d = WithoutLowest(d)) {
          places_[unit][LowestDigit(d)] |= static_cast<uint16_t>(1u << Table().positions[cell][k]);
        }
      }
    }
  }

  // Places `digit` in `cell` and follows the singles; false on a contradiction.
  bool Assume(int cell, int digit) {
    pending_.clear();  // a copy of a branch starts from its board, not its history
    Queue(CandidateOf(cell, digit), kNoCause);
    return Run();
  }

  bool contradiction() const { return contradiction_ >= 0; }
  bool solved() const { return !contradiction() && open_cells_ == 0; }
  const std::array<uint16_t, kCells>& open() const { return open_; }
  // Off in this branch: removed by it (not before it).
  bool Removed(int candidate) const { return state_[candidate] == kOff; }
  // Every candidate Removed(), as a set.
  const CandidateBits& removed() const { return removed_; }
  bool Placed(int candidate) const { return state_[candidate] == kOn; }
  // The last candidate removed before the contradiction, and the unit left without a place
  // for a digit (or -1: the candidate's cell was left with none).
  int contradiction_candidate() const { return contradiction_; }
  int empty_unit() const { return empty_unit_; }

  // Every implication the changes of `targets` (placed or removed here) rest on, from the
  // assumption, as links appended to `links` unless there already: each change after what it
  // rests on, so that the links read as chains from the assumption. Given the branch this one
  // was copied from (`outer`), a change made there is where the net stops: it goes to
  // `outer_changes`, for `outer`'s net to show.
  void NetTo(std::span<const int> targets, std::vector<Link>* links, const Branch* outer = nullptr,
             std::vector<int>* outer_changes = nullptr) const {
    std::vector<bool> shown(kCandidates, false);
    for (const int target : targets) ShowNet(target, outer, &shown, links, outer_changes);
  }

  // The candidates of the cell of `contradiction_candidate()` removed here (or, with
  // empty_unit(), the places of its digit in that unit): what the contradiction rests on.
  std::vector<int> ContradictionPremises() const {
    std::vector<int> premises;
    const int candidate = contradiction_;
    if (empty_unit_ >= 0) {
      for (const uint8_t cell : Table().cells[empty_unit_]) {
        const int place = CandidateOf(cell, DigitOfCandidate(candidate));
        if (state_[place] == kOff && place != candidate) premises.push_back(place);
      }
    } else {
      const int cell = CellOfCandidate(candidate);
      for (int digit = 1; digit <= 9; ++digit) {
        const int other = CandidateOf(cell, digit);
        if (state_[other] == kOff && other != candidate) premises.push_back(other);
      }
    }
    premises.push_back(candidate);  // last: the text names the cell or digit of the last link
    return premises;
  }

  // The open cell with fewest candidates (the first such).
  int FewestCandidates() const {
    int best = -1;
    for (int cell = 0; cell < kCells; ++cell) {
      if (open_[cell] && (best < 0 || Count(open_[cell]) < Count(open_[best]))) best = cell;
    }
    return best;
  }

 private:
  enum State : uint8_t { kUnknown, kOn, kOff };

  void Queue(int candidate, int cause) {
    if (state_[candidate] != kUnknown) return;
    state_[candidate] = kOn;
    cause_[candidate] = static_cast<int16_t>(cause);
    pending_.push_back(static_cast<int16_t>(candidate));
  }

  bool Run() {
    for (size_t head = 0; head < pending_.size() && !contradiction(); ++head) {
      const int candidate = pending_[head];
      const int cell = CellOfCandidate(candidate), digit = DigitOfCandidate(candidate);
      if (!(open_[cell] & Bit(digit))) {
        contradiction_ = candidate;  // two singles clashed: a peer's took this one's digit
        return false;
      }
      Place(cell, digit, candidate);
    }
    return !contradiction();
  }

  void Place(int cell, int digit, int candidate) {
    // The cell keeps `digit` while its others go, so that only real losses look like singles.
    for (uint16_t d = open_[cell] & ~Bit(digit); d; d = WithoutLowest(d)) {
      Remove(cell, LowestDigit(d), candidate);
    }
    open_[cell] = 0;
    ClearPlace(cell, digit);
    --open_cells_;
    for (int k = 0; k < 3; ++k) placed_[Table().units[cell][k]] |= Bit(digit);
    for (uint8_t peer : Table().peers[cell]) {
      if (open_[peer] & Bit(digit)) Remove(peer, digit, candidate);
    }
  }

  // Takes `digit` off `cell` because `cause` was placed, and queues the singles that forces
  // (Queue() ignores a candidate already on).
  void Remove(int cell, int digit, int cause) {
    const int candidate = CandidateOf(cell, digit);
    open_[cell] &= static_cast<uint16_t>(~Bit(digit));
    ClearPlace(cell, digit);
    state_[candidate] = kOff;
    cause_[candidate] = static_cast<int16_t>(cause);
    removed_.Add(candidate);
    if (contradiction()) return;
    if (open_[cell] == 0) {  // placed cells are never removed from: this one is left empty
      contradiction_ = candidate;
      return;
    }
    if (Count(open_[cell]) == 1) Queue(CandidateOf(cell, LowestDigit(open_[cell])), candidate);
    for (int k = 0; k < 3; ++k) {
      const int unit = Table().units[cell][k];
      if (placed_[unit] & Bit(digit)) continue;
      const uint16_t places = places_[unit][digit];
      if (places == 0) {
        contradiction_ = candidate;
        empty_unit_ = unit;
        return;
      }
      if (!WithoutLowest(places)) {
        Queue(CandidateOf(Table().cells[unit][std::countr_zero(places)], digit), candidate);
      }
    }
  }

  // What the change of `candidate` rests on, appended to `premises`: for a removal, the placement
  // that took it; for a single, every removal that left it one, in its cell (naked) or in a unit
  // (hidden); nothing for the assumption. A removal happens once, before anything it causes, so
  // these are the removals still off now whose cause is not the single itself.
  void Premises(int candidate, std::vector<int>* premises) const {
    const int cause = cause_[candidate];
    if (cause == kNoCause) return;
    if (state_[candidate] == kOff) {
      premises->push_back(cause);
      return;
    }
    const int cell = CellOfCandidate(candidate), digit = DigitOfCandidate(candidate);
    auto off_before = [&](int other) {
      return state_[other] == kOff && cause_[other] != candidate;
    };
    if (CellOfCandidate(cause) == cell) {  // a naked single: the cell's other digits went
      for (int other_digit = 1; other_digit <= 9; ++other_digit) {
        const int other = CandidateOf(cell, other_digit);
        if (other != candidate && off_before(other)) premises->push_back(other);
      }
      return;
    }
    // A hidden single: the unit of the cell and its cause where the digit has no other place.
    for (int k = 0; k < 3; ++k) {
      const int unit = Table().units[cell][k];
      const auto& cells = Table().cells[unit];
      if (std::find(cells.begin(), cells.end(), CellOfCandidate(cause)) == cells.end()) continue;
      bool single = true;
      for (const uint8_t other_cell : cells) {
        const int other = CandidateOf(other_cell, digit);
        if (other_cell == cell) continue;
        single &= !(open_[other_cell] & Bit(digit)) && !(state_[other] == kOff &&
                                                         cause_[other] == candidate);
      }
      if (!single) continue;
      for (const uint8_t other_cell : cells) {
        const int other = CandidateOf(other_cell, digit);
        if (other_cell != cell && off_before(other)) premises->push_back(other);
      }
      return;
    }
    premises->push_back(cause);  // not reached: a hidden single has its unit
  }

  // Appends the links of NetTo() for `candidate`, after those of its premises.
  void ShowNet(int candidate, const Branch* outer, std::vector<bool>* shown,
               std::vector<Link>* links, std::vector<int>* outer_changes) const {
    if ((*shown)[static_cast<size_t>(candidate)]) return;
    (*shown)[static_cast<size_t>(candidate)] = true;
    if (outer != nullptr && outer->state_[candidate] != kUnknown) {
      outer_changes->push_back(candidate);
      return;
    }
    std::vector<int> premises;
    Premises(candidate, &premises);
    for (const int premise : premises) ShowNet(premise, outer, shown, links, outer_changes);
    for (const int premise : premises) {
      Link link{SingleNode(CellOfCandidate(premise), DigitOfCandidate(premise)),
                SingleNode(CellOfCandidate(candidate), DigitOfCandidate(candidate)),
                state_[candidate] == kOn};
      if (std::find(links->begin(), links->end(), link) == links->end()) {
        links->push_back(std::move(link));
      }
    }
  }

  // Keeps places_ in step with open_: `digit` has left `cell`.
  void ClearPlace(int cell, int digit) {
    for (int k = 0; k < 3; ++k) {
      places_[Table().units[cell][k]][digit] &=
          static_cast<uint16_t>(~(1u << Table().positions[cell][k]));
    }
  }

  std::array<uint16_t, kCells> open_;
  int open_cells_;
  std::array<uint16_t, kUnits> placed_{};  // digits placed in each unit
  // Where each digit may still go in each unit, as Board::Places(): a unit left with one place
  // or none is then one test, not a scan of its cells (the branches' hottest question).
  std::array<std::array<uint16_t, 10>, kUnits> places_{};
  CandidateBits removed_;
  std::array<uint8_t, kCandidates> state_{};
  std::array<int16_t, kCandidates> cause_{};
  std::vector<int16_t> pending_;
  int contradiction_ = -1;
  int empty_unit_ = -1;
};

// Fills `step` with a contradiction's net: from the assumption to every removal that left a
// cell without a candidate, or a unit (in step->units) without a place for a digit.
void DescribeContradiction(const Branch& branch, Step* step) {
  step->links.clear();
  branch.NetTo(branch.ContradictionPremises(), &step->links);
  if (branch.empty_unit() >= 0) step->units = {UnitOf(branch.empty_unit())};
}

// What each candidate's branch removed, for the candidates open on the board.
struct BranchRemovals {
  std::array<int16_t, kCandidates> slot{};  // index into `removed`
  std::vector<CandidateBits> removed;

  const CandidateBits& Of(int cell, int digit) const {
    return removed[static_cast<size_t>(slot[CandidateOf(cell, digit)])];
  }
};

// Forcing chain, variant 0: a candidate whose singles lead to a contradiction. When there is
// none, `removals` gets every candidate's branch's removals.
bool ContradictionChain(Board& board, Step* step, BranchRemovals* removals) {
  // Each branch starts as a copy of one built once; assigning (not constructing) it keeps the
  // queue's storage from one candidate to the next.
  const Branch start(board);
  Branch branch = start;
  size_t candidates = 0;
  for (int cell = 0; cell < kCells; ++cell) candidates += Count(board.open[cell]);
  removals->removed.reserve(candidates);
  for (int cell = 0; cell < kCells; ++cell) {
    for (uint16_t d = board.open[cell]; d; d = WithoutLowest(d)) {
      const int digit = LowestDigit(d);
      branch = start;
      if (branch.Assume(cell, digit)) {
        removals->slot[CandidateOf(cell, digit)] = static_cast<int16_t>(removals->removed.size());
        removals->removed.push_back(branch.removed());
        continue;
      }
      step->technique = Technique::kForcingChain;
      step->variant = 0;
      step->cells = {static_cast<uint8_t>(cell)};
      step->digits = {static_cast<uint8_t>(digit)};
      DescribeContradiction(branch, step);
      Eliminate(board, step, cell, Bit(digit));
      return true;
    }
  }
  return false;
}

// Forcing chain, variants 1 and 2: the two branches of a bivalue cell or a bilocal digit agree
// on removals. The links show each branch's net to every one of them.
bool BothBranches(Board& board, Step* step, std::array<CellDigit, 2> assumptions, Step shape) {
  std::array<Branch, 2> branches{Branch(board), Branch(board)};
  for (int i = 0; i < 2; ++i) {
    if (!branches[i].Assume(assumptions[i].cell, assumptions[i].digit)) return false;
  }
  Step found = std::move(shape);
  found.technique = Technique::kForcingChain;
  std::vector<int> removed;  // by both branches
  for (int cell = 0; cell < kCells; ++cell) {
    for (uint16_t d = board.open[cell]; d; d = WithoutLowest(d)) {
      const int candidate = CandidateOf(cell, LowestDigit(d));
      if (!branches[0].Removed(candidate) || !branches[1].Removed(candidate)) continue;
      removed.push_back(candidate);
      found.eliminations.push_back(
          {static_cast<uint8_t>(cell), static_cast<uint8_t>(LowestDigit(d))});
    }
  }
  if (removed.empty()) return false;
  // Each branch's net to every removal the step makes; a link both share is shown once.
  for (const Branch& branch : branches) branch.NetTo(removed, &found.links);
  for (const CellDigit& e : found.eliminations) {
    board.open[e.cell] &= static_cast<uint16_t>(~Bit(e.digit));
  }
  *step = std::move(found);
  return true;
}

// Variants 1 and 2 run after variant 0 on the same board, so each of their branches is one that
// variant 0 followed already, without a contradiction: BothBranches() succeeds exactly when the
// two branches' removals (in `removals`) meet, and runs only then, to describe the step.
bool BivalueChain(Board& board, Step* step, const BranchRemovals& removals) {
  for (int cell = 0; cell < kCells; ++cell) {
    if (Count(board.open[cell]) != 2) continue;
    const int a = LowestDigit(board.open[cell]);
    const int b = LowestDigit(WithoutLowest(board.open[cell]));
    if (!removals.Of(cell, a).Intersects(removals.Of(cell, b))) continue;
    Step shape;
    shape.variant = 1;
    shape.cells = {static_cast<uint8_t>(cell)};
    shape.digits = {static_cast<uint8_t>(a), static_cast<uint8_t>(b)};
    const uint8_t c = static_cast<uint8_t>(cell);
    const std::array<CellDigit, 2> branches{CellDigit{c, static_cast<uint8_t>(a)},
                                            CellDigit{c, static_cast<uint8_t>(b)}};
    if (BothBranches(board, step, branches, std::move(shape))) {
      return true;
    }
  }
  return false;
}

bool BilocalChain(Board& board, Step* step, const BranchRemovals& removals) {
  for (int unit = 0; unit < kUnits; ++unit) {
    for (int digit = 1; digit <= 9; ++digit) {
      const uint16_t places = board.Places(unit, digit);
      if (Count(places) != 2) continue;
      const uint8_t first = Table().cells[unit][std::countr_zero(places)];
      const uint8_t second = Table().cells[unit][std::countr_zero(WithoutLowest(places))];
      if (!removals.Of(first, digit).Intersects(removals.Of(second, digit))) continue;
      Step shape;
      shape.variant = 2;
      shape.units = {UnitOf(unit)};
      shape.cells = {first, second};
      shape.digits = {static_cast<uint8_t>(digit)};
      const uint8_t d = static_cast<uint8_t>(digit);
      if (BothBranches(board, step, {CellDigit{first, d}, {second, d}}, std::move(shape))) {
        return true;
      }
    }
  }
  return false;
}

enum class Outcome { kContradiction, kSolved, kOpen };

// Where assuming `digit` in `cell` leads, with trials nested `depth` deep (1: singles alone).
// `deepest` records the deepest nesting a contradiction needed.
Outcome Follow(const Branch& from, int cell, int digit, int depth, int level, int* deepest) {
  Branch branch = from;
  if (!branch.Assume(cell, digit)) {
    *deepest = std::max(*deepest, level);
    return Outcome::kContradiction;
  }
  if (branch.solved()) return Outcome::kSolved;
  if (depth <= 1) return Outcome::kOpen;
  const int next = branch.FewestCandidates();
  bool open = false;
  for (uint16_t d = branch.open()[next]; d; d = WithoutLowest(d)) {
    const Outcome outcome = Follow(branch, next, LowestDigit(d), depth - 1, level + 1, deepest);
    if (outcome == Outcome::kSolved) return Outcome::kSolved;
    open |= outcome == Outcome::kOpen;
  }
  return open ? Outcome::kOpen : Outcome::kContradiction;
}

// The candidates `branch` took from `cell`, its own removals and those of the branches it nests
// in: with the board's, what leaves the cell the digits its nested branches try.
std::vector<int> TakenFrom(const Branch& branch, int cell) {
  std::vector<int> taken;
  for (int digit = 1; digit <= 9; ++digit) {
    if (branch.Removed(CandidateOf(cell, digit))) taken.push_back(CandidateOf(cell, digit));
  }
  return taken;
}

// Appends to `branches` the refutation of `digit` in `cell` atop `outer` (Follow() found that
// it fails), nested in branch `parent`, and after it the branches nested in it, depth first.
// `outer_changes` gets the changes of `outer` its net starts from, for `outer`'s to show.
// False, and `branches` unfinished, once they pass kMaxTrialBranches or `links` passes
// kMaxTrialLinks (it counts every link shown).
bool DescribeBranch(const Branch& outer, int cell, int digit, int parent,
                    std::vector<TrialBranch>* branches, std::vector<int>* outer_changes,
                    size_t* links) {
  if (branches->size() >= kMaxTrialBranches) return false;
  Branch branch = outer;
  const size_t index = branches->size();
  TrialBranch& added = branches->emplace_back();
  added.parent = parent;
  added.assumption = {static_cast<uint8_t>(cell), static_cast<uint8_t>(digit)};
  std::vector<int> targets;
  if (!branch.Assume(cell, digit)) {
    targets = branch.ContradictionPremises();
    if (branch.empty_unit() >= 0) added.units = {UnitOf(branch.empty_unit())};
  } else if (const int next = branch.FewestCandidates(); next >= 0) {
    added.nesting_cell = next;
    targets = TakenFrom(branch, next);
    for (uint16_t d = branch.open()[next]; d; d = WithoutLowest(d)) {
      if (!DescribeBranch(branch, next, LowestDigit(d), static_cast<int>(index), branches,
                          &targets, links)) {
        return false;
      }
    }
  }
  // (Solved, the branch would not have failed: Follow() and this walk take the same cells.)
  TrialBranch& described = (*branches)[index];  // `added` moved as branches grew
  branch.NetTo(targets, &described.links, &outer, outer_changes);
  *links += described.links.size();
  return *links <= kMaxTrialLinks;
}

// A trial whose singles leave the board open, refuted by trials nested below it: the cell they
// start from (the open cell with fewest candidates) joins the step's cells, its candidates left
// the step's digits, each refuted in the step's branches (with `show_branches`, and within
// their bounds; else none); the links show how singles took the cell's other candidates away
// and every change the branches start from.
void DescribeNesting(const Branch& branch, bool show_branches, Step* step) {
  const int next = branch.FewestCandidates();
  step->cells.push_back(static_cast<uint8_t>(next));
  std::vector<int> targets = TakenFrom(branch, next);
  size_t links = 0;
  for (uint16_t d = branch.open()[next]; d; d = WithoutLowest(d)) {
    step->digits.push_back(static_cast<uint8_t>(LowestDigit(d)));
    if (show_branches && !DescribeBranch(branch, next, LowestDigit(d), -1, &step->branches,
                                         &targets, &links)) {
      show_branches = false;
      step->branches.clear();
      targets = TakenFrom(branch, next);
    }
  }
  branch.NetTo(targets, &step->links);
}

// Nesting tried before the full search: shallow trials read better.
constexpr int kShallowDepth = 3;
constexpr int kFullDepth = kCells;

}  // namespace

bool ForcingChain(Board& board, Step* step) {
  BranchRemovals removals;
  return ContradictionChain(board, step, &removals) || BivalueChain(board, step, removals) ||
         BilocalChain(board, step, removals);
}

void Trial(Board& board, Step* step, bool show_branches) {
  const Branch start(board);
  const int cell = start.FewestCandidates();
  step->technique = Technique::kTrial;
  step->cells = {static_cast<uint8_t>(cell)};
  for (int depth : {2, kShallowDepth, kFullDepth}) {
    int first_solved = 0, solved = 0;
    for (uint16_t d = board.open[cell]; d; d = WithoutLowest(d)) {
      const int digit = LowestDigit(d);
      int deepest = 0;
      const Outcome outcome = Follow(start, cell, digit, depth, 1, &deepest);
      if (outcome == Outcome::kSolved && solved++ == 0) first_solved = digit;
      if (outcome != Outcome::kContradiction) continue;
      step->digits = {static_cast<uint8_t>(digit)};
      step->variant = static_cast<uint8_t>(deepest);
      Branch branch = start;
      branch.Assume(cell, digit);
      if (deepest == 1) {
        DescribeContradiction(branch, step);
      } else {
        DescribeNesting(branch, show_branches, step);
      }
      Eliminate(board, step, cell, Bit(digit));
      return;
    }
    if (solved >= 2) {  // two digits of one cell both lead to a solution: a choice
      step->variant = 0;
      step->digits = {static_cast<uint8_t>(first_solved)};
      step->placements = {{static_cast<uint8_t>(cell), static_cast<uint8_t>(first_solved)}};
      board.Place(cell, first_solved);
      return;
    }
  }
  // Unreachable on a board with a solution: the full search refutes every candidate but the
  // solution's, or finds two solutions. Keep the explanation finite regardless.
  step->variant = 0;
  const int digit = LowestDigit(board.open[cell]);
  step->digits = {static_cast<uint8_t>(digit)};
  step->placements = {{static_cast<uint8_t>(cell), static_cast<uint8_t>(digit)}};
  board.Place(cell, digit);
}

}  // namespace sudoku::logic::internal
