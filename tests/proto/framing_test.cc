#include "proto/framing.h"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "proto/sudoku.pb.h"

namespace sudoku::wire {
namespace {

Request MakeRequest(uint64_t batch_id, int puzzles) {
  Request request;
  auto* solve = request.mutable_solve();
  solve->set_batch_id(batch_id);
  solve->set_solution_limit(2);
  for (int i = 0; i < puzzles; ++i) {
    solve->add_puzzles(std::string(81, static_cast<char>('1' + i % 9)));
  }
  return request;
}

// Splits `stream` into frames as a reader would, feeding it `chunk` bytes at a time.
std::vector<Request> ReadAll(std::string_view stream, size_t chunk) {
  std::vector<Request> out;
  std::string buffer;
  size_t fed = 0;
  while (true) {
    const FrameHeader header = DecodeFrameHeader(buffer, kDefaultMaxFrameBytes);
    if (header.status == FrameHeader::Status::kComplete &&
        buffer.size() >= header.prefix_bytes + header.body_bytes) {
      Request request;
      EXPECT_TRUE(ParseFrameBody(
          std::string_view(buffer).substr(header.prefix_bytes, header.body_bytes), &request));
      out.push_back(request);
      buffer.erase(0, header.prefix_bytes + header.body_bytes);
      continue;
    }
    EXPECT_NE(header.status, FrameHeader::Status::kMalformed);
    if (fed == stream.size()) break;
    const size_t n = std::min(chunk, stream.size() - fed);
    buffer.append(stream.substr(fed, n));
    fed += n;
  }
  EXPECT_TRUE(buffer.empty()) << "left over: " << buffer.size() << " bytes";
  return out;
}

TEST(Framing, RoundTripsWithSplitAndMergedReads) {
  std::string stream;
  for (int i = 0; i < 5; ++i) AppendFrame(MakeRequest(i, i * 40), &stream);
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{7}, size_t{100}, stream.size()}) {
    const std::vector<Request> requests = ReadAll(stream, chunk);
    ASSERT_EQ(requests.size(), 5u) << "chunk " << chunk;
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(requests[i].solve().batch_id(), static_cast<uint64_t>(i));
      EXPECT_EQ(requests[i].solve().puzzles_size(), i * 40);
    }
  }
}

TEST(Framing, PrefixIsProtobufDelimitedVarint) {
  std::string stream;
  const Request request = MakeRequest(7, 3);
  AppendFrame(request, &stream);
  const size_t body = request.ByteSizeLong();
  ASSERT_GT(body, 127u);  // two-byte varint
  EXPECT_EQ(static_cast<uint8_t>(stream[0]), (body & 0x7f) | 0x80);
  EXPECT_EQ(static_cast<uint8_t>(stream[1]), body >> 7);
  EXPECT_EQ(stream.size(), body + 2);
}

TEST(Framing, SetFrameReplacesWhateverTheStringHeld) {
  const Request small = MakeRequest(3, 2);
  const Request large = MakeRequest(4, 30);
  std::string expected_small, expected_large;
  AppendFrame(small, &expected_small);
  AppendFrame(large, &expected_large);

  std::string frame = "left over from before";
  SetFrame(large, &frame);  // longer than what it held
  EXPECT_EQ(frame, expected_large);
  SetFrame(small, &frame);  // shorter: nothing of the larger frame is left behind
  EXPECT_EQ(frame, expected_small);
  SetFrame(small, &frame);  // the same size again
  EXPECT_EQ(frame, expected_small);
}

TEST(Framing, CostPerPuzzleIsSmall) {
  // Both batches' lengths take three varint bytes, so the difference is the puzzles alone.
  const size_t small = MakeRequest(1, 1000).ByteSizeLong();
  const size_t large = MakeRequest(1, 2000).ByteSizeLong();
  EXPECT_EQ(large - small, 1000u * 83);  // 81 cells + tag + length
}

TEST(Framing, NeedsMoreInsidePrefix) {
  EXPECT_EQ(DecodeFrameHeader("", 100).status, FrameHeader::Status::kNeedMore);
  EXPECT_EQ(DecodeFrameHeader("\x80", 100).status, FrameHeader::Status::kNeedMore);
}

TEST(Framing, RejectsOversizedFrameFromPrefixAlone) {
  // 0x80 0x80 0x80 0x20 = 2^26 = 64 MiB, declared with no body present.
  const FrameHeader header = DecodeFrameHeader(std::string_view("\x80\x80\x80\x20", 4), 1 << 20);
  EXPECT_EQ(header.status, FrameHeader::Status::kTooLarge);
  EXPECT_EQ(header.body_bytes, uint64_t{1} << 26);
  EXPECT_EQ(header.prefix_bytes, 4u);
}

TEST(Framing, AcceptsFrameAtTheLimit) {
  const FrameHeader header = DecodeFrameHeader(std::string_view("\x64", 1), 100);
  EXPECT_EQ(header.status, FrameHeader::Status::kComplete);
  EXPECT_EQ(header.body_bytes, 100u);
  EXPECT_EQ(header.prefix_bytes, 1u);
}

TEST(Framing, RejectsOverlongVarint) {
  const std::string ten_continuations(10, '\x80');
  EXPECT_EQ(DecodeFrameHeader(ten_continuations, kDefaultMaxFrameBytes).status,
            FrameHeader::Status::kMalformed);
}

TEST(Framing, VarintBeyond64BitsIsTooLargeNotWrappedAround) {
  // Nine continuation bytes, then 0x02: bit 64, which would wrap to a length of 0.
  const std::string wrapping = std::string(9, '\x80') + '\x02';
  const FrameHeader header = DecodeFrameHeader(wrapping, kDefaultMaxFrameBytes);
  EXPECT_EQ(header.status, FrameHeader::Status::kTooLarge);
  EXPECT_EQ(header.body_bytes, UINT64_MAX);
  EXPECT_EQ(header.prefix_bytes, 10u);
  // 0x01 in the tenth byte is bit 63: a valid (if huge) length.
  const FrameHeader top = DecodeFrameHeader(std::string(9, '\x80') + '\x01', SIZE_MAX);
  EXPECT_EQ(top.status, FrameHeader::Status::kComplete);
  EXPECT_EQ(top.body_bytes, uint64_t{1} << 63);
}

TEST(Framing, GarbageBodyDoesNotParse) {
  Request request;
  EXPECT_FALSE(ParseFrameBody(std::string_view("\xff\xff\xff\xff", 4), &request));
}

TEST(Framing, ParseClearsPreviousContent) {
  std::string stream;
  AppendFrame(MakeRequest(1, 2), &stream);
  Request request = MakeRequest(9, 50);
  const FrameHeader header = DecodeFrameHeader(stream, kDefaultMaxFrameBytes);
  ASSERT_TRUE(ParseFrameBody(std::string_view(stream).substr(header.prefix_bytes), &request));
  EXPECT_EQ(request.solve().puzzles_size(), 2);
  EXPECT_EQ(request.solve().batch_id(), 1u);
}

}  // namespace
}  // namespace sudoku::wire
