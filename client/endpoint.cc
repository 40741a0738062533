#include "client/endpoint.h"

#include <charconv>

#include "client/client_error.h"
#include "client/flags.h"

namespace sudoku::client {
namespace {

[[noreturn]] void BadAddress(std::string_view text) {
  throw ClientError("bad address " + Quoted(text) + ": expected HOST:PORT, e.g. " +
                    std::string(kDefaultEndpoint));
}

}  // namespace

std::string Endpoint::ToString() const {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + port;
  return host + ":" + port;
}

Endpoint ParseEndpoint(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) BadAddress(text);
  std::string_view host = text.substr(0, colon);
  const std::string_view port = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    BadAddress(text);  // an IPv6 literal needs its brackets: [::1]:9810
  }
  if (host.empty() || host.find_first_of("[] \t") != std::string_view::npos) BadAddress(text);
  unsigned value = 0;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || error != std::errc() || end != port.data() + port.size() || value == 0 ||
      value > 65535) {
    throw ClientError("bad port in " + Quoted(text) + ": expected a number from 1 to 65535");
  }
  return {std::string(host), std::to_string(value)};
}

std::vector<Endpoint> ParseEndpoints(const std::vector<std::string>& flags) {
  std::vector<Endpoint> endpoints;
  for (const std::string& flag : flags) {
    std::string_view rest = flag;
    while (true) {
      const size_t comma = rest.find(',');
      endpoints.push_back(ParseEndpoint(rest.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  if (endpoints.empty()) endpoints.push_back(ParseEndpoint(kDefaultEndpoint));
  return endpoints;
}

}  // namespace sudoku::client
