// Daemon addresses as users write them: "HOST:PORT", "[IPv6]:PORT".
//
// Thread-safety: stateless functions and plain data.
#ifndef SUDOKU_CLIENT_ENDPOINT_H_
#define SUDOKU_CLIENT_ENDPOINT_H_

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace sudoku::client {

inline constexpr std::string_view kDefaultEndpoint = "127.0.0.1:9810";
// How often a session resolves each --connect name again (--resolve-every).
inline constexpr std::chrono::milliseconds kDefaultResolveEvery{30000};

struct Endpoint {
  std::string host;  // without the brackets of an IPv6 literal
  std::string port;  // digits, 1-65535
  // One of the addresses `host`, a name, resolved to: where to connect (the name still goes to
  // TLS). Empty: `host` is resolved when connecting.
  std::string address;

  // As the user wrote it: "127.0.0.1:9810", "[::1]:9810", "sudokud:9810".
  std::string HostPort() const;
  // For messages: HostPort(), then the address it resolved to: "sudokud:9810 (10.0.0.7)".
  std::string ToString() const;
};

// Throws ClientError naming the text and what was expected.
Endpoint ParseEndpoint(std::string_view text);

// Every --connect flag, each possibly a comma-separated list; kDefaultEndpoint when there is none.
std::vector<Endpoint> ParseEndpoints(const std::vector<std::string>& flags);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_ENDPOINT_H_
