#include "solver/puzzle_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace sudoku {
namespace {

constexpr size_t kGridRows = 9;
constexpr size_t kRowCells = 9;

bool IsSeparator(char c) { return c == ' ' || c == '\t' || c == '|'; }
// HoDoKu draws its rulers with '.', ':' and '\'' at the corners (".---.---.", ":---+---:",
// "'---'---'"), SimpleSudoku with '*' ("*-----------*"): joints like '+', except '.', which is
// also a blank cell, and '*', a joint that is also a blank cell (see IsRuler()).
bool IsJoint(char c) { return c == '+' || c == '=' || c == ':' || c == '\'' || c == '*'; }
bool IsRulerChar(char c) { return c == '-' || c == '|' || c == '.' || IsJoint(c); }

// What one line (trailing whitespace removed) could be. Which reading wins depends on whether a
// grid is open, so Next() decides.
struct LineShape {
  bool blank = false;
  bool comment = false;
  bool separated = false;     // has a space, tab or '|'
  bool ruler_chars = true;    // only '-', '|', '.', joints (IsJoint()), spaces and tabs
  bool joints = false;        // has a joint: '+', '=', ':', '\'' or '*'
  bool dots = false;          // has a '.'
  bool stars = false;         // has a '*'
  bool dashes = false;        // has "--"
  uint32_t cells = 0;         // characters other than spaces, tabs and '|'
  size_t length = 0;          // characters after trimming
};

std::string_view TrimRight(std::string_view line) {
  size_t end = line.size();
  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r')) --end;
  return line.substr(0, end);
}

// The offset of the first character of `line` that is neither a cell ('1'-'9', or '.', '0', '_',
// '-', '*' for a blank) nor what lays out a grid (space, tab, '|', '+', '='); npos when there is
// none.
// A line of such characters that is not a puzzle is one of the wrong length or shape: a count
// says more about it than a character would.
size_t FirstBadCharacter(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if ((c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' || c == '*') continue;
    if (c == ' ' || c == '\t' || c == '|' || c == '+' || c == '=') continue;
    return i;
  }
  return std::string_view::npos;
}

LineShape Shape(std::string_view line) {
  LineShape shape;
  shape.length = line.size();
  if (line.empty()) {
    shape.blank = true;
    return shape;
  }
  if (line[0] == '#') {
    shape.comment = true;
    return shape;
  }
  for (const char c : line) {
    if (IsSeparator(c)) {
      shape.separated = true;
      if (c != '|') continue;
    } else {
      ++shape.cells;
    }
    if (!IsRulerChar(c)) shape.ruler_chars = false;
    if (IsJoint(c)) shape.joints = true;
    if (c == '.') shape.dots = true;
    if (c == '*') shape.stars = true;
  }
  shape.dashes = line.find("--") != std::string_view::npos;
  return shape;
}

// A ruler is made of '-', '|', '.' and joints only (so that a mistyped row with a digit in it is
// never skipped) and has a joint, or is not nine cells long: "---------" is a row of nine
// blanks, "+-------+" a ruler. A '.' or a '*' is a blank cell too, so a line with one is a ruler
// only when it also has "--" (HoDoKu's ".-------.-------.-------.", SimpleSudoku's
// "*-----------*"), never "........", ". - . -" or "*********".
bool IsRuler(const LineShape& shape) {
  return shape.ruler_chars && (!(shape.dots || shape.stars) || shape.dashes) &&
         (shape.joints || shape.cells != kRowCells);
}

// A ruler that cannot be a line of 81 blanks: one with a joint or a '.' ("---...---" is a puzzle
// line of 81 blanks, HoDoKu's ".-------.---" or ":----+----:" of 81 characters a candidate
// grid's ruler).
bool IsGridRuler(const LineShape& shape) {
  return IsRuler(shape) && (shape.joints || shape.dots);
}

// A row of a candidate grid (see the top of puzzle_reader.h): groups separated by spaces, tabs or
// '|', at least two, together not 9 characters (then it is a plain row: "534 678 912"), no
// blank ('.', '0', '_', '-', '*': a plain row or a one-line puzzle) among them, and either all
// of digits 1-9 with one group of two digits or more, or (a row with a mistyped character, for
// the candidate grid's error to name it) with two such groups. When they are 81 characters, all
// digits, each group's digits must ascend, as HoDoKu writes a cell's candidates: a puzzle spaced
// out by rows or boxes ("534678912 672195348 ...") never has them so.
bool IsCandidateRow(std::string_view line, const LineShape& shape) {
  if (shape.cells == kRowCells) return false;
  size_t groups = 0;
  size_t length = 0;       // of the current group
  bool digits = true;      // the current group's characters are all digits 1-9
  size_t long_groups = 0;  // of two digits 1-9 or more
  bool all_digits = true;
  bool ascending = true;
  char previous = 0;
  for (size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || IsSeparator(line[i])) {
      if (length >= 2 && digits) ++long_groups;
      length = 0;
      continue;
    }
    const char c = line[i];
    if (c == '.' || c == '0' || c == '_' || c == '-' || c == '*') return false;
    if (length == 0) {
      ++groups;
      digits = true;
    } else if (c <= previous) {
      ascending = false;
    }
    if (c < '1' || c > '9') digits = all_digits = false;
    previous = c;
    ++length;
  }
  if (groups < 2) return false;
  if (shape.cells == kCells) return all_digits && ascending && long_groups >= 1;
  return all_digits ? long_groups >= 1 : long_groups >= 2;
}

// Whether a line of 81 characters may be a candidate grid's row or ruler rather than a puzzle,
// for Next() to look at its shape: it has a space, a tab, a '|' or a joint other than '*' (a
// blank), or starts as HoDoKu's top ruler does.
bool MayBeGridLine(std::string_view line) {
  return line.find_first_of(" \t|+=:'") != std::string_view::npos || line.starts_with(".-");
}

// `line` without a trailing comment: from a '#' after a space or tab ("53..7.... # easy"). A
// '#' with no blank before it stays, to be reported as the bad character it is.
std::string_view StripTrailingComment(std::string_view line) {
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '#' && (line[i - 1] == ' ' || line[i - 1] == '\t')) {
      return TrimRight(line.substr(0, i));
    }
  }
  return line;
}

