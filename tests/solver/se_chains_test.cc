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

// A state serate reached before one of its cycles or forcing chains (6.5-7.x), the step's
// rating, kind and, for a forcing chain, its conclusion: the candidate removed, or the digit the
// cell keeps (`kept`: it loses the others).
struct SeCycleState {
  const char* what;
  const char* state;
  uint8_t tenths;
  Technique technique;  // X links, Y links (kXYChain) or both (kAic)
  uint8_t variant;      // 1 a cycle, 2 a forcing chain
  int cell;             // a forcing chain's conclusion; -1 for a cycle
  int digit;
  bool kept;
};

// From serate's logs of fresh puzzles it rated 7.x (`--before="%m" --after="%r %s"`): its
// Y-cycles, its cycles of both kinds of link, its forcing chains (removing a candidate, or
// proving one).
const SeCycleState kCycleStates[] = {
    {"7.1 Forcing Chain: r7c9.3 off",
     "1.........2.............7....3..........5.........6......4...89...4....9...4...8......6."
     "......5.......4.....1...............8.........9..3.......2.............7.........8...3.."
     "............9.2.............7.....4.........5.........6...1................9.....6......"
     ".5..8....45.....2.............7..1..........3.........45..8..234.....1..4.....12..5....."
     "....6.....34............8..2......9......7......5...9..34..7.....4..7...2.....8........."
     "91..........3.5.....2.....8....45.........6....2.4..7..1..4..7.912..........45.7....34.."
     "..91.3...........6..........8...345...9....5...........8......6......4..7....34....9.2.."
     "........4..7.91..........34....9...4..7..1..4..7.9..3.............8......6...1...5......"
     ".4..7.9...45...9.2.......",
     71, Technique::kAic, 2, 6 * 9 + 8, 3, false},
    {"7.2 Forcing Chain: r4c4.4 on",
     "1.........2.............7....3..........5.........6......4...89...4....9...4...8......6."
     "......5.......4.....1...............8.........9..3.......2.............7.........8...3.."
     "............9.2.............7.....4.........5.........6...1................9.....6......"
     ".5..8....45.....2.............7..1..........3.........45..8..234.....1..4.....12..5....."
     "....6.....34............8..2......9......7......5...9..34..7.....4..7...2.....8........."
     "91..........3.5.....2.....8....45.........6....2.4..7..1..4..7.912..........45.7....34.."
     "..91.3...........6..........8....45...9....5...........8......6......4..7.....4....9.2.."
     "........4..7.91..........3.........4..7..1..4..7.9..3.............8......6...1...5......"
     ".4..7.9...45...9.2.......",
     72, Technique::kAic, 2, 3 * 9 + 3, 4, true},
    {"7.1 Bidirectional Cycle: r4c1,r4c8,r3c8,r3c2,r3c1",
     "1............56.........7....3..............9.2.4.6....2.4............8..2..5.......45.."
     "......56..9.......8.12..56...12...6.........7...234....91.......9..3.5...9..345......3.5"
     "...9.2.......1...5...........8.1..4...........7..1..4....9.....6.....3..6..........8.1.3"
     "..6.........7.....4.....12...6..9....5.........6..9.2......9........9.2..........4.6...."
     "......8.....5......3......1...........4.6.........7......5.7......5.7..1..4.6...12...6.."
     ".12...6...12...6..9.2.4....9..3.............8........8....4.......3..6...........9......"
     "7......5......3..6....2.......1.........2.......1.3..........5.......4.....1.3..6......."
     "...8...3..6..9......7....3.....9..3..67..1.3...7..........912...6...123..6...12...6....."
     ".....8.....5.......4.....",
     71, Technique::kAic, 1, -1, 0, false},
    {"6.8 Bidirectional Y-Cycle: r6c2,r6c8,r3c8,r1c8,r1c9,r1c2",
     ".2.....8...34......2...6.8......67...2.4..7..1............5...........89..3.....91..45.."
     "..........91..4.......3.........45...........8..2.............7.......6.........7....3.5"
     ".....2...6.8.....56....2..5............9...4.......3....8.1.........23...........6......"
     "...7...2......9.......8.....5......3.....91...........4.....12..5...........8.12........"
     "2......9..3.........4..........6..9....56..9......7....345.......45............91......."
     "......6.........7.........8...3.5.....2...............9.2...........5.......4.....1....."
     ".....3..6.........7....3..6..........8......6.........7....3.............8.........9.2.."
     ".....1...........4.........5.......4...8.1...........4...8.....5.7......5.7....3..6....."
     "3..6..9.2.........3.....9",
     68, Technique::kXYChain, 1, -1, 0, false},
    {"7.3 Forcing Chain: r3c1.7 off",
     "...4.....1.3..........5.7.9.23.567..123.5...9.23.5.7.........8.12...67..12...6.......567"
     ".........8.....5.7.912..567..12..5...9.2..5.7....3.........4.....12...6........67..1.3.."
     ".....2.........3..67.....4............8.1.....7.9....5....1....6..9....5.7..........9..."
     "4.....12..5.7.......6....2..5.7..12..5...........8...3.............8..2.......1...5....."
     ".345......3.5............91..456...1....6.........7....3...........6...1...5.7.........8"
     ".12..5.....2.45.7.....45...912.......12.45...9........9...45...........8..2.45.........."
     "7.......6...12.45......3......12.45.....2..........45.7....3..............9.......8.1..."
     "........4567.......67.....456...1...........45.7.......6....2345.....23.5.....2345.....2"
     "..5.7..........9.......8.",
     73, Technique::kAic, 2, 2 * 9 + 0, 7, false},
    {"7.2 Bidirectional Cycle: r1c4,r9c4,r5c4,r5c1,r6c2,r6c4",
     "1.........2..............8.......7.9....5..........7.9.....6......4.......3...........6."
     "........7......5.......4.......3.............8.1.........2...............9...4.......3.."
     "............9.2...6....2...6...1..............7......5...........8.....5.789.....6....2."
     "........3.........4...8....45...9...45....1...........45.7......5..8.1..........3......."
     "2..5..8.......7...2.45.....2.45............9.....6.......5.7.9....5...9...4......2..5..."
     "91.............6..........8...3.......2..5.7...2..5...........8......6...1.............."
     "..9..3.......2.45..........7...2.45.....2..5...9...45...9......7......56......4.6....2.4"
     "5......3.............8.1..........3.........45....1.........2..5.78..2.4...8..2.45.7...."
     "......9.....6....2..5....",
     72, Technique::kAic, 1, -1, 0, false},
    {"7.4 Forcing Chain: r4c1.9 off",
     "....5.789......7.9.2...........5.78.....5.7891.............6.....3.........4.....1.....7"
     "8....4.......3............78..2............6...1.....7......5............91...5...91...."
     "67.9.....67....3.5.7.....4.......3.5...91.....7...2..............8..2....7.9.....67....."
     "4.......3.567....3.5.7.9.......8..23.5.........6..91........1....6..9..3.............8.."
     "2.......1...5...9...45...9...45...9...4.6..9......7..12...67.91....67.9....5....1..4.67."
     ".1.3...7.9..34....9.23....89...4.6.89.23........3.............8.1................9.....6"
     "....2.4......2.4...........7......5.......4......2...............91.3.5..8.1.3.5..8....."
     "..7....3....8.1......8......6........67......5.........67..1..4...8.1.3....8..234......2"
     "3....891..4...89.23......",
     74, Technique::kAic, 2, 3 * 9 + 0, 9, false},
    {"6.6 Bidirectional Y-Cycle: r1c4,r7c4,r7c2,r1c2",
     ".......8..2......9....5.....2....7........7.91.............6.....3.........4.....1......"
     "...23..6..9.....6..9.234........4...89..345.....2......9......7......5..8....4......23.."
     "...9......7.......6.....3....89..3.5.....2......91............5..8.......7......5......."
     "....8.1.............6....2.........3.........4.............9..3.........4.6......4.6...."
     "......8.....5............9......7...2.......1................91.........2.........34..7."
     "...34..7....34..7......5...........8......6.......5.......4....9..3.........4..7..1....."
     "......4.67.........8......6..9.2........2...6..........8.1................9.23........3."
     ".6......4.........5..........7...2...6.........7.....4....9....5.....2.4............8.1."
     "............6..9..3......",
     66, Technique::kXYChain, 1, -1, 0, false},
};

