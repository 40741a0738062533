#include "proto/framing.h"

#include <google/protobuf/io/coded_stream.h>

namespace sudoku::wire {

FrameHeader DecodeFrameHeader(std::string_view buffer, size_t max_body_bytes) noexcept {
  FrameHeader header;
  uint64_t value = 0;
  for (size_t i = 0; i < buffer.size(); ++i) {
    if (i == kMaxLengthPrefixBytes) break;
    const auto byte = static_cast<uint8_t>(buffer[i]);
    value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      // The tenth byte holds bit 63 only: more would wrap around to a small length.
      if (i == kMaxLengthPrefixBytes - 1 && byte > 1) value = UINT64_MAX;
      header.prefix_bytes = i + 1;
      header.body_bytes = value;
      header.status = value > max_body_bytes ? FrameHeader::Status::kTooLarge
                                             : FrameHeader::Status::kComplete;
      return header;
    }
  }
  header.status = buffer.size() >= kMaxLengthPrefixBytes ? FrameHeader::Status::kMalformed
                                                         : FrameHeader::Status::kNeedMore;
  return header;
}

namespace {

// Writes `message`, length-prefixed, into `out` from byte `start` on, sizing `out` to end there.
void WriteFrameAt(const google::protobuf::MessageLite& message, size_t start, std::string* out) {
  const size_t body_bytes = message.ByteSizeLong();
  const size_t prefix_bytes = google::protobuf::io::CodedOutputStream::VarintSize64(body_bytes);
  out->resize(start + prefix_bytes + body_bytes);
  auto* target = reinterpret_cast<uint8_t*>(out->data() + start);
  target = google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(body_bytes, target);
  // ByteSizeLong() above cached the sizes this call relies on.
  message.SerializeWithCachedSizesToArray(target);
}

}  // namespace

void AppendFrame(const google::protobuf::MessageLite& message, std::string* out) {
  WriteFrameAt(message, out->size(), out);
}

void SetFrame(const google::protobuf::MessageLite& message, std::string* frame) {
  WriteFrameAt(message, 0, frame);
}

bool ParseFrameBody(std::string_view body, google::protobuf::MessageLite* message) {
  // ParseFromArray clears the message first, unlike the delimited helpers, which merge.
  return message->ParseFromArray(body.data(), static_cast<int>(body.size()));
}

}  // namespace sudoku::wire
