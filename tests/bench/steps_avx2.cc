// Microbenchmarks of the avx2 kernel's steps (see kernel_steps.inc), built with the flags of
// solver/kernel_avx2.cc (see tests/bench/CMakeLists.txt).
#ifndef __AVX2__
#error "steps_avx2.cc needs its instruction-set flags (see tests/bench/CMakeLists.txt)"
#endif
#define SUDOKU_KERNEL_NAMESPACE bench_avx2
#define SUDOKU_KERNEL_NAME "avx2"
// __builtin_cpu_init first: Supported() may run during static initialisation, before the
// run-time's own call.
#define SUDOKU_KERNEL_SUPPORTED()                                                       \
  (__builtin_cpu_init(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && \
                             __builtin_cpu_supports("popcnt"))
#include "tests/bench/kernel_steps.inc"
