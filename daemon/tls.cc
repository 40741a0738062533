#include "daemon/tls.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "proto/tls_files.h"

namespace sudoku::daemon {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using asio::awaitable;
using asio::use_awaitable;
using asio::ip::tcp;

namespace {

// The most encrypted per WriteSome: what a connection holds in records not yet sent.
constexpr size_t kMaxRecordBytes = 256 << 10;

std::string NameText(X509_NAME* name) {
  if (name == nullptr) return {};
  BIO* bio = BIO_new(BIO_s_mem());
  X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253);
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::string text(data, static_cast<size_t>(size));
  BIO_free(bio);
  return text;
}

std::string TimeText(const ASN1_TIME* time) {
  BIO* bio = BIO_new(BIO_s_mem());
  ASN1_TIME_print(bio, time);
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::string text(data, static_cast<size_t>(size));
  BIO_free(bio);
  return text;
}

// "RSA", "EC", "ED25519": a key's type as people name it.
std::string KeyType(EVP_PKEY* key) {
  switch (const int id = EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA: return "RSA";
    case EVP_PKEY_RSA_PSS: return "RSA-PSS";
    case EVP_PKEY_EC: return "EC";
    case EVP_PKEY_ED25519: return "Ed25519";
    case EVP_PKEY_ED448: return "Ed448";
    case EVP_PKEY_DSA: return "DSA";
    default: {
      const char* name = OBJ_nid2sn(id);
      return name != nullptr ? name : "unknown";
    }
  }
}

int ReasonCode(const boost::system::error_code& error) {
  if (error.category() != asio::error::get_ssl_category()) return 0;
  return ERR_GET_REASON(static_cast<unsigned long>(error.value()));
}

}  // namespace

std::string SubjectText(X509* certificate) {
  return certificate == nullptr ? std::string() : NameText(X509_get_subject_name(certificate));
}

