#include "proto/flag_values.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <system_error>

namespace sudoku {

std::optional<std::chrono::duration<double>> ParseDuration(std::string_view text) {
  size_t unit_at = text.size();
  while (unit_at > 0 && std::isalpha(static_cast<unsigned char>(text[unit_at - 1]))) --unit_at;
  const std::string_view number = text.substr(0, unit_at);
  const std::string_view unit = text.substr(unit_at);
  double value = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value,
                                            std::chars_format::fixed);
  if (number.empty() || error != std::errc() || end != number.data() + number.size() ||
      !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  double scale = 0;
  if (unit.empty() || unit == "s") {
    scale = 1;
  } else if (unit == "ms") {
    scale = 0.001;
  } else if (unit == "m") {
    scale = 60;
  } else if (unit == "h") {
    scale = 3600;
  } else {
    return std::nullopt;
  }
  return std::chrono::duration<double>(value * scale);
}

std::string DurationText(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
}

std::string SecondsText(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  std::string text = std::to_string(ms / 1000);
  if (const auto fraction = ms % 1000; fraction != 0) {
    std::string digits = std::to_string(1000 + fraction).substr(1);  // "050" for 50 ms
    while (digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  return text;
}

HostPort SplitHostPort(std::string_view text) {
  HostPort out;
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    out.problem = HostPort::Problem::kShape;
    return out;
  }
  std::string_view host = text.substr(0, colon);
  const std::string_view port = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    out.problem = HostPort::Problem::kShape;
    return out;
  }
  if (host.empty() || host.find_first_of("[] \t") != std::string_view::npos) {
    out.problem = HostPort::Problem::kShape;
    return out;
  }
  out.host = std::string(host);
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), out.port);
  if (port.empty() || error != std::errc() || end != port.data() + port.size() ||
      out.port > 65535) {
    out.problem = HostPort::Problem::kPort;
  }
  return out;
}

}  // namespace sudoku