// The cells of a one-line puzzle written with spaces, tabs or '|' between them ("530070000
// 600195000 ..."), each with its column, as a grid's are kept.
void AddSpacedLine(std::string_view line, uint64_t number, PuzzleRecord* record) {
  record->row_lines.assign(kGridRows, number);
  record->columns.resize(kCells);
  size_t cell = 0;
  for (size_t i = 0; i < line.size() && cell < kCells; ++i) {
    if (IsSeparator(line[i])) continue;
    record->cells[cell] = line[i];
    record->columns[cell] = static_cast<uint32_t>(i + 1);
    ++cell;
  }
}
bool IsRow(const LineShape& shape) { return shape.cells == kRowCells && !IsRuler(shape); }

void AddRow(std::string_view line, uint64_t number, size_t row, PuzzleRecord* record) {
  if (record->row_lines.size() != kGridRows) {
    record->row_lines.resize(kGridRows);
    record->columns.resize(kCells);
  }
  record->row_lines[row] = number;
  size_t cell = row * kRowCells;
  for (size_t i = 0; i < line.size(); ++i) {
    if (IsSeparator(line[i])) continue;
    record->cells[cell] = line[i];
    record->columns[cell] = static_cast<uint32_t>(i + 1);
    ++cell;
  }
}

// The candidates of row `row` of a candidate grid (IsCandidateRow()) into record->pencilmarks,
// each allowed one's column its digit's, each excluded one's its cell's first digit's. Sets the
// record's error instead when the row has not 9 cells, or a cell a character other than a digit
// or a digit twice: the first of those in the row.
void AddCandidateRow(std::string_view line, uint64_t number, size_t row, PuzzleRecord* record) {
  // The count first: a row of the wrong count is more likely a plain row ("53..7....") or a cut
  // line than a cell with a bad character.
  size_t groups = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if (!IsSeparator(line[i]) && (i == 0 || IsSeparator(line[i - 1]))) ++groups;
  }
  if (groups != kRowCells) {
    record->error = {LayoutError::Kind::kCandidateRowLength, number,
                     static_cast<uint32_t>(groups)};
    return;
  }
  record->row_lines[row] = number;
  size_t next_cell = row * kRowCells;
  size_t cell = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (IsSeparator(c)) continue;
    const auto column = static_cast<uint32_t>(i + 1);
    if (i == 0 || IsSeparator(line[i - 1])) {
      cell = next_cell++;
      std::fill_n(record->columns.begin() + static_cast<std::ptrdiff_t>(kRowCells * cell),
                  kRowCells, column);
    }
    if (c < '1' || c > '9') {
      record->error = {LayoutError::Kind::kCandidateCharacter, number,
                       static_cast<unsigned char>(c), 0, column, static_cast<uint32_t>(cell)};
      return;
    }
    const size_t at = kRowCells * cell + static_cast<size_t>(c - '1');
    if (record->pencilmarks[at] != '.') {
      record->error = {LayoutError::Kind::kCandidateRepeat, number,
                       static_cast<uint32_t>(c - '0'), 0, column, static_cast<uint32_t>(cell)};
      return;
    }
    record->pencilmarks[at] = c;
    record->columns[at] = column;
  }
}

