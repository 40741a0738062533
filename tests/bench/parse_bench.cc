// Microbenchmarks of the puzzle layer: ParsePuzzle, and Solve() end to end with the active
// kernel.
#include <algorithm>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "solver/solver.h"
#include "tests/bench/bench_puzzles.h"

namespace sudoku {
namespace {

// Over the first 1024 puzzles of the first set, so that the texts stay in cache: this times
// the parsing, not the memory.
void BM_ParsePuzzle(benchmark::State& state) {
  const auto& all = bench::Sets().front().texts;
  const std::vector<std::string> texts(all.begin(), all.begin() + std::min<size_t>(all.size(), 1024));
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
