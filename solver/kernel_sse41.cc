// The SSE4.1 kernel: kernel.inc built with -msse4.1 -mpopcnt (see solver/CMakeLists.txt).
#ifndef __SSE4_1__
#error "kernel_sse41.cc needs its instruction-set flags (see solver/CMakeLists.txt)"
#endif
#define SUDOKU_KERNEL_NAMESPACE sse41
#define SUDOKU_KERNEL_NAME "sse4.1"
// __builtin_cpu_init first: Supported() may run during static initialisation, before the
// run-time's own call.
#define SUDOKU_KERNEL_SUPPORTED() \
  (__builtin_cpu_init(), __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("popcnt"))
#include "solver/kernel.inc"