// Sets the first error of a record, keeping an earlier one.
void Fail(PuzzleRecord* record, LayoutError::Kind kind, uint64_t line, size_t found) {
  if (!record->error) record->error = {kind, line, static_cast<uint32_t>(found)};
}

// A line of the wrong shape: its first character that no puzzle or row holds is the mistake to
// name, else its length.
void Misshapen(PuzzleRecord* record, LayoutError::Kind kind, uint64_t line, size_t found,
               std::string_view text) {
  const size_t bad = FirstBadCharacter(text);
  if (bad == std::string_view::npos) return Fail(record, kind, line, found);
  if (!record->error) {
    record->error = {LayoutError::Kind::kBadCharacter, line,
                     static_cast<unsigned char>(text[bad]), 0, static_cast<uint32_t>(bad + 1)};
  }
}

// 'x', '\x07': a character as the solver quotes one (puzzle.cc).
std::string Quote(uint32_t byte) {
  char buffer[16];
  if (byte == '\'' || byte == '\\') {
    std::snprintf(buffer, sizeof buffer, "'\\%c'", static_cast<char>(byte));
  } else if (byte >= 0x20 && byte < 0x7f) {
    std::snprintf(buffer, sizeof buffer, "'%c'", static_cast<char>(byte));
  } else {
    std::snprintf(buffer, sizeof buffer, "'\\x%02x'", byte & 0xff);
  }
  return buffer;
}

// "r3c7", as the solver names a cell.
std::string CellName(uint32_t cell) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "r%uc%u", cell / 9 + 1, cell % 9 + 1);
  return buffer;
}

std::string LineText(uint64_t line) { return "line " + std::to_string(line); }

bool IsPuzzleLength(size_t length) { return length == kCells || length == kCandidateChars; }

// The names a CSV header may give the puzzle column, lower case.
constexpr std::string_view kPuzzleColumnNames[] = {"puzzle", "puzzles", "quizzes",
                                                   "quiz",   "grid",    "sudoku"};

bool IsPuzzleColumnName(std::string_view name) {
  while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
  for (const std::string_view known : kPuzzleColumnNames) {
    if (known.size() == name.size() &&
        std::equal(known.begin(), known.end(), name.begin(), [](char a, char b) {
          return a == (b >= 'A' && b <= 'Z' ? static_cast<char>(b - 'A' + 'a') : b);
        })) {
      return true;
    }
  }
  return false;
}

}  // namespace

// Splits the stream into lines through one fixed buffer. Reads what the stream has ready rather
// than waiting for a full buffer, so that puzzles piped in slowly are seen as they arrive.
class PuzzleReader::LineSource {
 public:
  explicit LineSource(std::istream* in)
      : in_(in), buffer_(kBufferBytes), seekable_(IsSeekable(in->rdbuf())) {}

  // The next line without its '\n'. `*length` is its length in bytes; when it is over
  // kMaxLineBytes, `*line` is empty (the line was counted, not kept).
  bool Next(std::string_view* line, size_t* length) {
    while (true) {
      const char* begin = buffer_.data() + begin_;
      const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', end_ - begin_));
      if (newline != nullptr) {
        const size_t size = static_cast<size_t>(newline - begin);
        begin_ += size + 1;
        return Emit(std::string_view(begin, size), line, length);
      }
      if (skipped_ > 0 || end_ - begin_ > kMaxLineBytes) {
        // Too long to keep: count what is buffered and drop it.
        skipped_ += end_ - begin_;
        begin_ = end_ = 0;
      }
      if (eof_) {
        if (skipped_ == 0 && begin_ == end_) return false;
        const std::string_view rest(buffer_.data() + begin_, end_ - begin_);
        begin_ = end_;
        return Emit(rest, line, length);
      }
      Fill();
    }
  }

