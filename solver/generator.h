// Puzzle generation: a random complete grid, then clues removed while the puzzle keeps exactly
// one solution, shaped by options (a clue target, 180-degree symmetry, minimality), and kept
// only when it has the difficulty asked for (QQWing's level by logic::Rate(), HoDoKu's level and
// the SE rating by rating::RateGrid()) and its explanation takes the technique asked for.
//
// Determinism: puzzle `index` of seed `seed` is always the same puzzle (the random stream is
// derived from the pair alone), so a request split across threads, chunks or connections gives
// the same puzzles in the same order as one made in a single piece.
//
// Thread-safety: Generate() is reentrant; any number of threads may call it at once.
#ifndef SUDOKU_SOLVER_GENERATOR_H_
#define SUDOKU_SOLVER_GENERATOR_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "solver/logic.h"
#include "solver/rating.h"
#include "solver/solver.h"

namespace sudoku {

// Fewer clues than this never give a unique puzzle (McGuire et al., 2012).
inline constexpr int kMinClues = 17;

struct GenerateOptions {
  uint64_t seed = 0;
  // The number of clues wanted (kMinClues-81), or 0 for as few as the removal reaches. Clues are
  // removed down to the target and no further; when no attempt gets down to it, the puzzle
  // closest to it is returned and Generated::reached_clues says so.
  int clues = 0;
  // Blanks placed in pairs symmetric about the centre (180-degree rotational symmetry).
  bool symmetric = false;
  // No clue can be removed without losing uniqueness.
  bool minimal = false;
  // Only puzzles logic::Rate() puts at this level (generate and filter).
  std::optional<logic::Level> level = std::nullopt;
  // Only puzzles rating::RateGrid() puts at this HoDoKu level, and whose SE rating (in tenths)
  // is at least se_min and at most se_max (0: no bound).
  std::optional<rating::HodokuLevel> hodoku_level = std::nullopt;
  uint32_t se_min = 0;
  uint32_t se_max = 0;
  // Only puzzles whose explanation (logic::Explain(), HoDoKu's path: what the page and
  // `sudoku-client explain` show) takes at least one step of this technique. Read from the walk
  // that rates the level, when one is asked for too. A technique no explanation takes
  // (Needable() false: kWxyzWing) fails at once, with no attempt.
  std::optional<logic::Technique> needs = std::nullopt;
  // Complete grids tried before giving up on a puzzle that meets every option.
  uint32_t max_attempts = 2000;
  // When set, polled before each attempt (an attempt takes a few milliseconds at most): once it
  // is true, Generate() gives up and returns a Generated with `cancelled` set. May be set from
  // any thread.
  const std::atomic<bool>* cancel = nullptr;
};

struct Generated {
  bool ok = false;                      // false: nothing met the options; `error` says what
  Grid puzzle{};                        // 0 for a blank
  std::array<char, kCells> solution{};  // ASCII '1'-'9'
  int clues = 0;
  bool reached_clues = true;  // false when options.clues was asked for and not reached
  uint32_t attempts = 0;      // complete grids tried
  std::string error;          // e.g. "no symmetric and minimal puzzle found in 2000 attempts",
                              // "no puzzle needing an xy-chain found in 2000 attempts"
  bool cancelled = false;     // options.cancel stopped it: nothing else here means anything
};

// Puzzle `index` of the sequence `options.seed` names. Every puzzle returned has been checked
// to have exactly one solution.
Generated Generate(const GenerateOptions& options, uint64_t index);

// Whether an explanation can take a step of `technique`, so that GenerateOptions::needs can be
// met: every technique but kWxyzWing, which only the path rated for SE takes.
bool Needable(logic::Technique technique);
// logic::ParseTechnique() for the techniques Needable() allows (case-sensitive); nullopt for
// anything else, "wxyz-wing" too.
std::optional<logic::Technique> ParseNeeds(std::string_view text);
// Their names, easiest first, as a message lists choices: "naked single, hidden single, ...,
// forcing chain or trial".
std::string NeedsNames();

// 81 characters, '.' for a blank (the one-line form qqwing and most tools print).
std::string PuzzleText(const Grid& grid);

}  // namespace sudoku

#endif  // SUDOKU_SOLVER_GENERATOR_H_
