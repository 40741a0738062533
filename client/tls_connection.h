// TLS for sudoku-client (--tls, --tls-ca, --tls-cert, --tls-key): a Connection whose transport is
// TLS over its socket (proto/tls_stream.h), verifying the daemon's certificate and the name it was
// reached by (SNI and hostname, or IP address, verification). Each way the handshake can be
// refused gets its own message saying what to do, e.g. "sudokud at 127.0.0.1:9443 refused the
// connection: it requires a client certificate (give --tls-cert and --tls-key)".
//
// Thread-safety: as Connection; the shared context is only read once built.
#ifndef SUDOKU_CLIENT_TLS_CONNECTION_H_
#define SUDOKU_CLIENT_TLS_CONNECTION_H_

#include <utility>  // before Asio: asio issue 944

#include <functional>
#include <memory>
#include <string>

#include <boost/asio/ssl/context.hpp>

#include "client/connection.h"
#include "proto/tls_stream.h"

namespace sudoku::client {

// What the TLS flags say.
struct TlsFlags {
  bool tls = false;
  std::string ca;    // PEM CAs that sign the daemon's certificate; empty: the system's
  std::string cert;  // PEM client certificate and key, for mutual TLS; empty: none
  std::string key;
};

// The client context for `flags`, or null without --tls. Throws ClientError naming the flag and
// file: "--tls-ca /x.pem: cannot read it: No such file or directory".
std::shared_ptr<boost::asio::ssl::context> MakeClientTls(const TlsFlags& flags);

// SessionOptions::open for `context` (empty when it is null: plain TCP).
std::function<std::unique_ptr<Connection>(const boost::asio::any_io_executor&, const Endpoint&)>
TlsOpener(std::shared_ptr<boost::asio::ssl::context> context);

class TlsConnection : public Connection {
 public:
  // The handshake, too, must be done within `connect_timeout`.
  TlsConnection(const boost::asio::any_io_executor& executor, Endpoint endpoint,
                std::shared_ptr<boost::asio::ssl::context> context,
                std::chrono::milliseconds connect_timeout = kDefaultConnectTimeout);

 protected:
  boost::asio::awaitable<void> Secure() override;
  boost::asio::awaitable<size_t> WriteAll(boost::asio::const_buffer data,
                                          boost::system::error_code& error) override;
  boost::asio::awaitable<size_t> ReadSomeInto(boost::asio::mutable_buffer buffer,
                                              boost::system::error_code& error) override;

 private:
  // A refusal in the handshake (or, with TLS 1.3, at the first read, where the daemon's verdict
  // on our certificate arrives) as a ClientError saying what to do; other errors are left to
  // Connection (a broken connection).
  void ThrowIfRefused(const boost::system::error_code& error);

  std::shared_ptr<boost::asio::ssl::context> context_;
  TlsStream stream_;
};

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_TLS_CONNECTION_H_
