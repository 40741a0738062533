// TLS for sudokud's port: the server's certificate and key (and, for mutual TLS, the CA whose
// client certificates get in) as an OpenSSL context (TlsContext), and the byte stream a
// Connection reads and writes (Stream): a plain TCP socket, or TLS over one.
//
// A TlsContext is immutable once built. Reloading (SIGHUP) builds a new one for the connections
// accepted from then on; each connection holds a shared_ptr to the one it was accepted with, so
// the connections open keep theirs.
//
// Thread-safety: a TlsContext may be shared between threads (OpenSSL's SSL_CTX is, once set up);
// a Stream belongs to one connection, on the daemon's io_context thread.
#ifndef SUDOKU_DAEMON_TLS_H_
#define SUDOKU_DAEMON_TLS_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <variant>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include "proto/tls_stream.h"

namespace sudoku::daemon {

// The key exchange groups the daemon's TLS offers (OpenSSL's list form): see TlsContext.
inline constexpr char kTlsGroups[] = "X25519:P-256:P-384";

// What --tls-cert, --tls-key and --tls-client-ca name.
struct TlsFiles {
  std::string cert;       // PEM: the server's certificate, then any intermediates
  std::string key;        // PEM: its private key, unencrypted
  std::string client_ca;  // PEM: CA certificates; empty: no client certificate asked for
  // With client_ca: whether a client without a certificate is refused (the TCP port), or let
  // in, its requests then told apart by whether one was verified (the HTTP listeners, whose
  // scrapers and probes have none). A certificate that does not verify is refused either way.
  bool client_certificate_optional = false;
};

// "CN=client,O=example": a certificate's subject as the log and the HTTP API name it.
std::string SubjectText(X509* certificate);

// A file named by --tls-cert, --tls-key or --tls-client-ca that cannot be used.
struct TlsFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class TlsContext {
 public:
  // Reads the files and checks that the key is the certificate's. Throws TlsFileError saying
  // which file and why ("--tls-key /etc/sudokud/tls/server.key: cannot read it: No such file or
  // directory", "...: the key does not match the certificate in --tls-cert ... (a key of type
  // EC for a certificate of type RSA)").
  explicit TlsContext(const TlsFiles& files);

  boost::asio::ssl::context& context() { return context_; }
  bool verifies_clients() const { return verifies_clients_; }
  // "CN=sudokud.example, expires 2027-01-01 00:00:00 UTC", for the log.
  const std::string& description() const { return description_; }

 private:
  boost::asio::ssl::context context_;
  bool verifies_clients_ = false;
  std::string description_;
};

// Why a TLS handshake failed, in words for the log: "no client certificate (--tls-client-ca
// requires one)", "the client certificate 'CN=x' is not signed by --tls-client-ca (unable to
// get local issuer certificate)", "the client certificate 'CN=x' has expired (certificate has
// expired)", "the client refused our certificate (alert: bad certificate)", ...
struct HandshakeFailure {
  std::string kind;     // the rate-limited log's kind: "TLS no client certificate", ...
  std::string message;  // what went wrong
};

// A connection's byte stream. Plain, or TLS until Demote() (a peer that sent plaintext to the
// TLS port is answered in plaintext, so that it can read why it was refused).
class Stream {
 public:
  using tcp = boost::asio::ip::tcp;

  explicit Stream(tcp::socket socket) : stream_(std::move(socket)) {}
  Stream(tcp::socket socket, std::shared_ptr<TlsContext> tls);

  bool tls() const { return std::holds_alternative<Tls>(stream_); }
  tcp::socket& socket();
  boost::asio::any_io_executor get_executor() { return socket().get_executor(); }

  // Waits for the peer's first bytes and looks at them without taking them: true when they
  // open a TLS handshake record. On error returns false with `error` set.
  boost::asio::awaitable<bool> PeerSpeaksTls(boost::system::error_code& error);
  // TLS becomes plain TCP (before any handshake).
  void Demote();
  // The server side of the handshake, each step's computation run by `offload` (see
  // TlsStream::Handshake). On failure, `error` is set and Failure() says why.
  boost::asio::awaitable<void> Handshake(boost::system::error_code& error,
                                         TlsStream::Offload offload = {});
  HandshakeFailure Failure(const boost::system::error_code& error) const;
  // The client certificate's subject ("CN=client,O=example"), or empty.
  std::string PeerSubject();

  // Waits until the socket is readable, or, with TLS, bytes received wait to be decrypted or
  // read (returns at once).
  boost::asio::awaitable<void> WaitRead(boost::system::error_code& error);
  boost::asio::awaitable<size_t> ReadSome(boost::asio::mutable_buffer buffer,
                                          boost::system::error_code& error);
  // Writes some of `buffers`, from the first. With TLS, small buffers are gathered into one
  // record, as writev() gathers them on a plain socket.
  boost::asio::awaitable<size_t> WriteSome(std::span<const boost::asio::const_buffer> buffers,
                                           boost::system::error_code& error);
  // Ends the sending side. With TLS no close_notify is sent: the frames are length-prefixed, so
  // a truncation is seen as an unfinished frame, and TCP's end of stream says the rest (the
  // daemon's SSL contexts and sudoku-client accept an end without close_notify).
  void ShutdownSend(boost::system::error_code& error);
  void Close();

  // Bytes received from the socket: with TLS, records before decryption (see
  // TlsStream::bytes_received); plain, what ReadSome returned.
  uint64_t bytes_received() const;
  // What the stream holds beside the connection's own buffers: with TLS, its buffers and an
  // estimate of OpenSSL's state (kTlsStateBytes); plain, nothing.
  size_t memory() const;
  // Calls `observer` whenever the socket brings bytes that TLS cannot hand over yet (part of a
  // record); plain, never (ReadSome returns them).
  void OnRawReceive(std::function<void()> observer);
  // A quiet connection gives back its write buffers (TLS: the gathering and record buffers).
  void ReleaseIdle();
  // And, between reads, its read buffer (TLS) when nothing in it waits.
  void ReleaseReadBuffer();
  // OpenSSL's state of a connection, beside the stream's buffers: the SSL object, its
  // handshake's keys, and its record buffers while they are in use.
  static constexpr size_t kTlsStateBytes = 48 << 10;

 private:
  struct Tls {
    std::shared_ptr<TlsContext> context;  // outlives the SSL object made from it
    std::unique_ptr<tcp::socket> socket;  // where `stream` can find it when Tls is moved
    std::unique_ptr<TlsStream> stream;
    // What the verify callback saw first go wrong with the client's certificate.
    int verify_error = 0;
    std::string verify_subject;
  };
  std::variant<tcp::socket, Tls> stream_;
  std::string gather_;  // WriteSome's gathering buffer (TLS)
  uint64_t plain_bytes_received_ = 0;
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_TLS_H_