  // The next line when it is 81 digits and blanks (PackPuzzle()'s characters) ended by '\n' or
  // "\r\n" and already buffered whole: the common line, taken without searching for its end and
  // packed into `packed` as it is checked. False, taking nothing, for any other line.
  bool NextPuzzleLine(std::string_view* line, std::span<uint8_t, kPackedBytes> packed) {
    // Reading more when nothing is buffered waits no longer than Next() would. (A line cut by
    // the end of the buffer is left to Next(), which moves it down: once a buffer.)
    if (begin_ == end_ && !eof_) Fill();
    const size_t buffered = end_ - begin_;
    if (buffered <= kCells || skipped_ > 0) return false;
    const char* begin = buffer_.data() + begin_;
    size_t ending = 1;
    if (begin[kCells] == '\r' && buffered > kCells + 1) ++ending;
    if (begin[kCells + ending - 1] != '\n') return false;
    // HoDoKu's top ruler over a candidate grid 81 characters wide is dots and dashes, which
    // PackPuzzle() would take for blanks: left to Next(), which knows rulers.
    if (begin[0] == '.' && begin[1] == '-') return false;
    const std::string_view text(begin, kCells);
    if (!PackPuzzle(text, packed)) return false;
    begin_ += kCells + ending;
    ++lines_;
    *line = text;
    return true;
  }

  uint64_t lines() const { return lines_; }

 private:
  static constexpr size_t kBufferBytes = 4 * kMaxLineBytes;

  bool Emit(std::string_view text, std::string_view* line, size_t* length) {
    ++lines_;
    if (skipped_ > 0) {
      *length = skipped_ + text.size();
      *line = {};
      skipped_ = 0;
    } else {
      *length = text.size();
      *line = text;
    }
    return true;
  }

