// The version the three binaries print (--version) and the daemon reports (/metrics, /health).
//
// Thread-safety: stateless functions.
#ifndef SUDOKU_PROTO_VERSION_H_
#define SUDOKU_PROTO_VERSION_H_

#include <string>
#include <string_view>

namespace sudoku {

// "0.1.0 (git 08dee86)" when built from a git checkout, else "0.1.0": the project's version
// (CMake's project(VERSION)) and the revision it was built from.
std::string VersionText();

// "PROGRAM VERSION", the line --version prints.
std::string VersionLine(std::string_view program);

}  // namespace sudoku

#endif  // SUDOKU_PROTO_VERSION_H_
