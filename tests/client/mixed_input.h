// Client test input with known answers: thousands of puzzles made from a few base puzzles by
// sudoku's symmetries (so each answer is known without the solver under test), with unsolvable,
// multiple-solution and invalid puzzles, 9-line grids, layout errors, blank and comment lines
// mixed in. Used against the fake daemon and against the real sudokud.
//
// Thread-safety: stateless functions and plain data.
#ifndef SUDOKU_TESTS_CLIENT_MIXED_INPUT_H_
#define SUDOKU_TESTS_CLIENT_MIXED_INPUT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace sudoku::testing {

struct ExpectedLine {
  enum class Kind { kExact, kSolutionOf };
  Kind kind;
  std::string text;  // the line, or the puzzle the line must solve
};

struct MixedInput {
  std::string text;
  std::vector<ExpectedLine> expected;  // one per puzzle, in order
  // Where each puzzle's lines end in `text` (the blank line closing a grid included): a text cut
  // there is the input of the puzzles before (MixedInputPrefix).
  std::vector<size_t> ends;
  uint64_t solved = 0;
  uint64_t multiple = 0;
  uint64_t unsolvable = 0;
  uint64_t invalid = 0;
};

// About `puzzles` puzzles (every kind at least once). With `unique` (--unique) puzzles with
// several solutions are expected as "multiple", else as any solution. Its lines are numbered
// from `first_line` in the errors expected: an input may follow others.
MixedInput MakeMixedInput(size_t puzzles, uint64_t seed, bool unique, uint64_t first_line = 1);

// The first `puzzles` puzzles of `input`, text, answers and counts.
MixedInput MixedInputPrefix(const MixedInput& input, size_t puzzles);

// `more` after `input`, as one input (`more` made with its lines numbered after `input`'s).
void AppendMixedInput(MixedInput* input, const MixedInput& more);

// Empty when `output` has exactly the expected lines; else what is wrong, first mismatch first.
std::string CheckOutput(const MixedInput& input, const std::string& output);

// "puzzles N, solved N, multiple N, unsolvable N, invalid N, " as the summary starts.
std::string SummaryCounts(const MixedInput& input);

// A regex for the rest of the summary line: "0.002 s, 1500 puzzles/s\n". A run slower than
// 10 puzzles/s (one puzzle under a sanitizer) shows two digits: "9.4 puzzles/s", "0.52 puzzles/s".
inline constexpr char kSummaryTimeAndRate[] =
    "[0-9]+\\.[0-9]{3} s, [0-9]+(\\.[0-9]+)?(e-[0-9]+)? puzzles/s\n";

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_CLIENT_MIXED_INPUT_H_
