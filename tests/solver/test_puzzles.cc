#include "tests/solver/test_puzzles.h"
#include "tests/support/paths.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

namespace sudoku::testing {

std::vector<Fixture> LoadFixtures(const std::string& file_name) {
  const std::string path = TestPath("SUDOKU_TEST_DATA_DIR") + "/" + file_name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<Fixture> fixtures;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    // The puzzle is 81 characters, unless an invalid one says otherwise: split at the first
    // colon after the puzzle and at the next one.
    const size_t first = text.find(':');
    const size_t second = text.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) {
      throw std::runtime_error(path + ":" + std::to_string(line) +
                               ": expected puzzle:count:solution");
    }
    fixtures.push_back({text.substr(0, first), text.substr(first + 1, second - first - 1),
                        text.substr(second + 1), line});
  }
  return fixtures;
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

namespace {

std::vector<std::string> TextFilesIn(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::vector<std::string> SharedDataFiles() {
  return TextFilesIn(TestPath("SUDOKU_SHARED_DATA_DIR"));
}

std::vector<std::string> SharedMultiSolutionFiles() {
  const std::string dir = TestPath("SUDOKU_SHARED_DATA_DIR");
  return dir.empty() ? std::vector<std::string>{} : TextFilesIn(dir + "/multi_solution");
}

size_t PublicSetStride() {
  const std::string text = [] {
    const char* value = std::getenv("SUDOKU_TEST_PUBLIC_STRIDE");
    return std::string(value != nullptr ? value : "");
  }();
  const size_t stride = text.empty() ? 1 : std::strtoull(text.c_str(), nullptr, 10);
  return stride == 0 ? 1 : stride;
}

std::string TestName(const char* kernel_name) {
  std::string name(kernel_name);
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

std::vector<PuzzleRecord> ReadAll(std::istream& in, InputFormat format) {
  PuzzleReader reader(&in, format);
  std::vector<PuzzleRecord> records;
  PuzzleRecord record;
  while (reader.Next(&record)) records.push_back(record);
  return records;
}

std::vector<PuzzleRecord> ReadAll(const std::string& text, InputFormat format) {
  std::istringstream in(text);
  return ReadAll(in, format);
}

}  // namespace sudoku::testing
