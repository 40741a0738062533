// The solving kernels, each one the CPU supports run through the same suite (parameterised
// over AllKernels()), against fixtures and against an independent reference solver.
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/support/sudoku_check.h"
#include "tests/solver/test_puzzles.h"
#include "tests/support/puzzles.h"

namespace sudoku {
namespace {

using testing::SolutionText;

class KernelTest : public ::testing::TestWithParam<const Kernel*> {
 protected:
  void SetUp() override {
    if (!GetParam()->supported()) GTEST_SKIP() << GetParam()->name << " is not supported here";
  }

  // Parses (the text must be valid) and solves with the kernel under test.
  Result Run(std::string_view text, uint32_t max_solutions) {
    Grid grid;
    const PuzzleError error = ParsePuzzle(text, &grid);
    EXPECT_FALSE(error) << Describe(error);
    Result r;
    GetParam()->solve(grid, Limits{max_solutions}, &r);
    return r;
  }
};

TEST_P(KernelTest, MatchesTheFixturesAndTheReference) {
  const auto fixtures = testing::LoadFixtures("solver_puzzles.txt");
  ASSERT_GT(fixtures.size(), 40u);
  for (const auto& f : fixtures) {
    SCOPED_TRACE("solver_puzzles.txt line " + std::to_string(f.line) + ": " + f.puzzle);
    if (f.count == "invalid") {
      Grid grid;
      const PuzzleError error = ParsePuzzle(f.puzzle, &grid);
      ASSERT_TRUE(error);
      EXPECT_EQ(Describe(error), f.solution);
      continue;
    }
    std::string reference_first;
    const int count = testing::CountSolutions(f.puzzle, 2, &reference_first);
    ASSERT_EQ(std::to_string(count), f.count) << "the fixture disagrees with the reference";
    const Result r = Run(f.puzzle, 2);
    EXPECT_EQ(r.solutions, static_cast<uint32_t>(count));
    if (count == 0) {
      EXPECT_EQ(r.verdict, Verdict::kUnsolvable);
    } else if (count == 1) {
      EXPECT_EQ(r.verdict, Verdict::kSolved);
      EXPECT_EQ(SolutionText(r), f.solution);
      EXPECT_EQ(reference_first, f.solution);
    } else {
      EXPECT_EQ(r.verdict, Verdict::kMultiple);
      EXPECT_TRUE(testing::IsSolutionOf(f.puzzle, SolutionText(r)));
      EXPECT_TRUE(testing::IsSolutionOf(f.puzzle, f.solution));
    }
    // With a limit of one, any solvable puzzle is simply solved.
    const Result first = Run(f.puzzle, 1);
    EXPECT_EQ(first.verdict, count == 0 ? Verdict::kUnsolvable : Verdict::kSolved);
    EXPECT_EQ(first.solutions, count == 0 ? 0u : 1u);
    if (count > 0) {
      EXPECT_TRUE(testing::IsSolutionOf(f.puzzle, SolutionText(first)));
    }
  }
}

TEST_P(KernelTest, SolvesTheEmptyGrid) {
  const std::string empty(kCells, '.');
  const Result one = Run(empty, 1);
  EXPECT_EQ(one.verdict, Verdict::kSolved);
  EXPECT_EQ(one.solutions, 1u);
  EXPECT_TRUE(testing::IsSolutionOf(empty, SolutionText(one)));
  const Result two = Run(empty, 2);
  EXPECT_EQ(two.verdict, Verdict::kMultiple);
  EXPECT_EQ(two.solutions, 2u);
  EXPECT_EQ(SolutionText(two), SolutionText(one)) << "the solution reported is the first found";
  EXPECT_EQ(Run(empty, 1000).solutions, 1000u);
}

// Runs `body` on a thread with a stack of `bytes`.
void RunOnStackOf(size_t bytes, const std::function<void()>& body) {
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, bytes), 0);
  pthread_t thread;
  const auto run = [](void* function) -> void* {
    (*static_cast<const std::function<void()>*>(function))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, run, const_cast<std::function<void()>*>(&body)),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
}

// The daemon solves on oneTBB's workers, whose stacks are 4 MiB, and the search takes a stack
// frame per guess: the empty grid goes some fifty guesses deep. (A sanitizer build's frames are
// the largest: its avx512 search once took 88 KB a guess, and overflowed there.)
TEST_P(KernelTest, SearchesDeepWithinTheStackOfAOneTbbWorker) {
  RunOnStackOf(4 << 20, [this] {
    const std::string empty(kCells, '.');
    EXPECT_EQ(Run(empty, 2).solutions, 2u);
    EXPECT_EQ(Run(empty, 1000).solutions, 1000u);
    for (const auto& f : testing::LoadFixtures("solver_puzzles.txt")) {
      if (f.count != "invalid") {
        EXPECT_EQ(std::to_string(Run(f.puzzle, 2).solutions), f.count);
      }
    }
  });
}

