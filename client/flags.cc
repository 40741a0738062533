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

void ReportError(std::ostream& err) {
  try {
    throw;
  } catch (const ClientError& error) {
    err << "sudoku-client: " << error.what() << "\n";
  } catch (const std::exception& error) {
    err << "sudoku-client: internal error: " << error.what() << "\n";
  } catch (...) {
    err << "sudoku-client: internal error: an exception of unknown type\n";
  }
}

std::optional<boost::program_options::variables_map> ParseCommandLine(
    const std::vector<std::string>& args, const boost::program_options::options_description& flags,
    const char* command, std::vector<std::string>* positionals, std::ostream& out) {
  namespace po = boost::program_options;
  po::options_description hidden;
  hidden.add_options()("positional", po::value(positionals));
  po::options_description all;
  all.add(flags).add(hidden);
  po::positional_options_description positional;
  positional.add("positional", -1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    throw ClientError(std::string(error.what()) + " (see: sudoku-client " + command + " --help)");
  }
  if (values.count("help")) {
    out << flags << "\n";
    return std::nullopt;
  }
  return values;
}

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

std::chrono::milliseconds ParseDuration(const char* flag, const std::string& text,
                                        std::chrono::milliseconds max) {
  double value = 0;
  const char* const first = text.data();
  const char* const last = first + text.size();
  const auto [end, error] = std::from_chars(first, last, value);
  const std::string_view unit(end, static_cast<size_t>(last - end));
  double unit_ms = 0;
  if (unit == "ms") {
    unit_ms = 1;
  } else if (unit == "s" || unit.empty()) {
    unit_ms = 1000;
  } else if (unit == "m") {
    unit_ms = 60'000;
  } else if (unit == "h") {
    unit_ms = 3'600'000;
  }
  const double ms = value * unit_ms;
  if (error != std::errc() || unit_ms == 0 || !std::isfinite(ms) || ms < 1 ||
      ms > static_cast<double>(max.count())) {
    throw ClientError(std::string(flag) + " expects a duration such as 30s, 2m or 500ms, from " +
                      "1ms to " + std::to_string(max.count() / 1000) + "s, got " + Quoted(text));
  }
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(ms)));
}

}  // namespace sudoku::client
