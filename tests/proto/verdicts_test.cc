// The wire's verdicts: their words as the JSON of both ends spells them, and the tally that the
// client's summary and the daemon's counts and metrics share.
#include "proto/verdicts.h"

#include <cstdint>

#include <gtest/gtest.h>

#include "proto/sudoku.pb.h"

namespace sudoku::wire {
namespace {

TEST(VerdictName, EachVerdictHasItsWord) {
  EXPECT_STREQ(VerdictName(SOLVED), "solved");
  EXPECT_STREQ(VerdictName(MULTIPLE), "multiple");
  EXPECT_STREQ(VerdictName(UNSOLVABLE), "unsolvable");
  EXPECT_STREQ(VerdictName(INVALID), "invalid");
  EXPECT_STREQ(VerdictName(Verdict_MAX + 1), "unknown");
  EXPECT_STREQ(VerdictName(-1), "unknown");
}

TEST(VerdictTally, StartsAtZero) {
  const VerdictTally tally;
  EXPECT_EQ(tally.total(), 0u);
  EXPECT_EQ(tally, (VerdictTally{0, 0, 0, 0}));
}

TEST(VerdictTally, CountsEachVerdictInItsField) {
  VerdictTally tally;
  tally.Count(SOLVED);
  tally.Count(MULTIPLE);
  tally.Count(MULTIPLE);
  tally.Count(UNSOLVABLE);
  tally.Count(UNSOLVABLE);
  tally.Count(UNSOLVABLE);
  tally.Count(INVALID);
  EXPECT_EQ(tally, (VerdictTally{.solved = 1, .multiple = 2, .unsolvable = 3, .invalid = 1}));
  EXPECT_EQ(tally.total(), 7u);
}

// A run of puzzles with one verdict counts at once, as the client counts a run of solutions.
TEST(VerdictTally, CountsManyOfOneVerdict) {
  VerdictTally tally;
  tally.Count(SOLVED, 1000);
  tally.Count(INVALID, 0);
  tally.Count(MULTIPLE, 3);
  EXPECT_EQ(tally, (VerdictTally{.solved = 1000, .multiple = 3}));
  EXPECT_EQ(tally.total(), 1003u);
}

// A value this build does not know still counts, so that the total is every puzzle.
TEST(VerdictTally, AnUnknownVerdictCountsAsInvalid) {
  VerdictTally tally;
  tally.Count(Verdict_MAX + 1);
  tally.Count(-1);
  EXPECT_EQ(tally, (VerdictTally{.invalid = 2}));
  EXPECT_EQ(tally.total(), 2u);
}

TEST(VerdictTally, AddsAnotherFieldByField) {
  VerdictTally tally{.solved = 1, .multiple = 2, .unsolvable = 3, .invalid = 4};
  tally.Add(VerdictTally{.solved = 10, .multiple = 20, .unsolvable = 30, .invalid = 40});
  EXPECT_EQ(tally, (VerdictTally{.solved = 11, .multiple = 22, .unsolvable = 33, .invalid = 44}));
  EXPECT_EQ(tally.total(), 110u);
  tally.Add(VerdictTally{});
  EXPECT_EQ(tally.total(), 110u);
}

// The daemon's totals grow for days; the tally does not wrap at 32 bits.
TEST(VerdictTally, CountsPast32Bits) {
  VerdictTally tally;
  tally.Count(SOLVED, uint64_t{1} << 32);
  tally.Count(SOLVED);
  EXPECT_EQ(tally.solved, (uint64_t{1} << 32) + 1);
  EXPECT_EQ(tally.total(), (uint64_t{1} << 32) + 1);
}

}  // namespace
}  // namespace sudoku::wire
