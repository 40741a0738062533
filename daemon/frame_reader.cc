#include "daemon/frame_reader.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "proto/framing.h"

namespace sudoku::daemon {

boost::asio::mutable_buffer ReadBuffer::Prepare(size_t n, size_t whole) {
  if (capacity_ - end_ < n) {
    if (capacity_ - size() >= n) {
      Compact();
    } else {
      Grow(GrownCapacity(n, whole));
    }
  }
  return boost::asio::buffer(storage_ + end_, n);
}

void ReadBuffer::Compact() {
  std::memmove(storage_, storage_ + begin_, size());
  end_ -= begin_;
  begin_ = 0;
}

void ReadBuffer::Grow(size_t capacity) {
  if (mapped_) {
    Compact();  // at most a read's worth: what followed a frame consumed
    void* moved = ::mremap(storage_, capacity_, capacity, MREMAP_MAYMOVE);
    if (moved == MAP_FAILED) throw std::bad_alloc();
    storage_ = static_cast<char*>(moved);
  } else {
    // Under kMappedReadBuffer: copied once, to the start of the new memory.
    char* bigger;
    if (capacity >= kMappedReadBuffer) {
      void* mapping =
          ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (mapping == MAP_FAILED) throw std::bad_alloc();
      bigger = static_cast<char*>(mapping);
      mapped_ = true;
    } else {
      bigger = new char[capacity];
    }
    if (size() > 0) std::memcpy(bigger, storage_ + begin_, size());
    delete[] storage_;
    storage_ = bigger;
    end_ -= begin_;
    begin_ = 0;
  }
  capacity_ = capacity;
}

void ReadBuffer::Reset() {
  if (mapped_) {
    ::munmap(storage_, capacity_);
  } else {
    delete[] storage_;
  }
  storage_ = nullptr;
  mapped_ = false;
  capacity_ = begin_ = end_ = 0;
}

size_t ReadBuffer::RoundUpToPages(size_t bytes) {
  static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

namespace {

// The start of another protocol a client may send to this port by mistake: an HTTP/1 request
// line (the method and its space; HTTP/2's preface starts with "PRI "), or a TLS record header of
// a handshake (type 22, version major 3). None of them can open a frame of ours that makes sense:
// 'G' would declare a 71-byte frame, and the connection would sit until a timeout.
std::string OtherProtocol(std::string_view start) {
  static constexpr std::string_view kHttpMethods[] = {
      "GET ", "HEAD ", "POST ", "PUT ", "DELETE ", "OPTIONS ", "PATCH ", "CONNECT ", "TRACE ",
      "PRI "};
  for (std::string_view method : kHttpMethods) {
    if (start.starts_with(method)) return "HTTP";
  }
  if (start.size() >= 2 && start[0] == '\x16' && start[1] == '\x03') return "TLS";
  return {};
}

}  // namespace

FrameScan ScanFrame(std::string_view buffered, size_t max_frame_bytes, uint64_t frame) {
  FrameScan scan;
  if (frame == 1) {
    if (const std::string other = OtherProtocol(buffered); !other.empty()) {
      scan.status = FrameScan::Status::kFault;
      scan.fault_kind = wire::ProtocolFault::NOT_THIS_PROTOCOL;
      scan.fault_message =
          "this port speaks sudokud's protocol (varint-length-prefixed protobuf), not " + other +
          (other == "HTTP" ? "; metrics are served on --metrics"
                           : "; connect without TLS (or through a proxy that ends it)");
      return scan;
    }
  }
  const wire::FrameHeader header = wire::DecodeFrameHeader(buffered, max_frame_bytes);
  using Status = wire::FrameHeader::Status;
  switch (header.status) {
    case Status::kTooLarge:
      scan.status = FrameScan::Status::kFault;
      scan.fault_kind = wire::ProtocolFault::FRAME_TOO_LARGE;
      scan.fault_message = "frame " + std::to_string(frame) + " of " +
                           std::to_string(header.body_bytes) + " bytes exceeds --max-frame-bytes " +
                           std::to_string(max_frame_bytes);
      return scan;
    case Status::kMalformed:
      scan.status = FrameScan::Status::kFault;
      scan.fault_kind = wire::ProtocolFault::MALFORMED;
      scan.fault_message = "frame " + std::to_string(frame) +
                           ": the length prefix is not a varint (" +
                           std::to_string(wire::kMaxLengthPrefixBytes) + " bytes without an end)";
      return scan;
    case Status::kComplete:
      scan.prefix_bytes = header.prefix_bytes;
      scan.frame_bytes = header.prefix_bytes + header.body_bytes;
      scan.status = buffered.size() >= scan.frame_bytes ? FrameScan::Status::kWhole
                                                        : FrameScan::Status::kPartial;
      return scan;
    case Status::kNeedMore:
      break;
  }
  return scan;
}

size_t ReadSize(const ReadBuffer& buffer, const FrameScan& scan) {
  size_t want = kReadChunk;
  if (scan.frame_bytes > buffer.size()) {
    want = std::clamp(scan.frame_bytes - buffer.size(), kReadChunk, kMaxReadChunk);
  }
  return std::max(want, std::min(buffer.capacity() - buffer.size(), kMaxReadChunk));
}

std::string FrameProgress(std::string_view buffered, size_t max_frame_bytes) {
  const wire::FrameHeader header = wire::DecodeFrameHeader(buffered, max_frame_bytes);
  return header.status == wire::FrameHeader::Status::kComplete
             ? std::to_string(buffered.size() - header.prefix_bytes) + " of " +
                   std::to_string(header.body_bytes) + " body bytes received"
             : "inside its length prefix";
}

std::string UnfinishedFrameMessage(std::string_view buffered, size_t max_frame_bytes,
                                   uint64_t frame) {
  return "the connection was closed in the middle of frame " + std::to_string(frame) + " (" +
         FrameProgress(buffered, max_frame_bytes) + ")";
}

}  // namespace sudoku::daemon
