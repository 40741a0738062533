// Tests for the ratings of solver/rating.h: exact values for constructed solving paths, the
// level and SE texts, and whole puzzles rated the way logic::Rate() rates them.
#include "solver/rating.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/support/paths.h"
#include "tests/support/puzzles.h"

namespace sudoku::rating {

// How a failed expectation shows the scales: level, score, then ER/EP/ED.
void PrintTo(const Scales& scales, std::ostream* out) {
  *out << Name(scales.hodoku_level) << ' ' << scales.hodoku_score << ' ' << SeText(scales.se_tenths)
       << '/' << SeText(scales.se_pearl_tenths) << '/' << SeText(scales.se_diamond_tenths);
}

namespace {

using logic::Step;
using logic::Technique;
using logic::Link;
using logic::Node;
using logic::Unit;

// A step of `technique`; a single places a digit (the rest eliminate, which the scales ignore
// but for SE's pearl: the hardest step up to the first placement).
Step Of(Technique technique) {
  Step step;
  step.technique = technique;
  if (technique == Technique::kNakedSingle || technique == Technique::kHiddenSingle) {
    step.placements.push_back({0, 1});
  }
  return step;
}

Step HiddenSingleIn(Unit::Kind kind) {
  Step step = Of(Technique::kHiddenSingle);
  step.units.push_back(Unit{kind, 0});
  return step;
}

// `count` copies of `step` after `path`.
std::vector<Step> Then(std::vector<Step> path, const Step& step, int count = 1) {
  for (int i = 0; i < count; ++i) path.push_back(step);
  return path;
}

TEST(Rating, EmptyPathIsTheEasiest) {
  EXPECT_EQ(RateSteps({}), (Scales{HodokuLevel::kEasy, 0, 10, 10, 10}));
}

TEST(Rating, SinglesScoreAndRateAsTheScalesSay) {
  // 10 naked singles (4 points, SE 1.5: see rating.cc) and 5 hidden singles in a box (14 points,
  // SE 1.2).
  const auto path = Then(Then({}, Of(Technique::kNakedSingle), 10),
                         HiddenSingleIn(Unit::Kind::kBox), 5);
  EXPECT_EQ(RateSteps(path), (Scales{HodokuLevel::kEasy, 110, 15, 15, 15}));
  // Hidden singles alone: 1.2 in boxes, 1.5 as soon as one is in a row or column.
  EXPECT_EQ(RateSteps(Then({}, HiddenSingleIn(Unit::Kind::kBox), 3)).se_tenths, 12u);
  EXPECT_EQ(RateSteps(Then({HiddenSingleIn(Unit::Kind::kBox)}, HiddenSingleIn(Unit::Kind::kRow)))
                .se_tenths,
            15u);
}

TEST(Rating, HardestTechniqueSetsLevelAndSe) {
  // 40 hidden singles in rows (560), a pointing (50), a hidden pair (70): medium, 680, SE 3.4.
  auto path = Then({}, HiddenSingleIn(Unit::Kind::kRow), 40);
  path.push_back(Of(Technique::kPointing));
  path.push_back(Of(Technique::kHiddenPair));
  EXPECT_EQ(RateSteps(path), (Scales{HodokuLevel::kMedium, 680, 34, 15, 15}));
  // An x-wing is hard to HoDoKu yet SE rates it below the hidden pair (3.2 < 3.4).
  path.push_back(Of(Technique::kXWing));
  EXPECT_EQ(RateSteps(path), (Scales{HodokuLevel::kHard, 820, 34, 15, 15}));
}

// SE's pearl (EP) and diamond (ED), as serate keeps them: the hardest step so far, read after the
// first step and after the first that places a digit.
TEST(Rating, PearlAndDiamondAreTheHardestBeforeThePlacementAndTheFirstStep) {
  std::vector<Step> path = {Of(Technique::kPointing), Of(Technique::kXWing),
                            HiddenSingleIn(Unit::Kind::kRow), Of(Technique::kAic)};
  path.back().links.resize(4);
  EXPECT_EQ(RateSteps(path), (Scales{HodokuLevel::kUnfair, 484, 70, 32, 26}));
  // A path that opens with a single: all three at once unless a later step is harder.
  path.insert(path.begin(), HiddenSingleIn(Unit::Kind::kBox));
  EXPECT_EQ(RateSteps(path), (Scales{HodokuLevel::kUnfair, 498, 70, 12, 12}));
  // A path that never places (a test's few steps): its pearl is its rating.
  EXPECT_EQ(RateSteps(std::vector<Step>{Of(Technique::kPointing), Of(Technique::kXWing)}),
            (Scales{HodokuLevel::kHard, 190, 32, 32, 26}));
}

// HoDoKu scores its nice loops and AICs 280 points, and 300 with a grouped node; SE's rating of
// the chain does not change, nor its HoDoKu points on SE's path.
TEST(Rating, GroupedNiceLoopsScoreAsHodokusGroupedOnes) {
  Step loop = Of(Technique::kAic);
  loop.variant = 1;
  loop.links = {Link{Node{5, {0}}, Node{5, {4}}, true},
                Link{Node{5, {4}}, Node{5, {30, 31}}, false},
                Link{Node{5, {30, 31}}, Node{5, {27}}, true},
                Link{Node{5, {27}}, Node{5, {0}}, false}};
  const Scales grouped = RateSteps(std::vector<Step>{loop});
  EXPECT_EQ(grouped.hodoku_score, 300u);
  EXPECT_EQ(grouped.hodoku_level, HodokuLevel::kUnfair);
  EXPECT_EQ(RateSteps(std::vector<Step>{loop}, logic::Preference::kEasiestSe).hodoku_score, 280u);
  loop.links[1].to.cells = {31};
  loop.links[2].from.cells = {31};
  const Scales plain = RateSteps(std::vector<Step>{loop});
  EXPECT_EQ(plain.hodoku_score, 280u);
  EXPECT_EQ(plain.se_tenths, grouped.se_tenths);
}

TEST(Rating, ScoreAboveTheCeilingRaisesTheLevel) {
  // 16 pointings: 800 points, medium (the ceiling of easy is 800, of medium 1000).
  EXPECT_EQ(RateSteps(Then({}, Of(Technique::kPointing), 16)).hodoku_level, HodokuLevel::kMedium);
  // 21 pointings: 1050 > 1000, hard.
  EXPECT_EQ(RateSteps(Then({}, Of(Technique::kPointing), 21)),
            (Scales{HodokuLevel::kHard, 1050, 26, 26, 26}));
  // 61 hidden singles: 854 > 800, from easy to medium.
  EXPECT_EQ(RateSteps(Then({}, HiddenSingleIn(Unit::Kind::kRow), 61)).hodoku_level,
            HodokuLevel::kMedium);
}

Step FinnedOf(Technique technique, uint8_t size) {
  Step step = Of(technique);
  step.variant = size;
  return step;
}

// HoDoKu's finned and sashimi fish are worth more with each line: a finned x-wing is hard (130),
// a sashimi one 150; from the swordfish on they are unfair (200, 240; jellyfish 250, 260).
TEST(Rating, FinnedFishAreWorthWhatHodokuSaysForTheirSize) {
  EXPECT_EQ(RateSteps(Then({}, FinnedOf(Technique::kFinnedFish, 2))),
            (Scales{HodokuLevel::kHard, 130, 65, 65, 65}));
  EXPECT_EQ(RateSteps(Then({}, FinnedOf(Technique::kSashimiFish, 2))),
            (Scales{HodokuLevel::kHard, 150, 65, 65, 65}));
  EXPECT_EQ(RateSteps(Then({}, FinnedOf(Technique::kFinnedFish, 3))),
            (Scales{HodokuLevel::kUnfair, 200, 65, 65, 65}));
  EXPECT_EQ(RateSteps(Then({}, FinnedOf(Technique::kSashimiFish, 3))),
            (Scales{HodokuLevel::kUnfair, 240, 65, 65, 65}));
  EXPECT_EQ(RateSteps(Then({}, FinnedOf(Technique::kFinnedFish, 4))).hodoku_score, 250u);
  EXPECT_EQ(RateSteps(Then({}, FinnedOf(Technique::kSashimiFish, 4))).hodoku_score, 260u);
  // The basic fish and subsets of four: hard, 160, 120, 150.
  EXPECT_EQ(RateSteps(Then({}, Of(Technique::kJellyfish))), (Scales{HodokuLevel::kHard, 160, 52, 52, 52}));
  EXPECT_EQ(RateSteps(Then({}, Of(Technique::kNakedQuad))), (Scales{HodokuLevel::kHard, 120, 50, 50, 50}));
  EXPECT_EQ(RateSteps(Then({}, Of(Technique::kHiddenQuad))), (Scales{HodokuLevel::kHard, 150, 54, 54, 54}));
}

// HoDoKu's locked pair and locked triple (a naked subset in a box and a line, clearing both):
// 40 and 60 points, medium; the naked ones 60 and 80.
TEST(Rating, LockedSubsetsAreWorthWhatHodokuSays) {
  Step locked = Of(Technique::kNakedPair);
  locked.variant = 1;
  EXPECT_EQ(RateSteps(Then({}, locked)), (Scales{HodokuLevel::kMedium, 40, 30, 30, 30}));
  locked.technique = Technique::kNakedTriple;
  EXPECT_EQ(RateSteps(Then({}, locked)), (Scales{HodokuLevel::kMedium, 60, 36, 36, 36}));
  EXPECT_EQ(RateSteps(Then({}, Of(Technique::kNakedPair))).hodoku_score, 60u);
  EXPECT_EQ(RateSteps(Then({}, Of(Technique::kNakedTriple))).hodoku_score, 80u);
}

Step TrialOf(uint8_t depth) {
  Step step = Of(Technique::kTrial);
  step.variant = depth;
  return step;
}

TEST(Rating, TrialsWeighByTheirCountAndNesting) {
  const auto singles = Then({}, Of(Technique::kNakedSingle), 50);  // 200 points
  // A trial: extreme, 700 points (a forcing net's), SE 10.0 plus 0.1 a level of nesting.
  EXPECT_EQ(RateSteps(Then(singles, TrialOf(1))), (Scales{HodokuLevel::kExtreme, 900, 101, 15, 15}));
  auto two = Then(singles, TrialOf(5));
  two.push_back(TrialOf(3));
  EXPECT_EQ(RateSteps(two), (Scales{HodokuLevel::kExtreme, 1600, 105, 15, 15}));
  // A choice (variant 0, several solutions) weighs as a trial one level deep.
  EXPECT_EQ(RateSteps(Then(singles, TrialOf(0))),
            (Scales{HodokuLevel::kExtreme, 900, 101, 15, 15}));
  // SE stops at 11.9 however deep.
  EXPECT_EQ(RateSteps(Then(singles, TrialOf(30))).se_tenths, 119u);
}

TEST(Rating, ChainsAddSeLengthBonus) {
  // An x-chain is unfair to HoDoKu (260 points) and 6.5 to SE, plus 0.1 each time its links
  // pass 4, 6, 8, 12, 16, ...
  const std::vector<std::pair<size_t, uint32_t>> lengths = {
      {4, 65}, {5, 66}, {6, 66}, {7, 67}, {8, 67}, {9, 68}, {12, 68}, {13, 69}, {17, 70}};
  for (const auto& [links, se] : lengths) {
    Step chain = Of(Technique::kXChain);
    chain.links.resize(links);
    EXPECT_EQ(RateSteps(std::vector<Step>{chain}), (Scales{HodokuLevel::kUnfair, 260, se, se, se}))
        << links;
  }
  // A forcing chain: extreme, 500 points, 8.2 and up (ten links: 4, 6, 8 passed).
  Step forcing = Of(Technique::kForcingChain);
  forcing.links.resize(10);
  EXPECT_EQ(RateSteps(std::vector<Step>{forcing}), (Scales{HodokuLevel::kExtreme, 500, 85, 85, 85}));
  // SE's own forcing chains come rated by SE's rules (their complexity, not their links): a
  // dynamic contradiction at 9.3, its links none; a multiple chain's placement sets the pearl.
  Step dynamic = Of(Technique::kForcingChain);
  dynamic.variant = 6;
  dynamic.se_tenths = 93;
  dynamic.eliminations.push_back({0, 1});
  EXPECT_EQ(RateSteps(std::vector<Step>{dynamic}, logic::Preference::kEasiestSe).se_tenths, 93u);
  Step multiple = dynamic;
  multiple.variant = 4;
  multiple.se_tenths = 84;
  multiple.eliminations.clear();
  multiple.placements.push_back({0, 1});
  EXPECT_EQ(RateSteps(std::vector<Step>{dynamic, multiple, Of(Technique::kHiddenSingle)},
                      logic::Preference::kEasiestSe),
            (Scales{HodokuLevel::kExtreme, 1014, 93, 93, 93}));
}

TEST(Rating, EachTechniqueHasItsLevel) {
  // The first technique of each HoDoKu level, alone on a path.
  const std::vector<std::pair<Technique, HodokuLevel>> firsts = {
      {Technique::kHiddenSingle, HodokuLevel::kEasy},
      {Technique::kPointing, HodokuLevel::kMedium},
      {Technique::kXWing, HodokuLevel::kHard},
      {Technique::kSkyscraper, HodokuLevel::kHard},
      {Technique::kBugPlusOne, HodokuLevel::kHard},
      {Technique::kXChain, HodokuLevel::kUnfair},
      {Technique::kAlsXz, HodokuLevel::kUnfair},
      {Technique::kForcingChain, HodokuLevel::kExtreme}};
  for (const auto& [technique, level] : firsts) {
    EXPECT_EQ(RateSteps(std::vector<Step>{Of(technique)}).hodoku_level, level)
        << logic::Name(technique);
  }
}

// SE's wings, by the set's cells and its biggest cell's candidates: WXYZ (three cells) 5.6
// where the biggest holds three, else 5.5; VWXYZ (four) 6.4 at three, 6.3 at two or four, 6.2 at
// five; UVWXYZ (five) 6.6.
TEST(Rating, SeWingsAreWorthWhatSeSaysForTheirSizeAndBiggestCell) {
  const std::vector<std::tuple<size_t, uint8_t, uint32_t>> wings = {
      {3, 2, 55}, {3, 3, 56}, {3, 4, 55}, {4, 2, 63}, {4, 3, 64},
      {4, 4, 63}, {4, 5, 62}, {5, 3, 66}, {5, 6, 66}};
  for (const auto& [cells, biggest, se] : wings) {
    Step wing = Of(Technique::kWxyzWing);
    wing.cells.resize(cells + 1);  // the set, then the bivalue cell
    wing.variant = biggest;
    EXPECT_EQ(RateSteps(std::vector<Step>{wing}, logic::Preference::kEasiestSe).se_tenths, se)
        << cells << " cells, biggest " << int{biggest};
  }
}

TEST(Rating, RaterAddsAsRateStepsDoes) {
  const std::vector<Step> path = {Of(Technique::kNakedSingle), Of(Technique::kClaiming),
                                  TrialOf(2), Of(Technique::kSwordfish)};
  Rater rater;
  for (const Step& step : path) rater.Add(step);
  EXPECT_EQ(rater.Result(), RateSteps(path));
}

TEST(Rating, LevelNamesRoundTrip) {
  const std::vector<std::string> names = {"easy", "medium", "hard", "unfair", "extreme"};
  for (size_t i = 0; i < names.size(); ++i) {
    const auto level = static_cast<HodokuLevel>(i);
    EXPECT_EQ(Name(level), names[i]);
    EXPECT_EQ(ParseHodokuLevel(names[i]), level);
  }
  EXPECT_EQ(ParseHodokuLevel("Hard"), std::nullopt);
  EXPECT_EQ(ParseHodokuLevel(""), std::nullopt);
}

TEST(Rating, SeTextHasOneDecimal) {
  EXPECT_EQ(SeText(10), "1.0");
  EXPECT_EQ(SeText(23), "2.3");
  EXPECT_EQ(SeText(119), "11.9");
  EXPECT_EQ(ParseSe("2.3"), 23u);
  EXPECT_EQ(ParseSe("4"), 40u);
  EXPECT_EQ(ParseSe("11.9"), 119u);
  EXPECT_EQ(ParseSe("1.0"), 10u);
  for (const char* bad : {"", "0.9", "12", "12.0", "2.35", "2.", ".5", "x", "2,3", "-1", "100"}) {
    EXPECT_EQ(ParseSe(bad), std::nullopt) << bad;
  }
}

TEST(Rating, RateGridAgreesWithLogicRate) {
  for (const std::string& text :
       {testing::kWikipediaPuzzle, testing::kSimplePuzzle, testing::kSeventeenClues}) {
    Grid grid{};
    ASSERT_FALSE(ParsePuzzle(text, &grid));
    const Ratings ratings = RateGrid(grid);
    const logic::Rating rating = logic::Rate(grid);
    EXPECT_EQ(ratings.qqwing.verdict, rating.verdict);
    EXPECT_EQ(ratings.qqwing.hardest, rating.hardest);
    EXPECT_EQ(ratings.qqwing.steps, rating.steps);
    EXPECT_EQ(ratings.qqwing.guesses, rating.guesses);
    EXPECT_EQ(ratings.qqwing.logic_guesses, rating.logic_guesses);
    EXPECT_EQ(ratings.qqwing.level, rating.level);
    const logic::Explanation explanation = logic::Explain(grid);
    EXPECT_EQ(ratings.scales, RatePuzzle(grid, explanation.steps));
    const Scales path = RateSteps(explanation.steps);
    EXPECT_EQ(ratings.scales.hodoku_level, path.hodoku_level);
    EXPECT_EQ(ratings.scales.hodoku_score, path.hodoku_score);
  }
}

// Each path alone: its own numbers as both paths give them, the other's at their zeros.
TEST(Rating, RateGridWalksOnlyThePathsAskedFor) {
  // From tests/data/logic_steps.txt: pointing and pairs, HoDoKu's medium.
  const std::string pointing =
      "17.........9.....6..5......76.2.81..5...1..84...9......8...1...641.5...99..76...8";
  for (const std::string& text : {testing::kWikipediaPuzzle, testing::kSimplePuzzle,
                                  testing::kSeventeenClues, pointing}) {
    Grid grid{};
    ASSERT_FALSE(ParsePuzzle(text, &grid));
    const Ratings both = RateGrid(grid);
    const Ratings hodoku = RateGrid(grid, RatedPaths::kHodoku);
    EXPECT_EQ(hodoku.qqwing.hardest, both.qqwing.hardest);
    EXPECT_EQ(hodoku.qqwing.steps, both.qqwing.steps);
    EXPECT_EQ(hodoku.qqwing.level, both.qqwing.level);
    EXPECT_EQ(hodoku.scales, (Scales{.hodoku_level = both.scales.hodoku_level,
                                     .hodoku_score = both.scales.hodoku_score}));
    const Ratings se = RateGrid(grid, RatedPaths::kSe);
    EXPECT_EQ(se.qqwing.steps, 0u);
    EXPECT_EQ(se.qqwing.hardest, logic::Technique::kNakedSingle);
    EXPECT_EQ(se.scales, (Scales{.se_tenths = both.scales.se_tenths,
                                 .se_pearl_tenths = both.scales.se_pearl_tenths,
                                 .se_diamond_tenths = both.scales.se_diamond_tenths}));
  }
}

// The fast solver's answer, where the caller has it, is the one both walks take: the ratings
// are those of a grid solved anew, and the answer's own numbers come back (no second solve).
TEST(Rating, RateGridTakesTheSolversAnswerWhereTheCallerHasIt) {
  for (const std::string& text :
       {testing::kWikipediaPuzzle, testing::kSimplePuzzle, testing::kSeventeenClues}) {
    Grid grid{};
    ASSERT_FALSE(ParsePuzzle(text, &grid));
    Result solved = SolveGrid(grid, Limits{.max_solutions = 2});
    const Ratings anew = RateGrid(grid);
    const Ratings given = RateGrid(grid, RatedPaths::kBoth, nullptr, &solved);
    EXPECT_EQ(given.scales, anew.scales) << text;
    EXPECT_EQ(given.qqwing.steps, anew.qqwing.steps) << text;
    EXPECT_EQ(given.qqwing.level, anew.qqwing.level) << text;
    EXPECT_EQ(given.qqwing.guesses, anew.qqwing.guesses) << text;
    solved.guesses = 12345;
    EXPECT_EQ(RateGrid(grid, RatedPaths::kHodoku, nullptr, &solved).qqwing.guesses, 12345u);
  }
}

TEST(Rating, NakedSinglesOnlyPuzzleIsEasy) {
  Grid grid{};
  ASSERT_FALSE(ParsePuzzle(testing::kSimplePuzzle, &grid));
  // 56 naked singles (see tests/support/puzzles.h): 224 points. SE 2.0/1.2/1.2, as serate rates
  // it: SE takes hidden singles first (a box's, 1.2, is its first step and first placement), and
  // where none is left a hidden pair that leaves one (2.0) before a naked single (2.3).
  EXPECT_EQ(RateGrid(grid).scales, (Scales{HodokuLevel::kEasy, 224, 20, 12, 12}));
}

// SE's direct techniques, by its own rules, on SE's path: the puzzle singles solve is 2.0
// (above), the Wikipedia puzzle needs only hidden singles in boxes (1.2), the 17-clue puzzle more
// than direct techniques (serate: 2.6/1.5/1.5, a pointing after hidden singles in lines).
TEST(Rating, SeDirectTechniquesRateAsSeDoes) {
  Grid grid{};
  ASSERT_FALSE(ParsePuzzle(testing::kWikipediaPuzzle, &grid));
  EXPECT_EQ(RateGrid(grid, RatedPaths::kSe).scales,
            (Scales{.se_tenths = 12, .se_pearl_tenths = 12, .se_diamond_tenths = 12}));
  ASSERT_FALSE(ParsePuzzle(testing::kSeventeenClues, &grid));
  const Scales scales = RateGrid(grid).scales;
  EXPECT_EQ(std::make_tuple(scales.se_tenths, scales.se_pearl_tenths, scales.se_diamond_tenths),
            std::make_tuple(26u, 15u, 15u));
}

// The puzzles of a file of serate's ratings ("puzzle ER/EP/ED" lines): how many there are, each
// rated as serate rates it.
int ExpectSerateRatings(const std::string& file_name) {
  std::ifstream in(testing::TestPath("SUDOKU_TEST_DATA_DIR") + "/" + file_name);
  EXPECT_TRUE(in) << file_name;
  int puzzles = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    Grid grid{};
    if (ParsePuzzle(line.substr(0, 81), &grid)) {
      ADD_FAILURE() << file_name << ": " << line;
      continue;
    }
    const Scales scales = RateGrid(grid).scales;
    EXPECT_EQ(SeText(scales.se_tenths) + '/' + SeText(scales.se_pearl_tenths) + '/' +
                  SeText(scales.se_diamond_tenths),
              line.substr(82))
        << line.substr(0, 81);
    // SE's path alone rates it the same.
    const Scales se = RateGrid(grid, RatedPaths::kSe).scales;
    EXPECT_EQ(std::tie(se.se_tenths, se.se_pearl_tenths, se.se_diamond_tenths),
              std::tie(scales.se_tenths, scales.se_pearl_tenths, scales.se_diamond_tenths))
        << line.substr(0, 81);
    ++puzzles;
  }
  return puzzles;
}

// Fresh puzzles serate rated, two or more of each rating from 1.2 to 7.4 (serate_ratings.txt
// says how they were made): the SE rating, pearl and diamond equal serate's ("ER/EP/ED"). One
// of the 4.3s needs SE's order: an empty rectangle (SE's grouped turbot fish, 4.3) taken before
// an xy-wing (4.2), as SE tries its turbot fish rule first. Three (the last 2.6, 2.8 and 3.4)
// need SE's direct hints to place the single they leave and remove nothing: with the hidden
// subset's removals made, the path went on by easier steps (2.0-2.5). Four need SE's strong
// links of two and three (its skyscrapers, string kites, grouped links and X-loops). The last
// 7.1 and the 7.9 need SE's path to take no finned fish nor simple colouring (6.5), which SE
// lacks: its chains find those removals, rated by their length. Four (the 4.6s and the 4.7)
// need SE's unique loops: of six cells, types 2 and 3 (by a hidden pair), 4.6, and of eight,
// type 2, 4.7; without them the path went on by harder steps (5.6-6.5).
TEST(Rating, SeEqualsSerateOnItsFixtures) {
  EXPECT_EQ(ExpectSerateRatings("serate_ratings.txt"), 68);
}

// SE's grouped single-digit chains of its own, its strong links (its "Grouped 2-String Kite" at
// 4.3 and a 3 Strong Links X-Loop at 5.5 on this puzzle, after a 7.1 forcing chain): SE's path
// takes them too (they have grouped nodes, which its alternating chains lack, and without them
// took a 7.2 chain where serate takes the kite). serate: 7.1.
TEST(Rating, SeEqualsSerateWhereSeHasGroupedStrongLinks) {
  Grid grid{};
  ASSERT_FALSE(ParsePuzzle(
      "3..9.128......87..5...3.......1..8....2...5.3.9...6.....6.2.9...3.....6..8..9....", &grid));
  const Scales scales = RateGrid(grid).scales;
  EXPECT_EQ(std::make_tuple(scales.se_tenths, scales.se_pearl_tenths, scales.se_diamond_tenths),
            std::make_tuple(71u, 12u, 12u));
}

// Puzzles SE rates by its forcing chains, multiple (8.x) and dynamic (9.x): SE's own chains on
// its path (logic_se_chains.cc) give its rating, its pearl and its diamond.
TEST(Rating, SeEqualsSerateOnItsChains) {
  EXPECT_EQ(ExpectSerateRatings("serate_chain_ratings.txt"), 9);
}

// Puzzles SE rates by its nested forcing chains, 9.5 and up (serate_nested_ratings.txt says how
// they were made): its dynamic chains with its cycles and forcing chains within (level 2, from
// 9.5) and with its multiple chains within (level 3, from 10.0), each nested chain's complexity
// added to the chain's, give its rating; and a 9.9 whose pointing within a chain rests, as SE's
// does, on the places gone from the box outside the line (not on all of them: 10.0).
TEST(Rating, SeEqualsSerateOnItsNestedChains) {
  EXPECT_EQ(ExpectSerateRatings("serate_nested_ratings.txt"), 4);
}

// SE's nested chains are a puzzle's dearest steps, each a search of SE's cycles or multiple
// chains wherever one of its chains runs out of singles. Cancelled, a walk ends with the step in
// hand (mid-walk: ExplainPuzzle.CancelledWhileRatedStopsAndAnswersNothing); a puzzle with several
// solutions (which SE does not rate) takes none; a walk that spends its nested searches ends by
// trials.
TEST(Rating, NestedChainsStopWhenCancelledAndSkipPuzzlesWithSeveralSolutions) {
  Grid grid{};
  ASSERT_FALSE(ParsePuzzle(
      "98.7..6..7...9.5....4..3.9.6.........2...14....13..27...8.3..4....4.7..5.....8..2", &grid));
  struct Taken {
    int nested = 0, trials = 0, steps = 0;
  };
  const auto walk = [&](const std::atomic<bool>* cancel) {
    Taken taken;
    logic::Walk(
        grid, logic::Preference::kEasiestSe,
        [&](const logic::Step& step) {
          taken.nested += step.technique == logic::Technique::kForcingChain && step.variant >= 14;
          taken.trials += step.technique == logic::Technique::kTrial;
          ++taken.steps;
        },
        cancel);
    return taken;
  };
  const Taken whole = walk(nullptr);
  EXPECT_GT(whole.nested, 0);
  EXPECT_EQ(whole.trials, 0);
  // Cancelled, the walk ends with the step in hand: here, before the first.
  const std::atomic<bool> cancelled{true};
  EXPECT_EQ(walk(&cancelled).steps, 0);
  // Its first clue taken away: several solutions, and no nested chain.
  grid[0] = 0;
  EXPECT_EQ(walk(nullptr).nested, 0);
  // Easter Monster spends the walk's nested searches (kNestedSearches) before its end: trials
  // take their place.
  ASSERT_FALSE(ParsePuzzle(
      "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1", &grid));
  const Taken spent = walk(nullptr);
  EXPECT_GT(spent.nested, 0);
  EXPECT_GT(spent.trials, 0);
}

// Puzzles SE rates by its cycles and forcing chains of X and Y links (6.5-7.x): SE's producer
// of them on its path (SeCycles), where an xy-chain is SE's forcing chain unless it closes a
// Y-cycle, gives its rating.
TEST(Rating, SeEqualsSerateOnItsCycles) {
  EXPECT_EQ(ExpectSerateRatings("serate_cycle_ratings.txt"), 13);
}

}  // namespace
}  // namespace sudoku::rating
