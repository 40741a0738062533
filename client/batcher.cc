#include "client/batcher.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <ranges>
#include <span>
#include <system_error>


#include "client/client_error.h"
#include "client/flags.h"
#include "proto/codec.h"

namespace sudoku::client {
namespace {

// The file stream's own buffer: what a pipe (a named one, or <(...)) holds, so that one read()
// takes all of it. A regular file bypasses it: the reader asks for more at once (its buffer is
// larger), and the stream then reads straight into the reader's buffer.
constexpr size_t kFileBufferBytes = 1 << 16;

// A batch's records were last written a round of batches ago (megabytes of records back), so
// the reader's first write to each record misses the cache. Fetching the fields (and cells) of
// the record this many ahead overlaps those misses with the reading.
constexpr size_t kPrefetchRecords = 4;

// Opens `name` or throws with the reason. A directory opens fine but fails on the first read,
// with a less clear message, so it is caught here.
// How much of each file CheckInputs() looks at for a NUL byte.
constexpr size_t kBinaryCheckBytes = 4096;

static_assert(wire::kPackedPuzzleBytes == kPackedBytes);

std::unique_ptr<std::ifstream> Open(const std::string& name, std::vector<char>* buffer) {
  std::error_code ignored;
  if (std::filesystem::is_directory(name, ignored)) {
    throw ClientError("cannot open " + Quoted(name) + ": " + std::strerror(EISDIR));
  }
  auto file = std::make_unique<std::ifstream>();
  if (buffer != nullptr) {
    buffer->resize(kFileBufferBytes);
    file->rdbuf()->pubsetbuf(buffer->data(), static_cast<std::streamsize>(buffer->size()));
  }
  errno = 0;
  file->open(name, std::ios::binary);
  if (!file->is_open()) {
    const int error = errno != 0 ? errno : ENOENT;
    throw ClientError("cannot open " + Quoted(name) + ": " + std::strerror(error));
  }
  return file;
}

// The batch goes as text after all (its last record does not pack): the records before it that
// the reader packed without their cells get them back from their packed form, blanks as '0'.
void PutBackCells(Batch* batch) {
  const auto* packed = reinterpret_cast<const uint8_t*>(batch->packed.data());
  size_t slot = 0;  // the packed puzzle of the next record sent
  for (size_t i = 0; i + 1 < batch->size; ++i) {
    PuzzleRecord& record = batch->records[i];
    if (record.error) continue;
    if (record.cells_left_out) {
      const std::span<const uint8_t, kPackedBytes> puzzle(packed + slot * kPackedBytes,
                                                          kPackedBytes);
      UnpackDigits(puzzle, record.cells.data());
      record.cells_left_out = false;
    }
    ++slot;
  }
}

}  // namespace

void AppendSolveFrame(const Batch& batch, uint32_t solution_limit, bool rate,
                      wire::RatingScope scope, std::string* frame) {
  const wire::SolveFields fields{.batch_id = batch.sequence,
                                 .solution_limit = solution_limit,
                                 .rate = rate,
                                 .pack_solutions = true,
                                 .rating_scope = scope};
  if (batch.packed.size() == batch.sent * wire::kPackedPuzzleBytes) {
    wire::AppendPackedSolveFrame(fields, batch.packed, frame);
    return;
  }
  // Anything that does not pack goes as text, for the daemon to report (a bad character) or to
  // take in its own form (pencilmarks).
  auto sent = std::span(batch.records.data(), batch.size) |
              std::views::filter([](const PuzzleRecord& record) { return !record.error; });
  wire::AppendSolveFrame(
      fields, sent, [](const PuzzleRecord& record) { return record.text(); }, frame);
}

Batcher::Batcher(std::vector<std::string> inputs, size_t batch_size, uint32_t solution_limit,
                 std::istream* stdin_stream, InputFormat format)
    : inputs_(std::move(inputs)),
      batch_size_(batch_size),
      solution_limit_(solution_limit),
      stdin_stream_(stdin_stream),
      format_(format) {
  if (inputs_.empty()) inputs_.emplace_back(kStdinName);
}

void Batcher::CheckInputs() const {
  for (const std::string& name : inputs_) {
    if (name == kStdinName) continue;
    std::unique_ptr<std::ifstream> file = Open(name, nullptr);
    // As grep and diff tell text from binary: a NUL byte near the start. (An image or an
    // archive given by mistake would otherwise be read as CSV or as lines of the wrong length.)
    char head[kBinaryCheckBytes];
    file->read(head, sizeof head);
    // A compressed file holds NUL bytes; its text is looked at as it is read.
    if (CompressionOf(std::string_view(head, static_cast<size_t>(file->gcount()))) !=
        Compression::kNone) {
      continue;
    }
    const auto* nul = static_cast<const char*>(
        std::memchr(head, '\0', static_cast<size_t>(file->gcount())));
    if (nul != nullptr) {
      throw ClientError(Quoted(name) + " looks like a binary file (NUL byte at byte " +
                        std::to_string(nul - head + 1) + "), not puzzle text");
    }
  }
}

bool Batcher::ReadsStandardInput() const {
  for (const std::string& name : inputs_) {
    if (name == kStdinName) return true;
  }
  return false;
}

std::vector<std::string> Batcher::DisplayNames() const {
  std::vector<std::string> names;
  for (const std::string& name : inputs_) names.push_back(name == kStdinName ? "stdin" : name);
  return names;
}

uint64_t Batcher::TotalBytes() const {
  uint64_t total = 0;
  for (const std::string& name : inputs_) {
    std::error_code error;
    if (name == kStdinName || !std::filesystem::is_regular_file(name, error)) return 0;
    const uintmax_t size = std::filesystem::file_size(name, error);
    if (error) return 0;
    total += size;
  }
  return total;
}

uint64_t Batcher::BytesRead() {
  if (file_ == nullptr) return bytes_of_closed_files_;
  const std::streamoff position = file_->tellg();
  return bytes_of_closed_files_ + (position > 0 ? static_cast<uint64_t>(position) : 0);
}

bool Batcher::OpenNext() {
  if (next_input_ == inputs_.size()) return false;
  current_input_ = static_cast<uint32_t>(next_input_);
  const std::string& name = inputs_[next_input_++];
  std::istream* raw = nullptr;
  if (name == kStdinName) {
    file_.reset();
    raw = stdin_stream_;
  } else {
    file_ = Open(name, &file_buffer_);
    raw = file_.get();
  }
  // A compressed input is read as the text it holds, its format named by its name without the
  // compression's extension ("puzzles.csv.gz" is CSV).
  compressed_ = OpenCompressed(raw);
  in_ = compressed_ != nullptr ? &compressed_->stream() : raw;
  const InputFormat format = format_ != InputFormat::kAuto || name == kStdinName
                                 ? format_
                                 : FormatOfFileName(WithoutCompressionExtension(name));
  reader_ = std::make_unique<PuzzleReader>(in_, format);
  return true;
}

bool Batcher::Fill(uint64_t sequence, Batch* batch) {
  if (batch->records.size() < batch_size_) {
    batch->records.resize(batch_size_);
    batch->inputs.resize(batch_size_);
  }
  batch->sequence = sequence;
  batch->size = 0;
  batch->sent = 0;
  batch->lost = 0;
  // Room for a full batch, written in place and cut to what was sent at the end (a batch reused
  // at full size is not zero-filled again).
  batch->packed.resize(batch_size_ * kPackedBytes);
  auto* packed = reinterpret_cast<uint8_t*>(batch->packed.data());
  bool packs = true;  // every record sent so far is in batch->packed
  // What reading a line record writes: its fields, and its cells unless they are left out.
  const size_t prefetch_bytes = offsetof(PuzzleRecord, cells) + (keep_cells_ ? kCells : 0);

  while (batch->size < batch_size_) {
    if (reader_ == nullptr && !OpenNext()) break;
    if (batch->size + kPrefetchRecords < batch_size_) {
      const auto address =
          reinterpret_cast<uintptr_t>(&batch->records[batch->size + kPrefetchRecords]);
      for (uintptr_t line = address; line < address + prefetch_bytes; line += 64) {
        __builtin_prefetch(reinterpret_cast<const void*>(line), /*rw=*/1);
      }
    }
    PuzzleRecord& record = batch->records[batch->size];
    // Where this record's puzzle goes if it is sent packed.
    const std::span<uint8_t, kPackedBytes> slot(packed + batch->sent * kPackedBytes,
                                                kPackedBytes);
    // Once the batch goes as text, every record keeps its cells.
    if (!(packs ? reader_->Next(&record, slot, keep_cells_) : reader_->Next(&record))) {
      if (in_->bad()) {
        const std::string why = compressed_ != nullptr && !compressed_->error().empty()
                                    ? compressed_->error()
                                    : std::string("read error");
        throw ClientError("cannot read " + Quoted(DisplayNames()[current_input_]) + ": " + why);
      }
      reader_.reset();
      compressed_.reset();
      if (file_ != nullptr) {
        std::error_code ignored;
        const uintmax_t size = std::filesystem::file_size(inputs_[current_input_], ignored);
        if (!ignored) bytes_of_closed_files_ += size;
      }
      file_.reset();
      continue;
    }
    batch->inputs[batch->size] = current_input_;
    ++batch->size;
    if (record.error) continue;
    ++batch->sent;
    if (!packs || record.packed_cells) continue;
    // Read by the reader's general path (a grid, a line with trailing spaces): packed here.
    record.packed_cells = record.size == kCells && PackPuzzle(record.text(), slot);
    if (!record.packed_cells) {
      packs = false;
      if (!keep_cells_) PutBackCells(batch);
    }
  }
  batch->packed.resize(packs ? batch->sent * kPackedBytes : 0);
  batch->frame.clear();
  if (batch->sent > 0) {
    AppendSolveFrame(*batch, solution_limit_, rate_, rating_scope_, &batch->frame);
  }
  return batch->size > 0;
}

}  // namespace sudoku::client
