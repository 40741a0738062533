// Every kernel the CPU supports gives the same verdict, solution, solution count and number of
// guesses as the portable one, and the independent reference solver (tests/support/sudoku_check.h)
// agrees with them: on every puzzle of the public sets beside the checkout, those with one solution
// and those with several (skipped when they are absent), on the fixtures, on famous very hard
// puzzles, and on generated edge cases: the empty grid counted up to a limit, full grids, grids
// one cell from full, puzzles with 0, 1, 2 and many solutions, and contradictions found only deep
// in the search. Then Solve() on every public puzzle, each solution checked independently.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/support/sudoku_check.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/puzzles.h"
#include "tests/support/paths.h"

namespace sudoku {
namespace {

std::vector<const Kernel*> SupportedKernels() {
  std::vector<const Kernel*> kernels;
  for (const Kernel* k : AllKernels()) {
    if (k->supported()) kernels.push_back(k);
  }
  return kernels;
}

// What a puzzle's solutions are known to be: by the reference solver, or by construction.
struct Reference {
  int count = 0;         // solutions, counted up to `limit`
  int limit = 0;
  std::string solution;  // the first the reference found, when count > 0 (empty if unknown)
};

Reference ReferenceAnswer(const std::string& puzzle, int limit) {
  Reference ref;
  ref.limit = limit;
  ref.count = testing::CountSolutions(puzzle, limit, &ref.solution);
  return ref;
}

// Compares the kernels' results on one puzzle.
class Comparison {
 public:
  explicit Comparison(std::string where) : where_(std::move(where)) {}

  // Solves `puzzle` (which must parse) with every supported kernel at `limit` and expects them
  // to agree with the last (portable) one. When `ref` is given (counted to at least `limit`),
  // also expects the portable result to match it. Returns the portable result.
  Result Check(const std::string& puzzle, uint32_t limit, const Reference* ref = nullptr) {
    Grid grid;
    const PuzzleError error = ParsePuzzle(puzzle, &grid);
    if (error) {
      Fail(puzzle, limit, "does not parse: " + Describe(error));
      return Result{};
    }
    Result expected;
    kernels_.back()->solve(grid, Limits{limit}, &expected);
    for (const Kernel* k : kernels_) {
      if (k == kernels_.back()) continue;
      Result r;
      k->solve(grid, Limits{limit}, &r);
      const bool same = r.verdict == expected.verdict && r.solutions == expected.solutions &&
                        r.guesses == expected.guesses &&
                        (r.solutions == 0 || r.solution == expected.solution);
      if (!same) {
        Fail(puzzle, limit,
             std::string(k->name) + " differs from " + kernels_.back()->name + " (solutions " +
                 std::to_string(r.solutions) + " vs " + std::to_string(expected.solutions) +
                 ", guesses " + std::to_string(r.guesses) + " vs " +
                 std::to_string(expected.guesses) + ")");
      }
    }
    if (ref != nullptr) ExpectMatches(puzzle, limit, expected, *ref);
    return expected;
  }

  int failures() const { return failures_; }

 private:
  void ExpectMatches(const std::string& puzzle, uint32_t limit, const Result& r,
                     const Reference& ref) {
    if (static_cast<uint32_t>(ref.limit) < limit) {
      Fail(puzzle, limit, "the reference counted only to " + std::to_string(ref.limit));
      return;
    }
    const uint32_t count = std::min<uint32_t>(static_cast<uint32_t>(ref.count), limit);
    const bool unique = ref.count == 1 && ref.limit >= 2;
    const Verdict verdict = count == 0   ? Verdict::kUnsolvable
                            : count == 1 ? Verdict::kSolved
                                         : Verdict::kMultiple;
    if (r.solutions != count || r.verdict != verdict) {
      Fail(puzzle, limit,
           "the kernels find " + std::to_string(r.solutions) + " solutions (verdict " +
               std::to_string(static_cast<int>(r.verdict)) + "), the reference " +
               std::to_string(ref.count) + " counting to " + std::to_string(ref.limit));
    } else if (count > 0 && unique && !ref.solution.empty() &&
               testing::SolutionText(r) != ref.solution) {
      Fail(puzzle, limit, "the only solution is " + ref.solution + ", the kernels give " +
                              testing::SolutionText(r));
    } else if (count > 0 && !testing::IsSolutionOf(puzzle, testing::SolutionText(r))) {
      Fail(puzzle, limit, "not a solution: " + testing::SolutionText(r));
    }
  }

