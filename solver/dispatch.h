// Kernel selection, apart from the process environment so that tests can drive it. Internal to
// solver/: callers use ActiveKernel() and KernelSelectionNote() from solver.h.
//
// Thread-safety: ChooseKernel() is a pure function; safe from any thread.
#ifndef SUDOKU_SOLVER_DISPATCH_H_
#define SUDOKU_SOLVER_DISPATCH_H_

#include <span>
#include <string>

#include "solver/solver.h"

namespace sudoku::internal {

struct KernelChoice {
  const Kernel* kernel = nullptr;
  std::string note;  // empty, or why `forced` was not honoured
};

// The first kernel of `kernels` (best first) that this CPU supports, or the one named `forced`
// (the value of SUDOKU_FORCE_ISA; null or empty = none) if it is known and supported. The last
// kernel must be supported everywhere.
KernelChoice ChooseKernel(std::span<const Kernel* const> kernels, const char* forced);

}  // namespace sudoku::internal

#endif  // SUDOKU_SOLVER_DISPATCH_H_
