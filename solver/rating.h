// Ratings people recognise, computed from the logical solver's steps (logic.h): HoDoKu's level
// and score, and the Sudoku Explainer (SE) rating. Each is built from its program's published
// per-technique scale, applied to our steps, and calibrated against the programs themselves
// (tests/bench/compare_ratings.py measures the agreement; tests/bench/README.md has the figures).
//
//   HoDoKu: every step scores its technique's points (a naked single 4, a hidden single 14, a
//           pointing 50, an x-wing 140, ...) and the score is their sum. The level is the level
//           of the hardest technique (easy, medium, hard, unfair, extreme), raised while the
//           score exceeds that level's ceiling (800, 1000, 1600, 1800).
//   SE:     the hardest step's difficulty, 1.0-11.9 (a hidden single 1.2 or 1.5, a pointing 2.6,
//           an x-wing 3.2, ...), chains adding 0.1 each time their length passes 4, 6, 8, 12,
//           16, 24, ... . Held in tenths: 23 is 2.3. Of SE's own path (RatePuzzle): the
//           easiest step on its scale first, its direct techniques by its rules. With it the two
//           other numbers of the forum's "ER/EP/ED" lists, as serate prints them: EP (pearl),
//           the hardest step up to the first that places a digit, and ED (diamond), the first
//           step's difficulty, that of the first elimination.
//
// Where logic runs out (a trial step), neither program's scale has the step: a trial weighs as
// their hardest techniques do, more the deeper it nests (see rating.cc).
//
// Thread-safety: plain functions and a value type; a Rater belongs to one thread at a time.
#ifndef SUDOKU_SOLVER_RATING_H_
#define SUDOKU_SOLVER_RATING_H_

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "solver/logic.h"

namespace sudoku::rating {

// HoDoKu's levels, easiest first.
enum class HodokuLevel : uint8_t { kEasy, kMedium, kHard, kUnfair, kExtreme };
inline constexpr int kHodokuLevelCount = static_cast<int>(HodokuLevel::kExtreme) + 1;

// "easy", "medium", "hard", "unfair", "extreme".
const char* Name(HodokuLevel level);
// The inverse of Name(HodokuLevel), case-sensitive; nullopt for anything else.
std::optional<HodokuLevel> ParseHodokuLevel(std::string_view text);

// SE ratings are held in tenths; the scale runs from 1.0 to 11.9.
inline constexpr uint32_t kSeMinTenths = 10;
inline constexpr uint32_t kSeMaxTenths = 119;

// "2.3" for 23: one decimal, as SE prints its ratings.
std::string SeText(uint32_t tenths);
// The inverse of SeText for the range 1.0-11.9 ("4", "4.2"; at most one decimal); nullopt for
// anything else.
std::optional<uint32_t> ParseSe(std::string_view text);

struct Scales {
  HodokuLevel hodoku_level = HodokuLevel::kEasy;
  uint32_t hodoku_score = 0;
  uint32_t se_tenths = kSeMinTenths;          // ER: the hardest step of SE's path
  uint32_t se_pearl_tenths = kSeMinTenths;    // EP: the hardest up to the first placement
  uint32_t se_diamond_tenths = kSeMinTenths;  // ED: the first step's
  friend bool operator==(const Scales&, const Scales&) = default;
};

// Rates a solving path one step at a time, so that a caller that does not keep the steps
// (logic::Rate) can rate as it goes.
class Rater {
 public:
  // `path`: the order the steps were taken in. On SE's path (kEasiestSe) a naked single comes
  // after every hidden single and direct technique, where SE takes it at 2.3; on HoDoKu's it
  // comes first and counts as the singles SE would have taken (1.5).
  explicit Rater(logic::Preference path = logic::Preference::kHodoku) : path_(path) {}

  void Add(const logic::Step& step);
  // The ratings of the steps added so far (of an empty path: easy, 0, 1.0).
  Scales Result() const;

 private:
  void NoteSe(uint32_t se, const logic::Step& step);

  logic::Preference path_;
  uint32_t score_ = 0;                          // HoDoKu points of the steps but trials
  HodokuLevel level_ = HodokuLevel::kEasy;      // of the hardest step but trials
  uint32_t se_tenths_ = kSeMinTenths;           // of the hardest step but trials
  uint32_t trials_ = 0;                         // trial steps
  uint32_t deepest_trial_ = 0;                  // their deepest nesting (Step::variant)
  uint32_t se_so_far_ = 0;                      // of the hardest step, trials too
  uint32_t se_pearl_ = 0;                       // se_so_far_ at the first placing step, or 0
  uint32_t se_diamond_ = 0;                     // se_so_far_ after the first step, or 0
};

// The ratings of a whole solving path (logic::Explain's steps, taken in the order `path`).
Scales RateSteps(std::span<const logic::Step> steps,
                 logic::Preference path = logic::Preference::kHodoku);

// The ratings of `puzzle`, solved by `steps` (its logic::Explain): HoDoKu's from the steps, SE's
// from SE's own path, the one that takes the easiest step on SE's scale
// (logic::Preference::kEasiestSe). Where SE's "direct" techniques solve the puzzle, that path is
// theirs: at every step the first of a hidden single alone in its unit (1.0), in a box (1.2), in
// a column or row (1.5), a pointing (1.7) or claiming (1.9) that leaves a hidden single, a hidden
// pair that leaves one (2.0), a naked single (2.3), a hidden triple that leaves a hidden single
// (2.5), each placing that single and nothing else. Once `cancel` is true, SE's walk ends within
// milliseconds (logic::Walk) and the numbers mean nothing.
Scales RatePuzzle(const Grid& puzzle, std::span<const logic::Step> steps,
                  const std::atomic<bool>* cancel = nullptr);
// The same for a candidate state solved by `steps` (its logic::Explain(candidates)): SE's
// numbers from the path that takes the easiest step on SE's scale from that state.
Scales RatePuzzle(const CandidateGrid& start, std::span<const logic::Step> steps,
                  const std::atomic<bool>* cancel = nullptr);

// Both ratings of a grid at once: QQWing's, as logic::Rate() gives it, and the scales, from one
// run of the logical solver.
struct Ratings {
  logic::Rating qqwing;
  Scales scales;
};
// Which solving paths RateGrid() walks: each is a walk of its own, SE's the dearer on hard
// puzzles, so a caller that needs one rating takes that one alone.
enum class RatedPaths : uint8_t {
  kBoth,
  kHodoku,  // QQWing's rating and HoDoKu's level and score; SE's three numbers stay at 1.0
  kSe,      // SE's numbers; QQWing's rating and HoDoKu's level and score stay at their zeros
};
// Once `cancel` is true the rating ends within milliseconds and means nothing (logic::Walk):
// SE's nested chains can take a second or two of a hard puzzle's rating. `solved`: the fast
// solver's answer for the grid counted to two, where the caller has it (logic::Walk); else the
// grid is solved once for both paths.
Ratings RateGrid(const Grid& grid, RatedPaths paths = RatedPaths::kBoth,
                 const std::atomic<bool>* cancel = nullptr, const Result* solved = nullptr);

}  // namespace sudoku::rating

#endif  // SUDOKU_SOLVER_RATING_H_
