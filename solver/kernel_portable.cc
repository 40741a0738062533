// The portable kernel: kernel.inc built for the baseline CPU, with no extra flags. It runs
// everywhere and is the reference the other kernels are tested against.
#define SUDOKU_KERNEL_NAMESPACE portable
#define SUDOKU_KERNEL_NAME "portable"
#define SUDOKU_KERNEL_SUPPORTED() true
#include "solver/kernel.inc"
