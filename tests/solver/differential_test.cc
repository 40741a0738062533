// Every kernel the CPU supports gives the same verdict, solution, solution count and number of
// guesses as the portable one: on every puzzle of the public sets beside the checkout (skipped
// when they are absent) and on generated edge cases. Then Solve() on every public puzzle, each
// solution checked independently.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/solver/reference_solver.h"
#include "tests/solver/test_puzzles.h"

namespace sudoku {
namespace {

std::vector<const Kernel*> SupportedKernels() {
  std::vector<const Kernel*> kernels;
  for (const Kernel* k : AllKernels()) {
    if (k->supported()) kernels.push_back(k);
  }
  return kernels;
}

// Solves `puzzles` with every supported kernel at both limits and reports the first puzzles
// where a kernel differs from the last (portable) one.
void ExpectKernelsAgree(const std::vector<std::string>& puzzles, const std::string& where) {
  const auto kernels = SupportedKernels();
  ASSERT_FALSE(kernels.empty());
  const Kernel* baseline = kernels.back();
  int differences = 0;
  for (size_t i = 0; i < puzzles.size() && differences < 10; ++i) {
    Grid grid;
    if (ParsePuzzle(puzzles[i], &grid)) continue;
    for (uint32_t limit : {1u, 2u}) {
      Result expected;
      baseline->solve(grid, Limits{limit}, &expected);
      for (const Kernel* k : kernels) {
        if (k == baseline) continue;
        Result r;
        k->solve(grid, Limits{limit}, &r);
        const bool same = r.verdict == expected.verdict && r.solutions == expected.solutions &&
                          r.guesses == expected.guesses &&
                          (r.solutions == 0 || r.solution == expected.solution);
        if (!same) {
          ++differences;
          ADD_FAILURE() << where << " puzzle " << i + 1 << " (" << puzzles[i] << "), limit "
                        << limit << ": " << k->name << " differs from " << baseline->name
                        << " (solutions " << r.solutions << " vs " << expected.solutions
                        << ", guesses " << r.guesses << " vs " << expected.guesses << ")";
        }
      }
    }
  }
}

TEST(Differential, KernelsAgreeOnThePublicSets) {
  const auto files = testing::SharedDataFiles();
  if (files.empty()) GTEST_SKIP() << "SUDOKU_SHARED_DATA_DIR has no puzzle files";
  for (const auto& file : files) ExpectKernelsAgree(testing::ReadLines(file), file);
}

TEST(Differential, KernelsAgreeOnTheFixtures) {
  std::vector<std::string> puzzles;
  for (const auto& f : testing::LoadFixtures("solver_puzzles.txt")) puzzles.push_back(f.puzzle);
  ExpectKernelsAgree(puzzles, "solver_puzzles.txt");
}

TEST(Differential, KernelsAgreeOnEdgeCases) {
  std::vector<std::string> puzzles = {std::string(kCells, '.'), std::string(testing::kFullGrid)};
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const std::string grid = testing::Transform(testing::kFullGrid, seed);
    // One cell from full, a deadly rectangle (two solutions), and from few to many blanks.
    puzzles.push_back(testing::WithBlanks(grid, 1, seed));
    puzzles.push_back(testing::DeadlyRectangle(grid));
    puzzles.push_back(testing::WithBlanks(grid, static_cast<int>(seed % 70), seed));
    // A wrong digit in a near-empty grid: no solution, found late.
    std::string wrong = testing::WithBlanks(grid, 60, seed);
    for (int cell = 0; cell < kCells; ++cell) {
      if (wrong[cell] != '.') continue;
      wrong[cell] = static_cast<char>('1' + (grid[cell] - '1' + 1) % 9);
      Grid parsed;
      if (ParsePuzzle(wrong, &parsed)) wrong[cell] = '.';
      else break;
    }
    puzzles.push_back(wrong);
  }
  ExpectKernelsAgree(puzzles, "edge cases");
}

TEST(PublicSets, EverySolutionIsValid) {
  const auto files = testing::SharedDataFiles();
  if (files.empty()) GTEST_SKIP() << "SUDOKU_SHARED_DATA_DIR has no puzzle files";
  for (const auto& file : files) {
    const auto puzzles = testing::ReadLines(file);
    int failures = 0;
    for (size_t i = 0; i < puzzles.size() && failures < 10; ++i) {
      // Every public puzzle has exactly one solution (see the sets' README).
      const Result r = Solve(puzzles[i], Limits{2});
      const std::string solution = testing::SolutionText(r);
      if (r.verdict != Verdict::kSolved || r.solutions != 1 ||
          !reference::IsSolutionOf(puzzles[i], solution)) {
        ++failures;
        ADD_FAILURE() << file << " line " << i + 1 << ": " << puzzles[i] << " -> " << solution;
      }
    }
  }
}

}  // namespace
}  // namespace sudoku
