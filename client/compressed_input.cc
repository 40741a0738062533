#include "client/compressed_input.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <optional>
#include <vector>

#include <boost/iostreams/categories.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filtering_streambuf.hpp>
#include <zstd.h>

namespace sudoku::client {
namespace {

namespace io = boost::iostreams;

// The decompressors' buffers, and what the reader gets at a time.
constexpr size_t kChunkBytes = 64 << 10;

constexpr std::string_view kGzipMagic("\x1f\x8b", 2);
constexpr std::string_view kXzMagic("\xfd" "7zXZ\0", 6);
constexpr std::string_view kZstdMagic("\x28\xb5\x2f\xfd", 4);

// What Boost.Iostreams reads: the head already taken from the stream, then the rest of it, as it
// arrives (a pipe's bytes are not waited for beyond the first).
class HeadThenRest {
 public:
  using char_type = char;
  using category = io::source_tag;

  HeadThenRest(std::string head, std::istream* rest) : head_(std::move(head)), rest_(rest) {}

  std::streamsize read(char* out, std::streamsize n) {
    if (at_ < head_.size()) {
      const size_t take = std::min(head_.size() - at_, static_cast<size_t>(n));
      std::memcpy(out, head_.data() + at_, take);
      at_ += take;
      return static_cast<std::streamsize>(take);
    }
    std::streambuf* buffer = rest_->rdbuf();
    if (std::streambuf::traits_type::eq_int_type(buffer->sgetc(),
                                                  std::streambuf::traits_type::eof())) {
      return -1;
    }
    const std::streamsize ready = std::max<std::streamsize>(buffer->in_avail(), 1);
    return buffer->sgetn(out, std::min(ready, n));
  }

 private:
  std::string head_;
  size_t at_ = 0;
  std::istream* rest_;
};

// Why a decompressor stopped, in words.
std::string Describe(const std::exception& error, Compression compression) {
  const std::string stream = std::string("corrupt ") + CompressionName(compression) + " stream";
  if (const auto* gzip = dynamic_cast<const io::gzip_error*>(&error)) {
    switch (gzip->error()) {
      case io::gzip::bad_crc:
        return stream + ": its CRC-32 does not match its data";
      case io::gzip::bad_length:
        return stream + ": its length does not match its data";
      case io::gzip::bad_header:
        return stream + ": a malformed header";
      case io::gzip::bad_footer:
        return stream + ": a malformed or missing footer (is the file cut short?)";
      default:
        if (gzip->zlib_error_code() == io::zlib::buf_error) {
          return stream + ": it ends early (is the file cut short?)";
        }
        return stream + ": its deflate data does not decode (zlib error " +
               std::to_string(gzip->zlib_error_code()) + ")";
    }
  }
  if (const auto* lzma = dynamic_cast<const io::lzma_error*>(&error)) {
    if (lzma->error() == io::lzma::buf_error) return stream + ": it ends early (is the file cut short?)";
    if (lzma->error() == io::lzma::data_error) return stream + ": its data does not decode";
    return stream + ": liblzma error " + std::to_string(lzma->error());
  }
  return stream + ": " + error.what();
}

}  // namespace

Compression CompressionOf(std::string_view head) {
  if (head.starts_with(kGzipMagic)) return Compression::kGzip;
  if (head.starts_with(kXzMagic)) return Compression::kXz;
  if (head.starts_with(kZstdMagic)) return Compression::kZstd;
  return Compression::kNone;
}

const char* CompressionName(Compression compression) {
  switch (compression) {
    case Compression::kNone: return "";
    case Compression::kGzip: return "gzip";
    case Compression::kXz: return "xz";
    case Compression::kZstd: return "zstd";
  }
  return "";
}

std::string_view WithoutCompressionExtension(std::string_view name) {
  for (const std::string_view extension : {".gz", ".xz", ".zst"}) {
    if (name.size() > extension.size() && name.ends_with(extension)) {
      return name.substr(0, name.size() - extension.size());
    }
  }
  return name;
}

// The stream's buffer: the decompressor's output in chunks, and what stopped it, if anything.
// gzip and xz go through Boost.Iostreams' filters; zstd through libzstd itself, which tells a
// stream that ends inside a frame (Boost's zstd filter takes it as a clean end).
class CompressedInput::Buffer : public std::streambuf {
 public:
  Buffer(std::istream* raw, std::string head, Compression compression)
      : compression_(compression), chunk_(kChunkBytes) {
    switch (compression) {
      case Compression::kNone: break;
      case Compression::kGzip: filters_.push(io::gzip_decompressor(), kChunkBytes); break;
      case Compression::kXz: filters_.push(io::lzma_decompressor(), kChunkBytes); break;
      case Compression::kZstd:
        zstd_ = ZSTD_createDStream();
        zstd_source_.emplace(std::move(head), raw);
        compressed_.resize(kChunkBytes);
        return;
    }
    filters_.push(HeadThenRest(std::move(head), raw), kChunkBytes);
  }
  ~Buffer() override { ZSTD_freeDStream(zstd_); }

