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

namespace sudoku::client {

class OrderedOutput {
 public:
  // Writes to `out`, which must outlive this. Sequence numbers start at 0.
  explicit OrderedOutput(std::ostream* out) : out_(out) {}

  // Takes the text of batch `sequence` (each sequence exactly once). Writes it, and every held
  // batch that follows without a gap, once all batches before it are written; then flushes, so
  // that results appear as they are known. Throws ClientError when the output cannot be written.
  void Put(uint64_t sequence, std::string text);

  // The sequence number the output waits for: everything before it is written.
  uint64_t next() const { return next_; }
  // Batches received but not yet written.
  size_t held() const { return held_.size(); }

 private:
  std::ostream* out_;
  uint64_t next_ = 0;
  std::map<uint64_t, std::string> held_;
};

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_ORDERED_OUTPUT_H_
