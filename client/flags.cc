#include "client/flags.h"

#include <charconv>
#include <cmath>
#include <system_error>

#include "client/client_error.h"

namespace sudoku::client {
namespace {

std::string Number(double value) {
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

std::string Quoted(std::string_view text) {
  // Appended piece by piece: "'" + std::string(text) makes g++ 12 warn falsely (-Wrestrict).
  std::string quoted;
  quoted.reserve(text.size() + 2);
  quoted += '\'';
  quoted += text;
  quoted += '\'';
  return quoted;
}

uint64_t ParseCount(const char* flag, const std::string& text, uint64_t max) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 1 ||
      value > max) {
    throw ClientError(std::string(flag) + " expects a whole number from 1 to " +
                      std::to_string(max) + ", got " + Quoted(text));
  }
  return value;
}

double ParsePositive(const char* flag, const std::string& text, const char* what, double max) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value) || value <= 0 || value > max) {
    throw ClientError(std::string(flag) + " expects " + what + " above 0 (at most " + Number(max) +
                      "), got " + Quoted(text));
  }
  return value;
}

}  // namespace sudoku::client
