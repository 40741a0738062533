// Length-prefixed framing for the wire protocol (see the top of proto/sudoku.proto): every
// message is preceded by its size as a base-128 varint.
//
// These helpers work on byte buffers, not sockets, so that the daemon (Asio coroutines), the
// client and the fuzz targets share one decoder. Thread-safety: stateless functions; safe from
// any thread.
#ifndef SUDOKU_PROTO_FRAMING_H_
#define SUDOKU_PROTO_FRAMING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <google/protobuf/message_lite.h>

namespace sudoku::wire {

// A varint of a 64-bit value takes at most 10 bytes.
inline constexpr size_t kMaxLengthPrefixBytes = 10;

// The default cap on one frame's body, both ways.
inline constexpr size_t kDefaultMaxFrameBytes = 16 << 20;

// The daemon's default --max-batch, and the largest --batch sudoku-client sends: a batch this
// large is answered well inside kDefaultMaxFrameBytes.
inline constexpr size_t kDefaultMaxBatch = 65536;

struct FrameHeader {
  enum class Status {
    kComplete,  // the prefix is whole: `prefix_bytes` and `body_bytes` are set
    kNeedMore,  // the buffer ends inside the prefix
    kTooLarge,  // the declared body is larger than the limit (`body_bytes` holds it, or
                // UINT64_MAX for a varint beyond 64 bits)
    kMalformed, // the prefix is not a valid varint (longer than 10 bytes)
  };
  Status status = Status::kNeedMore;
  size_t prefix_bytes = 0;
  uint64_t body_bytes = 0;
};

// Reads the length prefix at the start of `buffer`. Never reads past it; the body need not be
// there yet. A body over `max_body_bytes` is reported before anyone allocates for it.
FrameHeader DecodeFrameHeader(std::string_view buffer, size_t max_body_bytes) noexcept;

// Appends `message`, length-prefixed, to `out`.
void AppendFrame(const google::protobuf::MessageLite& message, std::string* out);

// Makes `frame` hold `message`, length-prefixed, and nothing else. Written over what `frame`
// held: a string reused for frames of about the same size (the daemon's replies, one batch after
// another) is not zero-filled before each is written in, as clearing it and appending would.
void SetFrame(const google::protobuf::MessageLite& message, std::string* frame);

// Parses one frame body into `message` (after clearing it). False when it does not decode.
bool ParseFrameBody(std::string_view body, google::protobuf::MessageLite* message);

}  // namespace sudoku::wire

#endif  // SUDOKU_PROTO_FRAMING_H_
