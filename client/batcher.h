// Cuts the input files into batches of puzzles, each with its request frame ready to send.
//
// Input is streamed: one file open at a time, read through a PuzzleReader, so memory holds the
// batches in use and nothing more. Records with a layout error stay in their batch (to be
// reported in order) but are not sent to the daemon.
//
// Thread-safety: a Batcher is used by one thread at a time. Batch is plain data.
#ifndef SUDOKU_CLIENT_BATCHER_H_
#define SUDOKU_CLIENT_BATCHER_H_

#include <cstdint>
#include <fstream>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "client/compressed_input.h"
#include "proto/sudoku.pb.h"
#include "solver/puzzle_reader.h"

namespace sudoku::client {

// The name that stands for standard input on the command line.
inline constexpr std::string_view kStdinName = "-";

struct Batch {
  uint64_t sequence = 0;  // position in the input, from 0; also the request's batch id
  size_t size = 0;        // records in use: records[0, size)
  std::vector<PuzzleRecord> records;
  std::vector<uint32_t> inputs;  // the input each record came from (index into the input list)
  size_t sent = 0;               // records without a layout error: the puzzles in `frame`
  // The records sent, packed (kPackedBytes each) in order as they were read, while their cells
  // were at hand; empty when one of them does not pack (a bad character, a pencilmark puzzle).
  // The common line is packed straight into it by the reader.
  std::string packed;
  std::string frame;             // the length-prefixed Request; empty when sent == 0
  unsigned lost = 0;             // connections that broke with this batch unanswered
  uint64_t frame_number = 0;     // which frame of its connection it went out as (Lane)
  bool unread = false;           // taken back unread from a draining daemon, to send again
};

// Appends the frame of a Request holding the SolveRequest for `batch`: batch id `sequence`, the
// records without a layout error, `solution_limit`, `rate` and its `scope`, and pack_solutions.
// The puzzles go packed (half the bytes), from `packed`, when it holds every one of them, else as
// text. Encoded straight from the batch by the codec (proto/codec.h), to the very bytes protobuf
// writes for that message, without first copying each puzzle into a string of the message.
void AppendSolveFrame(const Batch& batch, uint32_t solution_limit, bool rate,
                      wire::RatingScope scope, std::string* frame);

class Batcher {
 public:
  // `inputs` are file names or kStdinName, read in order from `stdin_stream` for the latter.
  // `format` (kAuto: each file's extension, else its content) says how they are laid out.
  Batcher(std::vector<std::string> inputs, size_t batch_size, uint32_t solution_limit,
          std::istream* stdin_stream, InputFormat format = InputFormat::kAuto);

  // Checks that every input can be opened, so that a typo stops the run before anything is
  // sent. Throws ClientError: "cannot open 'x.txt': No such file or directory".
  void CheckInputs() const;

  // Fills `batch` (reusing its storage) with up to batch_size records and numbers it
  // `sequence`. False when the input is exhausted and the batch is empty. Throws ClientError
  // when an input cannot be opened or read.
  bool Fill(uint64_t sequence, Batch* batch);

  // For progress: the bytes of all inputs when every one is a regular file (0 otherwise), and
  // how far reading has got (within the read-ahead of a file buffer).
  uint64_t TotalBytes() const;
  uint64_t BytesRead();

  // Whether one of the inputs is standard input.
  bool ReadsStandardInput() const;

  // How the inputs are named in messages: "stdin" for kStdinName.
  std::vector<std::string> DisplayNames() const;

  // Asks the daemon to rate every solved puzzle (SolveRequest.rate), with the ratings `scope`
  // names (SolveRequest.rating_scope).
  void set_rate(bool rate, wire::RatingScope scope = wire::ALL_RATINGS) {
    rate_ = rate;
    rating_scope_ = scope;
  }

  // Whether every record keeps its cells (the puzzle as written), as by default. A command that
  // prints solutions alone turns it off: a line the reader packs into the batch then leaves its
  // record's cells out (PuzzleRecord::cells_left_out), unless the batch goes as text after all.
  void set_keep_cells(bool keep) { keep_cells_ = keep; }

 private:
  bool OpenNext();

  std::vector<std::string> inputs_;
  size_t batch_size_;
  uint32_t solution_limit_;
  bool rate_ = false;
  wire::RatingScope rating_scope_ = wire::ALL_RATINGS;
  bool keep_cells_ = true;
  std::istream* stdin_stream_;
  InputFormat format_;

  size_t next_input_ = 0;
  uint64_t bytes_of_closed_files_ = 0;
  uint32_t current_input_ = 0;
  std::unique_ptr<std::ifstream> file_;
  std::vector<char> file_buffer_;
  // The current input's text when it is compressed (gzip, xz, zstd), read from file_ or stdin.
  std::unique_ptr<CompressedInput> compressed_;
  std::istream* in_ = nullptr;
  std::unique_ptr<PuzzleReader> reader_;
};

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_BATCHER_H_
