#include "daemon/http_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>

#include <exception>
#include <memory>
#include <optional>
#include <sstream>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/detect_ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "daemon/accept_batch.h"
#include "daemon/log.h"
#include "daemon/tls.h"

namespace sudoku::daemon {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;

namespace {

// After a refusal the peer may still be sending the body we refused. Closing a socket with unread
// input makes the kernel answer with a reset, which can destroy our answer before the peer reads
// it; so the rest is read and dropped, up to this much and this long.
constexpr size_t kDiscardBytes = 4 << 20;
constexpr std::chrono::seconds kDiscardTime{2};
// Newcomers answered 503 at once when every connection is busy; more are closed unanswered, so
// that a flood cannot turn refusals into a way to hold descriptors.
constexpr size_t kMaxTurningAway = 16;
// How often a connection whose request is being worked on looks whether its peer has gone.
constexpr std::chrono::milliseconds kWatchInterval{100};

}  // namespace

HttpResponse HttpHandler::Refuse(http::status status, std::string_view /*target*/,
                                 const std::string& why) {
  return MakeResponse(status, "text/plain; charset=utf-8", RefusalText(status, why) + "\n");
}

// One client's connection: requests answered in turn while it keeps the connection alive.
class HttpServer::Connection : public std::enable_shared_from_this<Connection> {
 public:
  // `served`: counted among the server's connections (a turned-away newcomer is not).
  Connection(HttpServer& server, tcp::socket socket, std::shared_ptr<TlsContext> tls, bool served)
      : server_(server),
        plain_(std::move(socket)),
        tls_context_(std::move(tls)),
        served_(served),
        waiting_since_(std::chrono::steady_clock::now()) {  // for its first request
    if (served_) server_.connections_.insert(this);
  }
  ~Connection() {
    if (served_) server_.connections_.erase(this);
  }

  // Since when it has waited for its next request (empty: working on one, or writing). A
  // connection that has read part of a request counts as waiting from its start: what it has
  // sent does not make it a request the server is working on.
  const std::optional<std::chrono::steady_clock::time_point>& waiting_since() const {
    return waiting_since_;
  }

  void Close() {
    waiting_since_.reset();
    boost::system::error_code ignored;
    Tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
    Tcp().close();
  }

  asio::awaitable<void> Serve(std::shared_ptr<Connection> self);
  // Answers `response` (a refusal before any request was read) and closes.
  asio::awaitable<void> TurnAway(std::shared_ptr<Connection> self, HttpResponse response);

 private:
  // The TCP stream under TLS, or the plain one.
  beast::tcp_stream& Tcp() { return tls_ ? tls_->next_layer() : plain_; }
  // The peer's IP address ("192.0.2.7"), or empty when the socket cannot say; asked of the
  // socket once, for every request of the connection.
  const std::string& RemoteAddress() {
    if (!address_known_) {
      boost::system::error_code error;
      const auto remote = Tcp().socket().remote_endpoint(error);
      if (!error) address_ = remote.address().to_string();
      address_known_ = true;
    }
    return address_;
  }
  // On an HTTPS port: the handshake. False (the connection to be closed) when it failed, or when
  // the peer spoke plain HTTP, which is then told in plain HTTP to use https://.
  asio::awaitable<bool> Secure(beast::flat_buffer& buffer);
  // Answers requests until the peer is done, an error, or a refusal.
  template <typename Stream>
  asio::awaitable<void> Exchange(Stream& stream, beast::flat_buffer& buffer);
  // The answer to a request that could not be read (see HttpHandler::Refuse).
  HttpResponse Refusal(const boost::system::error_code& error, const HttpRequestParser& parser);
  // Writes a refusal (Connection: close) and lingers.
  template <typename Stream>
  asio::awaitable<void> WriteRefusal(Stream& stream, HttpResponse response);
  // Ends our side and reads what the peer still sends (see kDiscardBytes), then closes.
  asio::awaitable<void> Linger();
  // While a handler works: looks every kWatchInterval whether the peer has gone (its side
  // closed, or reset), and if so sets `peer_gone`. Ends once the watch is done.
  // The watch over one request: `done` once its handler has answered.
  struct Watch {
    explicit Watch(const asio::any_io_executor& executor) : timer(executor) {}
    asio::steady_timer timer;
    bool done = false;
  };
  asio::awaitable<void> WatchPeer(std::shared_ptr<Connection> self, std::shared_ptr<Watch> watch,
                                  PeerGone peer_gone);

