#include "client/endpoint.h"

#include "client/client_error.h"
#include "client/flags.h"
#include "proto/flag_values.h"

namespace sudoku::client {
namespace {

[[noreturn]] void BadAddress(std::string_view text) {
  throw ClientError("bad address " + Quoted(text) + ": expected HOST:PORT, e.g. " +
                    std::string(kDefaultEndpoint));
}

}  // namespace

std::string Endpoint::HostPort() const {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + port;
  return host + ":" + port;
}

std::string Endpoint::ToString() const {
  if (address.empty() || address == host) return HostPort();
  return HostPort() + " (" + address + ")";
}

Endpoint ParseEndpoint(std::string_view text) {
  const HostPort address = SplitHostPort(text);
  if (address.problem == HostPort::Problem::kShape) BadAddress(text);
  if (address.problem == HostPort::Problem::kPort || address.port == 0) {
    throw ClientError("bad port in " + Quoted(text) + ": expected a number from 1 to 65535");
  }
  return {.host = address.host, .port = std::to_string(address.port), .address = {}};
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
