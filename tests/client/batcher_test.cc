#include "client/batcher.h"

#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "client/client_error.h"
#include "proto/framing.h"
#include "tests/client/client_error_of.h"
#include "tests/support/puzzles.h"

namespace sudoku::client {
namespace {

using ::sudoku::testing::kWikipediaPuzzle;


std::string Puzzle(int i) {
  std::string puzzle = kWikipediaPuzzle;
  puzzle[2] = static_cast<char>('1' + i % 9);  // tell them apart; validity does not matter here
  puzzle[3] = static_cast<char>('1' + i / 9 % 9);
  return puzzle;
}

wire::Request DecodeRequest(const Batch& batch) {
  const wire::FrameHeader header = wire::DecodeFrameHeader(batch.frame, 1 << 30);
  EXPECT_EQ(header.status, wire::FrameHeader::Status::kComplete);
  EXPECT_EQ(header.prefix_bytes + header.body_bytes, batch.frame.size());
  wire::Request request;
  EXPECT_TRUE(wire::ParseFrameBody(
      std::string_view(batch.frame).substr(header.prefix_bytes), &request));
  return request;
}

// A puzzle as it comes back unpacked: blanks as '0'.
std::string Digits(std::string text) {
  for (char& c : text) {
    if (c == '.') c = '0';
  }
  return text;
}

// The puzzles of a request as text: packed ones unpacked.
std::vector<std::string> SentPuzzles(const wire::SolveRequest& solve) {
  std::vector<std::string> puzzles(solve.puzzles().begin(), solve.puzzles().end());
  const std::string& packed = solve.packed_puzzles();
  EXPECT_EQ(packed.size() % kPackedBytes, 0u);
  for (size_t i = 0; i < packed.size() / kPackedBytes; ++i) {
    std::string text(kCells, ' ');
    UnpackDigits(PackedAt(packed, i), text.data());
    puzzles.push_back(text);
  }
  return puzzles;
}

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/batcher_test_" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Batcher, CutsInputIntoNumberedBatches) {
  std::string text;
  for (int i = 0; i < 7; ++i) text += Puzzle(i) + "\n";
  std::istringstream in(text);
  Batcher batcher({}, 3, 2, &in);
  Batch batch;
  for (uint64_t sequence = 10; sequence < 13; ++sequence) {
    ASSERT_TRUE(batcher.Fill(sequence, &batch));
    const size_t expected = sequence < 12 ? 3 : 1;
    EXPECT_EQ(batch.sequence, sequence);
    EXPECT_EQ(batch.size, expected);
    EXPECT_EQ(batch.sent, expected);
    const wire::Request request = DecodeRequest(batch);
    EXPECT_EQ(request.solve().batch_id(), sequence);
    EXPECT_EQ(request.solve().solution_limit(), 2u);
    EXPECT_TRUE(request.solve().pack_solutions());
    const std::vector<std::string> sent = SentPuzzles(request.solve());
    ASSERT_EQ(sent.size(), expected);
    for (size_t i = 0; i < expected; ++i) {
      const int index = static_cast<int>((sequence - 10) * 3 + i);
      EXPECT_EQ(sent[i], Digits(Puzzle(index)));
      EXPECT_EQ(batch.records[i].text(), Puzzle(index));
      EXPECT_EQ(batch.records[i].first_line, static_cast<uint64_t>(index + 1));
    }
  }
  EXPECT_FALSE(batcher.Fill(13, &batch));
  EXPECT_EQ(batch.size, 0u);
}

// The frame written straight from the records is the one protobuf writes for the same Request,
// byte for byte: every optional field present or absent, one-byte and longer varints, packed
// puzzles, and the batches sent as text (one with a pencilmark puzzle, one with a character that
// does not pack), records with a layout error left out.
TEST(AppendSolveFrame, WritesWhatProtobufWrites) {
  enum class Content { kPackable, kPencilmark, kBadCharacter };
  for (const uint64_t sequence : {uint64_t{0}, uint64_t{5}, uint64_t{300}, uint64_t{1} << 40}) {
    for (const uint32_t limit : {0u, 1u, 2u, 100000u}) {
      for (const auto& [rate, scope] : {std::pair(false, wire::ALL_RATINGS),
                                        std::pair(true, wire::ALL_RATINGS),
                                        std::pair(true, wire::HODOKU_PATH),
                                        std::pair(true, wire::SE_PATH)}) {
        for (const size_t puzzles : {size_t{1}, size_t{3}, size_t{250}}) {
          for (const Content content :
               {Content::kPackable, Content::kPencilmark, Content::kBadCharacter}) {
            Batch batch;
            batch.sequence = sequence;
            batch.size = puzzles;
            batch.records.resize(puzzles);
            wire::Request request;
            wire::SolveRequest* solve = request.mutable_solve();
            solve->set_batch_id(sequence);
            solve->set_solution_limit(limit);
            solve->set_rate(rate);
            solve->set_pack_solutions(true);
            solve->set_rating_scope(scope);
            std::vector<std::string> texts;
            for (size_t i = 0; i < puzzles; ++i) {
              std::string text = Puzzle(static_cast<int>(i));
              if (i == puzzles - 1 && content == Content::kPencilmark) {
                text = std::string(kCandidateChars, '.');
              } else if (i == puzzles - 1 && content == Content::kBadCharacter) {
                text[40] = 'x';
              }
              PuzzleRecord& record = batch.records[i];
              std::memcpy(record.TextBuffer(text.size()), text.data(), text.size());
              if (i % 11 == 5) {
                record.error = {LayoutError::Kind::kLineLength, i + 1, 80};
              } else {
                texts.push_back(text);
              }
            }
            // As Batcher::Fill() leaves it: every puzzle sent, packed, or nothing.
            batch.sent = texts.size();
            for (const std::string& text : texts) {
              if (content != Content::kPackable) {
                solve->add_puzzles(text);
                continue;
              }
              PackedGrid packed;
              ASSERT_TRUE(PackPuzzle(text, packed));
              solve->mutable_packed_puzzles()->append(packed.begin(), packed.end());
              batch.packed.append(packed.begin(), packed.end());
            }
            std::string expected = "prefix";
            wire::AppendFrame(request, &expected);
            std::string frame = "prefix";
            AppendSolveFrame(batch, limit, rate, scope, &frame);
            EXPECT_EQ(frame, expected) << sequence << " " << limit << " " << rate << " "
                                       << scope << " " << puzzles << " "
                                       << static_cast<int>(content);
          }
        }
      }
    }
  }
}

TEST(Batcher, KeepsLayoutErrorsInPlaceButDoesNotSendThem) {
  std::istringstream in(Puzzle(0) + "\nshort\n" + Puzzle(1) + "\n");
  Batcher batcher({"-"}, 10, 1, &in);
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  EXPECT_EQ(batch.size, 3u);
  EXPECT_EQ(batch.sent, 2u);
  EXPECT_TRUE(batch.records[1].error);
  const wire::Request request = DecodeRequest(batch);
  EXPECT_EQ(SentPuzzles(request.solve()),
            (std::vector<std::string>{Digits(Puzzle(0)), Digits(Puzzle(1))}));
}

// Fill() packs every puzzle it sends, whichever way the reader took it (a plain line, a grid, a
// line with trailing spaces); one that does not pack sends the whole batch as text.
TEST(Batcher, PacksWhatItSendsOrSendsText) {
  std::string grid;
  for (int r = 0; r < 9; ++r) grid += Puzzle(2).substr(r * 9, 9) + "\n";
  std::istringstream in(Puzzle(0) + "\n" + grid + Puzzle(1) + "  \n" + "short\n");
  Batcher batcher({"-"}, 10, 1, &in);
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  ASSERT_EQ(batch.sent, 3u);
  std::string expected;
  for (const int i : {0, 2, 1}) {
    PackedGrid packed;
    ASSERT_TRUE(PackPuzzle(Puzzle(i), packed));
    expected.append(packed.begin(), packed.end());
  }
  EXPECT_EQ(batch.packed, expected);
  EXPECT_EQ(DecodeRequest(batch).solve().packed_puzzles(), expected);

  std::istringstream bad(Puzzle(0) + "\n" + std::string(80, '.') + "x\n");
  Batcher text_batcher({"-"}, 10, 1, &bad);
  ASSERT_TRUE(text_batcher.Fill(0, &batch));
  EXPECT_EQ(batch.sent, 2u);
  EXPECT_EQ(batch.packed, "");
  const wire::Request request = DecodeRequest(batch);
  EXPECT_EQ(request.solve().packed_puzzles(), "");
  EXPECT_EQ(request.solve().puzzles_size(), 2);
}

// Without keep_cells, the common line is packed into the batch and its record keeps no cells;
// a line the reader takes by its general path keeps them. What is sent does not change.
TEST(Batcher, LeavesCellsOutOfPackedLinesWhenAskedTo) {
  std::istringstream in(Puzzle(0) + "\n" + Puzzle(1) + "  \n" + Puzzle(2) + "\n");
  Batcher batcher({"-"}, 10, 1, &in);
  batcher.set_keep_cells(false);
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  ASSERT_EQ(batch.sent, 3u);
  EXPECT_TRUE(batch.records[0].cells_left_out);
  EXPECT_EQ(batch.records[0].text(), "");
  EXPECT_EQ(batch.records[0].first_line, 1u);
  EXPECT_FALSE(batch.records[1].cells_left_out);  // trailing spaces: the general path
  EXPECT_EQ(batch.records[1].text(), Puzzle(1));
  EXPECT_TRUE(batch.records[2].cells_left_out);
  EXPECT_EQ(batch.records[2].first_line, 3u);
  EXPECT_EQ(SentPuzzles(DecodeRequest(batch).solve()),
            (std::vector<std::string>{Digits(Puzzle(0)), Digits(Puzzle(1)), Digits(Puzzle(2))}));

  // The same batch object, reused by a batcher that keeps cells, has them all again.
  std::istringstream again(Puzzle(3) + "\n");
  Batcher keeping({"-"}, 10, 1, &again);
  ASSERT_TRUE(keeping.Fill(1, &batch));
  EXPECT_FALSE(batch.records[0].cells_left_out);
  EXPECT_EQ(batch.records[0].text(), Puzzle(3));
}

// A batch that goes as text after all (a bad character after packed lines) sends every puzzle
// as text: the lines packed without their cells get them back from the packed form, blanks as
// '0', and the lines after it are read with theirs.
TEST(Batcher, PutsCellsBackWhenTheBatchGoesAsText) {
  const std::string bad = std::string(80, '.') + "x";
  std::istringstream in(Puzzle(0) + "\nshort\n" + Puzzle(1) + "\n" + bad + "\n" + Puzzle(2) +
                        "\n");
  Batcher batcher({"-"}, 10, 1, &in);
  batcher.set_keep_cells(false);
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  ASSERT_EQ(batch.size, 5u);
  ASSERT_EQ(batch.sent, 4u);
  EXPECT_EQ(batch.packed, "");
  EXPECT_TRUE(batch.records[1].error);
  for (const size_t i : {0, 2, 3, 4}) EXPECT_FALSE(batch.records[i].cells_left_out) << i;
  EXPECT_EQ(batch.records[0].text(), Digits(Puzzle(0)));
  EXPECT_EQ(batch.records[2].text(), Digits(Puzzle(1)));
  EXPECT_EQ(batch.records[3].text(), bad);
  EXPECT_EQ(batch.records[4].text(), Puzzle(2));  // read after: as written
  const wire::Request request = DecodeRequest(batch);
  EXPECT_EQ(request.solve().packed_puzzles(), "");
  EXPECT_EQ(SentPuzzles(request.solve()),
            (std::vector<std::string>{Digits(Puzzle(0)), Digits(Puzzle(1)), bad, Puzzle(2)}));
}

TEST(Batcher, BatchOfLayoutErrorsOnlyHasNoFrame) {
  std::istringstream in("short\n1 2 3\n");
  Batcher batcher({}, 10, 1, &in);
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  EXPECT_EQ(batch.size, 2u);
  EXPECT_EQ(batch.sent, 0u);
  EXPECT_TRUE(batch.frame.empty());
}

TEST(Batcher, ReadsFilesInOrderAcrossBatchBoundaries) {
  const std::string a = WriteFile("a.txt", Puzzle(0) + "\n" + Puzzle(1) + "\n");
  const std::string b = WriteFile("b.txt", "# nothing\n");
  const std::string c = WriteFile("c.txt", Puzzle(3) + "\n");
  std::istringstream in(Puzzle(2) + "\n");
  Batcher batcher({a, b, "-", c}, 3, 1, &in);
  EXPECT_EQ(batcher.DisplayNames(), (std::vector<std::string>{a, b, "stdin", c}));
  Batch batch;
  ASSERT_TRUE(batcher.Fill(0, &batch));
  ASSERT_EQ(batch.size, 3u);
  EXPECT_EQ(batch.records[0].text(), Puzzle(0));
  EXPECT_EQ(batch.inputs[0], 0u);
  EXPECT_EQ(batch.inputs[1], 0u);
  EXPECT_EQ(batch.records[2].text(), Puzzle(2));
  EXPECT_EQ(batch.inputs[2], 2u);
  EXPECT_EQ(batch.records[2].first_line, 1u);
  ASSERT_TRUE(batcher.Fill(1, &batch));
  ASSERT_EQ(batch.size, 1u);
  EXPECT_EQ(batch.records[0].text(), Puzzle(3));
  EXPECT_EQ(batch.inputs[0], 3u);
  EXPECT_FALSE(batcher.Fill(2, &batch));
}

TEST(Batcher, EmptyInputGivesNoBatch) {
  std::istringstream in("");
  Batcher batcher({}, 3, 1, &in);
  Batch batch;
  EXPECT_FALSE(batcher.Fill(0, &batch));
}

TEST(Batcher, MissingFileIsReportedBeforeAndDuringTheRun) {
  const std::string missing = ::testing::TempDir() + "/batcher_test_missing.txt";
  std::istringstream in("");
  Batcher batcher({"-", missing}, 3, 1, &in);
  const std::string expected = "cannot open '" + missing + "': No such file or directory";
  EXPECT_EQ(ClientErrorOf([&] { batcher.CheckInputs(); }), expected);
  Batch batch;
  EXPECT_EQ(ClientErrorOf([&] { batcher.Fill(0, &batch); }), expected);
}

TEST(Batcher, DirectoryIsReported) {
  std::istringstream in("");
  const std::string dir = ::testing::TempDir();
  Batcher batcher({dir}, 3, 1, &in);
  EXPECT_EQ(ClientErrorOf([&] { batcher.CheckInputs(); }), "cannot open '" + dir + "': Is a directory");
}

TEST(Batcher, BinaryFileIsRefused) {
  const std::string path = ::testing::TempDir() + "/batcher_test_binary.png";
  {
    std::ofstream file(path, std::ios::binary);
    file << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  }
  std::istringstream in("");
  Batcher batcher({path}, 3, 1, &in);
  EXPECT_EQ(ClientErrorOf([&] { batcher.CheckInputs(); }),
            "'" + path + "' looks like a binary file (NUL byte at byte 9), not puzzle text");
  std::filesystem::remove(path);
}

class FailingBuf : public std::streambuf {
 protected:
  int_type underflow() override { throw std::runtime_error("read error"); }
};

TEST(Batcher, ReadErrorIsReported) {
  FailingBuf buf;
  std::istream in(&buf);
  Batcher batcher({}, 3, 1, &in);
  Batch batch;
  EXPECT_EQ(ClientErrorOf([&] { batcher.Fill(0, &batch); }), "cannot read 'stdin': read error");
}

}  // namespace
}  // namespace sudoku::client