  HttpServer& server_;
  beast::tcp_stream plain_;                  // moved into tls_ once TLS starts
  std::shared_ptr<TlsContext> tls_context_;  // outlives tls_; null: plain HTTP
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls_;
  const bool served_;
  std::optional<std::chrono::steady_clock::time_point> waiting_since_;
  std::string certificate_;  // the verified client certificate's subject (HttpPeer)
  std::string address_;      // RemoteAddress()'s, once asked
  bool address_known_ = false;
};

HttpResponse HttpServer::Connection::Refusal(const boost::system::error_code& error,
                                             const HttpRequestParser& parser) {
  const HttpRefusal refusal = RefusalFor(error, parser, server_.limits_);
  return server_.handler_->Refuse(refusal.status, refusal.target, refusal.why);
}

asio::awaitable<void> HttpServer::Connection::WatchPeer(
    [[maybe_unused]] std::shared_ptr<Connection> self, std::shared_ptr<Watch> watch,
    PeerGone peer_gone) {
  boost::system::error_code error;
  // `done` is looked at, not only the cancellation: the handler may answer before this
  // coroutine first waits, when there is no wait yet to cancel.
  while (!watch->done) {
    watch->timer.expires_after(kWatchInterval);
    co_await watch->timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
    if (watch->done) co_return;
    // The kernel's view of the connection: past ESTABLISHED, the peer has sent its FIN (a
    // request pipelined behind this one, or TLS records, would not move it) or a reset.
    tcp_info info{};
    socklen_t size = sizeof info;
    if (::getsockopt(Tcp().socket().native_handle(), IPPROTO_TCP, TCP_INFO, &info, &size) != 0 ||
        info.tcpi_state != TCP_ESTABLISHED) {
      peer_gone->store(true, std::memory_order_relaxed);
      co_return;
    }
  }
}

template <typename Stream>
asio::awaitable<void> HttpServer::Connection::WriteRefusal(Stream& stream,
                                                           HttpResponse response) {
  boost::system::error_code error;
  response.version(11);
  response.set(http::field::server, "sudokud");
  response.keep_alive(false);
  Tcp().expires_after(server_.limits_.timeout);
  co_await http::async_write(stream, response, asio::redirect_error(asio::use_awaitable, error));
  if (!error) co_await Linger();
}

asio::awaitable<void> HttpServer::Connection::Linger() {
  boost::system::error_code error;
  // Under TLS too the raw bytes are what is drained: nothing of them is read as a request.
  beast::tcp_stream& stream = Tcp();
  stream.socket().shutdown(tcp::socket::shutdown_send, error);
  stream.expires_after(kDiscardTime);
  std::array<char, 16384> sink;
  for (size_t discarded = 0; !error && discarded < kDiscardBytes && !server_.stopped_;) {
    discarded += co_await stream.async_read_some(asio::buffer(sink),
                                                 asio::redirect_error(asio::use_awaitable, error));
  }
  Close();
}

asio::awaitable<bool> HttpServer::Connection::Secure(beast::flat_buffer& buffer) {
  boost::system::error_code error;
  plain_.expires_after(server_.limits_.timeout);
  const bool speaks_tls = co_await beast::async_detect_ssl(
      plain_, buffer, asio::redirect_error(asio::use_awaitable, error));
  if (error) co_return false;  // gone, or silent for the whole timeout
  if (!speaks_tls) {
    co_await WriteRefusal(plain_, server_.handler_->Refuse(
                                      http::status::bad_request, "",
                                      "this port serves HTTPS (--http-tls): use https://"));
    co_return false;
  }
  tls_.emplace(std::move(plain_), tls_context_->context());
  const size_t used = co_await tls_->async_handshake(
      asio::ssl::stream_base::server, buffer.data(),
      asio::redirect_error(asio::use_awaitable, error));
  if (error) {
    boost::system::error_code ignored;
    const auto peer = Tcp().socket().remote_endpoint(ignored);
    std::ostringstream where;
    where << peer;
    ClientCausedLog().Log(server_.name_ + " TLS handshake", LogLevel::kNotice,
                          server_.name_ + ": " + where.str() +
                              ": TLS handshake failed: " + error.message() +
                              "; closing the connection");
    co_return false;
  }
  buffer.consume(used);
  // Verified by the handshake when the context asks for one (an unverified certificate fails
  // it); present only then.
  if (X509* cert = SSL_get0_peer_certificate(tls_->native_handle());
      cert != nullptr && SSL_get_verify_result(tls_->native_handle()) == X509_V_OK) {
    certificate_ = SubjectText(cert);
  }
  co_return true;
}

asio::awaitable<void> HttpServer::Connection::TurnAway(
    [[maybe_unused]] std::shared_ptr<Connection> self, HttpResponse response) {
  beast::flat_buffer buffer(server_.limits_.max_header_bytes);
  if (!tls_context_) {
    co_await WriteRefusal(plain_, std::move(response));
  } else if (co_await Secure(buffer)) {
    co_await WriteRefusal(*tls_, std::move(response));
  }
  Close();
}

asio::awaitable<void> HttpServer::Connection::Serve(
    [[maybe_unused]] std::shared_ptr<Connection> self) {
  // Bounded: a header or a trailer must be whole in it to be parsed, and a body is taken as it
  // comes. Without a bound, a trailer field that never ends would grow it without limit.
  beast::flat_buffer buffer(ReadBufferLimit(server_.limits_));
  if (!tls_context_) {
    co_await Exchange(plain_, buffer);
  } else if (co_await Secure(buffer)) {
    // No close_notify is sent at the end: every answer has its Content-Length.
    co_await Exchange(*tls_, buffer);
  }
  Close();
}

template <typename Stream>
asio::awaitable<void> HttpServer::Connection::Exchange(Stream& stream,
                                                       beast::flat_buffer& buffer) {
  const HttpLimits& limits = server_.limits_;
  boost::system::error_code error;
  for (;;) {
    HttpRequestParser parser;
    LimitParser(limits, &parser);
    Tcp().expires_after(limits.timeout);
    waiting_since_ = std::chrono::steady_clock::now();
    co_await http::async_read(stream, buffer, parser,
                              asio::redirect_error(asio::use_awaitable, error));
    waiting_since_.reset();
    if (error == http::error::end_of_stream || server_.stopped_) co_return;
    if (error) {
      if (error == beast::error::timeout || error == asio::error::operation_aborted ||
          error == asio::error::connection_reset || error == asio::error::eof ||
          error == asio::ssl::error::stream_truncated) {  // a TLS peer gone without close_notify
        co_return;
      }
      co_await WriteRefusal(stream, Refusal(error, parser));
      co_return;
    }
    const HttpRequest request = parser.release();
    HttpResponse response;
    const HttpPeer peer{.gone = std::make_shared<std::atomic<bool>>(false),
                        .tls = tls_.has_value(),
                        .address = RemoteAddress(),
                        .certificate = certificate_};
    const auto watch = std::make_shared<Watch>(Tcp().get_executor());
    // The watcher keeps the connection alive: its last wake-up may come after the answer.
    asio::co_spawn(Tcp().get_executor(), WatchPeer(shared_from_this(), watch, peer.gone),
                   asio::detached);
    try {
      response = co_await server_.handler_->Handle(request, peer);
      watch->done = true;
      watch->timer.cancel();
    } catch (const std::exception& e) {
      watch->done = true;
      watch->timer.cancel();
      LogLine(server_.name_ + ": internal error on " +
              std::string(request.target().data(), request.target().size()) + ": " + e.what());
      response = MakeResponse(http::status::internal_server_error, "text/plain; charset=utf-8",
                              std::string("internal error: ") + e.what() + "\n");
    }
    if (server_.stopped_) co_return;
    response.version(request.version());
    response.keep_alive(request.keep_alive());
    response.set(http::field::server, "sudokud");
    // A HEAD answer is the GET answer's header: its Content-Length, no body.
    if (request.method() == http::verb::head) response.body().clear();
    const bool keep_alive = response.keep_alive();
    Tcp().expires_after(limits.timeout);
    co_await http::async_write(stream, response,
                               asio::redirect_error(asio::use_awaitable, error));
    if (error || !keep_alive) co_return;
  }
}

HttpServer::HttpServer(asio::io_context& io, std::string name, const HttpLimits& limits,
                       HttpHandler* handler)
    : io_(io), name_(std::move(name)), limits_(limits), handler_(handler), acceptor_(io) {}

HttpServer::~HttpServer() { Stop(); }

tcp::endpoint HttpServer::Listen(const tcp::endpoint& endpoint) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(tcp::acceptor::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen();
  return acceptor_.local_endpoint();
}

void HttpServer::Start() {
  asio::co_spawn(io_, Accept(), LogEscape(name_ + " accept loop"));
}

void HttpServer::Stop() {
  if (stopped_) return;
  stopped_ = true;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  // Close() never destroys a connection on the spot (its coroutine holds it).
  for (Connection* connection : connections_) connection->Close();
}

asio::awaitable<void> HttpServer::Accept() {
  boost::system::error_code error;
  asio::steady_timer backoff(io_);
  acceptor_.non_blocking(true, error);  // for AcceptWaiting
  for (;;) {
    tcp::socket socket(io_);
    co_await acceptor_.async_accept(socket, asio::redirect_error(asio::use_awaitable, error));
    if (stopped_ || !acceptor_.is_open()) co_return;
    if (error) {
      LogLine(name_ + ": cannot accept a connection: " + error.message());
      backoff.expires_after(std::chrono::milliseconds(100));
      co_await backoff.async_wait(asio::redirect_error(asio::use_awaitable, error));
      continue;
    }
    Admit(std::move(socket));
    AcceptWaiting(acceptor_, [this](tcp::socket next) { Admit(std::move(next)); });
  }
}

void HttpServer::Admit(tcp::socket socket) {
  if (connections_.size() >= limits_.max_connections && !MakeRoom()) {
    if (turning_away_ >= kMaxTurningAway) return;  // the socket closes as it goes
    ++turning_away_;
    auto connection = std::make_shared<Connection>(*this, std::move(socket), tls_, false);
    asio::co_spawn(io_, Turn(std::move(connection)), LogEscape(name_));
    return;
  }
  auto connection = std::make_shared<Connection>(*this, std::move(socket), tls_, true);
  asio::co_spawn(io_, connection->Serve(connection), LogEscape(name_));
}

bool HttpServer::MakeRoom() {
  Connection* longest = nullptr;
  for (Connection* connection : connections_) {
    if (connection->waiting_since() &&
        (longest == nullptr || *connection->waiting_since() < *longest->waiting_since())) {
      longest = connection;
    }
  }
  if (longest == nullptr) return false;
  // Its coroutine sees the read fail, and the connection leaves the set as it ends; until then
  // it is no longer waiting, so that one newcomer closes one connection.
  longest->Close();
  return true;
}

asio::awaitable<void> HttpServer::Turn(std::shared_ptr<Connection> connection) {
  HttpResponse response = handler_->Refuse(
      http::status::service_unavailable, "",
      "all " + std::to_string(limits_.max_connections) +
          " connections of this listener are working on requests; try again shortly");
  response.set(http::field::retry_after, "1");
  co_await connection->TurnAway(connection, std::move(response));
  --turning_away_;
}

}  // namespace sudoku::daemon
