#include "tests/daemon/tls_support.h"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <boost/asio/connect.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/write.hpp>

#include "proto/framing.h"

namespace sudoku::testing {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using asio::ip::tcp;

// ---- TestPki ----

namespace {

TestPki* shared_pki = nullptr;

class PkiEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { shared_pki = new TestPki; }
  void TearDown() override {
    delete shared_pki;
    shared_pki = nullptr;
  }
};
// Registered when a test program links Pki(), which lives in this file.
const auto* const kPkiEnvironment = ::testing::AddGlobalTestEnvironment(new PkiEnvironment);

}  // namespace

TestPki& Pki() {
  if (shared_pki == nullptr) throw std::logic_error("Pki() used outside a test");
  return *shared_pki;
}

TestPki::TestPki() {
  std::string pattern = std::filesystem::temp_directory_path() / "sudokud_pki_XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
  // P-256 keys: made in milliseconds, where RSA-2048 takes a good part of a second each.
  const std::string key = "-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes";
  const std::string ca_ext = " -addext basicConstraints=critical,CA:TRUE"
                             " -addext keyUsage=critical,keyCertSign,cRLSign";
  Run("openssl req -x509 " + key + " -days 2 -subj '/CN=sudokud test CA' -keyout ca.key -out ca.pem" +
      ca_ext);
  Run("openssl req -x509 " + key + " -days 2 -subj '/CN=other CA' -keyout other_ca.key "
      "-out other_ca.pem" + ca_ext);
  const std::string server_names = "subjectAltName=DNS:localhost,IP:127.0.0.1";
  Leaf("server", "/CN=localhost", "ca", server_names, 2);
  Leaf("server2", "/CN=localhost rotated", "ca", server_names, 2);
  Leaf("client", "/CN=test client", "ca", "extendedKeyUsage=clientAuth", 2);
  // -days -1: valid from now to a day before now, so expired at once.
  Leaf("expired", "/CN=expired client", "ca", "extendedKeyUsage=clientAuth", -1);
  Leaf("stranger", "/CN=stranger", "other_ca", "extendedKeyUsage=clientAuth", 2);
  // The one RSA pair, for a certificate and a key of different types.
  Run("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=localhost rsa' "
      "-keyout rsa_server.key -out rsa_server.pem");
}

TestPki::~TestPki() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void TestPki::Run(const std::string& command) const {
  const std::string line = "cd '" + dir_ + "' && " + command + " >/dev/null 2>&1";
  if (std::system(line.c_str()) != 0) throw std::runtime_error("failed: " + command);
}

void TestPki::Leaf(const std::string& name, const std::string& subject, const std::string& ca,
                   const std::string& extensions, int days) const {
  std::ofstream(Path(name + ".ext")) << extensions << "\n";
  Run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj '" + subject +
      "' -keyout " + name + ".key -out " + name + ".csr");
  Run("openssl x509 -req -in " + name + ".csr -CA " + ca + ".pem -CAkey " + ca +
      ".key -CAcreateserial -days " + std::to_string(days) + " -extfile " + name + ".ext -out " +
      name + ".pem");
}

// ---- TlsClient ----

TlsClient::TlsClient(uint16_t port, const TlsClientOptions& options)
    : context_(ssl::context::tls_client) {
  if (options.tls12_only) SSL_CTX_set_max_proto_version(context_.native_handle(), TLS1_2_VERSION);
  if (!options.groups.empty() &&
      SSL_CTX_set1_groups_list(context_.native_handle(), options.groups.c_str()) != 1) {
    throw std::runtime_error("OpenSSL does not know the groups " + options.groups);
  }
  SSL_CTX_set_options(context_.native_handle(), SSL_OP_IGNORE_UNEXPECTED_EOF);
  if (!options.ca.empty()) {
    context_.load_verify_file(options.ca);
    context_.set_verify_mode(ssl::verify_peer);
  }
  if (!options.cert.empty()) {
    context_.use_certificate_chain_file(options.cert);
    context_.use_private_key_file(options.key, ssl::context::pem);
  }
  stream_ = std::make_unique<ssl::stream<tcp::socket>>(io_, context_);
  SSL_set_tlsext_host_name(stream_->native_handle(), options.server_name.c_str());
  // OpenSSL's own name check (not Asio's verify callback, whose refusal OpenSSL can only report
  // to the server as an internal error).
  if (!options.ca.empty()) SSL_set1_host(stream_->native_handle(), options.server_name.c_str());
  stream_->next_layer().connect(tcp::endpoint(asio::ip::address_v4::loopback(), port));
  stream_->next_layer().set_option(tcp::no_delay(true));
}

