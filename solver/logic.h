// The logical solver: solves a puzzle step by step with the techniques people use, so that the
// solution can be explained (Explain) and its difficulty rated (Rate). Separate from the fast
// kernel (solver.h), which it calls only for the verdict (is the puzzle unique?) and to count the
// kernel's guesses; no step reads the kernel's solution.
//
// Thread-safety: every function here is reentrant and keeps its state per call; any number of
// threads may call Explain() and Rate() at once.
#ifndef SUDOKU_SOLVER_LOGIC_H_
#define SUDOKU_SOLVER_LOGIC_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "solver/solver.h"

namespace sudoku::logic {

// The techniques, easiest first. The logical solver always takes a step of the easiest technique
// that applies, so a puzzle's hardest technique is the least it needs in this order. None of
// them reads the solution: even kTrial only follows where a candidate leads.
enum class Technique : uint8_t {
  kNakedSingle,   // a cell with one candidate left
  kHiddenSingle,  // a digit with one place left in a row, column or box
  kPointing,      // a digit confined to one line inside a box leaves the rest of that line
  kClaiming,      // a digit confined to one box inside a line leaves the rest of that box
  kNakedPair,     // two cells of a unit with the same two candidates
  kHiddenPair,    // two digits with the same two places in a unit
  kNakedTriple,   // three cells of a unit whose candidates together are three digits
  kHiddenTriple,  // three digits whose places in a unit together are three cells
  kNakedQuad,     // four cells of a unit whose candidates together are four digits
  kHiddenQuad,    // four digits whose places in a unit together are four cells
  kXWing,         // a digit in two places in each of two rows (or columns), the same two columns
  kSwordfish,     // the same with three rows (or columns)
  kJellyfish,     // the same with four rows (or columns)
  kRemotePair,    // bivalue cells of one pair, each seeing the next: opposite ends' peers lose both
  kSkyscraper,    // two parallel conjugate pairs of a digit with one end on a common line
  kTwoStringKite,    // a row's and a column's conjugate pair joined in a box
  kTurbotFish,       // any two conjugate pairs of a digit, one end of each seeing the other's
  kEmptyRectangle,   // a digit of a box confined to one row and one column, and a conjugate pair
  kXYWing,           // a bivalue pivot xy and pincers xz, yz: z leaves what sees both pincers
  kXYZWing,          // a pivot xyz and pincers xz, yz: z leaves what sees all three
  kWWing,            // two bivalue cells xy joined by a conjugate pair on x: y leaves both's peers
  kSimpleColouring,  // one digit's conjugate pairs coloured two ways: a trap or a wrap
  kMultiColours,     // two such colourings of a digit, a colour of one seeing one of the other
  kUniqueRectangle,  // four cells in two boxes that would allow two solutions (types 1-4)
  kHiddenRectangle,  // the same, one corner bivalue and a digit conjugate along the other's lines
  kBugPlusOne,       // every open cell bivalue but one: its digit seen three times goes there
  kFinnedFish,       // an x-wing, swordfish or jellyfish but for fins in one box
  kSashimiFish,      // a finned fish that is no fish without its fins
  kSueDeCoq,         // a line's and a box's almost locked sets sharing the cells where they cross
  kXChain,           // an alternating chain of one digit
  kXYChain,          // an alternating chain through bivalue cells
  kAic,              // an alternating inference chain, its nodes candidates or grouped cells
  kAlsXz,            // two almost locked sets joined by a restricted common digit
  kWxyzWing,         // SE's: an als-xz of 3-5 cells and a bivalue cell (its path only)
  kForcingChain,     // where singles lead from a candidate (or from both of a pair's)
  kTrial,            // logic ran out: a candidate followed to a contradiction, then removed
};
inline constexpr int kTechniqueCount = static_cast<int>(Technique::kTrial) + 1;

// QQWing's difficulty scale, easiest first.
enum class Level : uint8_t { kSimple, kEasy, kIntermediate, kExpert };

// "naked single", "hidden single", "pointing", "claiming", "naked pair", "hidden pair",
// "naked triple", "hidden triple", "naked quad", "hidden quad", "x-wing", "swordfish",
// "jellyfish", "remote pair", "skyscraper", "two-string kite",
// "turbot fish", "empty rectangle", "xy-wing", "xyz-wing",
// "w-wing", "simple colouring", "multi colours", "unique rectangle", "hidden rectangle", "bug+1", "finned fish",
// "sashimi fish", "sue de coq",
// "x-chain", "xy-chain", "alternating inference chain", "als-xz", "wxyz-wing", "forcing chain",
// "trial".
const char* Name(Technique technique);
// The inverse of Name(Technique), case-sensitive; nullopt for anything else.
std::optional<Technique> ParseTechnique(std::string_view text);
// "simple", "easy", "intermediate", "expert".
const char* Name(Level level);
// The inverse of Name(Level), case-sensitive; nullopt for anything else.
std::optional<Level> ParseLevel(std::string_view text);

// A digit in a cell: a placement, or a candidate removed.
struct CellDigit {
  uint8_t cell = 0;   // 0-80, row-major
  uint8_t digit = 0;  // 1-9
  friend bool operator==(const CellDigit&, const CellDigit&) = default;
};

// A row, column or box, numbered 0-8 (boxes row-major).
struct Unit {
  enum class Kind : uint8_t { kRow, kColumn, kBox };
  Kind kind = Kind::kRow;
  uint8_t index = 0;
  friend bool operator==(const Unit&, const Unit&) = default;
};

// A node of a chain: one candidate, or (a grouped node) the candidates of one digit in two or
// three cells of one box-line intersection, taken together: "on" when the digit is in one of
// them, "off" when in none.
struct Node {
  uint8_t digit = 0;           // 1-9
  std::vector<uint8_t> cells;  // 1-3 cells, ascending
  friend bool operator==(const Node&, const Node&) = default;
};

// Two nodes of a chain. Weak: they are not both on ("from on, so to off"). Strong: they are not
// both off ("from off, so to on"). In a forcing chain or a trial, a link is an implication
// within the branch: a strong link there rests on the branch's earlier removals, each of which
// the step shows with a link of its own.
struct Link {
  Node from;
  Node to;
  bool strong = false;
  friend bool operator==(const Link&, const Link&) = default;
};

// One branch of a nested trial's refutation: `assumption`, atop the assumptions of the branches
// it nests in, leads by singles to a contradiction, or leaves `nesting_cell` open with
// candidates each of which is a branch of its own (parent: this one) and fails in turn.
struct TrialBranch {
  int32_t parent = -1;  // the branch it nests in, an index into Step::branches; -1: the step's
  CellDigit assumption{};
  // The singles' net from the assumption, as a forcing chain's: every change of this branch its
  // outcome rests on (the contradiction, or the nesting cell's lost candidates and what its own
  // branches start from), each after those it rests on. A change made by an enclosing branch is
  // shown there, not again: a link may start from it.
  std::vector<Link> links;
  std::vector<Unit> units;  // the contradiction: the unit left without a place for the last
                            // link's digit; none: the last link's cell was left empty
  int nesting_cell = -1;    // the open cell the nested branches start from; -1: a contradiction
};

// A nested trial shows its branches while they stay within these, most of the links shown on
// any of 25,848 hardest puzzles (forum_hardest_11plus_half, magictour_top1465) being 43,231;
// past them it shows none (the step still names the digits each refuted).
inline constexpr size_t kMaxTrialBranches = 8192;
inline constexpr size_t kMaxTrialLinks = 65536;

// SE's nested forcing chains (9.5 and up) search SE's cycles, or its multiple chains, wherever
// one of their chains runs out of singles: a walk of the path rated for SE makes at most this
// many such searches (some 0.2 ms each), a second or two. Every puzzle of the shared sets that
// SE rates 9.5-11.0 by levels 2 and 3 of its chains takes fewer; past them (SE's hardest, whose
// deeper levels SE takes minutes over) the walk goes on by trials.
inline constexpr uint32_t kNestedSearches = 8000;

// One step of the explanation.
//   kNakedSingle:  placements = {the cell, its digit}; cells = {the cell}; variant 1: a full
//                  house, the last open cell of units = {the unit}
//   kHiddenSingle: placements; units = {the unit where the digit has one place}; digits = {it}
//   kPointing:     units = {the box, the line}; digits = {the digit}; cells = where it sits.
//                  Variant 1 (pointing, claiming, hidden pair and triple), only on the path
//                  rated for SE (Preference::kEasiestSe): SE's "direct" kind, which leaves a
//                  digit one place in a unit: placements = {that single}; units gain that
//                  unit (last); no eliminations: SE places the single and removes nothing
//   kClaiming:     units = {the line, the box}; digits, cells as kPointing
//   pairs/triples/quads: units = {the unit}; cells = the pattern's cells; digits = its digits
//   kXWing/kSwordfish/kJellyfish: units = the base lines (where the digit is confined), then the
//                  cover lines (where it is eliminated); digits = {the digit}; cells = the corners
//   kFinnedFish/kSashimiFish: variant = the fish's size (2 an x-wing, 3 a swordfish, 4 a
//                  jellyfish); units = the base lines, then the cover lines, then the box of the
//                  fins (the base lines' places outside the cover lines); digits = {the digit};
//                  cells = the base lines' places, fins included. The digit leaves the cells of
//                  the cover lines that are in the fins' box and outside the base lines: the fish
//                  holds there, or a fin does. Sashimi: a base line has one place left in the
//                  cover lines (the fish would be no fish without its fins).
//   kSueDeCoq:     HoDoKu's: C, two or three open cells where a line crosses a box, holding V,
//                  two digits or more beyond their count; A, cells of the line outside C; D,
//                  cells of the box outside C and A. A and D share no digit of V, and the cells
//                  of C, A and D hold as many digits as there are cells, V's counted once and
//                  the others (extra) in each set: so V's digits, A's and D's are locked in
//                  them. The line's other cells lose V's and A's digits that D lacks, the box's
//                  V's and D's that A lacks, and both the extra digits A and D share. units =
//                  {the line, the box}; variant = 10 x A's size + C's size (a cell where the
//                  two cross may be A's or D's if not C's); cells = C's, then A's, then D's;
//                  digits = V. On HoDoKu's path only (Preference::kHodoku)
//   kRemotePair:   HoDoKu's: cells holding only the same two digits, each seeing another, at
//                  least four, coloured by parity as a chain through them alternates the
//                  digits: cells = the first colour's, then the second's; variant = how many
//                  the first has; digits = {a, b}; links = the pairs that coloured them (a weak
//                  link on a, from a cell coloured already). Each open cell seeing both colours
//                  loses a and b. On HoDoKu's path only (Preference::kHodoku)
//   kSkyscraper:   units = {the two parallel lines of the conjugate pairs}; digits = {the digit};
//                  cells = {pair 1's far end, its near end, pair 2's near end, its far end}
//                  (the near ends share a line); links = the chain far=near-near=far
//   kTwoStringKite: units = {the row, the column, the box joining them}; digits, cells, links as
//                  kSkyscraper (the near ends share the box)
//   kTurbotFish:   HoDoKu's, for the pairs no skyscraper or kite joins: units = {the two
//                  pairs' units}; digits, cells, links as kSkyscraper (the near ends see each
//                  other). On HoDoKu's path only (Preference::kHodoku)
//   kEmptyRectangle: units = {the box, its row and its column holding every place of the digit,
//                  the line of the conjugate pair}; digits = {the digit}; cells = {the pair's end
//                  seeing the box, its other end}; links = the chain
//   kXYWing:       cells = {pivot, pincer, pincer}; digits = {x, y, z}: pivot xy, pincers xz, yz
//   kXYZWing:      cells = {pivot, pincer, pincer}; digits = {x, y, z}: pivot xyz, pincers xz, yz
//   kWWing:        units = {the conjugate pair's unit}; cells = {bivalue cell, bivalue cell, the
//                  pair's two ends}; digits = {x, y} (x the pair's digit); links = the chain
//   kSimpleColouring: digits = {the digit}; cells = the first colour's cells then the second's;
//                  variant = how many cells the first colour has; links = the conjugate pairs
//                  that colour them. A removal from a coloured cell is a wrap (that colour is
//                  false), from an uncoloured one a trap (it sees both colours).
//   kMultiColours: HoDoKu's: two clusters of the digit's conjugate pairs, A and B, each coloured
//                  two ways. variant = HoDoKu's type: 2, a colour of A sees both colours of B,
//                  so it is false and its cells lose the digit; 1, a colour of A sees a colour
//                  of B, so one of their opposites is true and a cell seeing both opposites
//                  loses it. digits = {the digit}; cells = A's first colour, A's second, B's
//                  first, B's second; links = the conjugate pairs that colour A, then B (each
//                  from a cell coloured already: the colours follow from them). On HoDoKu's path
//                  only (Preference::kHodoku)
//   kUniqueRectangle: variant = the type, 1-4, or 6 (HoDoKu's, on its path only); cells = the
//                  four corners (then, type 3, the cells completing the naked subset); digits =
//                  {a, b} (type 3: then the subset's other digits); units = {} (type 3: the
//                  subset's unit; type 4: the unit where the digit kept is confined to the two
//                  roof cells, and digits[0] is that digit; type 6: the rows and columns of the
//                  two opposite corners holding more than a and b, listed last, where digits[0]
//                  lies only in the rectangle, and which lose it). On HoDoKu's path a corner may
//                  lack a or b (removed by an earlier step, not ruled out by a placed digit).
//                  On SE's path (Preference::kEasiestSe) instead SE's unique rectangles and
//                  loops (rated by SE's rules: se_tenths): variant = 10 * the loop's cells (4,
//                  6, 8, ...) + the type: 1-4, or 5 for type 3 by a hidden subset; cells = the
//                  loop in loop order (each cell sharing a unit with the next, the last with
//                  the first; every cell holds a and b), then the cells holding more than a and
//                  b (type 1: the one that loses a and b; type 2: all of them, each holding one
//                  extra digit, the same; types 3 and 4: the two), then (type 3) the subset's
//                  cells off the loop; digits = {a, b} (type 4: the digit confined to the two
//                  cells in units[0] first, then the digit they lose), then type 2: the extra
//                  digit; naked type 3: the subset's digits (the two cells' extra digits among
//                  them: they act as one cell holding those); hidden type 3: the subset's digits
//                  other than a and b, which with a and b have no places in units[0] but the
//                  subset's cells and the first of the two; units = {} (types 3 and 4: the unit)
//   kHiddenRectangle: cells = {the bivalue corner, the opposite corner's partner in its row, its
//                  partner in its column, the opposite corner}; digits = {x, y}: x lies in the
//                  opposite corner's row and column only in the rectangle, so y leaves that
//                  corner (else x, y, x, y around the four, two solutions); units = {that row,
//                  that column}
//   kBugPlusOne:   placements = {the cell, the digit}; cells = {the cell}; digits = {the digit}
//   kXChain/kXYChain/kAic: links = the chain, strong first and last; eliminations what sees both
//                  ends (or, ends in one cell, that cell's other candidates). On HoDoKu's path
//                  only, kAic has HoDoKu's nice loops too, its links a loop (the last link's
//                  node is the first's): variant 1, a continuous nice loop (links alternating
//                  strong and weak all round: every weak link holds both ways, so a digit
//                  leaves the cells off the loop seeing both nodes of a weak link between two
//                  cells, and a cell loses its other candidates where a weak link is within
//                  it); variant 2, a discontinuous nice loop (the first node leads round to
//                  itself: strong first and last, it is true and its cell loses the other
//                  candidates; weak first and last, it goes). Variant 0 there is HoDoKu's AIC:
//                  its ends two candidates in two cells, of one digit removing two or more, or
//                  of two digits seeing each other, each removed from the other's cell
//                  On the path rated for SE (Preference::kEasiestSe), SE's cycles and forcing
//                  chains instead (logic_se_chains.cc, rated by SE's rules: se_tenths), by the
//                  links they follow: kXChain, X links (a digit's places in a unit); kXYChain,
//                  Y links (within bivalue cells, and between a digit's places on to off);
//                  kAic, both. Variant 1, a cycle (links a loop from a candidate on back to it:
//                  a digit leaves the cells off the loop that see one of its ons and one of its
//                  offs of that digit); variant 2, a forcing chain (from a candidate on to its
//                  removal, which goes; or from its removal to it on: its cell loses the other
//                  candidates). Variants 3 and 4, kXChain on that path only: SE's strong
//                  links (logic_se_links.cc), 2 to 6 of them, of one digit, each in a unit of its
//                  own (a conjugate pair, or grouped: a line's places in two of its boxes, a
//                  box's in two of its lines), an end of each sharing a unit with the next's;
//                  units = the links' units in chain order, then the units joining them; links
//                  = strong, weak, ..., strong. Variant 3, a chain: the digit leaves what sees
//                  both ends outside all those units; variant 4, an X-loop (its ends share a
//                  unit too, the last unit and weak link, back to the start): it leaves what
//                  sees both nodes of a weak link outside the links' units. Rated as SE rates
//                  them (se_tenths: 4.0, 5.4, 5.8, 6.2, 6.6 by the links, +0.3 grouped, else
//                  +0.1 with a box's link, +0.1 with a row's and a column's)
//   kAlsXz:        cells = set A then set B; variant = A's size; digits = {x, z}: x the
//                  restricted common digit, z the digit removed
//   kWxyzWing:     SE's WXYZ-, VWXYZ- and UVWXYZ-wing: cells = the set's three, four or five,
//                  then the bivalue cell; units = {the set's}; digits = {x, z}, as kAlsXz
//                  (doubly linked: x removed too, and the set's other digits where they see
//                  all of theirs); variant = the most candidates among the set's cells (SE
//                  rates by it: 5.5-5.6, 6.2-6.4, 6.6). Sudoku Explainer's; taken on the path
//                  rated for SE (Preference::kEasiestSe) only, never on HoDoKu's
//   kForcingChain: variant 0: a candidate whose singles lead to a contradiction (eliminations
//                  = it; cells, digits = it; units = {the unit left without a place for the last
//                  link's digit}, or none when the last link's cell was left empty); variant 1:
//                  both candidates of a bivalue cell (cells = {it}; digits = its two) agree;
//                  variant 2: both places of a digit in a unit (units = {it}; cells = the two;
//                  digits = {the digit}) agree. links = every implication the conclusion
//                  rests on, branch after branch: a net, each single after every removal that
//                  left it one, so that the links alone prove the step. Variants 3-21, only
//                  on the path rated for SE (Preference::kEasiestSe): Sudoku Explainer's forcing
//                  chains by its rules (logic_se_chains.cc), rated as SE rates them (se_tenths),
//                  without links: 3, Nishio (a candidate, or its removal, leads to a
//                  contradiction along one digit); 4 and 5, multiple forcing chains: every
//                  candidate of a cell (4), every place of a digit in a unit (5) implies the
//                  conclusion; 6-9, dynamic forcing chains: a contradiction (6), a candidate and
//                  its removal both imply it (7), a cell's candidates (8), a unit's places (9);
//                  10-13, the same (in that order) at level 1 ("+": SE's pointing and
//                  claiming, hidden and naked pairs and x-wings within the chains); 14-17 at
//                  level 2 (SE's cycles and forcing chains nested within them too), 18-21 at
//                  level 3 (and its multiple forcing chains).
//                  cells = {the cell the chains start from}; digits = {the digit assumed} (a
//                  cell's chains: its candidates); units = {the unit} (a unit's chains). The
//                  conclusion is a placement or an elimination
//   kTrial:        cells = {the cell}; digits = {the digit tried}. variant >= 1: the trial that
//                  led to a contradiction (variant 1: by singles alone; more: nested trials as
//                  deep); eliminations = the candidate. Variant 1: links (and units) as a
//                  forcing chain's variant 0. Deeper: cells also holds the cell the nested trials
//                  start from, digits also its candidates left (each refuted by them), and links
//                  the net by which the singles took its other candidates away (none when they
//                  took none), and branches its refutation: one TrialBranch per candidate left,
//                  each nesting further where its singles leave the board open.
//                  variant 0: a choice, only for a puzzle with several solutions (none of the
//                  cell's candidates leads to a contradiction); placements = the choice
// Eliminations are the candidates the step removes (none for singles and placements).
struct Step {
  Technique technique = Technique::kNakedSingle;
  std::vector<CellDigit> placements;
  std::vector<CellDigit> eliminations;
  std::vector<Unit> units;
  std::vector<uint8_t> cells;
  std::vector<uint8_t> digits;
  uint8_t variant = 0;      // per technique, as above; 0 where unused
  // SE's difficulty in tenths where the step is rated by SE's own rules as it is found (SE's
  // forcing chains, kForcingChain variants 3-21); 0 elsewhere: the rating's table rates it.
  uint8_t se_tenths = 0;
  std::vector<Link> links;  // the chain, in chain order; empty for non-chain techniques
  // A nested trial's refutation, depth first (a branch before those nested in it); else empty.
  std::vector<TrialBranch> branches;
};

// Candidates per cell: bit d-1 set when digit d is still possible. A placed cell holds only its
// digit's bit.
using Candidates = std::array<uint16_t, kCells>;

// The candidates of a grid before any step: every digit its peers' givens allow.
Candidates InitialCandidates(const Grid& grid);

// Plays a step on a grid and its candidates, as a reader would: each placement fills its cell
// and leaves its peers; each elimination removes one candidate.
void Apply(const Step& step, Grid* grid, Candidates* candidates);

struct Explanation {
  // kSolved or kMultiple: steps explain the (first) solution. kUnsolvable: no steps. (kInvalid
  // never occurs: the grid was parsed already.)
  Verdict verdict = Verdict::kUnsolvable;
  std::vector<Step> steps;
  Grid solution{};             // the grid after the last step; the solution when verdict is kSolved
  uint32_t logic_guesses = 0;  // kTrial steps among `steps` (choices too)
  uint32_t fast_guesses = 0;   // branches the fast solver took to find and check the solution
};

// Which technique a step takes where several apply (singles always first).
enum class Preference : uint8_t {
  kHodoku,      // HoDoKu's order: the path its users see
  kEasiestSe,   // the easiest on Sudoku Explainer's scale, as SE takes them (for its rating):
                // hidden singles first, a naked single only after SE's direct techniques
};

// Explains how the grid solves, one step at a time. Takes always the first technique that
// applies, in the order `preference` gives; where none does, a trial (never the solution's
// digit), and goes on. The fast solver only decides the verdict first (the uniqueness
// techniques apply only when it is kSolved).
Explanation Explain(const Grid& grid, Preference preference = Preference::kHodoku);

// The same from a candidate state, a pencilmark puzzle or a player's notes: a cell with one
// candidate counts as placed, every other cell keeps the candidates given that its placed peers
// leave it, so that no step repeats what the state already shows. Single candidates that clash,
// or a cell left without one, make it kUnsolvable (as SolveCandidates() says).
Explanation Explain(const CandidateGrid& candidates,
                    Preference preference = Preference::kHodoku);

// The cells of a candidate state with one candidate, as placed digits; 0 elsewhere.
Grid PlacedCells(const CandidateGrid& candidates);

// Why a candidate state has no solution, where a reader sees it at once: two placed digits
// alike in a unit ("r1c3 holds only 5, as r1c1 does, in row 1"), or a cell whose candidates its
// placed peers all take ("r1c3 has no candidate left: 3 5 are placed among its peers (r1c2,
// r1c1)"); `cell` is the cell named first. Empty when there is no such contradiction
// (the state may still have no solution, deeper down).
std::string ImmediateContradiction(const CandidateGrid& candidates, int* cell);

// A candidate state as Candidates, each cell as Explain(candidates) starts from it: a placed
// cell holds only its digit.
Candidates InitialCandidates(const CandidateGrid& candidates);

// What an explanation of `puzzle` starts from, as a reader replays its steps: the placed digits
// and every cell's candidates, for 81 characters of givens (InitialCandidates(grid)) or a
// 729-character candidate state (PlacedCells, InitialCandidates(candidates)). False when the
// text is neither.
bool ExplanationStart(std::string_view puzzle, Grid* grid, Candidates* candidates);

struct Rating {
  Verdict verdict = Verdict::kUnsolvable;
  Technique hardest = Technique::kNakedSingle;  // the hardest step of Explain()
  uint32_t steps = 0;                           // the steps of Explain()
  uint32_t guesses = 0;  // branches the fast solver took to find and check uniqueness (limit 2)
  uint32_t logic_guesses = 0;  // kTrial steps of Explain()
  Level level = Level::kSimple;
};

// The level of a puzzle whose hardest technique is `hardest` (see LevelOf's definition for the
// rule and README "Explain and rate" for how it compares with QQWing's).
Level LevelOf(Technique hardest);

// QQWing's level of a grid whose Explain() path has `hardest` as its hardest technique: that
// technique's level (LevelOf), but intermediate where the path took a triple or more and
// QQWing's pairs would still have solved the grid.
Level QqwingLevel(const Grid& grid, Technique hardest);

// QqwingLevel() of a grid, taken as its Explain() or Walk() path (HoDoKu's order) goes: each
// step is added in turn. Where the path goes past QQWing's techniques, the check of QQWing's
// pairs starts from the step where it first did, not from the givens: the steps before were
// QQWing's own, and its techniques take nothing from one another (what is left once none
// applies is the same whichever went first), so it finds what it would have from the givens.
class QqwingLeveler {
 public:
  explicit QqwingLeveler(const Grid& grid);
  void Add(const Step& step);
  Level Result() const;

