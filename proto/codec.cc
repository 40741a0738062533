#include "proto/codec.h"

#include <google/protobuf/wire_format_lite.h>

namespace sudoku::wire {

using google::protobuf::internal::WireFormatLite;

RequestKind DecodeRequest(std::string_view body, Request* request) {
  const auto* data = reinterpret_cast<const uint8_t*>(body.data());
  const int size = static_cast<int>(body.size());
  request->mutable_solve()->Clear();
  request->GetReflection()->MutableUnknownFields(request)->Clear();
  google::protobuf::io::CodedInputStream input(data, size);
  // An end-group tag stops the merge early without an error: the rest must not be ignored.
  if (!request->MergeFromCodedStream(&input) || !input.ConsumedEntireMessage()) {
    return RequestKind::kMalformed;
  }
  // The merge above leaves the oneof set whatever the body said: look for the field itself.
  google::protobuf::io::CodedInputStream scan(data, size);
  // The field number alone is not enough: a kind's number with another wire type (every kind is
  // a message, so length-delimited) is an unknown field.
  // As protobuf does for a oneof, the last kind in the body wins.
  RequestKind kind = RequestKind::kNone;
  for (uint32_t tag; (tag = scan.ReadTag()) != 0;) {
    if (WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      switch (WireFormatLite::GetTagFieldNumber(tag)) {
        case Request::kSolveFieldNumber: kind = RequestKind::kSolve; break;
        case Request::kStatsFieldNumber: kind = RequestKind::kStats; break;
        case Request::kExplainFieldNumber: kind = RequestKind::kExplain; break;
        case Request::kGenerateFieldNumber: kind = RequestKind::kGenerate; break;
        default: break;
      }
    }
    if (!WireFormatLite::SkipField(&scan, tag)) return RequestKind::kMalformed;
  }
  return kind;
}

int PuzzleCount(const SolveRequest& request) {
  return request.puzzles_size() +
         static_cast<int>(request.packed_puzzles().size() / kPackedPuzzleBytes);
}

namespace {

ProtocolFault MakeFault(ProtocolFault::Kind kind, std::string message) {
  ProtocolFault fault;
  fault.set_kind(kind);
  fault.set_message(std::move(message));
  return fault;
}

// Why the daemon will not solve `solve`, or std::nullopt. `batch` names it in the message.
std::optional<ProtocolFault> CheckSolveRequest(const SolveRequest& solve, const std::string& batch,
                                               size_t max_batch) {
  const size_t packed_bytes = solve.packed_puzzles().size();
  if (solve.puzzles_size() > 0 && packed_bytes > 0) {
    return MakeFault(ProtocolFault::BAD_SOLVE_REQUEST,
                     batch + " has both puzzles (" + std::to_string(solve.puzzles_size()) +
                         ") and packed_puzzles (" + std::to_string(packed_bytes) +
                         " bytes); a batch uses one or the other");
  }
  if (packed_bytes % kPackedPuzzleBytes != 0) {
    return MakeFault(ProtocolFault::BAD_SOLVE_REQUEST,
                     batch + " has " + std::to_string(packed_bytes) +
                         " bytes of packed_puzzles, not a multiple of " +
                         std::to_string(kPackedPuzzleBytes) + " (the bytes of one packed puzzle)");
  }
  if (solve.solution_limit() > kMaxSolutionLimit) {
    return MakeFault(ProtocolFault::BAD_SOLVE_REQUEST,
                     batch + " asks for up to " + std::to_string(solve.solution_limit()) +
                         " solutions a puzzle, more than the cap of " +
                         std::to_string(kMaxSolutionLimit));
  }
  if (!RatingScope_IsValid(solve.rating_scope())) {
    return MakeFault(ProtocolFault::BAD_SOLVE_REQUEST,
                     batch + " asks for rating_scope " + std::to_string(solve.rating_scope()) +
                         ", which names no scope (0 ALL_RATINGS, 1 HODOKU_PATH, 2 SE_PATH)");
  }
  if (solve.rating_scope() != ALL_RATINGS && !solve.rate()) {
    return MakeFault(ProtocolFault::BAD_SOLVE_REQUEST,
                     batch + " asks for rating_scope " + RatingScope_Name(solve.rating_scope()) +
                         " without rate");
  }
  if (static_cast<size_t>(PuzzleCount(solve)) > max_batch) {
    return MakeFault(ProtocolFault::BATCH_TOO_LARGE,
                     batch + " has " + std::to_string(PuzzleCount(solve)) +
                         " puzzles, more than --max-batch " + std::to_string(max_batch));
  }
  return std::nullopt;
}

}  // namespace

std::optional<ProtocolFault> CheckRequest(std::string_view body, uint64_t frame, size_t max_batch,
                                          Request* request, RequestKind* kind) {
  const std::string where = "frame " + std::to_string(frame);
  *kind = DecodeRequest(body, request);
  switch (*kind) {
    case RequestKind::kMalformed:
      return MakeFault(ProtocolFault::MALFORMED, where + " of " + std::to_string(body.size()) +
                                                     " bytes does not decode as a Request");
    case RequestKind::kNone:
      return MakeFault(ProtocolFault::EMPTY_REQUEST,
                       where + " is a Request with no kind set (expected solve, stats, explain "
                               "or generate)");
    case RequestKind::kSolve:
      return CheckSolveRequest(request->solve(),
                               where + ": batch " + std::to_string(request->solve().batch_id()),
                               max_batch);
    case RequestKind::kStats:
    case RequestKind::kExplain:
    case RequestKind::kGenerate:
      return std::nullopt;
  }
  return std::nullopt;
}

namespace codec_internal {

size_t ScalarFieldBytes(const SolveFields& fields) {
  size_t bytes = 0;
  if (fields.batch_id != 0) bytes += 1 + CodedOutputStream::VarintSize64(fields.batch_id);
  if (fields.solution_limit != 0) {
    bytes += 1 + CodedOutputStream::VarintSize32(fields.solution_limit);
  }
  if (fields.rate) bytes += 2;
  if (fields.pack_solutions) bytes += 2;
  if (fields.rating_scope != 0) {
    bytes += 1 + CodedOutputStream::VarintSize32SignExtended(fields.rating_scope);
  }
  return bytes;
}

uint8_t* WriteSolveStart(const SolveFields& fields, size_t solve_bytes, uint8_t* target) {
  target = CodedOutputStream::WriteVarint64ToArray(DelimitedBytes(solve_bytes), target);
  target = WriteDelimitedHeader(Request::kSolveFieldNumber, solve_bytes, target);
  if (fields.batch_id != 0) {
    target = WireFormatLite::WriteUInt64ToArray(SolveRequest::kBatchIdFieldNumber,
                                                fields.batch_id, target);
  }
  return target;
}

uint8_t* BeginSolveFrame(const SolveFields& fields, size_t solve_bytes, std::string* frame) {
  const size_t request_bytes = DelimitedBytes(solve_bytes);
  const size_t start = frame->size();
  frame->resize(start + CodedOutputStream::VarintSize64(request_bytes) + request_bytes);
  return WriteSolveStart(fields, solve_bytes, reinterpret_cast<uint8_t*>(frame->data() + start));
}

uint8_t* WriteLimitAndRate(const SolveFields& fields, uint8_t* target) {
  if (fields.solution_limit != 0) {
    target = WireFormatLite::WriteUInt32ToArray(SolveRequest::kSolutionLimitFieldNumber,
                                                fields.solution_limit, target);
  }
  if (fields.rate) {
    target = WireFormatLite::WriteBoolToArray(SolveRequest::kRateFieldNumber, true, target);
  }
  return target;
}

uint8_t* EndSolveFrame(const SolveFields& fields, uint8_t* target) {
  if (fields.pack_solutions) {
    target =
        WireFormatLite::WriteBoolToArray(SolveRequest::kPackSolutionsFieldNumber, true, target);
  }
  if (fields.rating_scope != 0) {
    target = WireFormatLite::WriteEnumToArray(SolveRequest::kRatingScopeFieldNumber,
                                              fields.rating_scope, target);
  }
  return target;
}

}  // namespace codec_internal

// Proto3 leaves out fields at their default, and protobuf writes fields in number order:
// batch_id, solution_limit, rate, packed_puzzles, pack_solutions, rating_scope.
void AppendPackedSolveFrame(const SolveFields& fields, std::string_view packed,
                            std::string* frame) {
  using namespace codec_internal;
  size_t solve_bytes = ScalarFieldBytes(fields);
  if (!packed.empty()) solve_bytes += DelimitedBytes(packed.size());
  // Everything before the puzzles: the frame's length, the Request's and SolveRequest's fields
  // and the puzzles' tag and length.
  uint8_t start[kMaxSolveStartBytes + 1 + 10];
  uint8_t* target = WriteLimitAndRate(fields, WriteSolveStart(fields, solve_bytes, start));
  if (!packed.empty()) {
    target = WriteDelimitedHeader(SolveRequest::kPackedPuzzlesFieldNumber, packed.size(), target);
  }
  uint8_t end[kMaxSolveEndBytes];
  const auto end_bytes = static_cast<size_t>(EndSolveFrame(fields, end) - end);
  const auto start_bytes = static_cast<size_t>(target - start);
  frame->reserve(frame->size() + start_bytes + packed.size() + end_bytes);
  frame->append(reinterpret_cast<const char*>(start), start_bytes);
  frame->append(packed);
  frame->append(reinterpret_cast<const char*>(end), end_bytes);
}

}  // namespace sudoku::wire
