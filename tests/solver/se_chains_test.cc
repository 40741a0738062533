// Sudoku Explainer's forcing chains (solver/logic_se_chains.cc): on states serate reached, the
// step SE applies, rated as SE rates it; on the path rated for SE, every conclusion true of the
// solution.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "solver/explain_text.h"
#include "solver/logic.h"
#include "solver/logic_board.h"
#include "tests/solver/test_puzzles.h"

namespace sudoku::logic::internal {
namespace {

// A candidate state serate reached (729 characters, as its "%m" prints it, placed cells with
// their digit alone), the step serate took there and its rating.
struct SeState {
  const char* what;
  const char* state;
  uint8_t tenths;
  int cell;  // the conclusion: the digit placed in the cell, or removed from it
  int digit;
  bool placed;
};

// From serate's logs of top1465 puzzles (`--before="%m" --after="%r %s"`): Nishio, multiple
// (region, cell), dynamic (a region's placement, a contradiction) and dynamic "+" (level 1: a
// double forcing chain, a region's) chains.
const SeState kStates[] = {
    {"7.8 Nishio Forcing Chain: r7c2.3 on ==> r5c3.3 both on & off",
     "1.............6.8.....5.......4...89..3.......2..........4.67.9.....67.9.....6.89......7"
     "...2...6.8.........9...456.8....45..8.1...........4.6.8..2..5......3.........4......23.."
     "6.8..23....8.....56789....5.789.....67.........8912..5....1...5.........6.....345..891.3"
     "4...8.1.34...891..4...89..34..7.9.2.........3.5.7.9....5...9.2.........3.....91.3......1"
     ".3..67.91.....7.9....5.........67.........8....4.......3.5...9..345..89......7...234...8"
     "9.2.4...89..34.6..91..........3.56..9....56..9.......8..2345...9.234.....12..5.........6"
     ".....34....9..3.....91.......9......7....3.....91..........34.6.....34..7.9...4..7.9...."
     "...8.....5.........6..9.2.........3.5...9......7...2...6...12..5....12..5......3.....9.."
     "3..6.89...4.....1....6.89",
     78, 6 * 9 + 1, 3, false},
    {"8.2 Region Forcing Chains: 8 in block ==> r6c6.8 off",
     "1.........23.5......3....8....4..........6.......5..89.23.....9......7....3.5...9.23.5.."
     "8..23.5..........7...23..........5..891...5..89123..6..9.2..56..9...4.............9....."
     "6......4......23..........5.7..1...5.7..123.............8.1.3.5.....2..5....12..5.7.9..."
     "..6.......5.7.....45.7.9..3.............8..2.45...91...5.7.9.23.5..8....4.......3....89."
     "...5678.1............56789.2....7.9.2..5...9....567.9....5..8.1...5.7.91......89....5678"
     "..2..........4567891..4..7.9..3......1...567.9...4.6...1.3.....91.3.....91...5678....45."
     "78....45678....4..7.......6..9.2..........4.6..........8..2...............9..34..7.....4"
     ".67......5....1..........3...7........7..1.......9....5....1....6.....34......2........."
     "34.6..9...4.6..9.......8.",
     82, 5 * 9 + 5, 8, false},
    {"8.3 Cell Forcing Chains: r9c8 ==> r2c8.9 off",
     "1.........23.5......3....8....4..........6.......5..89.23.....9......7....3.5...9.23.5.."
     "8..23.5..........7...23..........5..891...5..89123..6..9.2..56..9...4.............9....."
     "6......4......23..........5.7..1...5.7..123.............8.1.3.5.....2..5....12..5.7.9..."
     "..6.......5.7.....45.7.9..3.............8..2.45...91...5.7.9.23.5..8....4.......3....89."
     "...5678.1............56789.2....7.9.2..5...9....567.9....5..8.1...5.7.91......89....5678"
     "..2..........4567.91..4..7.9..3......1...567.9...4.6...1.3.....91.3.....91...5678....45."
     "78....45678....4..7.......6..9.2..........4.6..........8..2...............9..34..7.....4"
     ".67......5....1..........3...7........7..1.......9....5....1....6.....34......2........."
     "34.6..9...4.6..9.......8.",
     83, 1 * 9 + 7, 9, false},
    {"9.1 Region Forcing Chains: 1 in column ==> r8c6.6 on",
     "..3.56..9...4.......3..67.9.2............67.91.....7......56..91.3.5...........8........"
     "89......78.1..........3..........5.........67.9.2..........4..........6..9.2...........5"
     "6.....3..6..9.......8....4.6..91..4....9......7..1.3.5....1.3.....9..34.6....23..6......"
     "....8.1.........234......2.45.......456...........9......7..1..4.....12....7...2....7..."
     "....6......4...89.2.45..89..3.......2.....8.1..45....1.34.6...........9....5..........7."
     "..234...8..2.4...8....4.6.8.12.....8.1..4.6...1.3.5..891.3.5..8..23.....9...45...9.2...."
     "78..2....78....45..89.....6.....345...9......7....3.56.8....4.........5...91............"
     ".6.8.....5..89..3.5..8..2...........56..9.2...6.8..2...6..9...45...9.2...6.8...3......1."
     ".............7.....45...9",
     91, 7 * 9 + 5, 6, true},
    {"9.0 Contradiction Forcing Chain: r1c6.8 on ==> r8c8.6 both on & off",
     "..3..............91.....78......6.......5....1..4...8.12.4.....12.4..7..1..4..7..1...56."
     "8.....5.78..2.......1.....78.......78.1..4...891.34.6..91..4.6...1.3..6..91....6......4."
     "....1....67..12....7....3......12......9.......8.....5....1....67.912.4...8..2....78.1.3"
     "4..78.........9.2....78.....5....1234.6...12.4.67..1.34.678..2.45.........6......4..78.."
     ".3...78.1..........3....8..2.45............9...45.78.12..5..89.2..5.78.1.3...789...4...."
     "..2....78......6...123.5....12....7..1.3.5.78.......7..1............5.....2.....8......6"
     "....2.....8....4....9..3.........4....9.2.4...89.2.....8....4...891.3.5.......4....91.3."
     "...........7..1....6...1...56......4.6..9..3.........4.6..91...5.......4....9......7..1."
     "..5...........8..2.......",
     90, 0 * 9 + 5, 8, false},
    {"9.4 Double Forcing Chain: r2c7.7 on & off ==> r5c2.7 off",
     "......7..12...6..........8....45...9...456..9...456..9..3......1..456...12..5.......4..."
     ".9..3..6.....34.6..9.2.........3456...1...........4.67.....45.78.....5.78.....5....123.."
     "6...1234.6.........78...34.6.........78..2...6..91..4.6...12......91......89...4.....1.."
     ".5.7.9..3.5.7.9....5...9..3.5.7.91.....78..2............6.....3......12...67..12...6..9."
     "..4..7.9.......8..2.4.6..91..4..7..1..45.7..1...5.7...2...6.8.....5.78..2..567..1......."
     "..2.456....2.4.67.....4..78.........9..3......12.....8.........91.3.5.7.......6...12..5."
     "....23.5..8.12....7..1.3...78....4.....12.4.6.8.123..6.8.1234.6.....34...89......7...234"
     "...89....5....1.3..6.8.12.....8912.4.6.8...3.5.78.1234567....345..8912.4....9.2345..89.2"
     "...67.91.3..678.12....789",
     94, 4 * 9 + 1, 7, false},
    {"9.7 Region Forcing Chains: 5 in column ==> r1c3.5 off",
     "......7..1...5..89....56.8.12...6..91.3.56..9.23.56..9...4.....12..5....123......1..456."
     ".9.2..........456...1..4....9......7....345...91...56..........8.1.3......1..456...1..45"
     "......3......12.4.6...1...56..........8.12..567..12..5.7..........9.2.4...89...4..789.2."
     "4..78.....5....1....6.89...4.6.....3......12.4..7..12.4..78...3.5..8......6......45.7..1"
     "......8..2.........34.....1...5.78.........91..4..78..2345..89...45..891...........4...8"
     "9..3.....9......7...2..5..8..2.45.........6...12..56.8.1...5.78..2..5678...3..........56"
     ".8..2..5............912.4..7..12.4..78.12..5..8...3.......2..5.78..2....789...4......2.."
     "5...912....78......6...12....78..2.4.6.8....4..78.........9.2...678......6.8.1.........2"
     "....78...3..........5....",
     97, 0 * 9 + 2, 5, false},
};

TEST(SeChains, TakesSerateStepOnItsStates) {
  for (const SeState& expected : kStates) {
    SCOPED_TRACE(expected.what);
    const std::string text = expected.state;
    ASSERT_EQ(text.size(), static_cast<size_t>(kCandidateChars));
    CandidateGrid state;
    ASSERT_FALSE(ParseCandidates(text, &state));
    Board board(state);
    Step step;
    ASSERT_TRUE(SeChains(board, &step));
    EXPECT_EQ(step.technique, Technique::kForcingChain);
    EXPECT_GE(step.variant, 3);
    EXPECT_EQ(step.se_tenths, expected.tenths);
    const CellDigit conclusion{static_cast<uint8_t>(expected.cell),
                               static_cast<uint8_t>(expected.digit)};
    if (expected.placed) {
      EXPECT_EQ(step.placements, std::vector<CellDigit>{conclusion});
      EXPECT_TRUE(step.eliminations.empty());
    } else {
      EXPECT_EQ(step.eliminations, std::vector<CellDigit>{conclusion});
      EXPECT_TRUE(step.placements.empty());
    }
  }
}

// How the steps read: what the chains start from, and the conclusion (serate's logs name the
// kind of unit only, and "Region Forcing Chains" for a dynamic unit's chains too).
TEST(SeChains, DescribesWhereTheChainsStartAndWhatTheyConclude) {
  const std::vector<std::string> texts = {
      "Nishio Forcing Chains: r7c2 = 3 leads to a contradiction: removes 3 from r7c2",
      "Region Forcing Chains: each place of 8 in box 2 leads to the same: removes 8 from r6c6",
      "Cell Forcing Chains: each candidate of r9c8 (4 6 9) leads to the same: removes 9 from r2c8",
      "Dynamic Region Forcing Chains: each place of 1 in column 9 leads to the same: r8c6 = 6",
  };
  for (size_t i = 0; i < texts.size(); ++i) {
    CandidateGrid state;
    ASSERT_FALSE(ParseCandidates(kStates[i].state, &state));
    Board board(state);
    Step step;
    ASSERT_TRUE(SeChains(board, &step));
    EXPECT_EQ(Describe(step), texts[i]);
  }
}

// Every step of the path rated for SE, over the fixtures and every tenth puzzle of the shared
// hardest sets: no elimination removes the solution's digit, every placement is the solution's.
// SE's chains are exact by construction only if their propagation is; this checks it where they
// act most.
TEST(SeChains, EveryConclusionHoldsInTheSolution) {
  std::vector<std::string> puzzles;
  for (const char* file : {"serate_chain_ratings.txt", "very_hard.txt"}) {
    std::ifstream in(testing::TestPath("SUDOKU_TEST_DATA_DIR") + "/" + file);
    ASSERT_TRUE(in) << file;
    for (std::string line; std::getline(in, line);) {
      if (line.size() >= kCells && line[0] != '#') puzzles.push_back(line.substr(0, kCells));
    }
  }
  for (const std::string& file : testing::SharedDataFiles()) {
    if (file.find("magictour") == std::string::npos) continue;
    const auto lines = testing::ReadLines(file);
    for (size_t i = 0; i < lines.size(); i += 10 * testing::PublicSetStride()) {
      puzzles.push_back(lines[i]);
    }
  }
  int chain_steps = 0;
  for (const std::string& puzzle : puzzles) {
    Grid grid{};
    ASSERT_FALSE(ParsePuzzle(puzzle, &grid)) << puzzle;
    const Result solved = SolveGrid(grid, Limits{.max_solutions = 2});
    if (solved.verdict != Verdict::kSolved) continue;
    const Explanation explanation = Explain(grid, Preference::kEasiestSe);
    for (const Step& step : explanation.steps) {
      const bool se_chain = step.technique == Technique::kForcingChain && step.variant >= 3;
      if (se_chain) {
        ++chain_steps;
        EXPECT_NE(step.se_tenths, 0) << puzzle;
        EXPECT_EQ(step.placements.size() + step.eliminations.size(), 1u) << puzzle;
      }
      for (const CellDigit& removed : step.eliminations) {
        ASSERT_NE(solved.solution[removed.cell], '0' + removed.digit)
            << puzzle << ": " << Name(step.technique) << " variant " << int{step.variant};
      }
      for (const CellDigit& placed : step.placements) {
        ASSERT_EQ(solved.solution[placed.cell], '0' + placed.digit)
            << puzzle << ": " << Name(step.technique) << " variant " << int{step.variant};
      }
    }
  }
  EXPECT_GT(chain_steps, 50);
}

}  // namespace
}  // namespace sudoku::logic::internal
