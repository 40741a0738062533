// Reads puzzles from text as people and programs write them, one record per puzzle, keeping where
// each cell came from so that an error can name its line and column.
//
// Layouts, any mix of them in one input:
//   - one puzzle per line: exactly 81 characters once a trailing '\r' and trailing spaces and
//     tabs are removed (unless it is a candidate row, or a ruler with a joint or a '.', as a
//     candidate grid 81 characters wide has them); or (kText only, outside a grid) 81 cells
//     with spaces, tabs or '|' between them ("530070000 600195000 ...", "5 3 0 0 7 ..."), read
//     as a kGrid record so that each cell keeps its own column;
//   - a 9-line grid: each row a line whose cells, once spaces, tabs and '|' are removed, are
//     exactly 9 characters ("1 _ 3 | _ _ 6 | _ 8 _", "53..7....", "- - - 4 ...", "53**7****").
//     Ruler lines ("+-------+", "------+------", "=====", HoDoKu's ".-------.-------.-------.",
//     ":-------+-------+-------:" and "'-------'-------'-------'", SimpleSudoku's
//     "*-----------*") are skipped anywhere: a ruler is made of '-', '|', '.', the joints '+',
//     '=', ':', '\'' and '*', spaces and tabs only, has "--" if it has a '.' or a '*' (both are
//     blanks too), and has a joint or is not 9 cells long, so that "---------", "........." and
//     "*********" are rows of nine blanks. Inside a grid, any other line takes a row's place
//     (spoiling the grid with an error); a blank line, a comment or the end of the input cuts it
//     short;
//   - a 9-line candidate grid, as HoDoKu's "Copy PM grid" writes one (or with SimpleSudoku's
//     '*' corners): "| 5    3    1249 | 2468 7    2468 | 1489 1249 248  |", rulers as above,
//     each row 9 cells separated by spaces, tabs or '|', a cell being the digits 1-9 allowed
//     there (one digit: a given or placed one). It is read as the pencilmark puzzle below, of
//     729 characters, each cell's nine from its digits. A grid is a candidate grid when one of
//     its rows is a candidate row: its groups (separated by spaces, tabs or '|') are at least
//     two, together not 9 characters (a row of 9 digits, however grouped, as in "534 678 912",
//     is a plain row), hold no blank ('.', '0', '_', '-', '*'), and are all of digits 1-9 with
//     one of two digits or more, or have two such groups (a row with a mistyped letter still
//     opens the candidate grid, whose error names the letter); a row of 81 cells is a candidate
//     row only when they are all digits and those of each group ascend, as HoDoKu writes them
//     (else it is one puzzle spaced out by rows or boxes, "534678912 672195348 ..."). Its
//     characters keep their lines and columns: an allowed candidate is located at its digit, an
//     excluded one at the first digit of its cell. A one-line puzzle of the wrong length whose
//     groups happen to look like a candidate row opens a candidate grid, and its error is then
//     the grid's;
//   - blank lines and lines starting with '#' are skipped outside grids; in every format but
//     CSV, a '#' after a space or tab starts a trailing comment, which is dropped
//     ("53..7....6..195... # from Wikipedia");
//   - a pencilmark puzzle: one line of exactly 729 characters (solver.h, kCandidateChars).
// Those are InputFormat::kText. The other formats (chosen by the caller, or by InputFormat::kAuto
// from the content):
//   - kSdm: one puzzle per line only (81 or 729 characters), as .sdm collections hold them;
//   - kSdk: 9-line grids only, as .sdk files (SadMan, SudoCue) hold one, with '#' lines for
//     author, description and the like before it;
//   - kCsv: comma-separated values with a puzzle column. The first line is a header when none of
//     its fields is 81 or 729 characters long, and then names the puzzle column: "puzzle",
//     "puzzles", "quizzes" (Kaggle's "quizzes,solutions"), "quiz", "grid" or "sudoku", any case.
//     Without a header, the puzzle column is the first field of 81 or 729 characters. A field
//     may be quoted, with a doubled quote for a quote inside; it does not span lines.
//   Blank lines and '#' comments are skipped in every format.
// The reader checks layout only. What the cells hold (digits, blanks, clashes) is ParsePuzzle's
// job, and Locate() turns its PuzzleError into a line and column of the input.
//
// Memory stays constant whatever the input: lines are read through a fixed buffer and a line
// longer than kMaxLineBytes is counted, not stored.
//
// Thread-safety: a PuzzleReader is used by one thread at a time. PuzzleRecord is plain data.
#ifndef SUDOKU_SOLVER_PUZZLE_READER_H_
#define SUDOKU_SOLVER_PUZZLE_READER_H_

#include <array>
#include <cstdint>
#include <istream>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "solver/solver.h"