  void Fail(const std::string& puzzle, uint32_t limit, const std::string& what) {
    // Ten reports say enough; a broken kernel would otherwise flood the log.
    if (++failures_ <= 10) {
      ADD_FAILURE() << where_ << ": " << puzzle << ", limit " << limit << ": " << what;
    }
  }

  const std::vector<const Kernel*> kernels_ = SupportedKernels();
  std::string where_;
  int failures_ = 0;
};

// The 81-character lines of a puzzle file ('#' comments and blank lines skipped).
std::vector<std::string> PuzzleLines(const std::string& path) {
  std::vector<std::string> puzzles;
  for (const auto& line : testing::ReadLines(path)) {
    if (!line.empty() && line[0] != '#') puzzles.push_back(line);
  }
  return puzzles;
}

std::vector<std::string> VeryHardPuzzles() {
  return PuzzleLines(testing::TestPath("SUDOKU_TEST_DATA_DIR") + "/very_hard.txt");
}

TEST(Differential, KernelsAgreeOnThePublicSets) {
  const auto files = testing::SharedDataFiles();
  if (files.empty()) GTEST_SKIP() << "SUDOKU_SHARED_DATA_DIR has no puzzle files";
  // Every public puzzle has exactly one solution (see the sets' README): the kernels' answer
  // when counting to two is checked on every one, the reference solver's on 24 spread over each
  // set (plain backtracking takes up to a tenth of a second on a 17-clue puzzle), and the first
  // solution alone on every fourth (the same search, stopped sooner; all of them doubled the
  // test's time).
  constexpr size_t kReferencedPerSet = 24;
  constexpr size_t kFirstSolutionStride = 4;
  const Reference unique{1, 2, ""};
  const size_t sample = testing::PublicSetStride();
  for (const auto& file : files) {
    const auto puzzles = testing::ReadLines(file);
    // A multiple of the sampling stride, so that the referenced puzzles are among those checked.
    const size_t stride = std::max(
        sample, (puzzles.size() + kReferencedPerSet - 1) / kReferencedPerSet / sample * sample);
    Comparison comparison(file);
    for (size_t i = 0; i < puzzles.size() && comparison.failures() <= 10; i += sample) {
      if (i % kFirstSolutionStride == 0) comparison.Check(puzzles[i], 1, &unique);
      if (i % stride == 0) {
        const Reference ref = ReferenceAnswer(puzzles[i], 2);
        EXPECT_EQ(ref.count, 1) << file << " line " << i + 1;
        comparison.Check(puzzles[i], 2, &ref);
      } else {
        comparison.Check(puzzles[i], 2, &unique);
      }
    }
  }
}

TEST(Differential, KernelsAgreeOnTheMultiSolutionSets) {
  const auto files = testing::SharedMultiSolutionFiles();
  if (files.empty()) GTEST_SKIP() << "SUDOKU_SHARED_DATA_DIR has no multi_solution/ puzzle files";
  // Every puzzle of these sets has two solutions or more (see the sets' README): counting to two
  // must give `multiple` with exactly two, and the first solution alone a valid one, on every
  // puzzle; the reference solver confirms the count on 24 spread over each set.
  constexpr size_t kReferencedPerSet = 24;
  const Reference multiple{2, 2, ""};
  const size_t sample = testing::PublicSetStride();
  for (const auto& file : files) {
    const auto puzzles = testing::ReadLines(file);
    ASSERT_FALSE(puzzles.empty()) << file;
    const size_t stride = std::max(
        sample, (puzzles.size() + kReferencedPerSet - 1) / kReferencedPerSet / sample * sample);
    Comparison comparison(file);
    for (size_t i = 0; i < puzzles.size() && comparison.failures() <= 10; i += sample) {
      comparison.Check(puzzles[i], 1, &multiple);
      if (i % stride == 0) {
        const Reference ref = ReferenceAnswer(puzzles[i], 2);
        EXPECT_EQ(ref.count, 2) << file << " line " << i + 1;
        comparison.Check(puzzles[i], 2, &ref);
      } else {
        comparison.Check(puzzles[i], 2, &multiple);
      }
    }
  }
}

TEST(Differential, KernelsAgreeWithTheReferenceOnTheFixtures) {
  Comparison comparison("solver_puzzles.txt");
  for (const auto& f : testing::LoadFixtures("solver_puzzles.txt")) {
    if (f.count == "invalid") continue;
    const Reference ref = ReferenceAnswer(f.puzzle, 3);
    for (uint32_t limit : {1u, 2u, 3u}) comparison.Check(f.puzzle, limit, &ref);
  }
}

TEST(Differential, KernelsAgreeWithTheReferenceOnTheVeryHardPuzzles) {
  const auto puzzles = VeryHardPuzzles();
  ASSERT_EQ(puzzles.size(), 7u);
  Comparison comparison("very_hard.txt");
  for (const auto& puzzle : puzzles) {
    const Reference ref = ReferenceAnswer(puzzle, 2);
    EXPECT_EQ(ref.count, 1) << puzzle << ": every famous puzzle has exactly one solution";
    for (uint32_t limit : {1u, 2u}) comparison.Check(puzzle, limit, &ref);
  }
}

TEST(Differential, CountTheEmptyGridsSolutionsUpToTheLimit) {
  const std::string empty(kCells, '.');
  Comparison comparison("empty grid");
  for (uint32_t limit : {1u, 2u, 3u, 10u, 100u, 1000u}) {
    const Reference ref = ReferenceAnswer(empty, static_cast<int>(limit));
    ASSERT_EQ(ref.count, static_cast<int>(limit));
    const Result r = comparison.Check(empty, limit, &ref);
    EXPECT_EQ(r.solutions, limit);
  }
}

TEST(Differential, AgreeOnFullGridsAndGridsOneCellFromFull) {
  Comparison comparison("full grids");
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const std::string full = seed == 0 ? std::string(testing::kWikipediaSolution)
                                       : testing::Transform(testing::kWikipediaSolution, seed);
    const Reference ref = ReferenceAnswer(full, 2);
    ASSERT_EQ(ref.count, 1);
    EXPECT_EQ(comparison.Check(full, 2, &ref).guesses, 0u) << full;
    // Every cell in turn the only blank, on the first grids; a few cells on the others.
    for (int cell = 0; cell < kCells; cell += seed < 2 ? 1 : 13) {
      std::string one_blank = full;
      one_blank[cell] = '.';
      const Result r = comparison.Check(one_blank, 2, &ref);
      EXPECT_EQ(r.guesses, 0u) << one_blank;
    }
  }
}

TEST(Differential, AgreeWithTheReferenceOnZeroOneTwoAndManySolutions) {
  Comparison comparison("generated");
  // Blanking ever more cells of a full grid: unique puzzles first, then ever more solutions.
  // Counted up to 20 solutions.
  int by_count[21] = {};
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    const std::string grid = testing::Transform(testing::kWikipediaSolution, seed);
    const std::string puzzle = testing::WithBlanks(grid, 30 + static_cast<int>(seed % 35), seed);
    const Reference ref = ReferenceAnswer(puzzle, 20);
    ++by_count[ref.count];
    for (uint32_t limit : {1u, 2u, 20u}) comparison.Check(puzzle, limit, &ref);
  }
  EXPECT_GT(by_count[1], 50);
  EXPECT_GT(by_count[20], 50);
  int some = 0;  // 2 to 19 solutions
  for (int c = 2; c < 20; ++c) some += by_count[c];
  EXPECT_GT(some, 20);

