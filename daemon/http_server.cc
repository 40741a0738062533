#include "daemon/http_server.h"

#include <exception>
#include <memory>
#include <optional>
#include <sstream>

#include <boost/asio/co_spawn.hpp>
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

void LogError(const std::string& name, std::exception_ptr error) {
  if (!error) return;
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    LogLine(name + ": " + e.what());
  }
}

}  // namespace

HttpResponse MakeResponse(http::status status, std::string_view content_type, std::string body) {
  HttpResponse response{status, 11};
  response.set(http::field::content_type,
               beast::string_view(content_type.data(), content_type.size()));
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

HttpResponse HttpHandler::Refuse(http::status status, std::string_view /*target*/,
                                 const std::string& why) {
  const char* what = status == http::status::payload_too_large ? "payload too large: "
                                                               : "bad request: ";
  return MakeResponse(status, "text/plain; charset=utf-8", what + why + "\n");
}

// One client's connection: requests answered in turn while it keeps the connection alive.
class HttpServer::Connection {
 public:
  Connection(HttpServer& server, tcp::socket socket, std::shared_ptr<TlsContext> tls)
      : server_(server), plain_(std::move(socket)), tls_context_(std::move(tls)) {
    server_.connections_.insert(this);
  }
  ~Connection() { server_.connections_.erase(this); }

  void Close() {
    boost::system::error_code ignored;
    Tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
    Tcp().close();
  }

  asio::awaitable<void> Serve(std::shared_ptr<Connection> self);

 private:
  // The TCP stream under TLS, or the plain one.
  beast::tcp_stream& Tcp() { return tls_ ? tls_->next_layer() : plain_; }
  // On an HTTPS port: the handshake. False (the connection to be closed) when it failed, or when
  // the peer spoke plain HTTP, which is then told in plain HTTP to use https://.
  asio::awaitable<bool> Secure(beast::flat_buffer& buffer);
  // Answers requests until the peer is done, an error, or a refusal.
  template <typename Stream>
  asio::awaitable<void> Exchange(Stream& stream, beast::flat_buffer& buffer);
  // The answer to a request that could not be read (see HttpHandler::Refuse).
  HttpResponse Refusal(const boost::system::error_code& error,
                       const http::request_parser<http::string_body>& parser);
  // Ends our side and reads what the peer still sends (see kDiscardBytes), then closes.
  asio::awaitable<void> Linger();

  HttpServer& server_;
  beast::tcp_stream plain_;                  // moved into tls_ once TLS starts
  std::shared_ptr<TlsContext> tls_context_;  // outlives tls_; null: plain HTTP
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls_;
};

HttpResponse HttpServer::Connection::Refusal(
    const boost::system::error_code& error,
    const http::request_parser<http::string_body>& parser) {
  const HttpLimits& limits = server_.limits_;
  // Set once the request line is read (a body over the limit is found with the header, before
  // the parser counts the header as done); empty before that.
  const std::string_view target(parser.get().target().data(), parser.get().target().size());
  if (error != http::error::body_limit) {
    return server_.handler_->Refuse(http::status::bad_request, target, error.message());
  }
  const std::string limit = std::to_string(limits.max_body_bytes);
  const auto length = parser.content_length();
  const std::string why = length ? "the body is " + std::to_string(*length) +
                                       " bytes, more than the limit of " + limit
                                 : "the body is more than the limit of " + limit + " bytes";
  return server_.handler_->Refuse(http::status::payload_too_large, target, why);
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
    HttpResponse response =
        MakeResponse(http::status::bad_request, "text/plain; charset=utf-8",
                     "bad request: this port serves HTTPS (--http-tls): use https://\n");
    response.version(11);
    response.set(http::field::server, "sudokud");
    response.keep_alive(false);
    co_await http::async_write(plain_, response, asio::redirect_error(asio::use_awaitable, error));
    if (!error) co_await Linger();
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
  co_return true;
}

asio::awaitable<void> HttpServer::Connection::Serve(
    [[maybe_unused]] std::shared_ptr<Connection> self) {
  beast::flat_buffer buffer;
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
    http::request_parser<http::string_body> parser;
    parser.header_limit(static_cast<uint32_t>(limits.max_header_bytes));
    parser.body_limit(limits.max_body_bytes);
    Tcp().expires_after(limits.timeout);
    co_await http::async_read(stream, buffer, parser,
                              asio::redirect_error(asio::use_awaitable, error));
    if (error == http::error::end_of_stream || server_.stopped_) co_return;
    if (error) {
      if (error == beast::error::timeout || error == asio::error::operation_aborted ||
          error == asio::error::connection_reset || error == asio::error::eof ||
          error == asio::ssl::error::stream_truncated) {  // a TLS peer gone without close_notify
        co_return;
      }
      HttpResponse response = Refusal(error, parser);
      response.version(11);
      response.set(http::field::server, "sudokud");
      response.keep_alive(false);
      Tcp().expires_after(limits.timeout);
      co_await http::async_write(stream, response,
                                 asio::redirect_error(asio::use_awaitable, error));
      if (!error) co_await Linger();
      co_return;
    }
    const HttpRequest request = parser.release();
    HttpResponse response;
    try {
      response = co_await server_.handler_->Handle(request);
    } catch (const std::exception& e) {
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
  asio::co_spawn(io_, Accept(), [name = name_](std::exception_ptr error) {
    LogError(name + " accept loop", error);
  });
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
    if (connections_.size() >= limits_.max_connections) continue;  // the socket closes as it goes
    auto connection = std::make_shared<Connection>(*this, std::move(socket), tls_);
    asio::co_spawn(io_, connection->Serve(connection),
                   [name = name_](std::exception_ptr error) { LogError(name, error); });
  }
}

}  // namespace sudoku::daemon