  Compression compression() const { return compression_; }
  const std::string& error() const { return error_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (zstd_ != nullptr) return UnderflowZstd();
    try {
      // What the decompressor has, without waiting for more than one byte of it.
      if (traits_type::eq_int_type(filters_.sgetc(), traits_type::eof())) return traits_type::eof();
      const std::streamsize ready = std::max<std::streamsize>(filters_.in_avail(), 1);
      const std::streamsize got = filters_.sgetn(
          chunk_.data(), std::min(ready, static_cast<std::streamsize>(chunk_.size())));
      if (got <= 0) return traits_type::eof();
      setg(chunk_.data(), chunk_.data(), chunk_.data() + got);
      return traits_type::to_int_type(*gptr());
    } catch (const std::exception& error) {
      error_ = Describe(error, compression_);
      throw;
    }
  }

 private:
  int_type UnderflowZstd() {
    const std::string stream = "corrupt zstd stream";
    while (true) {
      if (zstd_input_.pos == zstd_input_.size) {
        const std::streamsize got = zstd_source_->read(compressed_.data(),
                                                       static_cast<std::streamsize>(compressed_.size()));
        if (got <= 0) {
          if (zstd_last_ == 0) return traits_type::eof();
          error_ = stream + ": it ends early (is the file cut short?)";
          throw std::ios_base::failure(error_);
        }
        zstd_input_ = {compressed_.data(), static_cast<size_t>(got), 0};
      }
      ZSTD_outBuffer output{chunk_.data(), chunk_.size(), 0};
      zstd_last_ = ZSTD_decompressStream(zstd_, &output, &zstd_input_);
      if (ZSTD_isError(zstd_last_) != 0) {
        error_ = stream + ": " + ZSTD_getErrorName(zstd_last_);
        throw std::ios_base::failure(error_);
      }
      if (output.pos > 0) {
        setg(chunk_.data(), chunk_.data(), chunk_.data() + output.pos);
        return traits_type::to_int_type(*gptr());
      }
    }
  }

  const Compression compression_;
  io::filtering_streambuf<io::input> filters_;
  std::vector<char> chunk_;
  std::string error_;
  // zstd: the decoder, what it reads from, and the last hint it gave (0: at the end of a frame).
  ZSTD_DStream* zstd_ = nullptr;
  std::optional<HeadThenRest> zstd_source_;
  std::vector<char> compressed_;
  ZSTD_inBuffer zstd_input_{nullptr, 0, 0};
  size_t zstd_last_ = 1;
};

CompressedInput::CompressedInput(std::istream* raw, std::string head, Compression compression)
    : buffer_(std::make_unique<Buffer>(raw, std::move(head), compression)),
      stream_(std::make_unique<std::istream>(buffer_.get())) {}

CompressedInput::~CompressedInput() = default;

std::istream& CompressedInput::stream() { return *stream_; }
Compression CompressedInput::compression() const { return buffer_->compression(); }
const std::string& CompressedInput::error() const { return buffer_->error(); }

std::unique_ptr<CompressedInput> OpenCompressed(std::istream* raw) {
  const int first = raw->peek();
  if (first == std::istream::traits_type::eof() ||
      (first != static_cast<unsigned char>(kGzipMagic[0]) &&
       first != static_cast<unsigned char>(kXzMagic[0]) &&
       first != static_cast<unsigned char>(kZstdMagic[0]))) {
    raw->clear(raw->rdstate() & ~std::ios::eofbit);
    return nullptr;
  }
  std::string head(kMagicBytes, '\0');
  raw->read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(raw->gcount()));
  raw->clear(raw->rdstate() & ~(std::ios::eofbit | std::ios::failbit));
  const Compression compression = CompressionOf(head);
  if (compression == Compression::kNone && raw->seekg(0).good()) return nullptr;
  raw->clear(raw->rdstate() & ~std::ios::failbit);
  return std::make_unique<CompressedInput>(raw, std::move(head), compression);
}

}  // namespace sudoku::client