TEST_P(KernelTest, SolvesAFullGridWithoutGuessing) {
  const Result r = Run(testing::kWikipediaSolution, 2);
  EXPECT_EQ(r.verdict, Verdict::kSolved);
  EXPECT_EQ(r.solutions, 1u);
  EXPECT_EQ(r.guesses, 0u);
  EXPECT_EQ(SolutionText(r), testing::kWikipediaSolution);
}

TEST_P(KernelTest, FillsTheLastCell) {
  for (int cell : {0, 40, 80}) {
    std::string text(testing::kWikipediaSolution);
    text[cell] = '.';
    const Result r = Run(text, 2);
    EXPECT_EQ(r.verdict, Verdict::kSolved);
    EXPECT_EQ(r.guesses, 0u);
    EXPECT_EQ(SolutionText(r), testing::kWikipediaSolution);
  }
}

TEST_P(KernelTest, FindsExactlyTwoSolutionsOfADeadlyRectangle) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const std::string grid = testing::Transform(testing::kWikipediaSolution, seed);
    const std::string puzzle = testing::DeadlyRectangle(grid);
    ASSERT_FALSE(puzzle.empty());
    ASSERT_EQ(testing::CountSolutions(puzzle, 10), 2);
    const Result r = Run(puzzle, 10);
    EXPECT_EQ(r.verdict, Verdict::kMultiple) << puzzle;
    EXPECT_EQ(r.solutions, 2u) << puzzle;
    EXPECT_TRUE(testing::IsSolutionOf(puzzle, SolutionText(r)));
  }
}

TEST_P(KernelTest, CountsManySolutionsUpToTheLimit) {
  // One row given: the rest has a great many completions.
  const std::string puzzle =
      std::string(testing::kWikipediaSolution.substr(0, 9)) + std::string(72, '.');
  const Result r = Run(puzzle, 50);
  EXPECT_EQ(r.verdict, Verdict::kMultiple);
  EXPECT_EQ(r.solutions, 50u);
  EXPECT_TRUE(testing::IsSolutionOf(puzzle, SolutionText(r)));
}

TEST_P(KernelTest, AgreesWithTheReferenceOnGeneratedPuzzles) {
  // From near-full grids (unique) to sparse ones (many solutions); counts up to 3.
  int by_count[4] = {};
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const std::string grid = testing::Transform(testing::kWikipediaSolution, seed);
    const std::string puzzle = testing::WithBlanks(grid, 30 + static_cast<int>(seed % 30), seed);
    const int count = testing::CountSolutions(puzzle, 3);
    ++by_count[count];
    const Result r = Run(puzzle, 3);
    EXPECT_EQ(r.solutions, static_cast<uint32_t>(count)) << puzzle;
    EXPECT_EQ(r.verdict, count == 1 ? Verdict::kSolved : Verdict::kMultiple) << puzzle;
    EXPECT_TRUE(testing::IsSolutionOf(puzzle, SolutionText(r))) << puzzle;
  }
  // The generator covers unique and several-solution puzzles alike.
  EXPECT_GT(by_count[1], 50);
  EXPECT_GT(by_count[3], 50);
}

TEST_P(KernelTest, FindsNoSolutionWhenAWrongDigitIsAdded) {
  // A wrong digit that clashes with no given: the contradiction surfaces only in the search.
  int deep = 0;
  for (const auto& f : testing::LoadFixtures("solver_puzzles.txt")) {
    if (f.count != "0") continue;
    const Result r = Run(f.puzzle, 2);
    EXPECT_EQ(r.verdict, Verdict::kUnsolvable) << f.puzzle;
    EXPECT_EQ(r.solutions, 0u);
    if (r.guesses > 0) ++deep;
  }
  EXPECT_GE(deep, 5) << "the fixtures should hold contradictions found only by guessing";
}

// A grid whose givens clash has no solution; the kernel says why, as ParsePuzzle() would, and
// counts no guess (the search is not what answered).
void ExpectRepeat(const Result& r, const std::string& message, uint32_t position,
                  uint32_t first) {
  EXPECT_EQ(r.verdict, Verdict::kInvalid);
  EXPECT_EQ(Describe(r.error), message);
  EXPECT_EQ(r.error.position, position);
  EXPECT_EQ(r.error.first, first);
  EXPECT_EQ(r.solutions, 0u);
  EXPECT_EQ(r.guesses, 0u);
}