namespace sudoku {

// Why a record could not be formed. Locations are 1-based.
struct LayoutError {
  enum class Kind : uint8_t {
    kNone,
    // A line that is neither blank, a comment, a grid row nor a ruler, and has no space, tab or
    // '|' (or, outside a grid, has them and more than 18 cells): taken as a one-line puzzle of
    // the wrong length. `found` = its characters (its cells, when spaced).
    // "expected 81 cells, found 80"
    kLineLength,
    // A line with spaces, tabs or '|' (or any line inside a grid) that is not a row of 9 cells
    // and, outside a grid, has at most 18.
    // `found` = its cells. "expected 9 cells in a grid row, found 8"
    kRowLength,
    // A blank line, a comment or the end of the input after `found` rows of a grid (1-8).
    // `line` = the grid's last row. "grid ends after 4 rows (expected 9)"
    kGridEnds,
    // A line over kMaxLineBytes. `found` = its length in bytes.
    // "line of 70000 characters is too long (the limit is 65536)"
    kLineTooLong,
    // A CSV header without a puzzle column; the rest of that input is not read.
    // "CSV header has no puzzle column (expected one named puzzle, puzzles, quizzes, quiz, grid
    // or sudoku)"
    kCsvNoPuzzleColumn,
    // A CSV row too short to reach the puzzle column. `found` = its fields, `field` = the
    // puzzle column (1-based). "expected the puzzle in field 2, found 1 field"
    kCsvMissingField,
    // A quote opened in field `field` (1-based) and not closed on its line.
    // "unterminated quote in CSV field 3"
    kCsvUnterminatedQuote,
    // A line that is not a puzzle, a row or a ruler (what kLineLength and kRowLength describe)
    // and holds a character no puzzle or row has: that one is named instead of the count.
    // `found` = the byte, `column` = where (1-based). "bad character 'x' (expected 1-9, or .
    // 0 _ - * for a blank)", located "line 1, column 1".
    kBadCharacter,
    // A row of a candidate grid that does not have 9 cells (groups of digits). `found` = its
    // cells. "expected 9 cells in a candidate grid row, found 8"
    kCandidateRowLength,
    // A character other than a digit 1-9 in a cell of a candidate grid. `found` = the byte,
    // `cell` = the cell (0-80), `column` = where. "bad character '0' in the candidates of r1c3
    // (expected 1-9)", located "line 2, column 14".
    kCandidateCharacter,
    // A digit written twice in one cell of a candidate grid. `found` = the digit (1-9), `cell`
    // = the cell (0-80), `column` = its second occurrence. "digit 4 repeated in the candidates
    // of r1c3", located "line 2, column 16".
    kCandidateRepeat,
  };
  Kind kind = Kind::kNone;
  uint64_t line = 0;
  uint32_t found = 0;
  uint32_t field = 0;
  uint32_t column = 0;  // kBadCharacter and the kCandidate kinds but kCandidateRowLength
  uint32_t cell = 0;    // kCandidateCharacter and kCandidateRepeat only

  explicit operator bool() const { return kind != Kind::kNone; }
};

// The reason in words, without the location (see the kinds above for each text).
std::string Describe(const LayoutError& error);

// Where a cell of a record came from.
struct CellSource {
  uint64_t line = 0;
  uint32_t column = 0;
};

// One puzzle as read, or the layout error that kept it from being formed.
//
// Small for the common case, an 81-character line: its fields and cells take two cache lines,
// its fields alone one (the record starts a cache line).
// Clients keep thousands of records in flight and reuse them, so the size is what their reading
// costs: records of over a kilobyte (room for a pencilmark puzzle and a grid's positions in each)
// left the cache between uses, and writing them took most of a client's reading time. A
// pencilmark puzzle's text and a grid's positions live in storage of their own, allocated by
// the first record that needs it and kept when the record is reused.
struct alignas(64) PuzzleRecord {
  enum class Layout : uint8_t { kLine, kGrid };

  // The fields every record sets come first, within 64 bytes: a line record read without its
  // cells (PuzzleReader::Next() with a packed destination) writes nothing else.
  uint16_t size = kCells;
  Layout layout = Layout::kLine;
  // The reader packed the cells two to a byte as PackPuzzle() packs them (into `packed`, or
  // where the caller asked): it packs a line of 81 digits and blanks as it checks it, so that a
  // client sends it without converting it a second time. Unset for every other record, whose
  // cells are not checked here.
  bool packed_cells = false;
  // Line records: the column before the puzzle's first character (0, or more for a CSV field).
  uint32_t column_offset = 0;
  // The line of the puzzle, or of the grid's first row.
  uint64_t first_line = 0;
  LayoutError error;
  // The caller asked for the packed cells only, and `cells` was left as it was: text() is empty.
  bool cells_left_out = false;
  // The 81 cells in row-major order, as written (valid when !error, size == kCells and
  // !cells_left_out).
  std::array<char, kCells> cells{};
  // Where Next(record) packs the cells (see `packed_cells`).
  PackedGrid packed{};
  // The 729 characters of a pencilmark puzzle (valid when !error and size == kCandidateChars),
  // written on one line or read from a candidate grid (a kGrid record).
  std::string pencilmarks;
  // Grid records only: the line of each row and the column of each character of text() (81,
  // or 729 for a candidate grid). Left stale for line records, so that reading one costs no
  // more than copying its 81 characters.
  std::vector<uint64_t> row_lines;
  std::vector<uint32_t> columns;