void TlsClient::RunUntil(const bool& done, std::chrono::milliseconds timeout, const char* what) {
  io_.restart();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done && std::chrono::steady_clock::now() < deadline) {
    io_.run_one_for(std::chrono::milliseconds(100));
  }
  if (!done) {
    stream_->next_layer().close();
    io_.restart();
    io_.run();  // completes the operation (aborted)
    throw std::runtime_error(std::string("timed out: ") + what);
  }
}

void TlsClient::Handshake(std::chrono::milliseconds timeout) {
  bool done = false;
  boost::system::error_code error;
  stream_->async_handshake(ssl::stream_base::client, [&](const boost::system::error_code& e) {
    error = e;
    done = true;
  });
  RunUntil(done, timeout, "the TLS handshake");
  if (error) throw std::runtime_error(error.message());
}

TlsClient::HttpReply TlsClient::Get(const std::string& target,
                                    std::chrono::milliseconds timeout) {
  return Http(boost::beast::http::verb::get, target, "", timeout);
}

TlsClient::HttpReply TlsClient::Post(const std::string& target, const std::string& json,
                                     std::chrono::milliseconds timeout) {
  return Http(boost::beast::http::verb::post, target, json, timeout);
}

TlsClient::HttpReply TlsClient::Http(boost::beast::http::verb method, const std::string& target,
                                     const std::string& json, std::chrono::milliseconds timeout) {
  namespace http = boost::beast::http;
  http::request<http::string_body> request{method, target, 11};
  request.set(http::field::host, "localhost");
  if (method == http::verb::post) {
    request.set(http::field::content_type, "application/json");
    request.body() = json;
    request.prepare_payload();
  }
  bool done = false;
  boost::system::error_code error;
  http::async_write(*stream_, request, [&](const boost::system::error_code& e, size_t) {
    error = e;
    done = true;
  });
  RunUntil(done, timeout, "sending the HTTP request");
  if (error) throw std::runtime_error(error.message());
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> response;
  done = false;
  http::async_read(*stream_, buffer, response, [&](const boost::system::error_code& e, size_t) {
    error = e;
    done = true;
  });
  RunUntil(done, timeout, "the HTTP response");
  if (error) throw std::runtime_error(error.message());
  return HttpReply{.status = response.result_int(), .body = response.body()};
}

void TlsClient::Send(const wire::Request& request) {
  std::string frame;
  wire::AppendFrame(request, &frame);
  bool done = false;
  boost::system::error_code error;
  asio::async_write(*stream_, asio::buffer(frame), [&](const boost::system::error_code& e, size_t) {
    error = e;
    done = true;
  });
  RunUntil(done, kReplyTimeout, "sending");
  if (error) throw std::runtime_error(error.message());
}

void TlsClient::SendSolve(uint64_t batch_id, const std::vector<std::string>& puzzles) {
  wire::Request request;
  request.mutable_solve()->set_batch_id(batch_id);
  for (const auto& puzzle : puzzles) request.mutable_solve()->add_puzzles(puzzle);
  Send(request);
}