  void Fill() {
    if (begin_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    std::streambuf* buf = in_->rdbuf();
    try {
      const auto room = static_cast<std::streamsize>(buffer_.size() - end_);
      if (seekable_) {
        // A file (or a string): asking for the whole room never waits on a writer, and a file
        // stream reads a request larger than its own buffer straight into ours, instead of
        // copying every byte through its buffer.
        const std::streamsize got = buf->sgetn(buffer_.data() + end_, room);
        if (got == 0) {
          eof_ = true;
          in_->setstate(std::ios::eofbit);
        }
        end_ += static_cast<size_t>(got);
        return;
      }
      // A pipe or a terminal: take what has arrived, so that puzzles piped in slowly are seen
      // as they come. sgetc() waits for at least one byte; in_avail() then says how many came
      // with it.
      if (buf == nullptr || std::streambuf::traits_type::eq_int_type(
                                buf->sgetc(), std::streambuf::traits_type::eof())) {
        eof_ = true;
        in_->setstate(std::ios::eofbit);
        return;
      }
      const std::streamsize ready = std::max<std::streamsize>(buf->in_avail(), 1);
      end_ += static_cast<size_t>(buf->sgetn(buffer_.data() + end_, std::min(ready, room)));
    } catch (...) {
      // A read error (filebuf throws from underflow): report it the stream's way.
      eof_ = true;
      in_->setstate(std::ios::badbit);
    }
  }

  // Whether the stream can seek: a file or a string, which a read of any size does not wait on.
  static bool IsSeekable(std::streambuf* buf) {
    return buf != nullptr &&
           buf->pubseekoff(0, std::ios::cur, std::ios::in) != std::streampos(std::streamoff(-1));
  }

  std::istream* in_;
  std::vector<char> buffer_;
  bool seekable_;
  size_t begin_ = 0;
  size_t end_ = 0;
  size_t skipped_ = 0;  // bytes of an over-long line dropped so far
  bool eof_ = false;
  uint64_t lines_ = 0;
};

std::string Describe(const LayoutError& error) {
  const std::string found = std::to_string(error.found);
  switch (error.kind) {
    case LayoutError::Kind::kNone:
      return "no error";
    case LayoutError::Kind::kLineLength:
      return "expected 81 cells, found " + found;
    case LayoutError::Kind::kRowLength:
      return "expected 9 cells in a grid row, found " + found;
    case LayoutError::Kind::kGridEnds:
      return "grid ends after " + found + (error.found == 1 ? " row" : " rows") + " (expected 9)";
    case LayoutError::Kind::kLineTooLong:
      return "line of " + found + " characters is too long (the limit is " +
             std::to_string(PuzzleReader::kMaxLineBytes) + ")";
    case LayoutError::Kind::kCsvNoPuzzleColumn:
      return "CSV header has no puzzle column (expected one named puzzle, puzzles, quizzes, quiz, "
             "grid or sudoku)";
    case LayoutError::Kind::kCsvMissingField:
      return "expected the puzzle in field " + std::to_string(error.field) + ", found " + found +
             (error.found == 1 ? " field" : " fields");
    case LayoutError::Kind::kCsvUnterminatedQuote:
      return "unterminated quote in CSV field " + std::to_string(error.field);
    case LayoutError::Kind::kBadCharacter: {
      PuzzleError bad;
      bad.kind = PuzzleError::Kind::kCharacter;
      bad.character = static_cast<char>(error.found);
      return Describe(bad);  // the solver's words for the same mistake in a puzzle
    }
    case LayoutError::Kind::kCandidateRowLength:
      return "expected 9 cells in a candidate grid row, found " + found;
    case LayoutError::Kind::kCandidateCharacter:
      return "bad character " + Quote(error.found) + " in the candidates of " +
             CellName(error.cell) + " (expected 1-9)";
    case LayoutError::Kind::kCandidateRepeat:
      return "digit " + found + " repeated in the candidates of " + CellName(error.cell);
  }
  return "unknown layout error";
}

char* PuzzleRecord::TextBuffer(size_t text_size) {
  size = static_cast<uint16_t>(text_size);
  if (text_size == kCells) return cells.data();
  pencilmarks.resize(text_size);
  return pencilmarks.data();
}

CellSource PuzzleRecord::Source(int cell) const {
  if (layout == Layout::kGrid) {
    // A row holds 9 characters of text(), or 81 of a candidate grid's.
    return {row_lines[static_cast<size_t>(cell) / (size / kGridRows)],
            columns[static_cast<size_t>(cell)]};
  }
  return {first_line, column_offset + static_cast<uint32_t>(cell + 1)};
}

const char* Name(InputFormat format) {
  switch (format) {
    case InputFormat::kAuto: return "auto";
    case InputFormat::kText: return "text";
    case InputFormat::kSdm: return "sdm";
    case InputFormat::kSdk: return "sdk";
    case InputFormat::kCsv: return "csv";
  }
  return "unknown";
}

bool ParseInputFormat(std::string_view name, InputFormat* format) {
  for (const InputFormat f : {InputFormat::kAuto, InputFormat::kText, InputFormat::kSdm,
                              InputFormat::kSdk, InputFormat::kCsv}) {
    if (name == Name(f)) {
      *format = f;
      return true;
    }
  }
  return false;
}

InputFormat FormatOfFileName(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || name.find('/', dot) != std::string_view::npos) {
    return InputFormat::kAuto;
  }
  std::string extension(name.substr(dot + 1));
  for (char& c : extension) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  if (extension == "sdm") return InputFormat::kSdm;
  if (extension == "sdk") return InputFormat::kSdk;
  if (extension == "csv") return InputFormat::kCsv;
  return InputFormat::kAuto;
}

std::string LocateCell(const PuzzleRecord& record, int cell) {
  const CellSource source = record.Source(cell);
  return LineText(source.line) + ", column " + std::to_string(source.column);
}

std::string LocateRecord(const PuzzleRecord& record) { return LineText(record.first_line); }

std::string Locate(const PuzzleRecord& record, const PuzzleError& error) {
  if (error.kind == PuzzleError::Kind::kNone || error.kind == PuzzleError::Kind::kLength ||
      error.position >= record.size) {
    return LocateRecord(record);
  }
  return LocateCell(record, static_cast<int>(error.position));
}

std::string Locate(const LayoutError& error) {
  if (error.kind == LayoutError::Kind::kBadCharacter ||
      error.kind == LayoutError::Kind::kCandidateCharacter ||
      error.kind == LayoutError::Kind::kCandidateRepeat) {
    return LineText(error.line) + ", column " + std::to_string(error.column);
  }
  return LineText(error.line);
}