  // The puzzle as written: size characters, or none when the cells were left out.
  std::string_view text() const {
    if (size != kCells) return pencilmarks;
    return cells_left_out ? std::string_view() : std::string_view(cells.data(), kCells);
  }
  // Where `size` characters of text go (81, or 729 for a pencilmark puzzle); sets `size`.
  char* TextBuffer(size_t text_size);
  // Where character `cell` (0-80, or 0-728 for a pencilmark puzzle) came from. In a candidate
  // grid, an excluded candidate (a '.' of text()) comes from the first digit of its cell.
  CellSource Source(int cell) const;
};

// "line 12" for an error about the whole puzzle (its length) or "line 12, column 40" for one
// about a cell (the cell ParsePuzzle points at: the bad character, or a repeated digit's second
// occurrence).
std::string Locate(const PuzzleRecord& record, const PuzzleError& error);
// "line 12, column 40": where character `cell` of the record's text (0-80, or 0-728) came from.
std::string LocateCell(const PuzzleRecord& record, int cell);
// "line 12": where the record starts.
std::string LocateRecord(const PuzzleRecord& record);
// "line 7": where a layout error is ("line 7, column 3" for a bad character, in a candidate
// grid's cell too, and for a digit repeated in one).
std::string Locate(const LayoutError& error);

// How an input is laid out (see the top of this file).
enum class InputFormat : uint8_t {
  kAuto,  // kCsv when the first line that is not blank or a comment has a comma, else kText
  kText,
  kSdm,
  kSdk,
  kCsv,
};

// "auto", "text", "sdm", "sdk", "csv".
const char* Name(InputFormat format);
// The inverse of Name(); false for anything else.
bool ParseInputFormat(std::string_view name, InputFormat* format);
// The format a file name's extension calls for (.sdm, .sdk, .csv, any case), else kAuto.
InputFormat FormatOfFileName(std::string_view name);

class PuzzleReader {
 public:
  static constexpr size_t kMaxLineBytes = 65536;

  // Reads from `in`, which must outlive the reader, laid out as `format` says.
  explicit PuzzleReader(std::istream* in, InputFormat format = InputFormat::kAuto);
  ~PuzzleReader();
  PuzzleReader(const PuzzleReader&) = delete;
  PuzzleReader& operator=(const PuzzleReader&) = delete;

  // Fills `record` with the next puzzle or layout error. False at the end of the input (check
  // the stream's bad() for a read error then).
  bool Next(PuzzleRecord* record);

  // Next() for a caller that sends puzzles packed: a line of 81 digits and blanks is packed into
  // `packed` instead of record->packed, and its cells are copied into the record only when
  // `copy_cells` (else record->cells_left_out is set). A client that prints solutions alone never
  // reads those cells again, and leaving them out leaves one cache line of the record to write.
  // Any other record is read as Next() reads it, cells included, and `packed` is not written.
  bool Next(PuzzleRecord* record, std::span<uint8_t, kPackedBytes> packed, bool copy_cells);

  // Lines read so far.
  uint64_t lines() const;

 private:
  class LineSource;

  // The next line from source_ as the reader sees it: a byte-order mark opening the input
  // dropped, full-width digits made ASCII (in narrowed_). As LineSource::Next().
  bool ReadLine(std::string_view* line, size_t* length);
  // Next() for a line of 81 digits and blanks (see LineSource::NextPuzzleLine()), packing it
  // as it checks it; false, reading nothing, for anything else.
  bool NextPuzzleLine(PuzzleRecord* record, std::span<uint8_t, kPackedBytes> packed,
                      bool copy_cells);
  // Next() once the input is known to be CSV; `line` is the first line not yet handled, if any.
  bool NextCsv(PuzzleRecord* record, const std::string_view* line);
  // Keeps the line read as row `row` of the open grid: its text, or its length when it was too
  // long to keep (`too_long` > 0).
  void KeepRow(size_t row, uint64_t line, size_t too_long, std::string_view text);
  // Reads the `rows` rows kept into `record`, as a candidate grid when one of them is a
  // candidate row (see the top of this file), else as a plain grid; sets the first error.
  void FinishGrid(size_t rows, PuzzleRecord* record);

  // A CSV field's characters in its line: [begin, end), inside the quotes of a quoted field.
  struct CsvField {
    uint32_t begin = 0;
    uint32_t end = 0;
  };

  // A row of the open grid, as KeepRow() keeps it.
  struct GridRow {
    uint64_t line = 0;
    size_t too_long = 0;
    std::string text;
  };

  std::unique_ptr<LineSource> source_;
  std::array<GridRow, 9> grid_rows_;  // the open grid's, kept for their storage
  InputFormat format_;
  std::vector<CsvField> fields_;  // the current CSV line's, kept for its storage
  std::string narrowed_;          // the current line, full-width digits made ASCII
  bool csv_header_done_ = false;
  bool csv_stopped_ = false;   // after kCsvNoPuzzleColumn
  uint32_t csv_column_ = 0;    // the puzzle column, 0-based
};

}  // namespace sudoku

#endif  // SUDOKU_SOLVER_PUZZLE_READER_H_