TEST(SeCycles, TakesSerateStepOnItsStates) {
  for (const SeCycleState& expected : kCycleStates) {
    SCOPED_TRACE(expected.what);
    CandidateGrid state;
    ASSERT_FALSE(ParseCandidates(expected.state, &state));
    Board board(state);
    const Board before = board;
    Step step;
    ASSERT_TRUE(SeCycles(board, &step));
    EXPECT_EQ(step.technique, expected.technique);
    EXPECT_EQ(step.variant, expected.variant);
    EXPECT_EQ(step.se_tenths, expected.tenths);
    const std::string what = expected.what;
    EXPECT_EQ(SeName(step), what.substr(4, what.find(':') - 4));
    EXPECT_TRUE(step.placements.empty());
    if (expected.cell < 0) {
      // A cycle: a loop of links, back to where it starts.
      ASSERT_GE(step.links.size(), 4u);
      EXPECT_EQ(step.links.front().from, step.links.back().to);
      EXPECT_FALSE(step.eliminations.empty());
      continue;
    }
    std::vector<CellDigit> removed;
    const uint16_t digits = expected.kept
                                ? before.open[expected.cell] & ~Bit(expected.digit)
                                : Bit(expected.digit);
    for (int digit = 1; digit <= 9; ++digit) {
      if (digits & Bit(digit)) {
        removed.push_back({static_cast<uint8_t>(expected.cell), static_cast<uint8_t>(digit)});
      }
    }
    EXPECT_EQ(step.eliminations, removed);
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

// A nested chain's step as serate takes it (its log: "10.1 Cell Forcing Chains: r4c3 ==> r5c3.6
// off", after three dynamic chains "+" of 9.9-10.1): the chains from r4c3's candidates meet at
// r5c3 <> 6, the one from 5 through a forcing chain nested in it, from r5c3 = 6 back to its
// removal along eleven links that rest on four of the chain's removals (1 from r2c3, r6c1,
// r6c2, r8c3). Its complexity, 20 of its own and 12 of the nested chain's, rates it 9.5 + 0.6.
TEST(SeChains, NestedChainsTakeTheStepSerateTakes) {
  Grid grid{};
  ASSERT_FALSE(ParsePuzzle(
      "98.7.16..7..5..94.....6....47...3....2...5.....96..4..2...5..1..9.8..2....8.....6", &grid));
  std::vector<Step> chains;
  Walk(grid, Preference::kEasiestSe, [&](const Step& step) {
    if (step.technique == Technique::kForcingChain && step.variant >= 10) chains.push_back(step);
  });
  ASSERT_GE(chains.size(), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(chains[i].variant, 10) << i;
  EXPECT_EQ(chains[3].variant, 16);
  EXPECT_EQ(chains[3].se_tenths, 101);
  EXPECT_EQ(Describe(chains[3]),
            "Dynamic Cell Forcing Chains (+ Forcing Chains): each candidate of r4c3 (1 5 6) leads "
            "to the same: removes 6 from r5c3");
}

// Every step of the path rated for SE, over the fixtures and every tenth puzzle of the shared
// hardest sets: no elimination removes the solution's digit, every placement is the solution's.
// SE's chains are exact by construction only if their propagation is; this checks it where they
// act most.
TEST(SeChains, EveryConclusionHoldsInTheSolution) {
  std::vector<std::string> puzzles;
  for (const char* file : {"serate_chain_ratings.txt", "serate_nested_ratings.txt"}) {
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
