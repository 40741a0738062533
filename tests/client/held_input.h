// A client's standard input that the test holds open: a named pipe, fed puzzles with known
// answers as fast as the client reads them, more made as it goes, and closed only when the test
// says it has done what it does mid-run (a daemon killed, drained, renamed). However fast the
// machine, the run is still going, and still loaded, when the test acts: its input does not run
// out. When the test lets go, the feed stops at the end of a puzzle, and what was fed is a
// MixedInput whose output can be checked.
//
// Thread-safety: one test thread uses it; the feed runs on a thread of its own.
#ifndef SUDOKU_TESTS_CLIENT_HELD_INPUT_H_
#define SUDOKU_TESTS_CLIENT_HELD_INPUT_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "tests/client/mixed_input.h"

namespace sudoku::testing {

class HeldInput {
 public:
  // The input's next part, the `part`-th (from 0), its lines numbered from `first_line`.
  using MakePart = std::function<MixedInput(size_t part, uint64_t first_line)>;

  // Makes the pipe at `path` (removed again by the destructor) and starts feeding it parts
  // made by `make`, at most `most_puzzles` puzzles in all (then the pipe stays open, fed no
  // more: a bound on the memory a test takes, far above what a run reads before it is let go).
  HeldInput(MakePart make, std::string path, size_t most_puzzles = 1'000'000);
  // Parts of MakeMixedInput(`part_puzzles`, `seed` + part, false, first line).
  HeldInput(size_t part_puzzles, uint64_t seed, std::string path);
  // Lets go (if the test has not) and waits for the feed to end.
  ~HeldInput();
  HeldInput(const HeldInput&) = delete;
  HeldInput& operator=(const HeldInput&) = delete;

  // The pipe, for the client's standard input.
  const std::string& path() const { return path_; }

  // Ends the feed at the end of the puzzle being written (at once if the client has gone) and
  // closes the pipe: the client sees the end of its input. Returns the input it was fed.
  MixedInput Release();

 private:
  void Feed();

  const MakePart make_;
  const std::string path_;
  const size_t most_puzzles_;
  std::atomic<bool> released_ = false;
  std::atomic<bool> given_up_ = false;  // the destructor's: the client reads no more
  // The feed's until it is joined: the input made so far, and how much of its text is written.
  MixedInput input_;
  size_t written_ = 0;
  std::thread feeder_;
};

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_CLIENT_HELD_INPUT_H_
