// TLS for the tests: certificates made at test time with the openssl command (never committed),
// and a blocking TLS client of sudokud's protocol built on Asio's SSL stream.
//
// Thread-safety: each object is meant for one thread.
#ifndef SUDOKU_TESTS_DAEMON_TLS_SUPPORT_H_
#define SUDOKU_TESTS_DAEMON_TLS_SUPPORT_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <chrono>
#include <cstdint>
#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/http/verb.hpp>

#include "proto/sudoku.pb.h"
#include "tests/daemon/wire_client.h"

namespace sudoku::testing {

// A throwaway PKI in a temporary directory (removed at destruction), made with `openssl`:
//   ca.pem                      the test CA ("CN=sudokud test CA")
//   server.pem/.key             signed by it, for DNS:localhost and IP:127.0.0.1 ("CN=localhost")
//   server2.pem/.key            the same names, "CN=localhost rotated" (for reloads)
//   client.pem/.key             a client certificate signed by it ("CN=test client")
//   expired.pem/.key            a client certificate signed by it that expired a day ago
//   other_ca.pem                another CA ("CN=other CA")
//   stranger.pem/.key           a client certificate signed by the other CA ("CN=stranger")
//   rsa_server.pem/.key         a self-signed RSA certificate ("CN=localhost rsa"); the others
//                               are all EC (P-256)
class TestPki {
 public:
  TestPki();
  ~TestPki();
  TestPki(const TestPki&) = delete;
  TestPki& operator=(const TestPki&) = delete;

  // The path of `name` ("ca.pem", "client.key").
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  const std::string& dir() const { return dir_; }

 private:
  void Run(const std::string& command) const;
  void Leaf(const std::string& name, const std::string& subject, const std::string& ca,
            const std::string& extensions, int days) const;

  std::string dir_;
};

// The test program's PKI: made before its first test (a gtest environment this library
// registers), removed after its last.
TestPki& Pki();

// What a TlsClient presents and checks.
struct TlsClientOptions {
  std::string ca;    // trust this CA for the server's certificate; empty: verify nothing
  std::string cert;  // client certificate and key; empty: none
  std::string key;
  std::string server_name = "localhost";  // SNI and the name verified
  bool tls12_only = false;
  std::string groups;  // the key exchange groups offered (OpenSSL's list form); empty: OpenSSL's
};

// A blocking TLS connection to sudokud. Failures throw std::runtime_error with OpenSSL's words
// ("tlsv13 alert certificate required", "certificate verify failed").
class TlsClient {
 public:
  TlsClient(uint16_t port, const TlsClientOptions& options);

  // The handshake; throws as above.
  void Handshake(std::chrono::milliseconds timeout = kReplyTimeout);
  void Send(const wire::Request& request);
  void SendSolve(uint64_t batch_id, const std::vector<std::string>& puzzles);
  // The next response, or std::nullopt at a clean end of input.
  std::optional<wire::Response> Read(std::chrono::milliseconds timeout = kReplyTimeout);
  // The server certificate's subject ("CN=localhost").
  std::string ServerSubject();
  std::string Protocol();  // "TLSv1.3"
  std::string Cipher();    // "TLS_AES_128_GCM_SHA256"
  // The TCP socket under the TLS, for writing bytes that are not TLS's (a forged record).
  boost::asio::ip::tcp::socket& Socket() { return stream_->next_layer(); }

  // An HTTP/1.1 GET of `target` over this connection (for the HTTPS listeners), after
  // Handshake(). Throws as above.
  struct HttpReply {
    unsigned status = 0;
    std::string body;
  };
  HttpReply Get(const std::string& target, std::chrono::milliseconds timeout = kReplyTimeout);
  // An HTTP/1.1 POST of `json` (as application/json) to `target`.
  HttpReply Post(const std::string& target, const std::string& json,
                 std::chrono::milliseconds timeout = kReplyTimeout);

 private:
  HttpReply Http(boost::beast::http::verb method, const std::string& target,
                 const std::string& json, std::chrono::milliseconds timeout);
  // Runs the io_context until `done` or `timeout`; throws on timeout.
  void RunUntil(const bool& done, std::chrono::milliseconds timeout, const char* what);

  boost::asio::io_context io_;
  boost::asio::ssl::context context_;
  std::unique_ptr<boost::asio::ssl::stream<boost::asio::ip::tcp::socket>> stream_;
  std::string buffer_;
};

// A loopback relay to 127.0.0.1:`port` that passes what the daemon sends at once and what its
// client sends at `bytes_per_second`, in pieces of a tenth of that a tenth of a second apart: a
// slow but steady sender, whatever it is (a TLS client's records then arrive over seconds). One
// client connection; the relay ends when either side closes or at its destruction.
class ThrottledRelay {
 public:
  ThrottledRelay(uint16_t port, size_t bytes_per_second);
  ~ThrottledRelay();
  ThrottledRelay(const ThrottledRelay&) = delete;
  ThrottledRelay& operator=(const ThrottledRelay&) = delete;

  // Where the client connects.
  uint16_t port() const { return port_; }

 private:
  void Run(uint16_t daemon_port, size_t bytes_per_second);

  int listener_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace sudoku::testing

#endif  // SUDOKU_TESTS_DAEMON_TLS_SUPPORT_H_
