// Puzzle collections as people share them: compressed with gzip, xz or zstd. A stream is known
// by its first bytes (its magic number), whatever its name says, and read through the
// decompressors of Boost.Iostreams; a corrupt or truncated stream is an error that says so.
//
// Thread-safety: a CompressedInput is used by one thread at a time.
#ifndef SUDOKU_CLIENT_COMPRESSED_INPUT_H_
#define SUDOKU_CLIENT_COMPRESSED_INPUT_H_

#include <cstddef>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

namespace sudoku::client {

enum class Compression { kNone, kGzip, kXz, kZstd };

// The longest magic number: xz's six bytes.
inline constexpr size_t kMagicBytes = 6;

// The compression a stream whose first bytes are `head` is in (kNone for text, and for a head
// too short to tell).
Compression CompressionOf(std::string_view head);

// "gzip", "xz", "zstd" ("" for kNone).
const char* CompressionName(Compression compression);

// A file name without the extension of its compression: "puzzles.csv.gz" -> "puzzles.csv".
std::string_view WithoutCompressionExtension(std::string_view name);

// The text of a compressed stream.
class CompressedInput {
 public:
  // Reads what follows `head` (the first bytes, already taken from `raw`) through the
  // decompressor of `compression`; kNone passes the bytes through as they are. `raw` must
  // outlive this object.
  CompressedInput(std::istream* raw, std::string head, Compression compression);
  ~CompressedInput();
  CompressedInput(const CompressedInput&) = delete;
  CompressedInput& operator=(const CompressedInput&) = delete;

  std::istream& stream();
  Compression compression() const;
  // After a read failed: why, e.g. "corrupt gzip stream: its CRC-32 does not match"; empty when
  // the decompressor reported nothing (the read of the file itself failed).
  const std::string& error() const;

 private:
  class Buffer;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::istream> stream_;
};

// The decompressed text of `raw` when it starts with a compressed stream's magic number, else
// null, with `raw` where it was: only a first byte that may begin a magic number is looked
// beyond, and when it does not after all, its bytes come back through a CompressedInput of
// kNone (or, from a file, `raw` is rewound).
std::unique_ptr<CompressedInput> OpenCompressed(std::istream* raw);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_COMPRESSED_INPUT_H_
