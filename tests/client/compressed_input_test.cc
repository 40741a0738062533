#include "client/compressed_input.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <gtest/gtest.h>

#include "client/batcher.h"
#include "tests/client/client_error_of.h"
#include "tests/support/pipe_buffer.h"
#include "tests/support/puzzles.h"

namespace sudoku::client {
namespace {

namespace io = boost::iostreams;
using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::PipeBuffer;

// `text` compressed as `compression`, made here (no tool needed).
std::string Compressed(const std::string& text, Compression compression) {
  std::ostringstream out;
  io::filtering_ostream stream;
  switch (compression) {
    case Compression::kGzip: stream.push(io::gzip_compressor()); break;
    case Compression::kXz: stream.push(io::lzma_compressor()); break;
    case Compression::kZstd: stream.push(io::zstd_compressor()); break;
    case Compression::kNone: break;
  }
  stream.push(out);
  stream << text;
  stream.reset();
  return out.str();
}

std::string ReadAll(std::istream& in) {
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string SomePuzzles() {
  std::string text;
  for (int i = 0; i < 500; ++i) text += std::string(kWikipediaPuzzle) + "\n";
  return text;
}

constexpr Compression kEach[] = {Compression::kGzip, Compression::kXz, Compression::kZstd};

TEST(CompressedInput, EachKindIsKnownByItsFirstBytesAndRead) {
  const std::string text = SomePuzzles();
  for (const Compression compression : kEach) {
    SCOPED_TRACE(CompressionName(compression));
    const std::string bytes = Compressed(text, compression);
    EXPECT_EQ(CompressionOf(bytes), compression);
    std::istringstream file(bytes);
    const auto from_file = OpenCompressed(&file);
    ASSERT_NE(from_file, nullptr);
    EXPECT_EQ(ReadAll(from_file->stream()), text);
    PipeBuffer pipe_buffer(bytes);
    std::istream pipe(&pipe_buffer);
    const auto from_pipe = OpenCompressed(&pipe);
    ASSERT_NE(from_pipe, nullptr);
    EXPECT_EQ(ReadAll(from_pipe->stream()), text);
  }
}

TEST(CompressedInput, TextIsLeftAsItWas) {
  const std::string text = SomePuzzles();
  std::istringstream file(text);
  EXPECT_EQ(OpenCompressed(&file), nullptr);
  EXPECT_EQ(ReadAll(file), text);
  // A first byte that may start a magic number ('(' starts zstd's), from a pipe: what was looked
  // at comes back first.
  const std::string paren = "(a comment that is not zstd)\n" + text;
  std::istringstream paren_file(paren);
  EXPECT_EQ(OpenCompressed(&paren_file), nullptr);
  EXPECT_EQ(ReadAll(paren_file), paren);
  PipeBuffer pipe_buffer(paren);
  std::istream pipe(&pipe_buffer);
  const auto passed = OpenCompressed(&pipe);
  ASSERT_NE(passed, nullptr);
  EXPECT_EQ(passed->compression(), Compression::kNone);
  EXPECT_EQ(ReadAll(passed->stream()), paren);
  std::istringstream empty("");
  EXPECT_EQ(OpenCompressed(&empty), nullptr);
}

TEST(CompressedInput, ExtensionsOfCompressionAreDropped) {
  EXPECT_EQ(WithoutCompressionExtension("puzzles.csv.gz"), "puzzles.csv");
  EXPECT_EQ(WithoutCompressionExtension("a.sdm.xz"), "a.sdm");
  EXPECT_EQ(WithoutCompressionExtension("b.txt.zst"), "b.txt");
  EXPECT_EQ(WithoutCompressionExtension("c.txt"), "c.txt");
  EXPECT_EQ(WithoutCompressionExtension(".gz"), ".gz");
}

std::string WriteFile(const std::string& name, const std::string& bytes) {
  const std::string path = ::testing::TempDir() + "/compressed_input_test_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// Every record of `path` through the Batcher, as its puzzles' text.
std::vector<std::string> PuzzlesOf(const std::string& path) {
  std::istringstream no_stdin("");
  Batcher batcher({path}, 1000, 1, &no_stdin);
  batcher.CheckInputs();
  std::vector<std::string> puzzles;
  Batch batch;
  for (uint64_t sequence = 0; batcher.Fill(sequence, &batch); ++sequence) {
    for (size_t i = 0; i < batch.size; ++i) puzzles.emplace_back(batch.records[i].text());
  }
  return puzzles;
}

TEST(CompressedInput, TheBatcherReadsCompressedFilesAndCsvWithAHeaderByName) {
  const std::string text = SomePuzzles();
  for (const Compression compression : kEach) {
    SCOPED_TRACE(CompressionName(compression));
    const std::string path = WriteFile(std::string("puzzles.") + CompressionName(compression),
                                       Compressed(text, compression));
    const std::vector<std::string> puzzles = PuzzlesOf(path);
    ASSERT_EQ(puzzles.size(), 500u);
    EXPECT_EQ(puzzles.front(), kWikipediaPuzzle);
    std::filesystem::remove(path);
  }
  // The 1- and 9-million-puzzle sets people download: CSV with a "quizzes,solutions" header.
  std::string csv = "quizzes,solutions\n";
  csv.append(kWikipediaPuzzle).append(",").append(81, '1').append("\n");
  const std::string path = WriteFile("sudoku.csv.gz", Compressed(csv, Compression::kGzip));
  EXPECT_EQ(PuzzlesOf(path), std::vector<std::string>{kWikipediaPuzzle});
  std::filesystem::remove(path);
}

TEST(CompressedInput, ACorruptOrTruncatedStreamSaysSo) {
  const std::string text = SomePuzzles() + SomePuzzles();
  std::string gzip = Compressed(text, Compression::kGzip);
  gzip[gzip.size() - 6] ^= 0x55;  // inside the CRC-32 of the footer
  const std::string bad_crc = WriteFile("bad_crc.gz", gzip);
  EXPECT_EQ(ClientErrorOf([&] { PuzzlesOf(bad_crc); }),
            "cannot read '" + bad_crc + "': corrupt gzip stream: its CRC-32 does not match its data");
  const struct {
    Compression compression;
    std::string expected;
  } cut[] = {
      {Compression::kGzip, "corrupt gzip stream: it ends early (is the file cut short?)"},
      {Compression::kXz, "corrupt xz stream: it ends early (is the file cut short?)"},
      {Compression::kZstd, "corrupt zstd stream: it ends early (is the file cut short?)"},
  };
  for (const auto& [compression, expected] : cut) {
    const std::string bytes = Compressed(text, compression);
    const std::string path = WriteFile(std::string("cut.") + CompressionName(compression),
                                       bytes.substr(0, bytes.size() / 2));
    EXPECT_EQ(ClientErrorOf([&] { PuzzlesOf(path); }), "cannot read '" + path + "': " + expected);
    std::filesystem::remove(path);
  }
  std::filesystem::remove(bad_crc);
}

}  // namespace
}  // namespace sudoku::client
