#include "tests/client/mixed_input.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <sstream>

#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"

namespace sudoku::testing {
namespace {

// Each has exactly one solution (checked at start-up).
const std::string kBases[] = {
    kWikipediaPuzzle,
    kSeventeenClues,
    ".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54.",
    kSimplePuzzle,
};

struct Base {
  std::string puzzle;
  std::string solution;
};

const std::vector<Base>& Bases() {
  static const std::vector<Base>* bases = [] {
    auto* out = new std::vector<Base>;
    for (const std::string& puzzle : kBases) {
      Base base{puzzle, ""};
      if (CountSolutions(puzzle, 2, &base.solution) != 1) std::abort();
      out->push_back(base);
    }
    return out;
  }();
  return *bases;
}

// The first base puzzle with givens blanked until it has two solutions or more.
const std::string& MultiplePuzzle() {
  static const std::string* puzzle = [] {
    auto* out = new std::string(kBases[0]);
    for (char& cell : *out) {
      if (cell == '.') continue;
      cell = '.';
      if (CountSolutions(*out, 2) == 2) break;
    }
    return out;
  }();
  return *puzzle;
}

std::string BoxedGrid(const std::string& puzzle) {
  std::string out = "+-------+-------+-------+\n";
  for (int r = 0; r < 9; ++r) {
    out += "|";
    for (int c = 0; c < 9; ++c) {
      out += " ";
      out += puzzle[r * 9 + c];
      if (c % 3 == 2) out += " |";
    }
    out += "\n";
    if (r % 3 == 2) out += "+-------+-------+-------+\n";
  }
  return out;
}

class Builder {
 public:
  Builder(MixedInput* input, uint64_t first_line) : input_(input), line_(first_line - 1) {}

  void Line(const std::string& text) {
    input_->text += text + "\n";
    ++line_;
  }
  uint64_t next_line() const { return line_ + 1; }
  void Expect(const std::string& line) {
    input_->expected.push_back({ExpectedLine::Kind::kExact, line});
  }
  void ExpectSolutionOf(const std::string& puzzle) {
    input_->expected.push_back({ExpectedLine::Kind::kSolutionOf, puzzle});
  }

