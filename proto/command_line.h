// Reading a command line against a program's flags, as the three binaries do: the words that are
// not flags are collected rather than refused here, so that each binary says what it makes of
// them (sudoku-client's inputs, sudoku-bench's files, sudokud's "unexpected argument").
//
// Thread-safety: reentrant.
#ifndef SUDOKU_PROTO_COMMAND_LINE_H_
#define SUDOKU_PROTO_COMMAND_LINE_H_

#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace sudoku {

// Parses `parser`'s words against `flags` and notifies the flags' bound values; the words that
// are not flags go to `words`, in order. Throws boost::program_options::error.
boost::program_options::variables_map ReadCommandLine(
    boost::program_options::command_line_parser parser,
    const boost::program_options::options_description& flags, std::vector<std::string>* words);

}  // namespace sudoku

#endif  // SUDOKU_PROTO_COMMAND_LINE_H_
