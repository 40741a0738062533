// The AVX-512 kernel: kernel.inc built with -mavx512f -mavx512bw -mavx512vl -mavx512dq -mbmi2
// -mpopcnt (see solver/CMakeLists.txt).
#ifndef __AVX512F__
#error "kernel_avx512.cc needs its instruction-set flags (see solver/CMakeLists.txt)"
#endif
#define SUDOKU_KERNEL_NAMESPACE avx512
#define SUDOKU_KERNEL_NAME "avx512"
// __builtin_cpu_init first: Supported() may run during static initialisation, before the
// run-time's own call.
#define SUDOKU_KERNEL_SUPPORTED()                                                           \
  (__builtin_cpu_init(), __builtin_cpu_supports("avx512f") &&                               \
                             __builtin_cpu_supports("avx512bw") &&                          \
                             __builtin_cpu_supports("avx512vl") &&                          \
                             __builtin_cpu_supports("avx512dq") &&                          \
                             __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt"))
#include "solver/kernel.inc"
