// The portable kernel: per-cell candidate masks, naked and hidden singles, and a depth-first
// search that guesses on the cell with the fewest candidates. Every call keeps its state on the
// stack, so it is reentrant.
#include <array>
#include <bit>
#include <cstdint>

#include "solver/solver.h"

namespace sudoku::portable {
namespace {

constexpr uint16_t kAllDigits = 0x1ff;

struct Tables {
  // The 27 units (rows, columns, boxes), each as its 9 cells.
  std::array<std::array<uint8_t, 9>, 27> units{};
  // The 20 cells that share a unit with each cell.
  std::array<std::array<uint8_t, 20>, kCells> peers{};
};

constexpr Tables MakeTables() {
  Tables t;
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 9; ++j) {
      t.units[i][j] = static_cast<uint8_t>(i * 9 + j);
      t.units[9 + i][j] = static_cast<uint8_t>(j * 9 + i);
      t.units[18 + i][j] = static_cast<uint8_t>((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3);
    }
  }
  for (int cell = 0; cell < kCells; ++cell) {
    int n = 0;
    for (int other = 0; other < kCells; ++other) {
      if (other == cell) continue;
      const bool same_row = other / 9 == cell / 9;
      const bool same_column = other % 9 == cell % 9;
      const bool same_box = other / 27 == cell / 27 && other % 9 / 3 == cell % 9 / 3;
      if (same_row || same_column || same_box) t.peers[cell][n++] = static_cast<uint8_t>(other);
    }
  }
  return t;
}

constexpr Tables kTables = MakeTables();

struct Board {
  std::array<uint16_t, kCells> candidates;
  int unsolved;  // cells not yet placed
};

class Search {
 public:
  Search(Limits limits, Result* result) : limit_(limits.max_solutions), result_(result) {}

  // Places `digit_bit` in `cell` and propagates naked singles. False on a contradiction.
  bool Place(Board& b, int cell, uint16_t digit_bit) {
    std::array<uint8_t, kCells> queue;
    int head = 0, tail = 0;
    b.candidates[cell] = digit_bit;
    queue[tail++] = static_cast<uint8_t>(cell);
    --b.unsolved;
    while (head < tail) {
      const int c = queue[head++];
      const uint16_t bit = b.candidates[c];
      for (uint8_t peer : kTables.peers[c]) {
        uint16_t& m = b.candidates[peer];
        if (!(m & bit)) continue;
        m = static_cast<uint16_t>(m & ~bit);
        if (m == 0) return false;
        if (std::has_single_bit(m)) {
          queue[tail++] = peer;
          --b.unsolved;
        }
      }
    }
    return true;
  }

  // Hidden singles over every unit until nothing changes. False on a contradiction.
  bool Propagate(Board& b) {
    bool changed = true;
    while (changed && b.unsolved > 0) {
      changed = false;
      for (const auto& unit : kTables.units) {
        uint16_t once = 0, twice = 0, placed = 0;
        for (uint8_t cell : unit) {
          const uint16_t m = b.candidates[cell];
          twice |= once & m;
          once |= m;
          if (std::has_single_bit(m)) placed |= m;
        }
        if (once != kAllDigits) return false;
        uint16_t hidden = once & ~twice & ~placed;
        while (hidden) {
          const uint16_t bit = hidden & -hidden;
          hidden &= hidden - 1;
          for (uint8_t cell : unit) {
            if (b.candidates[cell] & bit) {
              // An earlier placement in this unit may have made it a naked single already.
              if (b.candidates[cell] != bit && !Place(b, cell, bit)) return false;
              break;
            }
          }
          changed = true;
        }
      }
    }
    return true;
  }

  // Returns true when the search should stop (the limit is reached).
  bool Run(Board& b) {
    if (!Propagate(b)) return false;
    if (b.unsolved == 0) return Record(b);
    int best = -1, best_count = 10;
    for (int cell = 0; cell < kCells; ++cell) {
      const int n = std::popcount(b.candidates[cell]);
      if (n > 1 && n < best_count) {
        best = cell;
        best_count = n;
        if (n == 2) break;
      }
    }
    uint16_t options = b.candidates[best];
    while (options) {
      const uint16_t bit = options & -options;
      options &= options - 1;
      if (options == 0) {
        // The last option is forced: continue in place, without counting a guess.
        if (!Place(b, best, bit)) return false;
        return Run(b);
      }
      ++result_->guesses;
      Board copy = b;
      if (Place(copy, best, bit) && Run(copy)) return true;
    }
    return false;
  }

 private:
  bool Record(const Board& b) {
    if (result_->solutions == 0) {
      for (int cell = 0; cell < kCells; ++cell) {
        result_->solution[cell] = static_cast<char>('1' + std::countr_zero(b.candidates[cell]));
      }
    }
    return ++result_->solutions >= limit_;
  }

  uint32_t limit_;
  Result* result_;
};

void Solve(const Grid& grid, Limits limits, Result* result) {
  if (limits.max_solutions == 0) limits.max_solutions = 1;
  *result = Result{};
  Board board;
  board.candidates.fill(kAllDigits);
  board.unsolved = kCells;
  Search search(limits, result);
  bool consistent = true;
  for (int cell = 0; cell < kCells && consistent; ++cell) {
    const uint8_t digit = grid[cell];
    if (digit == 0) continue;
    const uint16_t bit = static_cast<uint16_t>(1u << (digit - 1));
    // A given its peers already ruled out clashes with another given. One that propagation
    // already placed needs nothing more.
    if (!(board.candidates[cell] & bit)) {
      consistent = false;
    } else if (board.candidates[cell] != bit) {
      consistent = search.Place(board, cell, bit);
    }
  }
  if (consistent) search.Run(board);
  if (result->solutions == 0) {
    result->verdict = Verdict::kUnsolvable;
  } else if (result->solutions >= 2) {
    result->verdict = Verdict::kMultiple;
  } else {
    result->verdict = Verdict::kSolved;
  }
}

bool Supported() { return true; }

}  // namespace

extern const Kernel kKernel = {"portable", Supported, Solve};

}  // namespace sudoku::portable