  // Exactly two: a deadly rectangle in an otherwise full grid.
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const std::string puzzle =
        testing::DeadlyRectangle(testing::Transform(testing::kWikipediaSolution, seed));
    ASSERT_FALSE(puzzle.empty());
    const Reference ref = ReferenceAnswer(puzzle, 3);
    ASSERT_EQ(ref.count, 2) << puzzle;
    for (uint32_t limit : {1u, 2u, 3u}) comparison.Check(puzzle, limit, &ref);
  }

  // None, found early: a wrong digit (clashing with no given) in a near-empty grid; some of
  // these still have solutions.
  int none = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const std::string grid = testing::Transform(testing::kWikipediaSolution, seed);
    std::string wrong = testing::WithBlanks(grid, 45 + static_cast<int>(seed % 20), seed);
    for (int cell = 0; cell < kCells; ++cell) {
      if (wrong[cell] != '.') continue;
      wrong[cell] = static_cast<char>('1' + (grid[cell] - '1' + 1) % 9);
      Grid parsed;
      if (ParsePuzzle(wrong, &parsed)) {
        wrong[cell] = '.';
      } else {
        break;
      }
    }
    const Reference ref = ReferenceAnswer(wrong, 2);
    none += ref.count == 0;
    for (uint32_t limit : {1u, 2u}) comparison.Check(wrong, limit, &ref);
  }
  EXPECT_GT(none, 30);
}

