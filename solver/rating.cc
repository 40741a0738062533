// The scales of rating.h: a table of what each technique is worth on HoDoKu's and SE's scales,
// and the rules that turn a solving path into a level, a score and a rating.
#include "solver/rating.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstdio>
#include <type_traits>
#include <utility>

namespace sudoku::rating {
namespace {

using logic::Step;
using logic::Technique;

// One technique on both scales. HoDoKu's level, its points per step, and SE's difficulty in
// tenths; chains add SE's length bonus to their base (logic::SeLengthBonus).
struct Worth {
  const char* technique;  // logic::Name(), for the reader of the table
  HodokuLevel level;
  uint16_t score;
  uint8_t se_tenths;
  bool chain;
};

using enum HodokuLevel;

// Indexed by the technique, in logic::Technique's order. The values are each program's published
// scale for its nearest technique:
// - HoDoKu has them as its per-step level and score (its defaults).
// - SE's singles are 1.2 (a hidden single in a box; 1.5 in a row or column) and 2.3 (a naked
//   single). SE takes naked singles last, we take them first: of the puzzles singles solve, SE
//   needed a naked single for few (mostly 1.5 to 2.0), so ours count 1.5. Its subsets, fish,
//   wings, uniqueness and chains as its documentation lists them (x-chain 6.5, xy-chain 6.6,
//   AIC 7.0). Patterns SE does not name are rated as the SE rule that
//   finds them: skyscraper, kite and empty rectangle as its turbot fish (4.0-4.3), a w-wing and
//   simple colouring as a short forcing x-chain or cycle (6.5-6.6), an ALS-XZ (HoDoKu's path
//   only) as a forcing chain (7.0), our forcing chains as SE's cell and region forcing chains
//   (8.2; on SE's path its own chains come rated, Step::se_tenths, as do its unique
//   rectangles and loops, 4.5 and up by the loop's length and type 3's subset), a finned or
//   sashimi fish (SE has none) as the forcing x-chain that finds it (6.5). SE's wings are its own
//   (WXYZ 5.5-5.6, VWXYZ 6.2-6.4, UVWXYZ 6.6: Rater::Add), on SE's path only.
// A trial (where logic runs out) has no value on either scale; TrialWorthOf() gives it one.
// HoDoKu's finned and sashimi fish differ by size; the rows are the x-wing's, and
// FinnedFishWorth() has the rest.
// clang-format off
constexpr std::array<Worth, 36> kWorth = {{
    {"naked single",      kEasy,     4,  15, false},
    {"hidden single",     kEasy,    14,  15, false},
    {"pointing",          kMedium,  50,  26, false},
    {"claiming",          kMedium,  50,  28, false},
    {"naked pair",        kMedium,  60,  30, false},
    {"hidden pair",       kMedium,  70,  34, false},
    {"naked triple",      kMedium,  80,  36, false},
    {"hidden triple",     kMedium, 100,  40, false},
    {"naked quad",        kHard,   120,  50, false},
    {"hidden quad",       kHard,   150,  54, false},
    {"x-wing",            kHard,   140,  32, false},
    {"swordfish",         kHard,   150,  38, false},
    {"jellyfish",         kHard,   160,  52, false},
    {"remote pair",       kHard,   110,  66, false},  // HoDoKu's path only; SE: an xy-chain
    {"skyscraper",        kHard,   130,  40, false},
    {"two-string kite",   kHard,   150,  41, false},
    {"turbot fish",       kHard,   120,  42, false},  // HoDoKu's path only; SE: an x-chain
    {"empty rectangle",   kHard,   120,  43, false},
    {"xy-wing",           kHard,   160,  42, false},
    {"xyz-wing",          kHard,   180,  44, false},
    {"w-wing",            kHard,   150,  66, false},
    {"simple colouring",  kHard,   150,  65, false},
    {"multi colours",     kHard,   200,  65, false},  // HoDoKu's path only; SE: an x-chain
    {"unique rectangle",  kHard,   100,  45, false},
    {"hidden rectangle",  kHard,   100,  45, false},
    {"bug+1",             kHard,   100,  56, false},
    {"finned fish",       kHard,   130,  65, false},  // an x-wing's; FinnedFishWorth() by size
    {"sashimi fish",      kHard,   150,  65, false},
    {"sue de coq",        kUnfair, 250,  70, false},  // HoDoKu's path only; SE: a chain
    {"x-chain",           kUnfair, 260,  65, true},
    {"xy-chain",          kUnfair, 260,  66, true},
    {"aic",               kUnfair, 280,  70, true},
    {"als-xz",            kUnfair, 300,  70, false},  // HoDoKu's path only; SE: its chains
    {"wxyz-wing",         kUnfair, 300,  55, false},  // never on HoDoKu's path: its als-xz's
    {"forcing chain",     kExtreme, 500, 82, true},
    {"trial",             kExtreme,  0,   0, false},
}};
// clang-format on
static_assert(kWorth.size() == static_cast<size_t>(logic::kTechniqueCount),
              "one row per technique");
constexpr size_t kTrialRow = static_cast<size_t>(Technique::kTrial);

// HoDoKu's level and points for a finned (or sashimi) fish of `size` lines, 2-4.
std::pair<HodokuLevel, uint16_t> FinnedFishWorth(Technique technique, int size) {
  const bool sashimi = technique == Technique::kSashimiFish;
  switch (size) {
    case 2: return {kHard, sashimi ? uint16_t{150} : uint16_t{130}};
    case 3: return {kUnfair, sashimi ? uint16_t{240} : uint16_t{200}};
    default: return {kUnfair, sashimi ? uint16_t{260} : uint16_t{250}};
  }
}

// HoDoKu's ceilings: a score above a level's ceiling moves the puzzle up a level.
constexpr std::array<uint32_t, kHodokuLevelCount - 1> kCeilings = {800, 1000, 1600, 1800};

// What the trials of a path are worth. Neither program has a trial: HoDoKu goes on with forcing
// nets (700 points, extreme), SE with nested forcing chains (9.5 and up), which SE's path takes
// by SE's rules to their level 3 (logic_se_chains.cc). Past those (SE's level 4, some of the
// forum's SE 11+ puzzles) and past the walk's allowance of nested searches (logic.h,
// kNestedSearches), its trials nest 4 to 15 deep, so a trial rates 10.0 plus 0.1 a level of
// nesting, above every forcing chain (8.2 and up).
struct TrialWorth {
  HodokuLevel level;
  uint32_t score;
  uint32_t se_tenths;
};
TrialWorth TrialWorthOf(uint32_t trials, uint32_t deepest) {
  if (trials == 0) return {kEasy, 0, kSeMinTenths};
  return {kExtreme, 700 * trials, std::min<uint32_t>(kSeMaxTenths, 100 + deepest)};
}

}  // namespace

const char* Name(HodokuLevel level) {
  switch (level) {
    case kEasy: return "easy";
    case kMedium: return "medium";
    case kHard: return "hard";
    case kUnfair: return "unfair";
    case kExtreme: return "extreme";
  }
  return "unknown";
}

std::optional<HodokuLevel> ParseHodokuLevel(std::string_view text) {
  for (HodokuLevel level : {kEasy, kMedium, kHard, kUnfair, kExtreme}) {
    if (text == Name(level)) return level;
  }
  return std::nullopt;
}

std::string SeText(uint32_t tenths) {
  return std::to_string(tenths / 10) + '.' + static_cast<char>('0' + tenths % 10);
}

std::optional<uint32_t> ParseSe(std::string_view text) {
  uint32_t whole = 0;
  size_t i = 0;
  for (; i < text.size() && i < 2 && text[i] >= '0' && text[i] <= '9'; ++i) {
    whole = whole * 10 + static_cast<uint32_t>(text[i] - '0');
  }
  if (i == 0) return std::nullopt;
  uint32_t tenths = whole * 10;
  if (i < text.size()) {
    // One decimal, and nothing after it.
    if (text[i] != '.' || i + 2 != text.size() || text[i + 1] < '0' || text[i + 1] > '9') {
      return std::nullopt;
    }
    tenths += static_cast<uint32_t>(text[i + 1] - '0');
  }
  if (tenths < kSeMinTenths || tenths > kSeMaxTenths) return std::nullopt;
  return tenths;
}

void Rater::Add(const Step& step) {
  const size_t row = static_cast<size_t>(step.technique);
  if (row == kTrialRow) {
    // variant: how deep the trials nested (0 for a choice, where several solutions leave no
    // contradiction to find: rated as one level).
    ++trials_;
    deepest_trial_ = std::max<uint32_t>(deepest_trial_, std::max<uint8_t>(step.variant, 1));
    NoteSe(TrialWorthOf(1, std::max<uint8_t>(step.variant, 1)).se_tenths, step);
    return;
  }
  const Worth& worth = kWorth[row];
  if (step.technique == Technique::kFinnedFish || step.technique == Technique::kSashimiFish) {
    const auto [level, score] = FinnedFishWorth(step.technique, step.variant);
    score_ += score;
    level_ = std::max(level_, level);
  } else if ((step.technique == Technique::kNakedPair ||
              step.technique == Technique::kNakedTriple) &&
             step.variant == 1) {
    // HoDoKu's Locked Pair and Locked Triple: 40 and 60 points, medium.
    score_ += step.technique == Technique::kNakedPair ? 40 : 60;
    level_ = std::max(level_, kMedium);
  } else if (step.technique == Technique::kAic && path_ == logic::Preference::kHodoku &&
             logic::HasGroupedNode(step)) {
    // HoDoKu's grouped nice loops and AICs: 300 points, unfair.
    score_ += 300;
    level_ = std::max(level_, kUnfair);
  } else {
    score_ += worth.score;
    level_ = std::max(level_, worth.level);
  }
  uint32_t se = worth.se_tenths;
  // A hidden single in a box is SE's 1.2; in a row or column it is the table's 1.5. A full house
  // (a naked single, variant 1) is SE's easiest single, 1.0: SE finds it as a hidden single alone
  // in its unit before it looks for naked singles.
  if (step.technique == Technique::kHiddenSingle && !step.units.empty() &&
      step.units[0].kind == logic::Unit::Kind::kBox) {
    se = 12;
  }
  if (step.technique == Technique::kNakedSingle) {
    if (step.variant == 1) {
      se = 10;
    } else if (path_ == logic::Preference::kEasiestSe) {
      se = 23;
    }
  }
  // SE's direct intersections and hidden subsets (variant 1: they leave a hidden single).
  if (step.variant == 1) {
    switch (step.technique) {
      case Technique::kPointing: se = 17; break;
      case Technique::kClaiming: se = 19; break;
      case Technique::kHiddenPair: se = 20; break;
      case Technique::kHiddenTriple: se = 25; break;
      default: break;
    }
  }
  // SE's wings, by the set's size and its biggest cell (logic.h, kWxyzWing).
  if (step.technique == Technique::kWxyzWing) {
    const int biggest = step.variant;
    switch (step.cells.size()) {
      case 4: se = biggest == 3 ? 56 : 55; break;                              // WXYZ
      case 5: se = static_cast<uint32_t>(64 - std::abs(3 - biggest)); break;  // VWXYZ
      default: se = 66; break;                                                 // UVWXYZ
    }
  }
  // A chain's length is its links (a forcing chain's: every branch's). SE's own forcing chains
  // come rated.
  if (worth.chain) {
    se += static_cast<uint32_t>(logic::SeLengthBonus(static_cast<int>(step.links.size())));
  }
  if (step.se_tenths != 0) se = step.se_tenths;
  se_tenths_ = std::max(se_tenths_, se);
  NoteSe(se, step);
}

void Rater::NoteSe(uint32_t se, const Step& step) {
  // As serate keeps them: the hardest so far, read after the first step (ED) and after the first
  // that places a digit (EP).
  se_so_far_ = std::max(se_so_far_, se);
  if (se_diamond_ == 0) se_diamond_ = se_so_far_;
  if (se_pearl_ == 0 && !step.placements.empty()) se_pearl_ = se_so_far_;
}

Scales Rater::Result() const {
  const TrialWorth trial = TrialWorthOf(trials_, deepest_trial_);
  Scales scales;
  scales.hodoku_score = score_ + trial.score;
  int level = static_cast<int>(std::max(level_, trial.level));
  while (level < kHodokuLevelCount - 1 && scales.hodoku_score > kCeilings[level]) ++level;
  scales.hodoku_level = static_cast<HodokuLevel>(level);
  scales.se_tenths = std::clamp(std::max(se_tenths_, trial.se_tenths), kSeMinTenths, kSeMaxTenths);
  // A path that never places (a test's few steps) has its pearl at its end.
  scales.se_pearl_tenths =
      se_pearl_ == 0 ? scales.se_tenths : std::clamp(se_pearl_, kSeMinTenths, kSeMaxTenths);
  scales.se_diamond_tenths = std::clamp(se_diamond_, kSeMinTenths, kSeMaxTenths);
  return scales;
}

Scales RateSteps(std::span<const Step> steps, logic::Preference path) {
  Rater rater(path);
  for (const Step& step : steps) rater.Add(step);
  return rater.Result();
}

namespace {

// `scales` (HoDoKu's, of our path) with SE's numbers of SE's own path, the one that takes the
// easiest step on SE's scale, rated as it goes. Where SE's direct techniques solve the puzzle
// that path is theirs: it takes them by SE's rules, each placing its single and nothing else.
template <typename Start>
Scales WithSePath(const Start& puzzle, Scales scales, const std::atomic<bool>* cancel,
                  const Result* solved = nullptr) {
  Rater rater(logic::Preference::kEasiestSe);
  logic::Walk(
      puzzle, logic::Preference::kEasiestSe, [&](const Step& step) { rater.Add(step); }, cancel,
      solved);
  const Scales se = rater.Result();
  scales.se_tenths = se.se_tenths;
  scales.se_pearl_tenths = se.se_pearl_tenths;
  scales.se_diamond_tenths = se.se_diamond_tenths;
  return scales;
}

}  // namespace

Scales RatePuzzle(const Grid& puzzle, std::span<const Step> steps,
                  const std::atomic<bool>* cancel) {
  return WithSePath(puzzle, RateSteps(steps), cancel);
}

Scales RatePuzzle(const CandidateGrid& start, std::span<const Step> steps,
                  const std::atomic<bool>* cancel) {
  return WithSePath(start, RateSteps(steps), cancel);
}

Ratings RateGrid(const Grid& grid, RatedPaths paths, const std::atomic<bool>* cancel,
                 const Result* solved) {
  Ratings ratings;
  // Each walk needs the fast solver's verdict: found once for both.
  Result solved_here;
  if (solved == nullptr) {
    solved_here = SolveGrid(grid, Limits{.max_solutions = 2});
    solved = &solved_here;
  }
  if (paths != RatedPaths::kSe) {
    // One walk of our path, rated as it goes: no step is kept.
    Rater rater;
    logic::QqwingLeveler leveler(grid);
    ratings.qqwing = logic::Walk(
        grid, logic::Preference::kHodoku,
        [&](const Step& step) {
          rater.Add(step);
          leveler.Add(step);
        },
        nullptr, solved);
    ratings.qqwing.level = leveler.Result();
    // HoDoKu's numbers: the SE numbers of this path are not SE's (that is SE's own path).
    const Scales ours = rater.Result();
    ratings.scales.hodoku_level = ours.hodoku_level;
    ratings.scales.hodoku_score = ours.hodoku_score;
  }
  if (paths != RatedPaths::kHodoku) {
    ratings.scales = WithSePath(grid, ratings.scales, cancel, solved);
  }
  return ratings;
}

}  // namespace sudoku::rating
