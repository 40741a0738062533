#include "solver/generator.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <string_view>
#include <utility>
#include <vector>

namespace sudoku {
namespace {

// SplitMix64: a well-mixed 64-bit stream from any seed, so that neighbouring indices give
// unrelated puzzles. Written out (not <random>'s engines and distributions) because the
// standard leaves the distributions' outputs to each library, and a seed must name the same
// puzzles everywhere.
class Random {
 public:
  Random(uint64_t seed, uint64_t index) : state_(seed) { state_ = Next() ^ Mix(index + 1); }

  uint64_t Next() { return Mix(state_ += 0x9e3779b97f4a7c15ULL); }
  // Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32).
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(((Next() >> 32) * n) >> 32); }
  template <typename T, size_t N>
  void Shuffle(std::array<T, N>& items, size_t count = N) {
    // Fisher-Yates over the first `count` items.
    for (size_t i = count; i > 1; --i) {
      std::swap(items[i - 1], items[Below(static_cast<uint32_t>(i))]);
    }
  }

 private:
  static uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

// A random complete grid: random permutations in the three diagonal boxes (which never clash,
// and always complete), completed by the solver, then shuffled by the moves that keep a grid
// valid (relabel digits, permute rows within bands and bands, columns within stacks and
// stacks, transpose), so that the solver's fixed search order leaves no mark.
Grid RandomSolution(Random& random) {
  Grid seed{};
  for (int box = 0; box < 3; ++box) {
    std::array<uint8_t, 9> digits = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    random.Shuffle(digits);
    for (int i = 0; i < 9; ++i) seed[(box * 3 + i / 3) * 9 + box * 3 + i % 3] = digits[i];
  }
  const Result solved = SolveGrid(seed);
  Grid full{};
  for (int cell = 0; cell < kCells; ++cell) {
    full[cell] = static_cast<uint8_t>(solved.solution[cell] - '0');
  }

  std::array<uint8_t, 10> relabel{};  // relabel[d]: the digit d becomes (0 stays 0)
  std::array<uint8_t, 9> digits = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  random.Shuffle(digits);
  for (int d = 1; d <= 9; ++d) relabel[d] = digits[d - 1];
  auto lines = [&random]() {
    std::array<int, 3> bands = {0, 1, 2};
    random.Shuffle(bands);
    std::array<int, 9> order{};
    for (int b = 0; b < 3; ++b) {
      std::array<int, 3> within = {0, 1, 2};
      random.Shuffle(within);
      for (int i = 0; i < 3; ++i) order[b * 3 + i] = bands[b] * 3 + within[i];
    }
    return order;
  };
  const std::array<int, 9> rows = lines();
  const std::array<int, 9> columns = lines();
  const bool transpose = random.Below(2) == 1;
  Grid out{};
  for (int r = 0; r < 9; ++r) {
    for (int c = 0; c < 9; ++c) {
      const int from = transpose ? columns[c] * 9 + rows[r] : rows[r] * 9 + columns[c];
      out[r * 9 + c] = relabel[full[from]];
    }
  }
  return out;
}

bool Unique(const Grid& puzzle) {
  return SolveGrid(puzzle, {.max_solutions = 2}).verdict == Verdict::kSolved;
}

int CountClues(const Grid& puzzle) {
  return static_cast<int>(
      std::count_if(puzzle.begin(), puzzle.end(), [](uint8_t v) { return v != 0; }));
}

// No single clue can go without a second solution appearing.
bool Minimal(Grid puzzle) {
  for (int cell = 0; cell < kCells; ++cell) {
    const uint8_t given = puzzle[cell];
    if (given == 0) continue;
    puzzle[cell] = 0;
    if (Unique(puzzle)) return false;
    puzzle[cell] = given;
  }
  return true;
}

// Blanks out cells of `solution` in a random order while the puzzle stays unique, never below
// `target` clues (0: no floor). Cells go one at a time, or with `symmetric` in the pairs
// {c, 80 - c}. A removal refused once is refused for good: removing more clues only adds
// solutions, so one pass leaves no single removable cell (no removable pair when symmetric).
// Below a `ceiling` of kExpert (the hardest, so no ceiling), a removal is also refused when it
// would make the puzzle harder than that level for the logical solver: a puzzle that starts full
// (the simplest) then ends at most that hard, which is what makes the easier levels reachable
// (few minimal puzzles need naked singles only).
Grid RemoveClues(const Grid& solution, int target, bool symmetric, logic::Level ceiling,
                 Random& random) {
  // Symmetric: cells 0-40 stand for their orbits {c, 80 - c} (the centre 40 is its own mirror).
  constexpr size_t kOrbits = 41;
  std::array<uint8_t, kCells> order{};
  std::iota(order.begin(), order.end(), 0);
  const size_t count = symmetric ? kOrbits : kCells;
  random.Shuffle(order, count);
  Grid puzzle = solution;
  int clues = kCells;
  for (size_t i = 0; i < count; ++i) {
    if (target > 0 && clues == target) break;
    const int cell = order[i];
    const int mirror = symmetric ? kCells - 1 - cell : cell;
    const int size = cell == mirror ? 1 : 2;
    if (target > 0 && clues - size < target) continue;
    puzzle[cell] = puzzle[mirror] = 0;
    if (Unique(puzzle) &&
        (ceiling == logic::Level::kExpert || logic::Rate(puzzle).level <= ceiling)) {
      clues -= size;
    } else {
      puzzle[cell] = solution[cell];
      puzzle[mirror] = solution[mirror];
    }
  }
  return puzzle;
}

// Whether the puzzle has QQWing's level and its explanation the technique asked for (true when
// neither is asked): one walk of HoDoKu's path answers both, the walk logic::Rate() takes.
bool HasLevelAndNeeds(const GenerateOptions& options, const Grid& puzzle) {
  if (!options.level && !options.needs) return true;
  bool needed = false;
  logic::QqwingLeveler leveler(puzzle);
  logic::Walk(puzzle, logic::Preference::kHodoku, [&](const logic::Step& step) {
    needed = needed || (options.needs && step.technique == *options.needs);
    leveler.Add(step);
  });
  if (options.level && leveler.Result() != *options.level) return false;
  return !options.needs || needed;
}

// Whether the puzzle has the HoDoKu level and SE range asked for (true when none is).
bool HasScales(const GenerateOptions& options, const Grid& puzzle) {
  if (!options.hodoku_level && options.se_min == 0 && options.se_max == 0) return true;
  const rating::Scales scales =
      rating::RateGrid(puzzle, rating::RatedPaths::kBoth, options.cancel).scales;
  if (options.hodoku_level && scales.hodoku_level != *options.hodoku_level) return false;
  if (options.se_min != 0 && scales.se_tenths < options.se_min) return false;
  return options.se_max == 0 || scales.se_tenths <= options.se_max;
}

// The hardest QQWing level clue removal may reach for the scales asked for. HoDoKu's easy and SE
// ratings below a pointing's 2.6 need singles alone, which the easy ceiling keeps removal to (few
// puzzles stay that easy if removal goes on).
logic::Level CeilingOf(const GenerateOptions& options) {
  const logic::Level asked = options.level.value_or(logic::Level::kExpert);
  const bool singles = options.hodoku_level == rating::HodokuLevel::kEasy ||
                       (options.se_max != 0 && options.se_max < 26);
  return singles ? std::min(asked, logic::Level::kEasy) : asked;
}

// "an x-wing", "a naked single": the article of the name as it is said (x as "ex").
std::string WithArticle(const char* name) {
  const bool vowel = std::string_view("aeiox").find(name[0]) != std::string_view::npos;
  std::string text = vowel ? "an " : "a ";
  return text.append(name);
}

// What the options ask for, as the error names it: "expert and symmetric puzzle", "puzzle
// needing an xy-chain", "unique puzzle" (nothing asked for).
std::string Wanted(const GenerateOptions& options) {
  std::string what;
  auto add = [&what](const std::string& part) { what += (what.empty() ? "" : " and ") + part; };
  if (options.level) add(logic::Name(*options.level));
  if (options.hodoku_level) add(std::string("HoDoKu ") + rating::Name(*options.hodoku_level));
  if (options.se_min != 0 || options.se_max != 0) {
    add("SE " + rating::SeText(options.se_min != 0 ? options.se_min : rating::kSeMinTenths) +
        "-" + rating::SeText(options.se_max != 0 ? options.se_max : rating::kSeMaxTenths));
  }
  if (options.symmetric) add("symmetric");
  if (options.minimal) add("minimal");
  if (options.clues > 0) add(std::to_string(options.clues) + "-clue");
  if (!options.needs) return what.empty() ? "unique puzzle" : what.append(" puzzle");
  if (!what.empty()) what += ' ';
  return what.append("puzzle needing ").append(WithArticle(logic::Name(*options.needs)));
}

}  // namespace

bool Needable(logic::Technique technique) { return technique != logic::Technique::kWxyzWing; }

std::optional<logic::Technique> ParseNeeds(std::string_view text) {
  const std::optional<logic::Technique> technique = logic::ParseTechnique(text);
  return technique && Needable(*technique) ? technique : std::nullopt;
}

std::string NeedsNames() {
  std::vector<const char*> names;
  for (int i = 0; i < logic::kTechniqueCount; ++i) {
    const auto technique = static_cast<logic::Technique>(i);
    if (Needable(technique)) names.push_back(logic::Name(technique));
  }
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

std::string PuzzleText(const Grid& grid) {
  std::string text(kCells, '.');
  for (int cell = 0; cell < kCells; ++cell) {
    if (grid[cell] != 0) text[cell] = static_cast<char>('0' + grid[cell]);
  }
  return text;
}

Generated Generate(const GenerateOptions& options, uint64_t index) {
  Random random(options.seed, index);
  Generated best;
  if (options.needs && !Needable(*options.needs)) {
    best.error = std::string("no puzzle needs ")
                     .append(WithArticle(logic::Name(*options.needs)))
                     .append(": explanations never take one (only the SE rating's path does)");
    return best;
  }
  // Once a puzzle meets every option but the clue target, only this many more attempts try to
  // get closer to it: a low target may be out of reach of random removal.
  constexpr uint32_t kCluePatience = 64;
  uint32_t since_best = 0;
  const logic::Level ceiling = CeilingOf(options);
  const bool one_pass_minimal =
      !options.symmetric && options.clues == 0 && ceiling == logic::Level::kExpert;
  for (uint32_t attempt = 1; attempt <= options.max_attempts; ++attempt) {
    if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
      best.cancelled = true;
      return best;
    }
    best.attempts = attempt;
    const Grid solution = RandomSolution(random);
    const Grid puzzle = RemoveClues(solution, options.clues, options.symmetric, ceiling, random);
    const int clues = CountClues(puzzle);
    if (options.minimal && !one_pass_minimal && !Minimal(puzzle)) continue;
    if (!HasLevelAndNeeds(options, puzzle)) continue;
    if (!HasScales(options, puzzle)) continue;
    if (!Unique(puzzle)) continue;  // not reached: removal keeps uniqueness; checked regardless
    const bool reached = options.clues == 0 || clues == options.clues;
    if (!best.ok || clues < best.clues) {
      best.ok = true;
      best.puzzle = puzzle;
      for (int cell = 0; cell < kCells; ++cell) {
        best.solution[cell] = static_cast<char>('0' + solution[cell]);
      }
      best.clues = clues;
      best.reached_clues = reached;
      since_best = 0;
    }
    if (reached) return best;
    if (++since_best >= kCluePatience) return best;
  }
  if (best.ok) return best;
  best.error = std::string("no ")
                   .append(Wanted(options))
                   .append(" found in ")
                   .append(std::to_string(options.max_attempts))
                   .append(" attempts");
  return best;
}

}  // namespace sudoku