TEST(Differential, AgreeOnContradictionsFoundDeepInTheSearch) {
  // A puzzle with one solution, plus one given that clashes with no given but differs from that
  // solution, has no solution; on a hard puzzle the search often has to explore to find out.
  std::vector<std::string> hard = VeryHardPuzzles();
  for (const auto& f : testing::LoadFixtures("solver_puzzles.txt")) {
    if (f.count == "1") hard.push_back(f.puzzle);
  }
  Comparison comparison("deep contradictions");
  const Reference no_solution{0, 1000, ""};
  uint32_t most_guesses = 0;
  int cases = 0, searched = 0, referenced = 0;
  for (const auto& puzzle : hard) {
    const Reference solved = ReferenceAnswer(puzzle, 2);
    ASSERT_EQ(solved.count, 1) << puzzle;
    // Every wrong digit in the first twelve blank cells.
    int blanks = 0;
    for (int cell = 0; cell < kCells && blanks < 12; ++cell) {
      if (puzzle[cell] != '.') continue;
      ++blanks;
      for (char digit = '1'; digit <= '9'; ++digit) {
        if (digit == solved.solution[cell]) continue;
        std::string wrong = puzzle;
        wrong[cell] = digit;
        Grid grid;
        if (ParsePuzzle(wrong, &grid)) continue;  // clashes with a given
        ++cases;
        comparison.Check(wrong, 1, &no_solution);
        const Result r = comparison.Check(wrong, 2, &no_solution);
        most_guesses = std::max(most_guesses, r.guesses);
        searched += r.guesses > 0;
        // The reference confirms the deepest-looking ones too (its search is slow there).
        if (r.guesses >= 20 && referenced < 40) {
          ++referenced;
          const Reference ref = ReferenceAnswer(wrong, 2);
          EXPECT_EQ(ref.count, 0) << wrong;
        }
      }
    }
  }
  EXPECT_GT(cases, 1000);
  // They must really be deep: many need guessing, some a long search.
  EXPECT_GT(searched, cases / 4);
  EXPECT_GE(referenced, 20);
  EXPECT_GE(most_guesses, 50u);
}

// ParsePuzzle() looks for repeated givens among the givens of the converted grid, and only then
// asks FirstError() which comes first: every repeat must be found, with the error the
// cell-by-cell scan gives. Solve(), SolvePacked() and SolveGrid() leave them to the kernel, which
// looks for them only in a puzzle that propagation does not settle: they leave a unit too few
// cells for its digits, which no single ever notices, and the search could take hours to exhaust
// a sparse grid that has one (the last puzzle is one the fuzzer found when the kernel did not
// look for them at all).
// The first repeated given in text order, found the slow and obvious way: the first cell whose
// digit stands earlier in its row, else its column, else its box, and that earlier cell.
PuzzleError ExpectedRepeat(const std::string& text) {
  constexpr PuzzleError::Kind kKinds[3] = {PuzzleError::Kind::kRowRepeat,
                                           PuzzleError::Kind::kColumnRepeat,
                                           PuzzleError::Kind::kBoxRepeat};
  auto unit_of = [](int cell, int unit) {
    return unit == 0 ? cell / 9 : unit == 1 ? cell % 9 : cell / 27 * 3 + cell % 9 / 3;
  };
  for (int cell = 0; cell < kCells; ++cell) {
    if (text[cell] == '.') continue;
    for (int unit = 0; unit < 3; ++unit) {
      for (int other = 0; other < cell; ++other) {
        if (text[other] == text[cell] && unit_of(other, unit) == unit_of(cell, unit)) {
          PuzzleError error;
          error.kind = kKinds[unit];
          error.character = text[cell];
          error.position = static_cast<uint32_t>(cell);
          error.first = static_cast<uint32_t>(other);
          return error;
        }
      }
    }
  }
  return PuzzleError{};
}

