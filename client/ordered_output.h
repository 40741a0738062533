// Puts results back in input order. Batches come back from the daemon in any order (one may be
// slow, several connections race); each batch's text is written as soon as every batch before
// it has been, and held until then.
//
// Memory: the caller bounds what is held by issuing sequence numbers only within a window ahead
// of next() (see SolveSession).
//
// Thread-safety: none; use from one thread.
#ifndef SUDOKU_CLIENT_ORDERED_OUTPUT_H_
#define SUDOKU_CLIENT_ORDERED_OUTPUT_H_

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "client/client_error.h"
#include "client/output_preallocation.h"

namespace sudoku::client {

// The results could not be written (a full disk, a closed pipe): the user's side, never the
// daemon's, whatever batch was being written.
class OutputError : public ClientError {
 public:
  using ClientError::ClientError;
};

class OrderedOutput {
 public:
  // Writes to `out`, which must outlive this, as does `preallocation` (null: none), which is
  // told of each write before it is made. Sequence numbers start at 0.
  explicit OrderedOutput(std::ostream* out, OutputPreallocation* preallocation = nullptr)
      : out_(out), preallocation_(preallocation) {}

  // Takes the text of batch `sequence` (each sequence exactly once). Writes it, and every held
  // batch that follows without a gap, once all batches before it are written; then flushes, so
  // that results appear as they are known. Throws ClientError when the output cannot be written.
  void Put(uint64_t sequence, std::string text);

  // An empty string with the capacity of a text already written, to build the next text in
  // (a fresh one when there is none). A batch's text is larger than malloc's mmap threshold, so
  // a new string for each would cost a mapping, its page faults and an unmapping every time.
  std::string TakeBuffer();

  // The sequence number the output waits for: everything before it is written.
  uint64_t next() const { return next_; }
  // Batches received but not yet written.
  size_t held() const { return held_.size(); }

 private:
  // Writes `text` to out_.
  void Write(const std::string& text);

  std::ostream* out_;
  OutputPreallocation* preallocation_;
  uint64_t next_ = 0;
  std::map<uint64_t, std::string> held_;
  std::vector<std::string> spare_;  // written texts, emptied, for TakeBuffer()
};

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_ORDERED_OUTPUT_H_