PuzzleReader::PuzzleReader(std::istream* in, InputFormat format)
    : source_(std::make_unique<LineSource>(in)), format_(format) {}

PuzzleReader::~PuzzleReader() = default;

uint64_t PuzzleReader::lines() const { return source_->lines(); }

bool PuzzleReader::ReadLine(std::string_view* line, size_t* length) {
  if (!source_->Next(line, length)) return false;
  // A UTF-8 byte-order mark, as some editors on Windows write one, is not a cell.
  if (source_->lines() == 1 && line->starts_with("\xEF\xBB\xBF")) {
    line->remove_prefix(3);
    *length -= 3;
  }
  // Full-width digits (U+FF10-FF19, three bytes each in UTF-8), as an East Asian input method
  // types them, are read as the digits they are, so that cells and columns count characters.
  if (line->find("\xEF\xBC") != std::string_view::npos) {
    narrowed_.clear();
    for (size_t i = 0; i < line->size(); ++i) {
      const auto next = static_cast<unsigned char>(i + 2 < line->size() ? (*line)[i + 2] : 0);
      if (line->compare(i, 2, "\xEF\xBC") == 0 && next >= 0x90 && next <= 0x99) {
        narrowed_.push_back(static_cast<char>('0' + (next - 0x90)));
        i += 2;
      } else {
        narrowed_.push_back((*line)[i]);
      }
    }
    *line = narrowed_;
    *length = narrowed_.size();
  }
  return true;
}

bool PuzzleReader::NextPuzzleLine(PuzzleRecord* record, std::span<uint8_t, kPackedBytes> packed,
                                  bool copy_cells) {
  if (format_ == InputFormat::kSdk || format_ == InputFormat::kCsv) return false;
  // The common case: a puzzle on its line, of nothing but digits and blanks, so no byte-order
  // mark, full-width digit, comment, comma or trailing space either. The general path in
  // Next() would take it the same way, a character at a time.
  std::string_view line;
  if (!source_->NextPuzzleLine(&line, packed)) return false;
  if (format_ == InputFormat::kAuto) format_ = InputFormat::kText;
  record->layout = PuzzleRecord::Layout::kLine;
  record->first_line = source_->lines();
  record->packed_cells = true;
  record->cells_left_out = !copy_cells;
  if (copy_cells) std::memcpy(record->cells.data(), line.data(), kCells);
  return true;
}

bool PuzzleReader::Next(PuzzleRecord* record) { return Next(record, record->packed, true); }

