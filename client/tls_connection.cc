#include "client/tls_connection.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <limits>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/steady_timer.hpp>

#include "client/client_error.h"
#include "proto/tls_files.h"

namespace sudoku::client {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;

std::shared_ptr<ssl::context> MakeClientTls(const TlsFlags& flags) {
  if (!flags.tls) {
    if (!flags.ca.empty() || !flags.cert.empty() || !flags.key.empty()) {
      throw ClientError("--tls-ca, --tls-cert and --tls-key need --tls");
    }
    return nullptr;
  }
  if (flags.cert.empty() != flags.key.empty()) {
    throw ClientError("--tls-cert and --tls-key go together: give both, or neither");
  }
  auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
  SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
  // The daemon ends its side without close_notify (the frames are length-prefixed, so a cut is
  // seen anyway): an end of stream is an end of stream.
  SSL_CTX_set_options(context->native_handle(), SSL_OP_IGNORE_UNEXPECTED_EOF);
  boost::system::error_code error;
  if (flags.ca.empty()) {
    context->set_default_verify_paths(error);
  } else {
    CheckReadable<ClientError>("--tls-ca", flags.ca);
    context->load_verify_file(flags.ca, error);
    if (error) {
      throw ClientError("--tls-ca " + flags.ca + ": no PEM CA certificate in it (" +
                        TlsErrorReason(error) + ")");
    }
  }
  context->set_verify_mode(ssl::verify_peer);
  if (!flags.cert.empty()) {
    CheckReadable<ClientError>("--tls-cert", flags.cert);
    CheckReadable<ClientError>("--tls-key", flags.key);
    context->use_certificate_chain_file(flags.cert, error);
    if (error) {
      throw ClientError("--tls-cert " + flags.cert + ": not a PEM certificate (" +
                        TlsErrorReason(error) + ")");
    }
    context->use_private_key_file(flags.key, ssl::context::pem, error);
    if (error) {
      throw ClientError("--tls-key " + flags.key + ": not the unencrypted PEM key of --tls-cert (" +
                        TlsErrorReason(error) + ")");
    }
  }
  return context;
}

std::function<std::unique_ptr<Connection>(const asio::any_io_executor&, const Endpoint&)>
TlsOpener(std::shared_ptr<ssl::context> context) {
  if (!context) return {};
  return [context](const asio::any_io_executor& executor, const Endpoint& endpoint) {
    return std::make_unique<TlsConnection>(executor, endpoint, context);
  };
}

TlsConnection::TlsConnection(const asio::any_io_executor& executor, Endpoint endpoint,
                             std::shared_ptr<ssl::context> context,
                             std::chrono::milliseconds connect_timeout)
    : Connection(executor, std::move(endpoint), wire::kDefaultMaxFrameBytes, connect_timeout),
      context_(std::move(context)),
      stream_(socket(), *context_, TlsStream::Role::kClient) {}

asio::awaitable<void> TlsConnection::Secure() {
  SSL* ssl = stream_.native_handle();
  const std::string& host = endpoint().host;
  boost::system::error_code error;
  asio::ip::make_address(host, error);
  if (error) {
    // A name: sent as SNI, and the certificate must hold it.
    SSL_set_tlsext_host_name(ssl, host.c_str());
    SSL_set1_host(ssl, host.c_str());
  } else {
    // An address: the certificate must hold it as an IP subjectAltName.
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.c_str());
  }
  // The handshake gets the connect time-out: a port that accepts and never answers (a
  // plaintext server waiting for a frame) must not hang the run.
  asio::steady_timer timer(socket().get_executor());
  bool timed_out = false;
  timer.expires_after(connect_timeout());
  timer.async_wait([this, &timed_out](const boost::system::error_code& cancelled) {
    if (cancelled) return;
    timed_out = true;
    boost::system::error_code ignored;
    socket().close(ignored);
  });
  error.clear();
  co_await stream_.Handshake(error);
  timer.cancel();
  if (timed_out) {
    throw ConnectionLost("the TLS handshake with " + PeerName() + " was not done within " +
                         ConnectTimeoutText() + " s (is that port sudokud's TLS port?)");
  }
  if (!error) co_return;
  ThrowIfRefused(error);
  throw ConnectionLost("the TLS handshake with " + PeerName() + " failed: " + error.message());
}

void TlsConnection::ThrowIfRefused(const boost::system::error_code& error) {
  if (error.category() != asio::error::get_ssl_category()) return;
  const int reason = ERR_GET_REASON(static_cast<unsigned long>(error.value()));
  const std::string peer = PeerName();
  switch (reason) {
    case SSL_R_CERTIFICATE_VERIFY_FAILED: {
      const long result = SSL_get_verify_result(stream_.native_handle());
      if (result == X509_V_ERR_HOSTNAME_MISMATCH || result == X509_V_ERR_IP_ADDRESS_MISMATCH) {
        throw ClientError("the certificate of " + peer + " is not valid for '" + endpoint().host +
                          "': connect by a name (or address) its certificate holds");
      }
      throw ClientError("cannot verify the certificate of " + peer + ": " +
                        X509_verify_cert_error_string(result) +
                        " (give --tls-ca with the CA that signed it)");
    }
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_PACKET_LENGTH_TOO_LONG:
      throw ClientError(peer + " does not speak TLS on this port (it answered in plaintext): "
                        "drop --tls, or connect to its TLS port");
    case SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    case SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE:
      // TLS 1.2 says only "handshake failure" where TLS 1.3 says "certificate required".
      if (reason == SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED ||
          SSL_get_certificate(stream_.native_handle()) == nullptr) {
        throw ClientError(peer + " refused the connection: it requires a client certificate "
                          "(give --tls-cert and --tls-key)");
      }
      break;
    case SSL_R_TLSV1_ALERT_UNKNOWN_CA:
      throw ClientError(peer + " refused our client certificate (--tls-cert): it is not signed "
                        "by a CA the daemon trusts (its --tls-client-ca)");
    case SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED:
      throw ClientError(peer + " refused our client certificate (--tls-cert): it has expired");
    case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN:
    case SSL_R_TLSV1_ALERT_DECRYPT_ERROR:
      throw ClientError(peer + " refused our client certificate (--tls-cert): " +
                        TlsErrorReason(error));
    default:
      break;
  }
}

asio::awaitable<size_t> TlsConnection::WriteAll(asio::const_buffer data,
                                                boost::system::error_code& error) {
  // The records of each piece are sent in one system call, not one a record; the pieces bound
  // what is held encrypted and not yet sent.
  constexpr size_t kPieceBytes = 256 << 10;
  size_t written = 0;
  error.clear();
  while (written < data.size() && !error) {
    written += co_await stream_.Write(asio::buffer(data + written, kPieceBytes), error);
  }
  if (error) ThrowIfRefused(error);
  co_return written;
}

asio::awaitable<size_t> TlsConnection::ReadSomeInto(asio::mutable_buffer buffer,
                                                    boost::system::error_code& error) {
  const size_t n = co_await stream_.ReadSome(buffer, error);
  if (error == ssl::error::stream_truncated) error = asio::error::eof;
  if (error) ThrowIfRefused(error);
  co_return n;
}

}  // namespace sudoku::client
