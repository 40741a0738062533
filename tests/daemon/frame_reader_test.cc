// The TCP port's read buffer (daemon/frame_reader.h: ReadBuffer): how it grows (on the heap, then
// in a mapping of its own), compacts and gives its memory back.
#include "daemon/frame_reader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <string>

namespace sudoku::daemon {
namespace {

// Writes `bytes` into the room Prepare(bytes.size(), whole) gives and commits them.
void Append(ReadBuffer& buffer, const std::string& bytes, size_t whole = 0) {
  const auto room = buffer.Prepare(bytes.size(), whole);
  ASSERT_GE(room.size(), bytes.size());
  std::memcpy(room.data(), bytes.data(), bytes.size());
  buffer.Commit(bytes.size());
}

TEST(ReadBuffer, DoublesWhenTheFrameLengthIsNotKnown) {
  ReadBuffer buffer;
  Append(buffer, std::string(1000, 'a'));
  EXPECT_EQ(buffer.capacity(), 1000u);
  EXPECT_EQ(buffer.GrowthFor(100), 1000u);
  Append(buffer, std::string(100, 'b'));
  EXPECT_EQ(buffer.capacity(), 2000u);
  // Asked for more than doubling gives: exactly what is asked.
  EXPECT_EQ(buffer.GrowthFor(5000), 4100u);
  EXPECT_EQ(buffer.data(), std::string(1000, 'a') + std::string(100, 'b'));
}

TEST(ReadBuffer, GrowsToTheFrameOnceAQuarterOfItHasArrived) {
  ReadBuffer buffer;
  const size_t whole = 100000;  // the frame's prefix and body
  Append(buffer, std::string(1000, 'a'), whole);
  EXPECT_EQ(buffer.capacity(), 1000u);
  Append(buffer, std::string(10000, 'b'), whole);
  EXPECT_EQ(buffer.capacity(), 11000u);  // what is asked, more than doubling
  // 25,000 of 100,000: the rest of the frame at once.
  EXPECT_EQ(buffer.GrowthFor(14000, whole), 89000u);
  Append(buffer, std::string(14000, 'c'), whole);
  EXPECT_EQ(buffer.capacity(), whole);
  EXPECT_EQ(buffer.GrowthFor(75000, whole), 0u);
  Append(buffer, std::string(75000, 'd'), whole);
  EXPECT_EQ(buffer.capacity(), whole);
  EXPECT_EQ(buffer.size(), whole);
}

// A frame all but whole, and a read that asks for more than its last byte: the buffer grows by
// what is asked, not twice the frame (a frame left unfinished holds it while it stays open).
TEST(ReadBuffer, AReadPastTheFrameGrowsOnlyByWhatItAsks) {
  ReadBuffer buffer;
  const size_t whole = 100000;
  Append(buffer, std::string(whole - 1, 'a'), whole);
  EXPECT_EQ(buffer.capacity(), whole);
  EXPECT_EQ(buffer.GrowthFor(16384, whole), 16383u);  // to 116,383, where doubling gave 200,000
}

TEST(ReadBuffer, DoublesTowardsAFrameThatHasBarelyBegun) {
  ReadBuffer buffer;
  const size_t whole = 1 << 20;
  Append(buffer, std::string(4096, 'a'), whole);
  EXPECT_EQ(buffer.GrowthFor(100, whole), 4096u);  // doubled: 8,192
  Append(buffer, std::string(100, 'b'), whole);
  EXPECT_EQ(buffer.capacity(), 8192u);
}

TEST(ReadBuffer, CompactsWhenTheRoomIsBeforeTheData) {
  ReadBuffer buffer;
  Append(buffer, "0123456789");
  buffer.Consume(6);
  EXPECT_EQ(buffer.data(), "6789");
  EXPECT_EQ(buffer.GrowthFor(6), 0u);
  Append(buffer, "abcdef");
  EXPECT_EQ(buffer.capacity(), 10u);
  EXPECT_EQ(buffer.data(), "6789abcdef");
}

// Past kMappedReadBuffer the bytes move to a mapping of whole pages, which grows in place or by
// moving its pages: what was read survives every step, whatever was consumed before.
TEST(ReadBuffer, KeepsItsBytesAsItGrowsIntoAMappingAndWithinIt) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t whole = 16 << 20;
  ReadBuffer buffer;
  Append(buffer, "done|");
  std::string expected;
  size_t step = 0;
  while (expected.size() < whole / 2) {
    const std::string chunk(100000 + step, static_cast<char>('a' + step % 26));
    Append(buffer, chunk, whole);
    expected += chunk;
    if (step++ == 0) buffer.Consume(5);  // a frame consumed before the large one
  }
  EXPECT_EQ(buffer.data(), expected);
  EXPECT_GE(buffer.capacity(), kMappedReadBuffer);
  EXPECT_EQ(buffer.capacity() % page, 0u);
  EXPECT_EQ(buffer.capacity(), whole);  // a quarter arrived: the frame's size, a page multiple
  buffer.Consume(buffer.size());
  buffer.Reset();
  EXPECT_EQ(buffer.capacity(), 0u);
}

// A mapping's size is rounded up to whole pages; heap buffers below kMappedReadBuffer are not.
TEST(ReadBuffer, AMappedBufferIsWholePages) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  ReadBuffer buffer;
  Append(buffer, std::string(kMappedReadBuffer + 1, 'x'));
  EXPECT_EQ(buffer.capacity(), kMappedReadBuffer + page);
  EXPECT_EQ(buffer.data(), std::string(kMappedReadBuffer + 1, 'x'));
}

TEST(ReadBuffer, ConsumingEverythingStartsOverAndResetGivesTheMemoryBack) {
  ReadBuffer buffer;
  Append(buffer, "frame");
  buffer.Consume(5);
  EXPECT_EQ(buffer.size(), 0u);
  EXPECT_EQ(buffer.GrowthFor(5), 0u);
  buffer.Reset();
  EXPECT_EQ(buffer.capacity(), 0u);
  EXPECT_EQ(buffer.GrowthFor(16), 16u);
}

}  // namespace
}  // namespace sudoku::daemon