 private:
  MixedInput* input_;
  uint64_t line_;
};

}  // namespace

MixedInput MakeMixedInput(size_t puzzles, uint64_t seed, bool unique, uint64_t first_line) {
  MixedInput input;
  Builder out(&input, first_line);
  std::mt19937_64 random(seed);
  const std::vector<Base>& bases = Bases();
  out.Line("# mixed input, seed " + std::to_string(seed));
  for (size_t i = 0; i < puzzles; ++i) {
    const Base& base = bases[random() % bases.size()];
    const uint64_t shape = random();
    const std::string puzzle = Transform(base.puzzle, shape);
    const std::string solution = Transform(base.solution, shape);
    switch (i % 100) {
      case 10: {  // a boxed grid
        out.Line("");
        for (std::istringstream grid(BoxedGrid(puzzle)); ;) {
          std::string line;
          if (!std::getline(grid, line)) break;
          out.Line(line);
        }
        out.Expect(solution);
        ++input.solved;
        break;
      }
      case 20:
        out.Line(Transform(kUnsolvable, shape));
        out.Expect("unsolvable");
        ++input.unsolvable;
        break;
      case 30: {
        const std::string multiple = Transform(MultiplePuzzle(), shape);
        out.Line(multiple);
        if (unique) {
          out.Expect("multiple");
          ++input.multiple;
        } else {
          out.ExpectSolutionOf(multiple);
          ++input.solved;
        }
        break;
      }
      case 40: {  // a bad character, reported by the daemon
        std::string bad = puzzle;
        const size_t cell = shape % 81;
        bad[cell] = 'x';
        const uint64_t line = out.next_line();
        out.Line(bad);
        out.Expect("invalid: line " + std::to_string(line) + ", column " +
                   std::to_string(cell + 1) +
                   ": bad character 'x' (expected 1-9, or . 0 _ - * for a blank)");
        ++input.invalid;
        break;
      }
      case 50: {  // a repeated digit
        std::string bad = kBases[0];
        bad[2] = '5';
        const uint64_t line = out.next_line();
        out.Line(bad);
        out.Expect("invalid: line " + std::to_string(line) +
                   ", column 3: digit 5 repeated in row 1 (r1c1 and r1c3)");
        ++input.invalid;
        break;
      }
      case 60: {  // a line one cell short: the client's own layout error
        const uint64_t line = out.next_line();
        out.Line(puzzle.substr(0, 80));
        out.Expect("invalid: line " + std::to_string(line) + ": expected 81 cells, found 80");
        ++input.invalid;
        break;
      }
      case 70: {  // a grid with a row of eight cells
        out.Line("");
        const uint64_t first = out.next_line();
        for (int r = 0; r < 9; ++r) out.Line(puzzle.substr(r * 9, r == 4 ? 8 : 9));
        out.Expect("invalid: line " + std::to_string(first + 4) +
                   ": expected 9 cells in a grid row, found 8");
        ++input.invalid;
        break;
      }
      case 80: {  // a grid cut short by a blank line
        for (int r = 0; r < 4; ++r) out.Line(puzzle.substr(r * 9, 9));
        out.Expect("invalid: line " + std::to_string(out.next_line() - 1) +
                   ": grid ends after 4 rows (expected 9)");
        out.Line("");
        ++input.invalid;
        break;
      }
      default:
        if (i % 7 == 3) out.Line("# comment " + std::to_string(i));
        out.Line(i % 5 == 1 ? puzzle + "\r" : puzzle);
        out.Expect(solution);
        ++input.solved;
        break;
    }
    input.ends.push_back(input.text.size());
  }
  return input;
}

MixedInput MixedInputPrefix(const MixedInput& input, size_t puzzles) {
  MixedInput prefix;
  puzzles = std::min(puzzles, input.expected.size());
  prefix.text = input.text.substr(0, puzzles == 0 ? 0 : input.ends[puzzles - 1]);
  prefix.expected.assign(input.expected.begin(), input.expected.begin() + puzzles);
  prefix.ends.assign(input.ends.begin(), input.ends.begin() + puzzles);
  for (const ExpectedLine& line : prefix.expected) {
    if (line.kind == ExpectedLine::Kind::kSolutionOf) {
      ++prefix.solved;  // a puzzle of several solutions, any of them asked for
    } else if (line.text == "multiple") {
      ++prefix.multiple;
    } else if (line.text == "unsolvable") {
      ++prefix.unsolvable;
    } else if (line.text.starts_with("invalid: ")) {
      ++prefix.invalid;
    } else {
      ++prefix.solved;
    }
  }
  return prefix;
}

void AppendMixedInput(MixedInput* input, const MixedInput& more) {
  const size_t offset = input->text.size();
  input->text += more.text;
  input->expected.insert(input->expected.end(), more.expected.begin(), more.expected.end());
  for (const size_t end : more.ends) input->ends.push_back(offset + end);
  input->solved += more.solved;
  input->multiple += more.multiple;
  input->unsolvable += more.unsolvable;
  input->invalid += more.invalid;
}

std::string CheckOutput(const MixedInput& input, const std::string& output) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  if (!output.empty() && output.back() != '\n') return "output does not end with a newline";
  for (size_t i = 0; i < std::min(lines.size(), input.expected.size()); ++i) {
    const ExpectedLine& expected = input.expected[i];
    const bool ok = expected.kind == ExpectedLine::Kind::kExact
                        ? lines[i] == expected.text
                        : IsSolutionOf(expected.text, lines[i]);
    if (!ok) {
      return "output line " + std::to_string(i + 1) + " is '" + lines[i] + "', expected " +
             (expected.kind == ExpectedLine::Kind::kExact ? "'" + expected.text + "'"
                                                          : "a solution of " + expected.text);
    }
  }
  if (lines.size() != input.expected.size()) {
    return std::to_string(lines.size()) + " output lines for " +
           std::to_string(input.expected.size()) + " puzzles";
  }
  return "";
}

std::string SummaryCounts(const MixedInput& input) {
  return "puzzles " + std::to_string(input.expected.size()) + ", solved " +
         std::to_string(input.solved) + ", multiple " + std::to_string(input.multiple) +
         ", unsolvable " + std::to_string(input.unsolvable) + ", invalid " +
         std::to_string(input.invalid) + ", ";
}

}  // namespace sudoku::testing
