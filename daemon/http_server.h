// The daemon's HTTP side: a small HTTP/1.1 server (Boost.Beast) that reads requests, hands each
// to a handler and writes the handler's answer. It serves --metrics (metrics.h, MetricsRoutes)
// and --http (web_api.h: the page, its JSON API and the metrics), over HTTPS when given a TLS
// context (--http-tls). As in Asio's HTTP server
// example, the roles stay apart: HttpServer admits and closes connections, each connection reads
// and writes its socket under the limits below, and the handler knows the paths and makes the
// answers without seeing a socket.
//
// Thread-safety: an HttpServer, its connections and its handler live on one io_context run by one
// thread; every member function must be called from that thread.
#ifndef SUDOKU_DAEMON_HTTP_SERVER_H_
#define SUDOKU_DAEMON_HTTP_SERVER_H_

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/status.hpp>

#include "daemon/http_message.h"

namespace sudoku::daemon {

class TlsContext;

// What a server answers, path by path.
class HttpHandler {
 public:
  virtual ~HttpHandler() = default;

  // The answer to a request read whole. The server sets the version and keep-alive, and drops
  // the body of an answer to HEAD; the handler sets everything else (status, headers, body, and
  // Content-Length with prepare_payload(), answering HEAD as it would GET). It may suspend (for
  // work on the solver pool); the connection waits for it, and meanwhile sets `peer.gone` once
  // the peer has closed its side or reset the connection.
  virtual boost::asio::awaitable<HttpResponse> Handle(const HttpRequest& request,
                                                      const HttpPeer& peer) = 0;

  // The answer to a request that could not be read whole or served at all: `status` is 400 (it
  // does not parse as HTTP), 413 (its body is over the limit), 431 (its header or the trailer of
  // its chunked body is over the limit) or 503 (every connection is busy), `target` its target
  // when the request line was read (else empty), `why` what went wrong ("bad target", "the body
  // is 70000 bytes, more than the limit of 65536"). The connection closes after it. By default
  // the status's reason in lower case, then WHY, as text: "payload too large: WHY".
  virtual HttpResponse Refuse(boost::beast::http::status status, std::string_view target,
                              const std::string& why);
};

class HttpServer {
 public:
  // `name` opens the log lines ("metrics", "http"); `handler` must outlive the server.
  HttpServer(boost::asio::io_context& io, std::string name, const HttpLimits& limits,
             HttpHandler* handler);
  ~HttpServer();

  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; returns the bound address. Throws boost::system::system_error.
  boost::asio::ip::tcp::endpoint Listen(const boost::asio::ip::tcp::endpoint& endpoint);
  void Start();
  // Serves HTTPS with `context` to the connections accepted from now on (null: plain HTTP); the
  // ones open keep what they were accepted with. A client that speaks plain HTTP to it is
  // answered, in plain HTTP, 400 "this port serves HTTPS".
  void SetTls(std::shared_ptr<TlsContext> context) { tls_ = std::move(context); }
  bool tls() const { return tls_ != nullptr; }
  // Closes the listener and every connection, so that the io_context can run out of work. A
  // request whose handler is still working is not answered.
  void Stop();

  size_t connections() const { return connections_.size(); }

 private:
  class Connection;

  boost::asio::awaitable<void> Accept();
  // Serves (or turns away) a connection just accepted.
  void Admit(boost::asio::ip::tcp::socket socket);
  // At max_connections: closes the connection that has waited longest for its next request.
  // False when none is waiting (every one is working or writing).
  bool MakeRoom();
  // Answers 503 to a newcomer that finds every connection busy, then closes it.
  boost::asio::awaitable<void> Turn(std::shared_ptr<Connection> connection);

  boost::asio::io_context& io_;
  const std::string name_;
  const HttpLimits limits_;
  HttpHandler* const handler_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::unordered_set<Connection*> connections_;  // served ones (turned-away ones are not counted)
  // Newcomers being answered 503; past kMaxTurningAway, they are closed unanswered.
  size_t turning_away_ = 0;
  std::shared_ptr<TlsContext> tls_;  // for new connections; null: plain HTTP
  bool stopped_ = false;
};

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_HTTP_SERVER_H_