TlsContext::TlsContext(const TlsFiles& files) : context_(ssl::context::tls_server) {
  CheckReadable<TlsFileError>("--tls-cert", files.cert);
  CheckReadable<TlsFileError>("--tls-key", files.key);
  if (!files.client_ca.empty()) CheckReadable<TlsFileError>("--tls-client-ca", files.client_ca);
  SSL_CTX* ctx = context_.native_handle();
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  // An end of stream without close_notify is an end of input like any other (see
  // Stream::ShutdownSend); renegotiation is a way to make the server work for nothing.
  SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_RENEGOTIATION |
                               SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  // TLS 1.3's suites in the order Mozilla's "modern" configuration gives them: AES-128-GCM
  // first, which is ample and, with AES-NI, about a sixth cheaper than OpenSSL's default first
  // choice, AES-256-GCM; the answers are the bulk of the bytes and every one is encrypted.
  SSL_CTX_set_ciphersuites(ctx, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:"
                                "TLS_CHACHA20_POLY1305_SHA256");
  // The key exchanges offered, as Mozilla's "intermediate" configuration lists them: X25519,
  // P-256, P-384. Each costs well under a millisecond; a finite-field group (ffdhe8192 takes
  // 110-190 ms a handshake) would let a client that replays one captured ClientHello make the
  // daemon work for nothing. A client that offers none of these is refused (handshake failure).
  // TLS 1.2's suites accordingly: ECDHE only, AEAD only, no DHE.
  if (SSL_CTX_set1_groups_list(ctx, kTlsGroups) != 1 ||
      SSL_CTX_set_cipher_list(ctx, "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
                                   "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
                                   "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305") !=
          1) {
    throw std::runtime_error("OpenSSL refused the TLS groups or cipher list");
  }
  // OpenSSL's record buffers (about 34 KiB) are freed while a connection is quiet.
  SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
  boost::system::error_code error;
  context_.use_certificate_chain_file(files.cert, error);
  if (error) {
    throw TlsFileError("--tls-cert " + files.cert + ": not a PEM certificate (" +
                             TlsErrorReason(error) + ")");
  }
  context_.use_private_key_file(files.key, ssl::context::pem, error);
  if (error) {
    const bool mismatch = ReasonCode(error) == X509_R_KEY_VALUES_MISMATCH;
    throw TlsFileError(
        "--tls-key " + files.key + ": " +
        (mismatch ? "the key does not match the certificate in --tls-cert " + files.cert
                  : "not an unencrypted PEM private key (" + TlsErrorReason(error) + ")"));
  }
  // OpenSSL keeps a certificate and a key per key type: a key of another type than the
  // certificate's (an EC key for an RSA certificate) loads without complaint into a slot of its
  // own and leaves the context with a key and no certificate. The pair is checked here, once,
  // before anything uses it.
  X509* cert = SSL_CTX_get0_certificate(ctx);
  if (cert == nullptr || SSL_CTX_check_private_key(ctx) != 1) {
    ERR_clear_error();
    std::FILE* cert_file = std::fopen(files.cert.c_str(), "r");
    X509* loaded =
        cert_file == nullptr ? nullptr : PEM_read_X509(cert_file, nullptr, nullptr, nullptr);
    if (cert_file != nullptr) std::fclose(cert_file);
    EVP_PKEY* key = SSL_CTX_get0_privatekey(ctx);
    EVP_PKEY* cert_key = loaded == nullptr ? nullptr : X509_get0_pubkey(loaded);
    std::string kinds;
    if (key != nullptr && cert_key != nullptr &&
        EVP_PKEY_get_base_id(key) != EVP_PKEY_get_base_id(cert_key)) {
      kinds = std::string(" (a key of type ") + KeyType(key) + " for a certificate of type " +
              KeyType(cert_key) + ")";
    }
    X509_free(loaded);
    ERR_clear_error();
    throw TlsFileError("--tls-key " + files.key +
                             ": the key does not match the certificate in --tls-cert " +
                             files.cert + kinds);
  }
  description_ = NameText(X509_get_subject_name(cert)) + ", expires " +
                 TimeText(X509_get0_notAfter(cert));
  if (!files.client_ca.empty()) {
    context_.load_verify_file(files.client_ca, error);
    STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(files.client_ca.c_str());
    if (error || names == nullptr) {
      throw TlsFileError("--tls-client-ca " + files.client_ca +
                               ": no PEM CA certificate in it" +
                               (error ? " (" + TlsErrorReason(error) + ")" : std::string()));
    }
    // Tells clients which CA to pick a certificate for.
    SSL_CTX_set_client_CA_list(ctx, names);
    context_.set_verify_mode(files.client_certificate_optional
                                 ? ssl::verify_peer
                                 : ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
    verifies_clients_ = true;
    description_ += "; client certificates from " + files.client_ca;
  }
}

Stream::Stream(tcp::socket socket, std::shared_ptr<TlsContext> tls)
    : stream_(Tls{.context = tls,
                  .socket = std::make_unique<tcp::socket>(std::move(socket)),
                  .stream = nullptr,
                  .verify_error = 0,
                  .verify_subject = {}}) {
  Tls& made = std::get<Tls>(stream_);
  made.stream = std::make_unique<TlsStream>(*made.socket, tls->context(), TlsStream::Role::kServer);
}

tcp::socket& Stream::socket() {
  if (Tls* tls = std::get_if<Tls>(&stream_)) return *tls->socket;
  return std::get<tcp::socket>(stream_);
}

awaitable<bool> Stream::PeerSpeaksTls(boost::system::error_code& error) {
  co_await socket().async_wait(tcp::socket::wait_read, asio::redirect_error(use_awaitable, error));
  if (error) co_return false;
  unsigned char first = 0;
  const size_t n = socket().receive(asio::buffer(&first, 1), tcp::socket::message_peek, error);
  if (error) co_return false;
  if (n == 0) {
    error = asio::error::eof;
    co_return false;
  }
  co_return first == 0x16;  // a TLS record of type handshake
}

void Stream::Demote() {
  if (Tls* tls = std::get_if<Tls>(&stream_)) {
    tcp::socket socket = std::move(*tls->socket);
    stream_ = std::move(socket);
  }
}

awaitable<void> Stream::Handshake(boost::system::error_code& error, TlsStream::Offload offload) {
  Tls& tls = std::get<Tls>(stream_);
  if (tls.context->verifies_clients()) {
    // Remembers what was wrong with the client's certificate, for the log: OpenSSL's error
    // only says "certificate verify failed".
    tls.stream->SetVerifyCallback([&tls](bool preverified, X509_STORE_CTX* store) {
      if (!preverified && tls.verify_error == 0) {
        tls.verify_error = X509_STORE_CTX_get_error(store);
        X509* cert = X509_STORE_CTX_get_current_cert(store);
        if (X509_STORE_CTX_get_error_depth(store) > 0) {
          cert = sk_X509_value(X509_STORE_CTX_get0_chain(store), 0);
        }
        if (cert != nullptr) tls.verify_subject = NameText(X509_get_subject_name(cert));
      }
      return preverified;
    });
  }
  co_await tls.stream->Handshake(error, std::move(offload));
}

HandshakeFailure Stream::Failure(const boost::system::error_code& error) const {
  const Tls* tls = std::get_if<Tls>(&stream_);
  if (tls != nullptr && tls->verify_error != 0) {
    const std::string certificate = "the client certificate '" + tls->verify_subject + "'";
    const std::string why =
        std::string(" (") + X509_verify_cert_error_string(tls->verify_error) + ")";
    switch (tls->verify_error) {
      case X509_V_ERR_CERT_HAS_EXPIRED:
        return {"TLS expired client certificate", certificate + " has expired" + why};
      case X509_V_ERR_CERT_NOT_YET_VALID:
        return {"TLS client certificate not yet valid", certificate + " is not valid yet" + why};
      case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
      case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
      case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
      case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
      case X509_V_ERR_CERT_SIGNATURE_FAILURE:
        return {"TLS untrusted client certificate",
                certificate + " is not signed by --tls-client-ca" + why};
      default:
        return {"TLS bad client certificate", certificate + " was refused" + why};
    }
  }
  if (error == asio::error::eof || error == ssl::error::stream_truncated) {
    return {"TLS handshake cut short",
            "the peer closed the connection during the TLS handshake"};
  }
  const int reason = ReasonCode(error);
  if (reason == SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE) {
    return {"TLS no client certificate",
            "no client certificate (--tls-client-ca requires one signed by its CA)"};
  }
  if (reason > SSL_AD_REASON_OFFSET && reason < SSL_AD_REASON_OFFSET + 256) {
    // The client sent an alert: it did not accept our certificate, most often.
    return {"TLS refused by the client",
            "the client ended the TLS handshake (" + TlsErrorReason(error) +
                "): does it trust the CA of --tls-cert, and does it connect by a name the "
                "certificate holds?"};
  }
  return {"TLS handshake failed", "TLS handshake failed: " + TlsErrorReason(error)};
}

std::string Stream::PeerSubject() {
  Tls* tls = std::get_if<Tls>(&stream_);
  if (tls == nullptr) return {};
  return SubjectText(SSL_get0_peer_certificate(tls->stream->native_handle()));
}

awaitable<void> Stream::WaitRead(boost::system::error_code& error) {
  if (const Tls* tls = std::get_if<Tls>(&stream_); tls != nullptr && tls->stream->HasBuffered()) {
    co_return;
  }
  co_await socket().async_wait(tcp::socket::wait_read, asio::redirect_error(use_awaitable, error));
}

awaitable<size_t> Stream::ReadSome(asio::mutable_buffer buffer, boost::system::error_code& error) {
  if (Tls* tls = std::get_if<Tls>(&stream_)) {
    size_t n = co_await tls->stream->ReadSome(buffer, error);
    // An end without close_notify is "stream truncated" (see ShutdownSend).
    if (error == ssl::error::stream_truncated) error = asio::error::eof;
    co_return n;
  }
  const size_t n = co_await std::get<tcp::socket>(stream_).async_read_some(
      buffer, asio::redirect_error(use_awaitable, error));
  plain_bytes_received_ += n;
  co_return n;
}

uint64_t Stream::bytes_received() const {
  if (const Tls* tls = std::get_if<Tls>(&stream_)) return tls->stream->bytes_received();
  return plain_bytes_received_;
}

size_t Stream::memory() const {
  const Tls* tls = std::get_if<Tls>(&stream_);
  if (tls == nullptr) return 0;
  return kTlsStateBytes + tls->stream->memory() + gather_.capacity();
}

void Stream::OnRawReceive(std::function<void()> observer) {
  if (Tls* tls = std::get_if<Tls>(&stream_)) tls->stream->OnReceive(std::move(observer));
}

void Stream::ReleaseReadBuffer() {
  if (Tls* tls = std::get_if<Tls>(&stream_); tls != nullptr && !tls->stream->HasBuffered()) {
    tls->stream->ReleaseReadBuffer();
  }
}

void Stream::ReleaseIdle() {
  gather_ = std::string();
  if (Tls* tls = std::get_if<Tls>(&stream_)) tls->stream->ReleaseIdle();
}

awaitable<size_t> Stream::WriteSome(std::span<const asio::const_buffer> buffers,
                                    boost::system::error_code& error) {
  Tls* tls = std::get_if<Tls>(&stream_);
  if (tls == nullptr) {
    co_return co_await std::get<tcp::socket>(stream_).async_write_some(
        buffers, asio::redirect_error(use_awaitable, error));
  }
  // Several buffers (a frame's length and body, small answers) are copied into one first, so
  // that they make one record, not one each; the records are sent together.
  asio::const_buffer data = asio::buffer(buffers[0], kMaxRecordBytes);
  if (buffers.size() > 1) {
    gather_.clear();
    for (const asio::const_buffer& buffer : buffers) {
      const size_t room = kMaxRecordBytes - gather_.size();
      gather_.append(static_cast<const char*>(buffer.data()), std::min(buffer.size(), room));
      if (gather_.size() == kMaxRecordBytes) break;
    }
    data = asio::buffer(gather_);
  }
  co_return co_await tls->stream->Write(data, error);
}

void Stream::ShutdownSend(boost::system::error_code& error) {
  socket().shutdown(tcp::socket::shutdown_send, error);
}

void Stream::Close() {
  boost::system::error_code ignored;
  socket().close(ignored);
}

}  // namespace sudoku::daemon
