#include "client/ordered_output.h"

#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "client/client_error.h"

namespace sudoku::client {
namespace {

TEST(OrderedOutput, WritesInOrderAtOnce) {
  std::ostringstream out;
  OrderedOutput output(&out);
  output.Put(0, "a\n");
  EXPECT_EQ(out.str(), "a\n");
  output.Put(1, "b\n");
  EXPECT_EQ(out.str(), "a\nb\n");
  EXPECT_EQ(output.next(), 2u);
  EXPECT_EQ(output.held(), 0u);
}

TEST(OrderedOutput, HandsBackTheBuffersOfWrittenTexts) {
  std::ostringstream out;
  OrderedOutput output(&out);
  EXPECT_EQ(output.TakeBuffer().capacity(), std::string().capacity());  // none written yet
  const std::string big(100000, 'x');
  output.Put(1, big);  // held, not written: not handed back
  EXPECT_EQ(output.TakeBuffer().capacity(), std::string().capacity());
  output.Put(0, big);
  // Both written: each buffer comes back once, empty, with its capacity.
  for (int i = 0; i < 2; ++i) {
    const std::string buffer = output.TakeBuffer();
    EXPECT_TRUE(buffer.empty());
    EXPECT_GE(buffer.capacity(), big.size());
  }
  EXPECT_EQ(output.TakeBuffer().capacity(), std::string().capacity());
  EXPECT_EQ(out.str(), big + big);
}

TEST(OrderedOutput, HoldsLaterBatchesUntilTheGapCloses) {
  std::ostringstream out;
  OrderedOutput output(&out);
  output.Put(2, "c\n");
  output.Put(1, "b\n");
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(output.held(), 2u);
  EXPECT_EQ(output.next(), 0u);
  output.Put(0, "a\n");
  EXPECT_EQ(out.str(), "a\nb\nc\n");
  EXPECT_EQ(output.held(), 0u);
  output.Put(4, "e\n");
  EXPECT_EQ(out.str(), "a\nb\nc\n");
  output.Put(3, "d\n");
  EXPECT_EQ(out.str(), "a\nb\nc\nd\ne\n");
  EXPECT_EQ(output.next(), 5u);
}

TEST(OrderedOutput, AnyArrivalOrderGivesInputOrder) {
  const std::vector<uint64_t> arrival = {5, 3, 0, 9, 1, 2, 8, 4, 7, 6};
  std::ostringstream out;
  OrderedOutput output(&out);
  for (uint64_t sequence : arrival) output.Put(sequence, std::to_string(sequence) + ",");
  EXPECT_EQ(out.str(), "0,1,2,3,4,5,6,7,8,9,");
}

TEST(OrderedOutput, EmptyTextStillAdvances) {
  std::ostringstream out;
  OrderedOutput output(&out);
  output.Put(1, "b");
  output.Put(0, "");
  EXPECT_EQ(out.str(), "b");
  EXPECT_EQ(output.next(), 2u);
}

TEST(OrderedOutput, RejectsABatchDeliveredTwice) {
  std::ostringstream out;
  OrderedOutput output(&out);
  output.Put(0, "a");
  output.Put(2, "c");
  EXPECT_THROW(output.Put(0, "a"), std::logic_error);
  EXPECT_THROW(output.Put(2, "c"), std::logic_error);
}

TEST(OrderedOutput, ReportsAnOutputThatCannotBeWritten) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  OrderedOutput output(&out);
  try {
    output.Put(0, "a\n");
    FAIL() << "no error";
  } catch (const ClientError& error) {
    EXPECT_STREQ(error.what(), "cannot write the results to standard output");
  }
}

}  // namespace
}  // namespace sudoku::client
