// Named puzzles every suite uses, and puzzles made from a seed (the same seed, the same puzzle).
// Each constant's comment says what makes it useful; its answer is checked by
// tests/support/sudoku_check.h, not by the solver under test.
//
// Thread-safety: constants and stateless functions; safe from any thread.
#ifndef SUDOKU_TESTS_SUPPORT_PUZZLES_H_
#define SUDOKU_TESTS_SUPPORT_PUZZLES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sudoku::testing {

// Wikipedia's example puzzle and its one solution (also a valid complete grid).
inline const std::string kWikipediaPuzzle =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
inline const std::string kWikipediaSolution =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

// The first of Gordon Royle's 17-clue puzzles: one solution, found only by search.
inline const std::string kSeventeenClues =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

// One of the bundled samples (tests/data/samples.txt) whose explanation's step 25 is a trial
// nested one deep: r2c1 = 4 leaves r2c2 with 3 or 6, two branches that each end in a
// contradiction (small enough to read whole).
inline const std::string kNestedTrialPuzzle =
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
inline constexpr size_t kNestedTrialStep = 24;  // 0-based

// A QQWing "simple" puzzle: naked singles alone solve it (56 of them).
inline const std::string kSimplePuzzle =
    "6....49...28.1..3........56........8.......1.84..3.26.3..2...9.96.....24..1..8...";

// Consistent givens, no solution: r1c9 can only be 9, and column 9 already has one.
inline const std::string kUnsolvable =
    "12345678.........9...............................................................";

// Wikipedia's puzzle (kWikipediaPuzzle) with the candidates its givens leave, as HoDoKu's "Copy PM grid" writes it.
inline constexpr char kCandidateGrid[] =
    ".-----------------.--------------.-----------------.\n"
    "| 5   3    124    | 26   7  2468 | 1489  1249 248  |\n"
    "| 6   247  247    | 1    9  5    | 3478  234  2478 |\n"
    "| 12  9    8      | 23   34 24   | 13457 6    247  |\n"
    ":-----------------+--------------+-----------------:\n"
    "| 8   125  1259   | 579  6  147  | 4579  2459 3    |\n"
    "| 4   25   2569   | 8    5  3    | 579   259  1    |\n"
    "| 7   15   1359   | 59   2  14   | 4589  459  6    |\n"
    ":-----------------+--------------+-----------------:\n"
    "| 139 6    134579 | 357  35 7    | 2     8    4    |\n"
    "| 23  278  237    | 4    1  9    | 36    3    5    |\n"
    "| 123 1245 12345  | 2356 8  26   | 1346  7    9    |\n"
    "'-----------------'--------------'-----------------'\n";

// `grid` (81 characters) under the sudoku symmetry chosen by `seed`: digits relabelled, rows
// permuted within bands and bands permuted, the same for columns, maybe transposed. Applying the
// same seed to a solution gives the transformed puzzle's solution. Blanks become '.'.
std::string Transform(std::string_view grid, uint64_t seed);

// A full grid with `blanks` cells (chosen by `seed`) turned into '.'.
std::string WithBlanks(std::string_view grid, int blanks, uint64_t seed);

// `grid` with the four cells of a "deadly rectangle" blanked (r1/r2 in one band, c1/c2 in two
// boxes, holding a b / b a): exactly two completions. Empty if `grid` has no such rectangle.
std::string DeadlyRectangle(std::string_view grid);

// The pencilmark form of an 81-character puzzle (729 characters, nine a cell): a given keeps
// only its digit ("....5...." for a 5), a blank (any character but 1-9) all nine.
std::string Pencilmarks(std::string_view puzzle);

// `count` puzzles with `givens` clues each (they may have several solutions), each blanked from
// a shuffled solved grid (so each has a solution); the same seed gives the same puzzles.
std::vector<std::string> GeneratePuzzles(int count, int givens, uint32_t seed);

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_SUPPORT_PUZZLES_H_
