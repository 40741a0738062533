// Picks the kernel Solve() uses, once, at first use: the best one the CPU supports, unless
// SUDOKU_FORCE_ISA names another (the pattern of simdjson's implementation.cpp). The choice
// lives in a function-local static (thread-safe initialisation) and never changes afterwards, so
// there is no mutable global state.
#include "solver/dispatch.h"

#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "solver/solver.h"

namespace sudoku {

// One per line of isa.def, each compiled from kernel.inc (see solver/CMakeLists.txt).
#define SUDOKU_ISA(isa, name, features) namespace isa { extern const Kernel kKernel; }
#include "solver/isa.def"
#undef SUDOKU_ISA

namespace internal {

KernelChoice ChooseKernel(std::span<const Kernel* const> kernels, const char* forced) {
  KernelChoice choice;
  for (const Kernel* k : kernels) {
    if (k->supported()) {
      choice.kernel = k;
      break;
    }
  }
  if (forced == nullptr || *forced == '\0') return choice;
  const std::string name(forced);
  for (const Kernel* k : kernels) {
    if (name != k->name) continue;
    if (k->supported()) {
      choice.kernel = k;
    } else {
      choice.note = "SUDOKU_FORCE_ISA=" + name + ": this CPU does not support it; using " +
                    choice.kernel->name;
    }
    return choice;
  }
  std::string known;
  for (const Kernel* k : kernels) {
    if (!known.empty()) known += ", ";
    known += k->name;
  }
  choice.note = "SUDOKU_FORCE_ISA=" + name + ": unknown kernel (known: " + known + "); using " +
                choice.kernel->name;
  return choice;
}

}  // namespace internal

namespace {

// Best first, as isa.def lists them.
constexpr const Kernel* kKernels[] = {
#define SUDOKU_ISA(isa, name, features) &isa::kKernel,
#include "solver/isa.def"
#undef SUDOKU_ISA
};

const internal::KernelChoice& Selection() {
  static const internal::KernelChoice choice =
      internal::ChooseKernel(kKernels, std::getenv("SUDOKU_FORCE_ISA"));
  return choice;
}

}  // namespace

const Kernel& ActiveKernel() noexcept { return *Selection().kernel; }

std::span<const Kernel* const> AllKernels() noexcept { return kKernels; }

std::string_view KernelSelectionNote() noexcept { return Selection().note; }

}  // namespace sudoku
