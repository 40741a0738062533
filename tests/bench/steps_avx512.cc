// Microbenchmarks of the avx512 kernel's steps (see kernel_steps.inc), built with the flags of
// solver/kernel_avx512.cc (see tests/bench/CMakeLists.txt).
#ifndef __AVX512F__
#error "steps_avx512.cc needs its instruction-set flags (see tests/bench/CMakeLists.txt)"
#endif
#define SUDOKU_KERNEL_NAMESPACE bench_avx512
#define SUDOKU_KERNEL_NAME "avx512"
// __builtin_cpu_init first: Supported() may run during static initialisation, before the
// run-time's own call.
#define SUDOKU_KERNEL_SUPPORTED()                                                           \
  (__builtin_cpu_init(), __builtin_cpu_supports("avx512f") &&                               \
                             __builtin_cpu_supports("avx512bw") &&                          \
                             __builtin_cpu_supports("avx512vl") &&                          \
                             __builtin_cpu_supports("avx512dq") &&                          \
                             __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt"))
#include "tests/bench/kernel_steps.inc"
