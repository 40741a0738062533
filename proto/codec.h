// The codec of the wire protocol (see the top of proto/sudoku.proto): what a Request frame
// holds, decided once, and the checks every request passes before the daemon serves it; the
// fast encoder of the client's SolveRequest frames. Both ends call it, so the rules live here
// and nowhere else. The length prefix itself is proto/framing.h; the other messages are encoded
// with AppendFrame() and decoded with ParseFrameBody() from there.
//
// Thread-safety: stateless functions; safe from any thread on distinct messages.
#ifndef SUDOKU_PROTO_CODEC_H_
#define SUDOKU_PROTO_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include <google/protobuf/io/coded_stream.h>

#include "proto/framing.h"
#include "proto/sudoku.pb.h"

namespace sudoku::wire {

// What a frame body holds: one value per kind of Request's oneof, and two for bodies that hold
// none. A switch over it without a default makes the compiler point at every place a new kind
// must be handled.
enum class RequestKind {
  kMalformed,  // not a Request
  kNone,       // a Request with no kind this build knows
  kSolve,      // request.solve() is the batch
  kStats,      // request.stats(): the daemon's counters
  kExplain,    // request.explain() is the puzzle
  kGenerate,   // request.generate() asks for new puzzles
};

// Parses one frame body into `request` and says what it holds. The last kind in the body wins,
// as protobuf has it for a oneof; a kind's field number with a wire type other than
// length-delimited is an unknown field, not that kind; an end-group tag, which stops protobuf's
// parse early without an error, makes the body malformed.
//
// `request` is reused: its SolveRequest is cleared, not deleted, so the strings of its puzzles
// serve the next parse and a reused Request costs no allocation per puzzle (ParseFromArray()
// would delete the oneof's submessage, and every puzzle string with it: measured, two
// allocations per puzzle).
RequestKind DecodeRequest(std::string_view body, Request* request);

// A packed puzzle or solution: 81 cells, two to a byte (see "Packed puzzles" in sudoku.proto).
inline constexpr size_t kPackedPuzzleBytes = 41;

// The puzzles a batch holds, as text or packed.
int PuzzleCount(const SolveRequest& request);

// The largest SolveRequest.solution_limit a daemon serves (and the client's --limit allows): it
// bounds the work one puzzle can ask for. Above it, CheckRequest() answers BAD_SOLVE_REQUEST.
inline constexpr uint32_t kMaxSolutionLimit = 1000000;

// Decodes one frame body into `request` (as DecodeRequest() does) and checks it against what the
// protocol allows and `max_batch` (the daemon's --max-batch). Returns std::nullopt when
// `request` holds a request of kind `*kind` to serve, or else the ProtocolFault to answer with
// (the connection then closes). `frame` (1-based) names the frame in the fault's message,
// e.g. "frame 3: batch 7 has 11 puzzles, more than --max-batch 10". A GenerateRequest's fields
// are checked by the daemon, which shares those checks with its HTTP API.
std::optional<ProtocolFault> CheckRequest(std::string_view body, uint64_t frame, size_t max_batch,
                                          Request* request, RequestKind* kind);

// The fields of a SolveRequest besides its puzzles.
struct SolveFields {
  uint64_t batch_id = 0;
  uint32_t solution_limit = 0;
  bool rate = false;
  bool pack_solutions = false;
  int32_t rating_scope = 0;  // a RatingScope (ALL_RATINGS is 0), as protobuf holds an enum
};

// The client's hot path: frames written straight from its own records, without first copying
// every puzzle into a string of a SolveRequest. Each appends to `frame` the very bytes
// AppendFrame() writes for a Request holding the SolveRequest of `fields` and the puzzles of
// `puzzles` (a forward range of the caller's type, walked twice).
//
// As text: `text_of(puzzle)` returns the puzzle's text as a std::string_view.
template <typename Puzzles, typename TextOf>
void AppendSolveFrame(const SolveFields& fields, Puzzles&& puzzles, TextOf text_of,
                      std::string* frame);
// Packed: `packed` is the puzzles' kPackedPuzzleBytes bytes each, back to back (the content of
// packed_puzzles). Copied once, straight after the few bytes before it: a frame sized first
// would be zero-filled (a batch is tens of kilobytes) only to be overwritten.
void AppendPackedSolveFrame(const SolveFields& fields, std::string_view packed,
                            std::string* frame);

namespace codec_internal {

using google::protobuf::io::CodedOutputStream;

// Every field these write has a number below 16, so its tag takes one byte.
static_assert(Request::kSolveFieldNumber < 16 && SolveRequest::kPuzzlesFieldNumber < 16 &&
              SolveRequest::kPackedPuzzlesFieldNumber < 16);

// A length-delimited field's tag, its length's varint and its content.
inline size_t DelimitedBytes(size_t length) {
  return 1 + CodedOutputStream::VarintSize64(length) + length;
}

inline uint8_t* WriteDelimitedHeader(uint32_t field, size_t length, uint8_t* target) {
  constexpr uint32_t kLengthDelimited = 2;
  *target++ = static_cast<uint8_t>(field << 3 | kLengthDelimited);
  return CodedOutputStream::WriteVarint64ToArray(length, target);
}

// The bytes of the SolveRequest's fields other than its puzzles.
size_t ScalarFieldBytes(const SolveFields& fields);
// Writes the start of the frame of a SolveRequest of `solve_bytes`, up to and including
// batch_id, at `target`; returns where the puzzles (field 2) go.
uint8_t* WriteSolveStart(const SolveFields& fields, size_t solve_bytes, uint8_t* target);
// The most bytes WriteSolveStart() and then WriteLimitAndRate() write: the frame's length (a
// varint of up to 10 bytes), the Request's tag, the SolveRequest's length, batch_id (a tag and
// up to 10), solution_limit (a tag and up to 5) and rate.
inline constexpr size_t kMaxSolveStartBytes = 10 + 1 + 10 + 11 + 6 + 2;
// Grows `frame` by the whole frame of a SolveRequest of `solve_bytes` and writes its start, up
// to and including batch_id; returns where the puzzles (field 2) go.
uint8_t* BeginSolveFrame(const SolveFields& fields, size_t solve_bytes, std::string* frame);
// Fields 3 and 4: solution_limit, rate.
uint8_t* WriteLimitAndRate(const SolveFields& fields, uint8_t* target);
// Fields 6 and 7: pack_solutions and rating_scope, the last. Returns where the frame ends.
uint8_t* EndSolveFrame(const SolveFields& fields, uint8_t* target);
// The most bytes EndSolveFrame() writes: pack_solutions (a tag and a byte) and rating_scope (a
// tag and up to 10: protobuf writes a negative enum value sign-extended).
inline constexpr size_t kMaxSolveEndBytes = 2 + 11;

}  // namespace codec_internal

// Proto3 leaves out fields at their default, and protobuf writes fields in number order:
// batch_id, puzzles, solution_limit, rate, packed_puzzles, pack_solutions, rating_scope.
template <typename Puzzles, typename TextOf>
void AppendSolveFrame(const SolveFields& fields, Puzzles&& puzzles, TextOf text_of,
                      std::string* frame) {
  using namespace codec_internal;
  size_t solve_bytes = ScalarFieldBytes(fields);
  for (const auto& puzzle : puzzles) solve_bytes += DelimitedBytes(text_of(puzzle).size());
  uint8_t* target = BeginSolveFrame(fields, solve_bytes, frame);
  for (const auto& puzzle : puzzles) {
    const std::string_view text = text_of(puzzle);
    target = WriteDelimitedHeader(SolveRequest::kPuzzlesFieldNumber, text.size(), target);
    std::memcpy(target, text.data(), text.size());
    target += text.size();
  }
  EndSolveFrame(fields, WriteLimitAndRate(fields, target));
}

}  // namespace sudoku::wire

#endif  // SUDOKU_PROTO_CODEC_H_
