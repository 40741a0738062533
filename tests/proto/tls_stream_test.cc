// TlsStream, both ends' TLS, on a loopback TCP pair: a server and a client stream (a throwaway
// EC certificate made in memory here) handshake, carry bytes both ways at once, report the
// peer's end and a refused certificate with Asio's errors, and send each Write's records before
// it returns. The TLS tests of the daemon and the client run whole connections over it.
#include "proto/tls_stream.h"

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/write.hpp>

namespace sudoku {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using asio::awaitable;
using asio::ip::tcp;
using boost::system::error_code;

// A self-signed P-256 certificate for "CN=tls stream test", valid for a day.
struct Certificate {
  Certificate() {
    key = EVP_EC_gen("P-256");
    cert = X509_new();
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), -60);
    X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
    X509_NAME* name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("tls stream test"), -1, -1,
                               0);
    X509_set_issuer_name(cert, name);
    X509_set_pubkey(cert, key);
    X509_sign(cert, key, EVP_sha256());
  }
  ~Certificate() {
    X509_free(cert);
    EVP_PKEY_free(key);
  }
  EVP_PKEY* key;
  X509* cert;
};

class TlsStreamTest : public ::testing::Test {
 protected:
  TlsStreamTest()
      : server_context_(ssl::context::tls_server),
        client_context_(ssl::context::tls_client),
        server_socket_(io_),
        client_socket_(io_) {
    SSL_CTX_use_certificate(server_context_.native_handle(), certificate_.cert);
    SSL_CTX_use_PrivateKey(server_context_.native_handle(), certificate_.key);
    X509_STORE_add_cert(SSL_CTX_get_cert_store(client_context_.native_handle()),
                        certificate_.cert);
    client_context_.set_verify_mode(ssl::verify_peer);
    tcp::acceptor acceptor(io_, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    client_socket_.connect(acceptor.local_endpoint());
    acceptor.accept(server_socket_);
    server_ = std::make_unique<TlsStream>(server_socket_, server_context_,
                                          TlsStream::Role::kServer);
    client_ = std::make_unique<TlsStream>(client_socket_, client_context_,
                                          TlsStream::Role::kClient);
  }

  // Runs the tasks side by side on the io_context until each has ended.
  template <typename... Tasks>
  void Run(Tasks... tasks) {
    int done = 0;
    (asio::co_spawn(
         io_,
         [&, tasks]() -> awaitable<void> {
           co_await tasks();
           ++done;
         },
         asio::detached),
     ...);
    io_.run();
    io_.restart();
    ASSERT_EQ(done, static_cast<int>(sizeof...(Tasks)));
  }

  void Handshake() {
    error_code server_error, client_error;
    Run([&]() -> awaitable<void> { co_await server_->Handshake(server_error); },
        [&]() -> awaitable<void> { co_await client_->Handshake(client_error); });
    ASSERT_FALSE(server_error) << server_error.message();
    ASSERT_FALSE(client_error) << client_error.message();
  }

  Certificate certificate_;
  asio::io_context io_;
  ssl::context server_context_;
  ssl::context client_context_;
  tcp::socket server_socket_;
  tcp::socket client_socket_;
  std::unique_ptr<TlsStream> server_;
  std::unique_ptr<TlsStream> client_;
};

// Reads from `stream` until `size` bytes have come or it fails.
awaitable<std::string> ReadExactly(TlsStream& stream, size_t size, error_code& error) {
  std::string bytes;
  char buffer[7000];  // not a record's size, so that records are taken in pieces too
  while (bytes.size() < size) {
    const size_t n = co_await stream.ReadSome(asio::buffer(buffer), error);
    if (error) break;
    bytes.append(buffer, n);
  }
  co_return bytes;
}

std::string Pattern(size_t size, int seed) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 131 + seed) % 251);
  return bytes;
}

TEST_F(TlsStreamTest, CarriesBytesBothWaysAtOnce) {
  Handshake();
  const std::string up = Pattern(3 << 20, 1), down = Pattern((2 << 20) + 17, 2);
  std::string got_up, got_down;
  error_code errors[4];
  Run(
      [&]() -> awaitable<void> {
        size_t written = 0;
        for (size_t at = 0; at < up.size(); at += 100000) {
          written += co_await client_->Write(asio::buffer(up.data() + at, std::min<size_t>(
                                                             100000, up.size() - at)),
                                             errors[0]);
        }
        EXPECT_EQ(written, up.size());
      },
      [&]() -> awaitable<void> {
        EXPECT_EQ(co_await server_->Write(asio::buffer(down), errors[1]), down.size());
      },
      [&]() -> awaitable<void> { got_up = co_await ReadExactly(*server_, up.size(), errors[2]); },
      [&]() -> awaitable<void> {
        got_down = co_await ReadExactly(*client_, down.size(), errors[3]);
      });
  for (const error_code& error : errors) EXPECT_FALSE(error) << error.message();
  EXPECT_TRUE(got_up == up);
  EXPECT_TRUE(got_down == down);
}

