// A pipe's stream buffer for tests: it holds its bytes and cannot seek, so that code reading it
// takes the path it takes for standard input from a pipe.
//
// Thread-safety: one thread at a time.
#ifndef SUDOKU_TESTS_SUPPORT_PIPE_BUFFER_H_
#define SUDOKU_TESTS_SUPPORT_PIPE_BUFFER_H_

#include <streambuf>
#include <string>
#include <utility>

namespace sudoku::testing {

class PipeBuffer : public std::streambuf {
 public:
  explicit PipeBuffer(std::string bytes) : bytes_(std::move(bytes)) {
    setg(bytes_.data(), bytes_.data(), bytes_.data() + bytes_.size());
  }

 private:
  std::string bytes_;
};

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_SUPPORT_PIPE_BUFFER_H_
