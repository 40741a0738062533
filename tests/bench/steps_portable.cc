// Microbenchmarks of the portable kernel's steps (see kernel_steps.inc), built with the flags of
// solver/kernel_portable.cc (see tests/bench/CMakeLists.txt).
#define SUDOKU_KERNEL_NAMESPACE bench_portable
#define SUDOKU_KERNEL_NAME "portable"
#define SUDOKU_KERNEL_SUPPORTED() true
#include "tests/bench/kernel_steps.inc"
