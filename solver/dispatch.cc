// Picks the kernel Solve() uses, once, at first use: the best one the CPU supports, unless
// SUDOKU_FORCE_ISA names another. The choice is made in a function-local static (thread-safe
// initialisation) and never changes afterwards, so there is no mutable global state.
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "solver/solver.h"

namespace sudoku {
// One per kernel_<isa>.cc.
namespace avx512 { extern const Kernel kKernel; }
namespace avx2 { extern const Kernel kKernel; }
namespace sse41 { extern const Kernel kKernel; }
namespace portable { extern const Kernel kKernel; }

namespace {

// Best first.
constexpr const Kernel* kKernels[] = {&avx512::kKernel, &avx2::kKernel, &sse41::kKernel,
                                      &portable::kKernel};

struct Selection {
  const Kernel* kernel = nullptr;
  std::string note;
};

Selection Select() {
  Selection selection;
  for (const Kernel* k : kKernels) {
    if (k->supported()) {
      selection.kernel = k;
      break;
    }
  }
  const char* forced = std::getenv("SUDOKU_FORCE_ISA");
  if (forced == nullptr || *forced == '\0') return selection;
  for (const Kernel* k : kKernels) {
    if (std::string_view(k->name) != forced) continue;
    if (k->supported()) {
      selection.kernel = k;
    } else {
      selection.note = "SUDOKU_FORCE_ISA=" + std::string(forced) +
                       ": this CPU does not support it; using " + selection.kernel->name;
    }
    return selection;
  }
  std::string known;
  for (const Kernel* k : kKernels) known += std::string(known.empty() ? "" : ", ") + k->name;
  selection.note = "SUDOKU_FORCE_ISA=" + std::string(forced) + ": unknown kernel (known: " +
                   known + "); using " + selection.kernel->name;
  return selection;
}

const Selection& TheSelection() {
  static const Selection selection = Select();
  return selection;
}

}  // namespace

const Kernel& ActiveKernel() noexcept { return *TheSelection().kernel; }

std::span<const Kernel* const> AllKernels() noexcept { return kKernels; }

std::string_view KernelSelectionNote() noexcept { return TheSelection().note; }

}  // namespace sudoku
