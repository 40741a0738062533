// The solver's promises to its callers: no heap allocation per puzzle, and any number of threads
// solving at once with the same results as one.
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "solver/solver.h"
#include "tests/solver/test_puzzles.h"

// Counts every allocation of the process while `g_counting` is set. Replacing the global
// operator new is the one way to see allocations made anywhere below Solve().
namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

// Never inlined: a caller then sees ::operator new paired with ::operator delete, as written.
// Inlined (as g++ 12 does under the sanitizers), the caller would see free() of a pointer from
// ::operator new, and -Wmismatched-new-delete would flag the pair.
[[gnu::noinline]] void* operator new(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace sudoku {
namespace {

std::vector<std::string> Puzzles() {
  std::vector<std::string> puzzles;
  for (const auto& f : testing::LoadFixtures("solver_puzzles.txt")) puzzles.push_back(f.puzzle);
  puzzles.push_back(std::string(kCells, '.'));
  return puzzles;
}

TEST(Solver, AllocatesNothingPerPuzzle) {
  const auto puzzles = Puzzles();
  // The counter sees allocations (a direct call cannot be optimised away).
  g_counting = true;
  ::operator delete(::operator new(16));
  g_counting = false;
  ASSERT_EQ(g_allocations.load(), 1);

  ActiveKernel();  // the one-time kernel choice may allocate its note
  for (const Kernel* kernel : AllKernels()) {
    if (!kernel->supported()) continue;
    g_allocations = 0;
    g_counting = true;
    for (const auto& text : puzzles) {
      for (uint32_t limit : {1u, 2u, 100u}) {
        Grid grid;
        if (ParsePuzzle(text, &grid)) continue;
        Result r;
        kernel->solve(grid, Limits{limit}, &r);
      }
    }
    g_counting = false;
    EXPECT_EQ(g_allocations.load(), 0) << kernel->name;
  }
  g_allocations = 0;
  g_counting = true;
  for (const auto& text : puzzles) Solve(text, Limits{2});
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0) << "Solve()";
}

TEST(Solver, GivesTheSameResultsFromManyThreads) {
  const auto puzzles = Puzzles();
  std::vector<Result> expected;
  for (const auto& text : puzzles) expected.push_back(Solve(text, Limits{2}));
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        for (size_t i = 0; i < puzzles.size(); ++i) {
          const size_t j = (i + t * 7 + round) % puzzles.size();
          const Result r = Solve(puzzles[j], Limits{2});
          if (r.verdict != expected[j].verdict || r.solutions != expected[j].solutions ||
              r.guesses != expected[j].guesses || r.solution != expected[j].solution) {
            ++mismatches;
          }
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace sudoku
