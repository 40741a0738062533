// Microbenchmarks of the puzzle layer: ParsePuzzle, and Solve() end to end with the active
// kernel.
#include <benchmark/benchmark.h>

#include "solver/solver.h"
#include "tests/bench/bench_puzzles.h"

namespace sudoku {
namespace {

void BM_ParsePuzzle(benchmark::State& state) {
  const auto& texts = bench::Sets().front().texts;
  size_t i = 0;
  Grid grid;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ParsePuzzle(texts[i], &grid));
    benchmark::DoNotOptimize(grid);
    if (++i == texts.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParsePuzzle);

void BM_SolveText(benchmark::State& state) {
  const auto& texts = bench::Sets().front().texts;
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(Solve(texts[i]));
    if (++i == texts.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(ActiveKernel().name);
}
BENCHMARK(BM_SolveText);

}  // namespace
}  // namespace sudoku