bool PuzzleReader::Next(PuzzleRecord* record, std::span<uint8_t, kPackedBytes> packed,
                        bool copy_cells) {
  record->error = {};
  record->size = kCells;
  record->column_offset = 0;
  record->packed_cells = false;
  record->cells_left_out = false;
  if (csv_stopped_) return false;
  if (format_ == InputFormat::kCsv && csv_header_done_) return NextCsv(record, nullptr);
  // Rows of the open grid so far (0 = no grid open). A line inside a grid that is not a row
  // still takes a row's place, so that one mistyped row spoils one grid, not the puzzles after.
  // The rows are kept (grid_rows_) and read once the grid ends, when it is known whether it is a
  // candidate grid: its first rows may be plain ones ("| 5 3 4 | 6 7 8 | 9 1 2 |").
  size_t rows = 0;
  uint64_t last_row_line = 0;
  auto fail = [record](LayoutError::Kind kind, uint64_t line, size_t found) {
    Fail(record, kind, line, found);
  };
  auto misshapen = [record](LayoutError::Kind kind, uint64_t line, size_t found,
                            std::string_view text) { Misshapen(record, kind, line, found, text); };

  std::string_view raw;
  size_t raw_length = 0;
  while (true) {
    if (rows == 0 && NextPuzzleLine(record, packed, copy_cells)) return true;
    if (!ReadLine(&raw, &raw_length)) break;
    const uint64_t number = source_->lines();
    if (raw_length > kMaxLineBytes) {
      if (rows == 0) {
        record->layout = PuzzleRecord::Layout::kLine;
        record->first_line = number;
        fail(LayoutError::Kind::kLineTooLong, number, raw_length);
        return true;
      }
      KeepRow(rows, number, raw_length, {});
    } else {
      std::string_view line = TrimRight(raw);
      if (format_ != InputFormat::kCsv) line = StripTrailingComment(line);
      if (rows == 0 && line.size() == kCells && line[0] != '#' && format_ != InputFormat::kSdk &&
          format_ != InputFormat::kCsv &&
          (format_ != InputFormat::kAuto || line.find(',') == std::string_view::npos) &&
          !MayBeGridLine(line)) {
        // A line of 81 characters that NextPuzzleLine() did not take (a character other than a
        // digit or blank, trailing spaces, a line cut by the buffer's end), without the
        // character-by-character Shape(): it is a puzzle whatever its characters (the solver
        // judges them), as the general path below decides too.
        if (format_ == InputFormat::kAuto) format_ = InputFormat::kText;
        record->layout = PuzzleRecord::Layout::kLine;
        record->first_line = number;
        std::memcpy(record->cells.data(), line.data(), kCells);
        return true;
      }
      const LineShape shape = Shape(line);
      if (rows == 0) {
        if (shape.blank || shape.comment) continue;
        if (format_ == InputFormat::kAuto) {
          format_ = line.find(',') != std::string_view::npos ? InputFormat::kCsv
                                                              : InputFormat::kText;
        }
        if (format_ == InputFormat::kCsv) return NextCsv(record, &line);
        const bool lines_allowed = format_ != InputFormat::kSdk;
        const bool candidate_row = format_ != InputFormat::kSdm && IsCandidateRow(line, shape);
        // A line of 81 characters is a puzzle, unless (outside .sdm files) it is a candidate
        // grid's row or ruler (MayBeGridLine()).
        const bool grid_line = format_ != InputFormat::kSdm && shape.length == kCells &&
                               (candidate_row || IsGridRuler(shape));
        if (lines_allowed && IsPuzzleLength(shape.length) && !grid_line &&
            (shape.length == kCells || !shape.separated)) {
          record->layout = PuzzleRecord::Layout::kLine;
          record->first_line = number;
          std::memcpy(record->TextBuffer(shape.length), line.data(), shape.length);
          return true;
        }
        if (IsRuler(shape) && format_ != InputFormat::kSdm) continue;  // e.g. above a grid
        if (format_ == InputFormat::kText && shape.separated && shape.cells == kCells &&
            !candidate_row) {
          // 81 cells with blanks between them: one puzzle, each cell located where it is.
          record->layout = PuzzleRecord::Layout::kGrid;
          record->first_line = number;
          AddSpacedLine(line, number, record);
          return true;
        }
        if ((!IsRow(shape) && !candidate_row) || format_ == InputFormat::kSdm) {
          record->layout = PuzzleRecord::Layout::kLine;
          record->first_line = number;
          // A spaced line of more cells than two rows hold was meant as a puzzle, not a row.
          const bool puzzle_like = !shape.separated || shape.cells > 2 * kRowCells;
          if (format_ == InputFormat::kSdm || (puzzle_like && lines_allowed)) {
            misshapen(LayoutError::Kind::kLineLength, number,
                      shape.separated ? shape.cells : shape.length, line);
          } else {
            misshapen(LayoutError::Kind::kRowLength, number, shape.cells, line);
          }
          return true;
        }
        record->layout = PuzzleRecord::Layout::kGrid;
        record->first_line = number;
      } else if (shape.blank || shape.comment) {
        FinishGrid(rows, record);
        fail(LayoutError::Kind::kGridEnds, last_row_line, rows);
        return true;
      } else if (IsRuler(shape)) {
        continue;
      }
      KeepRow(rows, number, 0, line);
    }
    last_row_line = number;
    if (++rows == kGridRows) {
      FinishGrid(rows, record);
      return true;
    }
  }
  if (rows == 0) return false;
  FinishGrid(rows, record);
  fail(LayoutError::Kind::kGridEnds, last_row_line, rows);
  return true;
}

void PuzzleReader::KeepRow(size_t row, uint64_t line, size_t too_long, std::string_view text) {
  GridRow& kept = grid_rows_[row];
  kept.line = line;
  kept.too_long = too_long;
  kept.text.assign(text);
}

