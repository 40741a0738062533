// Fuzz target: the streaming PuzzleReader, on any mix of its formats (one puzzle per line, 9-line
// grids with spaces, '|' and rulers, comments, blank lines, CRLF).
//
// Input: a whole file. Checked: the reader ends; every record is a layout error naming a line
// it has read, or a text each character of which sits in the input at the line and column the
// record gives for it (a candidate grid's: each allowed candidate's digit there, each excluded
// one's cell starting there without it); records come in input order; every location and
// description renders; reading packed without cells (as the client does) gives the same records
// and the same packed bytes.
//
// Columns count characters as a person sees them: a UTF-8 byte-order mark opening the file is
// not one, and a full-width digit (U+FF10-FF19, three bytes) is one. The target rebuilds each
// line that way on its own, so that it checks the reader rather than repeats it.
#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "solver/puzzle_reader.h"
#include "solver/solver.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

// The line with each full-width digit written as its ASCII digit.
std::string Characters(std::string_view bytes) {
  std::string characters;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i + 2 < bytes.size() && bytes[i] == '\xEF' && bytes[i + 1] == '\xBC' &&
        static_cast<unsigned char>(bytes[i + 2]) >= 0x90 &&
        static_cast<unsigned char>(bytes[i + 2]) <= 0x99) {
      characters.push_back(
          static_cast<char>('0' + (static_cast<unsigned char>(bytes[i + 2]) - 0x90)));
      i += 2;
    } else {
      characters.push_back(bytes[i]);
    }
  }
  return characters;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines;  // 1-based line i is lines[i - 1], one char per character
  for (size_t start = 0; start <= input.size();) {
    size_t end = input.find('\n', start);
    if (end == std::string::npos) end = input.size();
    std::string_view bytes = std::string_view(input).substr(start, end - start);
    if (lines.empty() && bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
    lines.push_back(Characters(bytes));
    start = end + 1;
  }

  std::istringstream in(input);
  sudoku::PuzzleReader reader(&in);
  sudoku::PuzzleRecord record;
  uint64_t records = 0;
  uint64_t last_line = 0;
  std::vector<sudoku::PuzzleRecord> read;  // for the second reading below
  while (reader.Next(&record)) {
    FUZZ_CHECK(++records <= size + 1);  // each record uses up at least one line
    read.push_back(record);
    if (record.error) {
      FUZZ_CHECK(record.error.line >= 1 && record.error.line <= reader.lines());
      FUZZ_CHECK(!sudoku::Describe(record.error).empty());
      FUZZ_CHECK(!sudoku::Locate(record.error).empty());
      continue;
    }
    FUZZ_CHECK(record.first_line > last_line && record.first_line <= reader.lines());
    last_line = record.first_line;
    const std::string_view text = record.text();
    FUZZ_CHECK(text.size() == record.size);
    FUZZ_CHECK(record.size == sudoku::kCells || record.size == sudoku::kCandidateChars);
    // A grid of 729 characters is a candidate grid: nine characters per cell in the input.
    const bool candidate_grid = record.layout == sudoku::PuzzleRecord::Layout::kGrid &&
                                record.size == sudoku::kCandidateChars;
    for (int cell = 0; cell < record.size; ++cell) {
      const sudoku::CellSource source = record.Source(cell);
      FUZZ_CHECK(source.line >= record.first_line && source.line <= reader.lines());
      FUZZ_CHECK(source.line <= lines.size());
      const std::string& line = lines[source.line - 1];
      FUZZ_CHECK(source.column >= 1 && source.column <= line.size());
      const char c = text[static_cast<size_t>(cell)];
      if (!candidate_grid) {
        FUZZ_CHECK(line[source.column - 1] == c);
        continue;
      }
      // The cell's nine characters come from one line, where a group of digits starts at the
      // excluded ones' column (after a space, a tab, a '|' or the start of the line) and holds
      // each allowed one's digit, and no other digit, at the column given for it.
      const int first = cell - cell % 9;
      const sudoku::CellSource start = record.Source(first);
      uint32_t group = start.column;
      for (int d = first; d < first + 9; ++d) {
        FUZZ_CHECK(record.Source(d).line == source.line);
        group = std::min(group, record.Source(d).column);
      }
      FUZZ_CHECK(group == 1 || line[group - 2] == ' ' || line[group - 2] == '\t' ||
                 line[group - 2] == '|');
      size_t end = group - 1;
      while (end < line.size() && line[end] >= '1' && line[end] <= '9') ++end;
      FUZZ_CHECK(end == line.size() || line[end] == ' ' || line[end] == '\t' || line[end] == '|' ||
                 line[end] == '\r');
      const std::string_view digits = std::string_view(line).substr(group - 1, end - (group - 1));
      const char digit = static_cast<char>('1' + cell % 9);
      if (c == digit) {
        FUZZ_CHECK(source.column - 1 < end && line[source.column - 1] == digit);
      } else {
        FUZZ_CHECK(c == '.' && source.column == group);
        FUZZ_CHECK(digits.find(digit) == std::string_view::npos);
      }
      if (cell % 9 == 8) {
        // Every digit of the group is one of the cell's candidates: none was dropped.
        for (const char d : digits) FUZZ_CHECK(text[static_cast<size_t>(first + (d - '1'))] == d);
      }
    }
    if (record.packed_cells) {
      // Packed by the reader: the bytes PackPuzzle() writes for the same text.
      sudoku::PackedGrid packed;
      FUZZ_CHECK(sudoku::PackPuzzle(record.text(), packed) && packed == record.packed);
    }
    sudoku::Grid grid;
    const sudoku::PuzzleError error = sudoku::ParsePuzzle(record.text(), &grid);
    FUZZ_CHECK(!sudoku::Locate(record, error).empty());
    if (error) FUZZ_CHECK(!sudoku::Describe(error).empty());
  }
  FUZZ_CHECK(!in.bad());

  // Read again as a client that sends packed puzzles and shows solutions alone reads: the same
  // records, each line the reader packs packed into the caller's slot with its cells left out.
  std::istringstream again(input);
  sudoku::PuzzleReader packing(&again);
  sudoku::PackedGrid slot{};
  size_t index = 0;
  while (packing.Next(&record, slot, /*copy_cells=*/false)) {
    FUZZ_CHECK(index < read.size());
    const sudoku::PuzzleRecord& first = read[index++];
    FUZZ_CHECK(record.error.kind == first.error.kind && record.error.line == first.error.line);
    if (record.error) continue;
    FUZZ_CHECK(record.first_line == first.first_line && record.packed_cells == first.packed_cells);
    if (record.packed_cells) {
      FUZZ_CHECK(record.cells_left_out && record.text().empty() && slot == first.packed);
    } else {
      FUZZ_CHECK(!record.cells_left_out && record.text() == first.text());
    }
  }
  FUZZ_CHECK(index == read.size());
  return 0;
}
