// Frame reading for one connection: the bytes read and not consumed yet (ReadBuffer), and what
// they hold (ScanFrame: a whole frame, part of one, or a fault to answer with). No sockets here;
// Connection reads into the buffer and acts on the scan.
//
// Thread-safety: a ReadBuffer belongs to one connection, used from the daemon's io_context thread
// only; the functions are pure.
#ifndef SUDOKU_DAEMON_FRAME_READER_H_
#define SUDOKU_DAEMON_FRAME_READER_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/asio/buffer.hpp>

#include "proto/sudoku.pb.h"

namespace sudoku::daemon {

// The first read of a connection, and the least any read asks for. Small, so that idle
// connections cost little; a frame known to be larger is read in one go.
inline constexpr size_t kReadChunk = 16 << 10;
// The most one read asks for: a frame that declares a large body gets memory as its bytes
// arrive, not all at once on the word of its header.
inline constexpr size_t kMaxReadChunk = 1 << 20;
// A read buffer grown past this by a large frame is given back once it is empty.
inline constexpr size_t kMaxIdleReadBuffer = 1 << 20;

// A buffer this large or larger is an anonymous mapping of its own rather than heap memory.
inline constexpr size_t kMappedReadBuffer = 256 << 10;

// The bytes read from one connection and not consumed yet. It doubles when it grows, leaving new
// memory untouched until bytes land in it; once a quarter of a frame whose length is known
// (`whole`) has arrived, it grows to that frame's size at once, and never past it (but for the
// rounding of a mapping to whole pages). A sender must send a quarter of what it declares to be
// given the rest.
//
// From kMappedReadBuffer on, the bytes live in a mapping of their own, which grows by moving its
// pages (mremap), never by copying bytes, and goes back to the system when released. Copying
// into fresh heap memory as the buffer doubled was, with 50 clients sending 16 MiB frames, most
// of the event loop's time (the copies and the page faults of the memory they touched), and a
// normal client waited seconds behind it.
class ReadBuffer {
 public:
  ReadBuffer() = default;
  ReadBuffer(const ReadBuffer&) = delete;
  ReadBuffer& operator=(const ReadBuffer&) = delete;
  ~ReadBuffer() { Reset(); }

  std::string_view data() const { return {storage_ + begin_, end_ - begin_}; }
  size_t size() const { return end_ - begin_; }
  size_t capacity() const { return capacity_; }

  // Room for `n` more bytes after the data; `whole`: the size the data is to reach (the frame's
  // prefix and body), 0 when not known yet.
  boost::asio::mutable_buffer Prepare(size_t n, size_t whole = 0);
  // How much capacity Prepare(n, whole) would add.
  size_t GrowthFor(size_t n, size_t whole = 0) const {
    if (capacity_ - size() >= n) return 0;
    return GrownCapacity(n, whole) - capacity_;
  }
  void Commit(size_t n) { end_ += n; }
  void Consume(size_t n) {
    begin_ += n;
    if (begin_ == end_) begin_ = end_ = 0;
  }
  // Gives the memory back.
  void Reset();

 private:
  size_t GrownCapacity(size_t n, size_t whole) const {
    const size_t needed = size() + n;
    const size_t doubled = std::max(needed, 2 * capacity_);
    size_t capacity = doubled;  // the frame's length is not known yet
    if (whole != 0) {
      // The frame and the read's worth past it that is asked for (the next frame's first bytes):
      // nothing more, for a frame that is never finished holds it for as long as it is open.
      capacity = needed >= whole ? needed : needed >= whole / 4 ? whole : std::min(doubled, whole);
    }
    return capacity < kMappedReadBuffer ? capacity : RoundUpToPages(capacity);
  }
  static size_t RoundUpToPages(size_t bytes);
  // Moves the data to the start of the storage.
  void Compact();
  // Makes the capacity `capacity`, the data moved to the start.
  void Grow(size_t capacity);

  char* storage_ = nullptr;
  bool mapped_ = false;  // storage_ is a mapping (else from new[])
  size_t capacity_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
};

// What the start of a connection's buffered bytes holds.
struct FrameScan {
  enum class Status {
    kWhole,    // a whole frame: its body is body(), `frame_bytes` long with its prefix
    kPartial,  // the start of one; `frame_bytes` is its whole size once the prefix is known
    kFault,    // bytes that must be refused: `fault_kind` and `fault_message` say why
  };
  Status status = Status::kPartial;
  size_t prefix_bytes = 0;
  size_t frame_bytes = 0;
  wire::ProtocolFault::Kind fault_kind = wire::ProtocolFault::UNKNOWN;
  std::string fault_message;
};

// Scans `buffered` for frame number `frame` (1-based, for messages) under `max_frame_bytes`.
FrameScan ScanFrame(std::string_view buffered, size_t max_frame_bytes, uint64_t frame);

// How many bytes the next read should ask for, given the scan of what is buffered: the rest of a
// frame whose size is known (within kReadChunk..kMaxReadChunk), and whatever room the buffer
// already has, so that a peer sending large frames is read in one system call per frame.
size_t ReadSize(const ReadBuffer& buffer, const FrameScan& scan);

// How far the unfinished frame at the start of `buffered` got: "X of Y body bytes received", or
// "inside its length prefix".
std::string FrameProgress(std::string_view buffered, size_t max_frame_bytes);

// The fault message for a connection whose peer closed with `buffered` (non-empty) unconsumed:
// "the connection was closed in the middle of frame N (...)".
std::string UnfinishedFrameMessage(std::string_view buffered, size_t max_frame_bytes,
                                   uint64_t frame);

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_FRAME_READER_H_
