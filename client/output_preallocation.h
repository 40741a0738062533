// Allocates the blocks of a regular output file ahead of the writes (fallocate() with
// FALLOC_FL_KEEP_SIZE: the file's size still grows only as it is written), and gives back what
// was not written into once the output is done.
//
// Why: ext4, like other file systems with delayed allocation, allocates a block only when its
// page is written back. When the file was truncated to zero before being written again (the
// shell's `>` over the results of an earlier run), ext4 writes back everything written to it
// when it is closed (its auto_da_alloc rule, so that a rewritten file is not found empty after a
// crash): the client's exit waited 28-37 ms for 80 MB of results while the daemon had nothing
// left to do, and the next run's truncation waited for that write-back in turn. Blocks
// allocated beforehand leave the close nothing to allocate, and writing into them costs less
// than delayed allocation (80 MB in 164 KB writes: 15 ms instead of 22).
//
// Only for a regular file on a disk (not tmpfs) that is not open for appending: another process
// may append to such a file too, and giving back the blocks past its end could then cut off what
// it wrote. Any failure (a file system without fallocate(), a disk too full for the blocks
// ahead) stops the preallocation and nothing else: the writes themselves report real errors.
//
// Thread-safety: none; use from one thread.
#ifndef SUDOKU_CLIENT_OUTPUT_PREALLOCATION_H_
#define SUDOKU_CLIENT_OUTPUT_PREALLOCATION_H_

#include <cstddef>
#include <cstdint>

namespace sudoku::client {

class OutputPreallocation {
 public:
  // Blocks are allocated ahead of the writes by as much as has been written so far, within these
  // bounds: a call every few megabytes of a large output, little to give back for a small one,
  // and at most kMaxAhead left allocated past the end of the file when the client is killed
  // before Release() (freed when the file is next truncated or removed).
  static constexpr uint64_t kMinAhead = uint64_t{1} << 20;
  static constexpr uint64_t kMaxAhead = uint64_t{8} << 20;

  // `fd` stays the caller's and must stay open until Release(). A descriptor that is not a
  // regular file open for writing without O_APPEND, outside tmpfs (a pipe, a terminal,
  // /dev/null, -1) is left alone: every call then does nothing.
  explicit OutputPreallocation(int fd);
  // Release().
  ~OutputPreallocation();
  OutputPreallocation(const OutputPreallocation&) = delete;
  OutputPreallocation& operator=(const OutputPreallocation&) = delete;

  // Call before writing `bytes` more at the descriptor's offset.
  void Reserve(size_t bytes);

  // Gives back the blocks allocated past the end of the file. Call once everything is written
  // (flushed); a later Reserve() does nothing.
  void Release();

  // Whether blocks are being allocated ahead (false once a call failed or after Release()).
  bool active() const { return active_; }

 private:
  int fd_ = -1;
  bool active_ = false;
  uint64_t start_ = 0;      // the offset the output started at
  uint64_t offset_ = 0;     // where the next write goes
  uint64_t allocated_ = 0;  // blocks are allocated up to this offset (start_: none to give back)
};

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_OUTPUT_PREALLOCATION_H_