TEST_F(TlsStreamTest, KeyUpdatesBothWaysKeepTheBytesIntact) {
  Handshake();
  // The client updates its keys and asks the server to update its own, which the server's
  // OpenSSL answers while it reads; then each side writes again under the new keys.
  ASSERT_EQ(SSL_key_update(client_->native_handle(), SSL_KEY_UPDATE_REQUESTED), 1);
  error_code errors[4];
  std::string got_up, got_down;
  Run(
      [&]() -> awaitable<void> {
        co_await client_->Write(asio::buffer(std::string("ping")), errors[0]);
        got_down = co_await ReadExactly(*client_, 4, errors[1]);
      },
      [&]() -> awaitable<void> {
        got_up = co_await ReadExactly(*server_, 4, errors[2]);
        co_await server_->Write(asio::buffer(std::string("pong")), errors[3]);
      });
  for (const error_code& error : errors) EXPECT_FALSE(error) << error.message();
  EXPECT_EQ(got_up, "ping");
  EXPECT_EQ(got_down, "pong");
  EXPECT_EQ(SSL_get_key_update_type(server_->native_handle()), SSL_KEY_UPDATE_NONE);
}

TEST_F(TlsStreamTest, AWriteHasSentEveryRecordWhenItReturns) {
  Handshake();
  const std::string data = Pattern(200000, 3);
  error_code error;
  Run([&]() -> awaitable<void> { co_await client_->Write(asio::buffer(data), error); });
  ASSERT_FALSE(error);
  // Nothing more runs on the client's side: every record was with the kernel already.
  client_socket_.shutdown(tcp::socket::shutdown_send);
  std::string got;
  Run([&]() -> awaitable<void> { got = co_await ReadExactly(*server_, data.size() + 1, error); });
  EXPECT_TRUE(got == data);
  EXPECT_EQ(error, ssl::error::stream_truncated) << error.message();
}

TEST_F(TlsStreamTest, AnEndWithoutCloseNotifyIsAStreamTruncated) {
  Handshake();
  client_socket_.shutdown(tcp::socket::shutdown_send);
  error_code error;
  char byte;
  Run([&]() -> awaitable<void> { co_await server_->ReadSome(asio::buffer(&byte, 1), error); });
  EXPECT_EQ(error, ssl::error::stream_truncated) << error.message();
}

TEST_F(TlsStreamTest, AHandshakeCutShortIsAStreamTruncated) {
  client_socket_.close();
  error_code error;
  Run([&]() -> awaitable<void> { co_await server_->Handshake(error); });
  EXPECT_EQ(error, ssl::error::stream_truncated) << error.message();
}

TEST_F(TlsStreamTest, PlaintextIsRefusedWithOpenSslsReason) {
  asio::write(client_socket_, asio::buffer(std::string("GET / HTTP/1.0\r\n\r\n")));
  error_code error;
  Run([&]() -> awaitable<void> { co_await server_->Handshake(error); });
  ASSERT_EQ(error.category(), asio::error::get_ssl_category()) << error.message();
  EXPECT_EQ(ERR_GET_REASON(static_cast<unsigned long>(error.value())), SSL_R_HTTP_REQUEST);
}

TEST_F(TlsStreamTest, TheVerifyCallbackGivesTheVerdict) {
  int asked = 0;
  client_->SetVerifyCallback([&](bool preverified, X509_STORE_CTX* store) {
    ++asked;
    EXPECT_TRUE(preverified);
    EXPECT_NE(X509_STORE_CTX_get_current_cert(store), nullptr);
    X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED);
    return false;
  });
  error_code server_error, client_error;
  Run([&]() -> awaitable<void> { co_await server_->Handshake(server_error); },
      [&]() -> awaitable<void> { co_await client_->Handshake(client_error); });
  EXPECT_EQ(asked, 1);
  ASSERT_EQ(client_error.category(), asio::error::get_ssl_category());
  EXPECT_EQ(ERR_GET_REASON(static_cast<unsigned long>(client_error.value())),
            SSL_R_CERTIFICATE_VERIFY_FAILED);
  // The client's alert reached the server, which names it.
  ASSERT_EQ(server_error.category(), asio::error::get_ssl_category());
  EXPECT_EQ(ERR_GET_REASON(static_cast<unsigned long>(server_error.value())),
            SSL_R_SSLV3_ALERT_BAD_CERTIFICATE) << server_error.message();
}

TEST_F(TlsStreamTest, AWriteToAClosedPeerFailsAndSoDoTheNext) {
  Handshake();
  server_socket_.close();
  const std::string data = Pattern(4 << 20, 4);  // more than loopback's buffers take
  error_code first, second;
  size_t written = 1;
  Run([&]() -> awaitable<void> {
    written = co_await client_->Write(asio::buffer(data), first);
    co_await client_->Write(asio::buffer(data, 10), second);
  });
  EXPECT_EQ(written, 0u);
  EXPECT_TRUE(first == asio::error::connection_reset || first == asio::error::broken_pipe)
      << first.message();
  EXPECT_EQ(second, first);
}

}  // namespace
}  // namespace sudoku
