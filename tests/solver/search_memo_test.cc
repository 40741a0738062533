// SearchMemo (solver/logic_board.h): a search the memo lets skip digits or units finds exactly
// what the same search finds looking everywhere. Checked at every turn of both paths (HoDoKu's
// and the easiest on SE's scale) over the fixtures, for every search the memo serves, with the
// memo carried from turn to turn as a walk carries it.
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "solver/logic.h"
#include "solver/logic_board.h"
#include "tests/solver/test_puzzles.h"

namespace sudoku::logic::internal {
namespace {

using SearchFunction = std::function<bool(Board&, Step*)>;

std::vector<std::pair<std::string, SearchFunction>> MemoizedSearches() {
  std::vector<std::pair<std::string, SearchFunction>> searches;
  for (const bool direct : {false, true}) {
    for (const bool pointing : {true, false}) {
      searches.emplace_back(
          std::string(direct ? "direct " : "") + (pointing ? "pointing" : "claiming"),
          [=](Board& board, Step* step) { return Intersection(board, step, pointing, direct); });
    }
  }
  for (int size = 2; size <= 4; ++size) {
    const std::string n = std::to_string(size);
    for (const auto& [kind, name] : {std::pair{SubsetKind::kOneUnit, "naked subset "},
                                     {SubsetKind::kLocked, "locked subset "},
                                     {SubsetKind::kHodoku, "HoDoKu's naked subset "}}) {
      searches.emplace_back(name + n, [=, kind = kind](Board& board, Step* step) {
        return NakedSubset(board, step, size, kind);
      });
    }
    for (const bool direct : {false, true}) {
      searches.emplace_back((direct ? "direct hidden subset " : "hidden subset ") + n,
                            [=](Board& board, Step* step) {
                              return HiddenSubset(board, step, size, direct);
                            });
    }
    searches.emplace_back("fish " + n,
                          [=](Board& board, Step* step) { return Fish(board, step, size); });
    searches.emplace_back("finned fish " + n, [=](Board& board, Step* step) {
      return FinnedFish(board, step, size);
    });
  }
  searches.emplace_back("skyscraper", Skyscraper);
  searches.emplace_back("two-string kite", TwoStringKite);
  searches.emplace_back("turbot fish", TurbotFish);
  searches.emplace_back("empty rectangle", EmptyRectangle);
  searches.emplace_back("simple colouring", SimpleColouring);
  searches.emplace_back("sue de coq", SueDeCoq);
  searches.emplace_back("multi colours", MultiColours);
  searches.emplace_back("SE's Nishio chains", SeNishioChains);
  searches.emplace_back("SE's cycles and forcing X- and XY-chains", SeCycles);
  return searches;
}

void ExpectSameStep(const Step& with_memo, const Step& without, const std::string& where) {
  EXPECT_EQ(with_memo.technique, without.technique) << where;
  EXPECT_EQ(with_memo.variant, without.variant) << where;
  EXPECT_EQ(with_memo.se_tenths, without.se_tenths) << where;
  EXPECT_EQ(with_memo.placements, without.placements) << where;
  EXPECT_EQ(with_memo.eliminations, without.eliminations) << where;
  EXPECT_EQ(with_memo.units, without.units) << where;
  EXPECT_EQ(with_memo.cells, without.cells) << where;
  EXPECT_EQ(with_memo.digits, without.digits) << where;
  EXPECT_EQ(with_memo.links, without.links) << where;
}

// Each search on the board with its memo and on a copy without one, at every turn of the path.
// Counts the searches compared into `checked`.
void CheckPath(const Grid& grid, const std::string& puzzle, Preference preference, int* checked) {
  const Explanation explanation = Explain(grid, preference);
  const auto searches = MemoizedSearches();
  Board board(grid);
  board.unique = explanation.verdict == Verdict::kSolved;
  SearchMemo memo;
  board.memo = &memo;
  for (size_t turn = 0; turn < explanation.steps.size(); ++turn) {
    board.ComputePlaces();
    for (const auto& [name, search] : searches) {
      Board with_memo = board;
      Board without = board;
      without.memo = nullptr;
      Step found_with, found_without;
      const bool found = search(with_memo, &found_with);
      const std::string where = puzzle + " turn " + std::to_string(turn) + ": " + name;
      ASSERT_EQ(found, search(without, &found_without)) << where;
      ++*checked;
      if (!found) continue;
      ExpectSameStep(found_with, found_without, where);
      EXPECT_EQ(with_memo.open, without.open) << where;
    }
    const Step& step = explanation.steps[turn];
    for (const CellDigit& placement : step.placements) board.Place(placement.cell, placement.digit);
    for (const CellDigit& removed : step.eliminations) {
      board.open[removed.cell] &= static_cast<uint16_t>(~Bit(removed.digit));
    }
  }
}

TEST(SearchMemo, SkipsOnlyWhatWouldFindNothing) {
  // The very hard puzzles on HoDoKu's path only: on SE's, their nested chains take seconds
  // each, and the memo's searches are those of the other puzzles' paths.
  std::vector<std::pair<std::string, bool>> puzzles;  // and whether SE's path is checked
  for (const char* file : {"serate_ratings.txt", "very_hard.txt", "logic_steps.txt"}) {
    std::ifstream in(testing::TestPath("SUDOKU_TEST_DATA_DIR") + "/" + file);
    ASSERT_TRUE(in) << file;
    const bool se = std::string(file) != "very_hard.txt";
    for (std::string line; std::getline(in, line);) {
      if (line.size() >= kCells && line[0] != '#') puzzles.emplace_back(line.substr(0, kCells), se);
    }
  }
  ASSERT_GE(puzzles.size(), 100u);
  int checked = 0;
  for (const auto& [puzzle, se] : puzzles) {
    Grid grid{};
    ASSERT_FALSE(ParsePuzzle(puzzle, &grid)) << puzzle;
    for (const Preference preference : {Preference::kHodoku, Preference::kEasiestSe}) {
      if (preference == Preference::kEasiestSe && !se) continue;
      CheckPath(grid, puzzle, preference, &checked);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  // Every search at every turn: tens of thousands of comparisons.
  EXPECT_GT(checked, 100000);
}

}  // namespace
}  // namespace sudoku::logic::internal