std::optional<wire::Response> TlsClient::Read(std::chrono::milliseconds timeout) {
  for (;;) {
    const wire::FrameHeader header = wire::DecodeFrameHeader(buffer_, 1 << 30);
    if (header.status == wire::FrameHeader::Status::kComplete &&
        buffer_.size() >= header.prefix_bytes + header.body_bytes) {
      wire::Response response;
      if (!response.ParseFromArray(buffer_.data() + header.prefix_bytes,
                                   static_cast<int>(header.body_bytes))) {
        throw std::runtime_error("a response that does not decode");
      }
      buffer_.erase(0, header.prefix_bytes + header.body_bytes);
      return response;
    }
    char chunk[16384];
    bool done = false;
    boost::system::error_code error;
    size_t n = 0;
    stream_->async_read_some(asio::buffer(chunk),
                             [&](const boost::system::error_code& e, size_t bytes) {
                               error = e;
                               n = bytes;
                               done = true;
                             });
    RunUntil(done, timeout, "reading");
    buffer_.append(chunk, n);
    if (error == asio::error::eof || error == ssl::error::stream_truncated) {
      if (!buffer_.empty()) throw std::runtime_error("closed inside a frame");
      return std::nullopt;
    }
    if (error) throw std::runtime_error(error.message());
  }
}

std::string TlsClient::ServerSubject() {
  X509* cert = SSL_get0_peer_certificate(stream_->native_handle());
  if (cert == nullptr) return {};
  char line[256];
  X509_NAME_oneline(X509_get_subject_name(cert), line, sizeof line);
  return line;
}

std::string TlsClient::Protocol() { return SSL_get_version(stream_->native_handle()); }

std::string TlsClient::Cipher() {
  return SSL_CIPHER_get_name(SSL_get_current_cipher(stream_->native_handle()));
}

ThrottledRelay::ThrottledRelay(uint16_t port, size_t bytes_per_second) {
  listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
      ::listen(listener_, 1) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    throw std::runtime_error("the relay cannot listen on loopback");
  }
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this, port, bytes_per_second] { Run(port, bytes_per_second); });
}

ThrottledRelay::~ThrottledRelay() {
  stop_ = true;
  thread_.join();
  ::close(listener_);
}

void ThrottledRelay::Run(uint16_t daemon_port, size_t bytes_per_second) {
  // Every wait is a poll() of 100 ms at most, so that the destructor's stop is seen soon.
  const auto wait = [this](int fd, short events) {
    pollfd polled{.fd = fd, .events = events, .revents = 0};
    while (!stop_) {
      if (::poll(&polled, 1, 100) > 0) return true;
    }
    return false;
  };
  if (!wait(listener_, POLLIN)) return;
  const int client = ::accept(listener_, nullptr, nullptr);
  const int daemon = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(daemon_port);
  if (client < 0 || daemon < 0 ||
      ::connect(daemon, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(client);
    ::close(daemon);
    return;
  }
  const size_t piece = std::max<size_t>(1, bytes_per_second / 10);
  std::string pending;  // from the client, not yet passed on
  auto next_piece = std::chrono::steady_clock::now();
  std::array<char, 16384> chunk;
  bool open = true;
  while (open && !stop_) {
    pollfd fds[2] = {{.fd = client, .events = POLLIN, .revents = 0},
                     {.fd = daemon, .events = POLLIN, .revents = 0}};
    ::poll(fds, 2, 10);
    if (fds[1].revents != 0) {  // the daemon's bytes go through at once
      const ssize_t n = ::read(daemon, chunk.data(), chunk.size());
      open = n > 0 && ::write(client, chunk.data(), static_cast<size_t>(n)) == n;
    }
    if (open && fds[0].revents != 0) {
      const ssize_t n = ::read(client, chunk.data(), chunk.size());
      if (n > 0) pending.append(chunk.data(), static_cast<size_t>(n));
      open = n > 0;
    }
    if (open && !pending.empty() && std::chrono::steady_clock::now() >= next_piece) {
      const size_t n = std::min(piece, pending.size());
      open = ::write(daemon, pending.data(), n) == static_cast<ssize_t>(n);
      pending.erase(0, n);
      next_piece = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
    }
  }
  ::close(client);
  ::close(daemon);
}

}  // namespace sudoku::testing
