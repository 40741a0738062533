// The names of the techniques a puzzle can be generated to need, as every error that lists them
// writes them (generator.h's NeedsNames(): the library's, the daemon's, the API's and the
// client's messages). Written out here once, so that each suite checks the exact words.
#ifndef SUDOKU_TESTS_SUPPORT_TECHNIQUE_NAMES_H_
#define SUDOKU_TESTS_SUPPORT_TECHNIQUE_NAMES_H_

#include <string_view>

namespace sudoku::testing {

// Every technique an explanation takes a step of, in logic::Technique's order; not SE's
// wxyz-wing, which only SE's rating path takes.
inline constexpr std::string_view kNeedableTechniqueNames =
    "naked single, hidden single, pointing, claiming, naked pair, hidden pair, naked triple, "
    "hidden triple, naked quad, hidden quad, x-wing, swordfish, jellyfish, remote pair, "
    "skyscraper, two-string kite, turbot fish, empty rectangle, xy-wing, xyz-wing, w-wing, "
    "simple colouring, multi colours, unique rectangle, hidden rectangle, bug+1, finned fish, "
    "sashimi fish, sue de coq, x-chain, xy-chain, alternating inference chain, als-xz, forcing "
    "chain or trial";

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_SUPPORT_TECHNIQUE_NAMES_H_