TEST(Solve, ReportsTheFirstRepeatedGiven) {
  std::vector<std::string> puzzles = VeryHardPuzzles();
  for (const auto& f : testing::LoadFixtures("solver_puzzles.txt")) puzzles.push_back(f.puzzle);
  puzzles.push_back(std::string(kCells, '.'));
  int cases = 0;
  auto check = [&cases](const std::string& clash) {
    const PuzzleError expected = ExpectedRepeat(clash);
    ASSERT_TRUE(expected) << clash;
    ++cases;
    const Result solved = Solve(clash, Limits{2});
    EXPECT_EQ(solved.verdict, Verdict::kInvalid) << clash;
    EXPECT_EQ(Describe(solved.error), Describe(expected)) << clash;
    EXPECT_EQ(solved.error.position, expected.position) << clash;
    EXPECT_EQ(solved.error.first, expected.first) << clash;
    Grid grid;
    EXPECT_EQ(Describe(ParsePuzzle(clash, &grid)), Describe(expected)) << clash;
    // Packed, and as a grid that skipped ParsePuzzle(): the same error.
    PackedGrid packed;
    ASSERT_TRUE(PackPuzzle(clash, packed));
    EXPECT_EQ(Describe(SolvePacked(packed, Limits{2}).error), Describe(expected)) << clash;
    for (int i = 0; i < kCells; ++i) grid[i] = clash[i] == '.' ? 0 : clash[i] - '0';
    const Result from_grid = SolveGrid(grid);
    EXPECT_EQ(from_grid.verdict, Verdict::kInvalid) << clash;
    EXPECT_EQ(Describe(from_grid.error), Describe(expected)) << clash;
  };
  for (const auto& puzzle : puzzles) {
    // The fixtures of other errors (length, characters) are no base for a repeat.
    if (puzzle.size() != kCells || puzzle.find_first_not_of(".123456789") != std::string::npos) {
      continue;
    }
    for (int cell = 0; cell < kCells; cell += 4) {
      for (char digit = '1'; digit <= '9'; ++digit) {
        std::string clash = puzzle;
        clash[cell] = digit;
        // The empty grid gets a second given: the same digit in the row, column or box.
        if (puzzle == std::string(kCells, '.')) {
          clash[(cell + 9 * (digit % 3 + 1)) % kCells] = digit;
        }
        if (ExpectedRepeat(clash)) check(clash);
      }
    }
  }
  check("11...............1.....2.3.11....................5.6...3......4.7...3........6...");
  EXPECT_GT(cases, 1000);
}

TEST(PublicSets, EverySolutionIsValid) {
  const auto files = testing::SharedDataFiles();
  if (files.empty()) GTEST_SKIP() << "SUDOKU_SHARED_DATA_DIR has no puzzle files";
  for (const auto& file : files) {
    const auto puzzles = testing::ReadLines(file);
    int failures = 0;
    for (size_t i = 0; i < puzzles.size() && failures < 10; i += testing::PublicSetStride()) {
      // Every public puzzle has exactly one solution (see the sets' README).
      const Result r = Solve(puzzles[i], Limits{2});
      const std::string solution = testing::SolutionText(r);
      if (r.verdict != Verdict::kSolved || r.solutions != 1 ||
          !testing::IsSolutionOf(puzzles[i], solution)) {
        ++failures;
        ADD_FAILURE() << file << " line " << i + 1 << ": " << puzzles[i] << " -> " << solution;
      }
    }
  }
}

}  // namespace
}  // namespace sudoku
