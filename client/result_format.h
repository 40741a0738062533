// The client's output: one line per puzzle, and the summary.
//
// Per puzzle, in input order:
//   the 81-digit solution                    solved (with --unique: and it is the only one)
//   SOLUTION LEVEL HARDEST STEPS GUESSES HODOKU SCORE SE EP ED
//                                            solved, with --rate: e.g. "5346...179 intermediate
//                                            pointing 57 0 medium 312 2.6 2.6 1.2": QQWing's level
//                                            (simple, easy, intermediate, expert), the hardest
//                                            technique the logical solver needed (naked-single,
//                                            hidden-single, pointing, claiming, naked-pair,
//                                            hidden-pair, naked-triple, hidden-triple, x-wing,
//                                            swordfish, skyscraper, ..., forcing-chain, trial:
//                                            the names of logic.h with '-' for ' '), its steps,
//                                            the guesses the fast solver made (as --unique
//                                            counts them, or as --limit does), HoDoKu's level
//                                            (easy, medium, hard, unfair, extreme) and score,
//                                            the Sudoku Explainer rating (1.0-11.9) and its EP
//                                            and ED (SE's "ER/EP/ED"), from solver/rating.h
//   multiple                                 two or more solutions (--unique or --limit 2+)
//   unsolvable                               the givens admit no solution
//   invalid: WHERE: REASON                   e.g. "invalid: line 7, column 12: bad character
//                                            'x' (...)" or "invalid: line 9: expected 81 cells,
//                                            found 80"; with several inputs WHERE starts with
//                                            the file's name: "b.txt, line 9"
// That is OutputFormat::kLine; the others carry the same results (--format):
//   grid   a solution as the boxed 9x9 layout below, any other result as its line; a blank line
//          after each puzzle. Reading the output back gives the solutions again.
//            +-------+-------+-------+
//            | 5 3 4 | 6 7 8 | 9 1 2 |
//            ...
//   json   one JSON object per line: {"puzzle":"...","verdict":"solved","solution":"...",
//          "solutions":1,"guesses":0}, "rating" an object; for an invalid one "error" ("invalid:
//          line 7, column 12: ..."), "where" and "reason", without "puzzle" when the layout
//          kept it from being read: the schema of proto/README.md, written by
//          proto/result_json.h, then as client/json_output.h says (bytes that are not UTF-8 as
//          "\ufffd")
//   csv    a header "puzzle,solution,verdict,error,rating" (OutputHeader()), then a row per
//          puzzle; the reader takes it back by its puzzle column
// With --rate, a solved puzzle's rating ("intermediate pointing 57 0 medium 312 2.6 2.6 1.2")
// follows the solution on its line, the grid on a line of its own, is the object "rating"
// (JSON) or the rating column (CSV); JSON and CSV give a puzzle with several solutions its
// first solution and its rating too. With --rate-only hodoku the rating stops after SCORE
// ("intermediate pointing 57 0 medium 312"), with --rate-only se it is "SE EP ED" alone
// ("2.6 2.6 1.2"); the JSON object has the same keys less those of the path left out.
// The summary, on stderr:
//   puzzles 20, solved 17, multiple 1, unsolvable 1, invalid 1, 0.012 s, 1667 puzzles/s
//
// Thread-safety: stateless functions and plain data.
#ifndef SUDOKU_CLIENT_RESULT_FORMAT_H_
#define SUDOKU_CLIENT_RESULT_FORMAT_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "client/batcher.h"
#include "proto/sudoku.pb.h"
#include "proto/verdicts.h"
#include "solver/solver.h"

namespace sudoku::client {

// The puzzles read, by verdict; layout errors count as invalid. The daemon's batch counts and
// metrics are the same tally.
using Summary = wire::VerdictTally;

enum class OutputFormat : uint8_t { kLine, kGrid, kJson, kCsv };

// "line", "grid", "json", "csv".
const char* Name(OutputFormat format);
// The inverse of Name(); false for anything else.
bool ParseOutputFormat(std::string_view name, OutputFormat* format);
// What goes before the first result: the CSV header line, or nothing.
std::string OutputHeader(OutputFormat format);
// Whether results in `format` show the puzzle as written (json, csv).
bool ShowsPuzzles(OutputFormat format);

// Appends the result of each record of `batch` to `out` in `format` and counts them in
// `summary`. `response` holds the results of the records that were sent, in order (null when
// none was). `prefixes` holds, per input, what goes before a location ("" or "b.txt, "). Throws
// ClientError, saying what does not match, when the response does not fit the batch.
void AppendResults(const Batch& batch, const wire::SolveResponse* response,
                   std::span<const std::string> prefixes, Summary* summary, std::string* out,
                   OutputFormat format = OutputFormat::kLine);

// The solutions of a SolveResponse: `packed_solutions` when the daemon packed them (41 bytes
// each), else `solutions` (81 characters each).
struct SolutionColumn {
  explicit SolutionColumn(const wire::SolveResponse& response);

  const std::string& bytes;
  bool packed;
  size_t bytes_each;  // kPackedBytes or kCells

  // The solution starting at byte `offset` (which holds bytes_each bytes from there), as 81
  // characters: unpacked into `scratch` when packed.
  std::string_view At(size_t offset, std::span<char, kCells> scratch) const;
};

// Per input, the location prefix AppendResults wants: empty for a single input.
std::vector<std::string> LocationPrefixes(const std::vector<std::string>& display_names);

// A wire Technique as one word ("naked-single"), a wire Level as its name ("expert"); values
// out of range come out as "technique-12" or "level-7".
std::string TechniqueToken(int technique);
std::string LevelToken(int level);

std::string FormatSummary(const Summary& summary, double seconds);

// A rate per second as the summaries print it: whole from 10 up ("1667"), two significant
// digits below ("2.5", "0.41"), so that a short run does not read "0 puzzles/s"; "0" for none.
std::string RateText(double per_second);

// 0 when every puzzle was solved (or there were none), 1 otherwise.
int ExitStatus(const Summary& summary);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_RESULT_FORMAT_H_