 private:
  Technique hardest_ = Technique::kNakedSingle;
  // The path's state before its first step past QQWing's techniques, kept from there on: the
  // digits placed, givens among them, and the candidates removed.
  Grid placed_{};
  std::vector<CellDigit> removed_;
};

// Rates the grid: Explain()'s hardest technique and step count, the fast solver's guesses, and
// the level. Does not keep the steps.
Rating Rate(const Grid& grid);

// Solves the grid as Explain(grid, preference) does, but hands each step to `on_step` (valid
// only during the call) instead of keeping it: what a rating needs, without a copy of every
// step. Returns what Rate() does but the level, which it leaves at kSimple. Once `cancel` is
// true, SE's nested chains (the dearest steps, seconds on the hardest puzzles) find nothing
// more, and the walk ends with the step in hand, its steps meaningless. `solved`: the fast
// solver's answer for the start counted to two (SolveGrid or SolveCandidates with
// max_solutions 2), where the caller has it already; the walk then does not solve again.
Rating Walk(const Grid& grid, Preference preference,
            const std::function<void(const Step&)>& on_step,
            const std::atomic<bool>* cancel = nullptr, const Result* solved = nullptr);
Rating Walk(const CandidateGrid& candidates, Preference preference,
            const std::function<void(const Step&)>& on_step,
            const std::atomic<bool>* cancel = nullptr, const Result* solved = nullptr);

// "r3c5": 1-based row and column, as players name cells.
std::string CellName(int cell);

// SE's length bonus, in tenths, for a chain of `length`: 0.1 each time the length passes a
// threshold, the thresholds growing by 3/2 and 4/3 in turn (4, 6, 8, 12, 16, 24, 32, ...).
int SeLengthBonus(int length);

// Whether a chain step has a grouped node (a node of two or three cells): HoDoKu's grouped
// nice loops and AICs.
bool HasGroupedNode(const Step& step);

}  // namespace sudoku::logic

#endif  // SUDOKU_SOLVER_LOGIC_H_
