// Fuzz target: the frame decoder (proto/framing), as the daemon's reader uses it on a byte stream
// from the network.
//
// Input: the first byte picks the frame limit (2^0 to 2^31 bytes, so that small limits are hit
// often); the rest is what a connection delivers. Frames are taken one after another, as the
// daemon does, until the stream ends or a frame is refused. Checked: each header status is
// consistent with its bytes (a prefix of a header never decodes to something else, a refused
// frame is over the limit); every body that parses as a Request re-frames and re-parses to the
// same message.
#include <string>
#include <string_view>

#include "proto/framing.h"
#include "proto/sudoku.pb.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using sudoku::wire::DecodeFrameHeader;
using sudoku::wire::FrameHeader;
using sudoku::wire::kMaxLengthPrefixBytes;
using Status = FrameHeader::Status;

void CheckHeader(std::string_view buffer, size_t max_body, const FrameHeader& header) {
  switch (header.status) {
    case Status::kNeedMore:
      FUZZ_CHECK(buffer.size() < kMaxLengthPrefixBytes);
      for (char byte : buffer) FUZZ_CHECK((static_cast<uint8_t>(byte) & 0x80) != 0);
      return;
    case Status::kMalformed:
      FUZZ_CHECK(buffer.size() >= kMaxLengthPrefixBytes);
      for (size_t i = 0; i < kMaxLengthPrefixBytes; ++i) {
        FUZZ_CHECK((static_cast<uint8_t>(buffer[i]) & 0x80) != 0);
      }
      return;
    case Status::kTooLarge:
    case Status::kComplete:
      FUZZ_CHECK(header.prefix_bytes >= 1 && header.prefix_bytes <= kMaxLengthPrefixBytes);
      FUZZ_CHECK((static_cast<uint8_t>(buffer[header.prefix_bytes - 1]) & 0x80) == 0);
      FUZZ_CHECK((header.status == Status::kTooLarge) == (header.body_bytes > max_body));
      // Fewer bytes of the same prefix only ever ask for more.
      for (size_t n = 0; n < header.prefix_bytes; ++n) {
        FUZZ_CHECK(DecodeFrameHeader(buffer.substr(0, n), max_body).status == Status::kNeedMore);
      }
      // A canonical prefix (no redundant 0x80 bytes) decodes to the value it encodes, exactly.
      if (header.prefix_bytes < kMaxLengthPrefixBytes &&
          (header.prefix_bytes == 1 || buffer[header.prefix_bytes - 1] != 0)) {
        FUZZ_CHECK(header.body_bytes < (uint64_t{1} << (7 * header.prefix_bytes)));
        FUZZ_CHECK(header.prefix_bytes == 1 ||
                   header.body_bytes >= (uint64_t{1} << (7 * (header.prefix_bytes - 1))));
      }
      return;
  }
  FUZZ_CHECK(false);  // an unknown status
}

// A body that parses survives being framed and parsed again.
void CheckRoundTrip(const sudoku::wire::Request& request) {
  std::string framed;
  sudoku::wire::AppendFrame(request, &framed);
  const FrameHeader header = DecodeFrameHeader(framed, SIZE_MAX);
  FUZZ_CHECK(header.status == Status::kComplete);
  FUZZ_CHECK(header.prefix_bytes + header.body_bytes == framed.size());
  sudoku::wire::Request again;
  FUZZ_CHECK(sudoku::wire::ParseFrameBody(std::string_view(framed).substr(header.prefix_bytes),
                                         &again));
  FUZZ_CHECK(again.SerializeAsString() == request.SerializeAsString());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t max_body = size_t{1} << (data[0] % 32);
  std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  sudoku::wire::Request request;
  while (!stream.empty()) {
    const FrameHeader header = DecodeFrameHeader(stream, max_body);
    CheckHeader(stream, max_body, header);
    if (header.status != Status::kComplete) break;
    if (stream.size() - header.prefix_bytes < header.body_bytes) break;  // truncated
    const std::string_view body = stream.substr(header.prefix_bytes, header.body_bytes);
    if (sudoku::wire::ParseFrameBody(body, &request)) CheckRoundTrip(request);
    stream.remove_prefix(header.prefix_bytes + header.body_bytes);
  }
  return 0;
}
