// The AVX2 kernel: kernel.inc built with -mavx2 -mbmi2 -mpopcnt (see solver/CMakeLists.txt).
#ifndef __AVX2__
#error "kernel_avx2.cc needs its instruction-set flags (see solver/CMakeLists.txt)"
#endif
#define SUDOKU_KERNEL_NAMESPACE avx2
#define SUDOKU_KERNEL_NAME "avx2"
// __builtin_cpu_init first: Supported() may run during static initialisation, before the
// run-time's own call.
#define SUDOKU_KERNEL_SUPPORTED()                                                       \
  (__builtin_cpu_init(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && \
                             __builtin_cpu_supports("popcnt"))
#include "solver/kernel.inc"