void PuzzleReader::FinishGrid(size_t rows, PuzzleRecord* record) {
  bool candidates = false;
  for (size_t r = 0; r < rows && !candidates; ++r) {
    const GridRow& row = grid_rows_[r];
    candidates = row.too_long == 0 && IsCandidateRow(row.text, Shape(row.text));
  }
  if (candidates) {
    record->size = static_cast<uint16_t>(kCandidateChars);
    record->pencilmarks.assign(kCandidateChars, '.');
    record->row_lines.resize(kGridRows);
    record->columns.resize(kCandidateChars);
  }
  // Row by row, so that the first error in the grid is the one reported.
  for (size_t r = 0; r < rows; ++r) {
    const GridRow& row = grid_rows_[r];
    if (row.too_long > 0) {
      Fail(record, LayoutError::Kind::kLineTooLong, row.line, row.too_long);
    } else if (candidates) {
      if (!record->error) AddCandidateRow(row.text, row.line, r, record);
    } else if (const LineShape shape = Shape(row.text); IsRow(shape)) {
      if (!record->error) AddRow(row.text, row.line, r, record);
    } else {
      Misshapen(record, LayoutError::Kind::kRowLength, row.line, shape.cells, row.text);
    }
  }
}

bool PuzzleReader::NextCsv(PuzzleRecord* record, const std::string_view* pending) {
  record->layout = PuzzleRecord::Layout::kLine;
  auto fail = [record](LayoutError::Kind kind, uint64_t line, size_t found, size_t field) {
    record->error = {kind, line, static_cast<uint32_t>(found), static_cast<uint32_t>(field)};
    return true;
  };
  std::string_view line;
  if (pending != nullptr) line = *pending;
  for (bool have = pending != nullptr;; have = false) {
    if (!have) {
      std::string_view raw;
      size_t length = 0;
      if (!ReadLine(&raw, &length)) return false;
      if (length > kMaxLineBytes) {
        record->first_line = source_->lines();
        return fail(LayoutError::Kind::kLineTooLong, source_->lines(), length, 0);
      }
      line = TrimRight(raw);
      if (line.empty() || line[0] == '#') continue;
    }
    const uint64_t number = source_->lines();
    record->first_line = number;

    // Split into fields; a quoted field keeps the characters inside its quotes.
    fields_.clear();
    size_t at = 0;
    for (;;) {
      CsvField field;
      if (at < line.size() && line[at] == '"') {
        size_t close = at + 1;
        while (close < line.size() &&
               (line[close] != '"' || (close + 1 < line.size() && line[close + 1] == '"'))) {
          close += line[close] == '"' ? 2 : 1;
        }
        if (close >= line.size()) {
          return fail(LayoutError::Kind::kCsvUnterminatedQuote, number, 0, fields_.size() + 1);
        }
        field = {static_cast<uint32_t>(at + 1), static_cast<uint32_t>(close)};
        at = close + 1;
        while (at < line.size() && line[at] != ',') ++at;  // anything after the quote is ignored
      } else {
        const size_t comma = std::min(line.find(',', at), line.size());
        field = {static_cast<uint32_t>(at), static_cast<uint32_t>(comma)};
        at = comma;
      }
      fields_.push_back(field);
      if (at >= line.size()) break;
      ++at;  // the comma
    }

    if (!csv_header_done_) {
      csv_header_done_ = true;
      const auto puzzle = std::find_if(fields_.begin(), fields_.end(), [](const CsvField& f) {
        return IsPuzzleLength(f.end - f.begin);
      });
      if (puzzle == fields_.end()) {
        const auto named = std::find_if(fields_.begin(), fields_.end(), [&](const CsvField& f) {
          return IsPuzzleColumnName(line.substr(f.begin, f.end - f.begin));
        });
        if (named == fields_.end()) {
          csv_stopped_ = true;
          return fail(LayoutError::Kind::kCsvNoPuzzleColumn, number, 0, 0);
        }
        csv_column_ = static_cast<uint32_t>(named - fields_.begin());
        continue;  // a header
      }
      csv_column_ = static_cast<uint32_t>(puzzle - fields_.begin());
    }
    if (fields_.size() <= csv_column_) {
      return fail(LayoutError::Kind::kCsvMissingField, number, fields_.size(), csv_column_ + 1);
    }
    const CsvField& field = fields_[csv_column_];
    const size_t size = field.end - field.begin;
    if (!IsPuzzleLength(size)) {
      return fail(LayoutError::Kind::kLineLength, number, size, 0);
    }
    record->column_offset = field.begin;
    std::memcpy(record->TextBuffer(size), line.data() + field.begin, size);
    return true;
  }
}

}  // namespace sudoku
