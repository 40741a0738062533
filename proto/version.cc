#include "proto/version.h"

#include "proto/version.inc"  // kVersionText, written at build time by deploy/version.cmake

namespace sudoku {

std::string VersionText() { return kVersionText; }

std::string VersionLine(std::string_view program) {
  std::string line(program);
  line += ' ';
  line += kVersionText;
  return line;
}

}  // namespace sudoku
