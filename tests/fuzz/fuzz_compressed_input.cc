// Fuzz target: the client's compressed input (client/compressed_input.h), on any bytes: text,
// gzip, xz and zstd streams, corrupt or cut short.
//
// Input: a whole file. Checked, read from a file (seekable) and from a pipe: the read ends; a
// stream that is not compressed comes back byte for byte; a compressed one either decodes or
// stops with a read error whose words say what is wrong ("corrupt gzip stream: ...").
#include <sstream>
#include <string>

#include "client/compressed_input.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/support/pipe_buffer.h"

namespace {

using sudoku::client::CompressedInput;
using sudoku::client::Compression;
using sudoku::client::CompressionOf;
using sudoku::client::OpenCompressed;
using sudoku::testing::PipeBuffer;

// Everything `in` yields, or nothing past a failed read (then `*failed`).
std::string ReadAll(std::istream& in, bool* failed) {
  std::string text;
  char chunk[4096];
  try {
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
      text.append(chunk, static_cast<size_t>(in.gcount()));
    }
  } catch (...) {
    *failed = true;
  }
  *failed = *failed || in.bad();
  return text;
}

void Check(const std::string& bytes, std::istream* raw) {
  const auto compressed = OpenCompressed(raw);
  bool failed = false;
  if (compressed == nullptr) {
    FUZZ_CHECK(CompressionOf(bytes) == Compression::kNone);
    FUZZ_CHECK(ReadAll(*raw, &failed) == bytes);
    FUZZ_CHECK(!failed);
    return;
  }
  const std::string text = ReadAll(compressed->stream(), &failed);
  if (compressed->compression() == Compression::kNone) {
    FUZZ_CHECK(!failed && text == bytes);
    return;
  }
  FUZZ_CHECK(CompressionOf(bytes) == compressed->compression());
  if (failed) FUZZ_CHECK(compressed->error().rfind("corrupt ", 0) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::istringstream file(bytes);
  Check(bytes, &file);
  PipeBuffer pipe_buffer(bytes);
  std::istream pipe(&pipe_buffer);
  Check(bytes, &pipe);
  return 0;
}