// Sparse, the search could take hours to exhaust it: the check comes after a few guesses.
TEST_P(KernelTest, ReportsClashingGivensInASparseGrid) {
  Grid grid{};
  grid[0] = 7;
  grid[80] = 7;
  grid[8] = 7;  // same row as cell 0
  for (const uint32_t limit : {1u, 2u}) {
    Result r;
    GetParam()->solve(grid, Limits{limit}, &r);
    ExpectRepeat(r, "digit 7 repeated in row 1 (r1c1 and r1c9)", 8, 0);
  }
}

// Dense, propagation finds the contradiction at once, without a guess.
TEST_P(KernelTest, ReportsClashingGivensInAFullGrid) {
  Grid grid;
  ASSERT_FALSE(ParsePuzzle(testing::kWikipediaSolution, &grid));
  const char digit = static_cast<char>('0' + grid[41]);
  grid[40] = grid[41];  // r5c5 takes r5c6's digit
  Result r;
  GetParam()->solve(grid, Limits{2}, &r);
  ExpectRepeat(r, std::string("digit ") + digit + " repeated in row 5 (r5c5 and r5c6)", 41, 40);
}

// An empty grid has some 6.7e21 solutions: without the flag this search would not end.
TEST_P(KernelTest, StopsAtTheFirstPollOnceCancelled) {
  const std::atomic<bool> cancel{true};
  const Grid empty{};
  Result r;
  GetParam()->solve(empty, Limits{.max_solutions = UINT32_MAX, .cancel = &cancel}, &r);
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.guesses, kCancelPollGuesses);

  CandidateGrid open;
  open.fill(0x1ff);
  Result c;
  GetParam()->solve_candidates(open, Limits{.max_solutions = UINT32_MAX, .cancel = &cancel}, &c);
  EXPECT_TRUE(c.cancelled);
  EXPECT_EQ(c.guesses, kCancelPollGuesses);
}

TEST_P(KernelTest, StopsWhenCancelledFromAnotherThread) {
  std::atomic<bool> cancel{false};
  std::thread canceller([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cancel.store(true, std::memory_order_relaxed);
  });
  Result r;
  GetParam()->solve(Grid{}, Limits{.max_solutions = UINT32_MAX, .cancel = &cancel}, &r);
  canceller.join();
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.guesses % kCancelPollGuesses, 0u);
}

TEST_P(KernelTest, AFlagLeftUnsetChangesNothing) {
  const std::atomic<bool> cancel{false};
  Result with, without;
  GetParam()->solve(Grid{}, Limits{.max_solutions = 5000, .cancel = &cancel}, &with);
  GetParam()->solve(Grid{}, Limits{.max_solutions = 5000}, &without);
  EXPECT_FALSE(with.cancelled);
  EXPECT_EQ(with.verdict, Verdict::kMultiple);
  EXPECT_EQ(with.solutions, 5000u);
  EXPECT_GT(with.guesses, kCancelPollGuesses);
  EXPECT_EQ(with.guesses, without.guesses);
  EXPECT_EQ(SolutionText(with), SolutionText(without));
}

TEST_P(KernelTest, OverwritesAStaleResult) {
  Result r;
  r.verdict = Verdict::kInvalid;
  r.solutions = 7;
  r.guesses = 99;
  r.error.kind = PuzzleError::Kind::kLength;
  r.cancelled = true;
  Grid grid;
  ASSERT_FALSE(ParsePuzzle(testing::kWikipediaSolution, &grid));
  GetParam()->solve(grid, Limits{1}, &r);
  EXPECT_EQ(r.verdict, Verdict::kSolved);
  EXPECT_EQ(r.solutions, 1u);
  EXPECT_EQ(r.guesses, 0u);
  EXPECT_FALSE(r.error);
  EXPECT_FALSE(r.cancelled);
}

TEST_P(KernelTest, TreatsALimitOfZeroAsOne) {
  const Result r = Run(std::string(kCells, '.'), 0);
  EXPECT_EQ(r.verdict, Verdict::kSolved);
  EXPECT_EQ(r.solutions, 1u);
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelTest,
                         ::testing::ValuesIn(AllKernels().begin(), AllKernels().end()),
                         [](const ::testing::TestParamInfo<const Kernel*>& info) {
                           return testing::TestName(info.param->name);
                         });

}  // namespace
}  // namespace sudoku
