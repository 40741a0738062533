// Kernel selection: the best supported kernel, and SUDOKU_FORCE_ISA with its notes.
#include "solver/dispatch.h"

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "solver/solver.h"

namespace sudoku {
namespace {

bool Yes() { return true; }
bool No() { return false; }
void Nothing(const Grid&, Limits, Result*) {}

const Kernel kFast = {"fast", No, Nothing};
const Kernel kMedium = {"medium", Yes, Nothing};
const Kernel kSlow = {"slow", Yes, Nothing};
const Kernel* const kFake[] = {&kFast, &kMedium, &kSlow};

TEST(ChooseKernel, TakesTheBestSupported) {
  for (const char* forced : {static_cast<const char*>(nullptr), ""}) {
    const auto choice = internal::ChooseKernel(kFake, forced);
    EXPECT_EQ(choice.kernel, &kMedium);
    EXPECT_EQ(choice.note, "");
  }
}

TEST(ChooseKernel, HonoursASupportedForcedKernel) {
  const auto choice = internal::ChooseKernel(kFake, "slow");
  EXPECT_EQ(choice.kernel, &kSlow);
  EXPECT_EQ(choice.note, "");
}

TEST(ChooseKernel, ExplainsAnUnsupportedForcedKernel) {
  const auto choice = internal::ChooseKernel(kFake, "fast");
  EXPECT_EQ(choice.kernel, &kMedium);
  EXPECT_EQ(choice.note, "SUDOKU_FORCE_ISA=fast: this CPU does not support it; using medium");
}

TEST(ChooseKernel, ExplainsAnUnknownForcedKernel) {
  const auto choice = internal::ChooseKernel(kFake, "turbo");
  EXPECT_EQ(choice.kernel, &kMedium);
  EXPECT_EQ(choice.note,
            "SUDOKU_FORCE_ISA=turbo: unknown kernel (known: fast, medium, slow); using medium");
}

TEST(AllKernels, ListsEveryKernelBestFirst) {
  std::vector<std::string> names;
  for (const Kernel* k : AllKernels()) names.push_back(k->name);
  EXPECT_EQ(names, (std::vector<std::string>{"avx512", "avx2", "sse4.1", "portable"}));
  EXPECT_TRUE(AllKernels().back()->supported());
}

TEST(ActiveKernel, FollowsTheEnvironment) {
  // The selection is made once per process from SUDOKU_FORCE_ISA as it is now; the expectation
  // is worked out here from the kernel list, not with ChooseKernel().
  const char* forced = std::getenv("SUDOKU_FORCE_ISA");
  const Kernel* best = nullptr;
  const Kernel* named = nullptr;
  for (const Kernel* k : AllKernels()) {
    if (best == nullptr && k->supported()) best = k;
    if (forced != nullptr && std::string_view(forced) == k->name) named = k;
  }
  ASSERT_NE(best, nullptr);
  if (forced == nullptr || *forced == '\0') {
    EXPECT_EQ(&ActiveKernel(), best);
    EXPECT_EQ(KernelSelectionNote(), "");
  } else if (named != nullptr && named->supported()) {
    EXPECT_EQ(&ActiveKernel(), named);
    EXPECT_EQ(KernelSelectionNote(), "");
  } else {
    EXPECT_EQ(&ActiveKernel(), best);
    EXPECT_THAT(std::string(KernelSelectionNote()),
                ::testing::StartsWith("SUDOKU_FORCE_ISA=" + std::string(forced) + ": "));
  }
  EXPECT_TRUE(ActiveKernel().supported());
}

}  // namespace
}  // namespace sudoku
