// Multi colours of HoDoKu's type 2 (a colour of one cluster seeing both colours of another is
// false), which no fixture puzzle reaches on the path (type 1 has its fixture in
// tests/data/logic_steps.txt): the search run on a board made for it.
#include <gtest/gtest.h>

#include "solver/explain_text.h"
#include "solver/logic.h"
#include "solver/logic_board.h"

namespace sudoku::logic::internal {
namespace {

TEST(MultiColours, AColourSeeingBothColoursOfAnotherClusterIsFalse) {
  // Digit 1 only in r1c1, r1c5 (a pair in row 1), r2c1, r2c2 (a pair in row 2) and rows 7-9
  // (three places or more in every other unit holding it). r1c1 sees r2c1 and r2c2.
  Board board{Grid{}};
  for (int cell = 0; cell < kCells; ++cell) {
    const bool keeps = cell == 0 || cell == 4 || cell == 9 || cell == 10 || cell >= 54;
    if (!keeps) board.open[cell] &= static_cast<uint16_t>(~Bit(1));
  }
  board.ComputePlaces();
  Step step;
  ASSERT_TRUE(MultiColours(board, &step));
  EXPECT_EQ(step.technique, Technique::kMultiColours);
  EXPECT_EQ(step.variant, 2);
  EXPECT_EQ(step.eliminations, (std::vector<CellDigit>{{0, 1}}));
  EXPECT_EQ(step.cells, (std::vector<uint8_t>{0, 4, 9, 10}));
  EXPECT_EQ(HodokuName(step), "Multi Colors 2");
  EXPECT_EQ(Describe(step),
            "multi colours: 1 coloured r1c1 / r1c5 and r2c1 / r2c2 (a colour of one sees both "
            "colours of the other: it is false): removes 1 from r1c1");
  EXPECT_EQ(board.open[0] & Bit(1), 0);
}

}  // namespace
}  // namespace sudoku::logic::internal
