#include "tests/support/paths.h"

#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace sudoku::testing {
namespace {

// One entry a name; the build writes the table (tests/support/CMakeLists.txt).
constexpr std::pair<std::string_view, std::string_view> kBuiltPaths[] = {
#include "built_paths.inc"
};

}  // namespace

std::string TestPath(std::string_view name) {
  for (const auto& [key, built] : kBuiltPaths) {
    if (key != name) continue;
    const char* value = std::getenv(std::string(name).c_str());
    return value != nullptr && *value != '\0' ? std::string(value) : std::string(built);
  }
  throw std::invalid_argument("TestPath: no path is named " + std::string(name));
}

}  // namespace sudoku::testing
