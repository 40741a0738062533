#include "client/batcher.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "client/client_error.h"
#include "client/flags.h"
#include "proto/framing.h"

namespace sudoku::client {
namespace {

// Larger than the default stdio buffer: fewer read() calls on big files.
constexpr size_t kFileBufferBytes = 1 << 18;

// Opens `name` or throws with the reason. A directory opens fine but fails on the first read,
// with a less clear message, so it is caught here.
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

}  // namespace

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
    if (name != kStdinName) Open(name, nullptr);
  }
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
  if (name == kStdinName) {
    file_.reset();
    in_ = stdin_stream_;
  } else {
    file_ = Open(name, &file_buffer_);
    in_ = file_.get();
  }
  const InputFormat format =
      format_ != InputFormat::kAuto || name == kStdinName ? format_ : FormatOfFileName(name);
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
  wire::SolveRequest* solve = request_.mutable_solve();
  solve->set_batch_id(sequence);
  solve->set_solution_limit(solution_limit_);
  solve->set_rate(rate_);
  solve->mutable_puzzles()->Clear();  // keeps the strings for reuse

  while (batch->size < batch_size_) {
    if (reader_ == nullptr && !OpenNext()) break;
    PuzzleRecord& record = batch->records[batch->size];
    if (!reader_->Next(&record)) {
      if (in_->bad()) {
        throw ClientError("cannot read " + Quoted(DisplayNames()[current_input_]) +
                          ": read error");
      }
      reader_.reset();
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
    if (!record.error) {
      solve->add_puzzles()->assign(record.text());
      ++batch->sent;
    }
  }
  batch->frame.clear();
  if (batch->sent > 0) wire::AppendFrame(request_, &batch->frame);
  return batch->size > 0;
}

}  // namespace sudoku::client
