// Microbenchmarks of the sse41 kernel's steps (see kernel_steps.inc), built with the flags of
// solver/kernel_sse41.cc (see tests/bench/CMakeLists.txt).
#ifndef __SSE4_1__
#error "steps_sse41.cc needs its instruction-set flags (see tests/bench/CMakeLists.txt)"
#endif
#define SUDOKU_KERNEL_NAMESPACE bench_sse41
#define SUDOKU_KERNEL_NAME "sse4.1"
// __builtin_cpu_init first: Supported() may run during static initialisation, before the
// run-time's own call.
#define SUDOKU_KERNEL_SUPPORTED() \
  (__builtin_cpu_init(), __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("popcnt"))
#include "tests/bench/kernel_steps.inc"
