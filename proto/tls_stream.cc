#include "proto/tls_stream.h"

#include <openssl/err.h>

#include <algorithm>
#include <cstring>
#include <new>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace sudoku {

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;
using boost::system::error_code;

TlsStream::TlsStream(asio::ip::tcp::socket& socket, asio::ssl::context& context, Role role)
    : socket_(socket),
      ssl_(SSL_new(context.native_handle())),
      flushed_(socket.get_executor()) {
  // One method for every stream, made on first use (C++ makes that thread-safe).
  static BIO_METHOD* const method = [] {
    BIO_METHOD* made = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "sudoku socket");
    if (made != nullptr) {
      BIO_meth_set_write(made, &TlsStream::BioWrite);
      BIO_meth_set_read(made, &TlsStream::BioRead);
      BIO_meth_set_ctrl(made, &TlsStream::BioControl);
    }
    return made;
  }();
  BIO* bio = method == nullptr ? nullptr : BIO_new(method);
  if (ssl_ == nullptr || bio == nullptr) {
    BIO_free(bio);
    SSL_free(ssl_);
    throw std::bad_alloc();
  }
  BIO_set_data(bio, this);
  BIO_set_init(bio, 1);
  SSL_set_bio(ssl_, bio, bio);  // one reference, for both directions: SSL_free frees it
  SSL_set_app_data(ssl_, this);
  if (role == Role::kServer) {
    SSL_set_accept_state(ssl_);
  } else {
    SSL_set_connect_state(ssl_);
  }
}

TlsStream::~TlsStream() { SSL_free(ssl_); }

void TlsStream::SetVerifyCallback(VerifyCallback callback) {
  verify_ = std::move(callback);
  SSL_set_verify(ssl_, SSL_get_verify_mode(ssl_), &TlsStream::Verify);
}

int TlsStream::Verify(int preverified, X509_STORE_CTX* store) {
  SSL* ssl = static_cast<SSL*>(
      X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
  const TlsStream* self = static_cast<const TlsStream*>(SSL_get_app_data(ssl));
  return self->verify_(preverified != 0, store) ? 1 : 0;
}

int TlsStream::BioWrite(BIO* bio, const char* data, int size) {
  TlsStream* self = static_cast<TlsStream*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  self->out_.append(data, static_cast<size_t>(size));
  return size;
}

int TlsStream::BioRead(BIO* bio, char* data, int size) {
  TlsStream* self = static_cast<TlsStream*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  const size_t available = self->in_end_ - self->in_begin_;
  if (available == 0) {
    BIO_set_retry_read(bio);  // OpenSSL says SSL_ERROR_WANT_READ: Fill(), then call again
    return -1;
  }
  const size_t n = std::min(available, static_cast<size_t>(size));
  std::memcpy(data, self->in_.get() + self->in_begin_, n);
  self->in_begin_ += n;
  return static_cast<int>(n);
}

long TlsStream::BioControl(BIO*, int command, long, void*) {
  // What is written is sent by Flush(), so a flush has nothing to do; nothing else applies.
  return command == BIO_CTRL_FLUSH ? 1 : 0;
}

error_code TlsStream::ErrorOf(int ssl_error) const {
  // As asio::ssl::detail::engine::perform() maps them.
  const unsigned long reason = ERR_get_error();
  switch (ssl_error) {
    case SSL_ERROR_SSL:
      return error_code(static_cast<int>(reason), asio::error::get_ssl_category());
    case SSL_ERROR_SYSCALL:
      if (reason == 0) return asio::ssl::error::unspecified_system_error;
      return error_code(static_cast<int>(reason), asio::error::get_ssl_category());
    case SSL_ERROR_ZERO_RETURN:
      return asio::error::eof;
    default:
      return asio::ssl::error::unexpected_result;
  }
}

bool TlsStream::HasBuffered() const { return in_end_ > in_begin_ || SSL_has_pending(ssl_) == 1; }

void TlsStream::ReleaseReadBuffer() {
  if (in_end_ > in_begin_) return;
  in_.reset();
  in_size_ = 0;
  in_begin_ = in_end_ = 0;
  filled_ = false;
}

void TlsStream::ReleaseIdle() {
  if (flushing_) return;
  out_ = std::string();
  sending_ = std::string();
}

awaitable<void> TlsStream::Fill(error_code& error) {
  // OpenSSL asks for more when it has taken all that was kept; whatever it left stays first.
  const size_t kept = in_end_ - in_begin_;
  if (kept > 0 && in_begin_ > 0) std::memmove(in_.get(), in_.get() + in_begin_, kept);
  in_begin_ = 0;
  in_end_ = kept;
  if (kept == 0) {
    // Nothing kept: a quiet connection holds no read buffer while it waits for the next bytes.
    error_code ignored;
    if (in_ && socket_.available(ignored) == 0) ReleaseReadBuffer();
    if (!in_) {
      co_await socket_.async_wait(asio::ip::tcp::socket::wait_read,
                                  asio::redirect_error(use_awaitable, error));
      if (error) co_return;
      in_.reset(new char[kFirstReadBytes]);
      in_size_ = kFirstReadBytes;
    }
  }
  if (filled_ && in_size_ < kReadBytes) {
    // The last read filled it: records are streaming in.
    std::unique_ptr<char[]> larger(new char[kReadBytes]);
    std::memcpy(larger.get(), in_.get(), kept);
    in_ = std::move(larger);
    in_size_ = kReadBytes;
  }
  const size_t n =
      co_await socket_.async_read_some(asio::buffer(in_.get() + kept, in_size_ - kept),
                                       asio::redirect_error(use_awaitable, error));
  in_end_ += n;
  filled_ = in_end_ == in_size_;
  bytes_received_ += n;
  if (n > 0 && on_receive_) on_receive_();
  if (error == asio::error::eof && (SSL_get_shutdown(ssl_) & SSL_RECEIVED_SHUTDOWN) == 0) {
    error = asio::ssl::error::stream_truncated;
  }
}

awaitable<void> TlsStream::Flush(error_code& error) {
  error.clear();
  while (flushing_) {
    // The other coroutine is sending (the reader an answer OpenSSL made while reading): what
    // was kept since is sent by it, or by this once it is done.
    flushed_.expires_at(asio::steady_timer::time_point::max());
    error_code woken;
    co_await flushed_.async_wait(asio::redirect_error(use_awaitable, woken));
  }
  if (broken_) {
    out_.clear();
    error = broken_;
    co_return;
  }
  flushing_ = true;
  while (!out_.empty()) {
    // Both buffers keep their capacity: an answer's records are kept without allocating.
    sending_.swap(out_);
    co_await asio::async_write(socket_, asio::buffer(sending_),
                               asio::redirect_error(use_awaitable, error));
    sending_.clear();
    if (error) {
      broken_ = error;
      out_.clear();
      break;
    }
  }
  flushing_ = false;
  flushed_.cancel();
}

awaitable<void> TlsStream::Handshake(error_code& error, Offload offload) {
  for (;;) {
    int result = 0;
    error_code failure;
    // OpenSSL's error queue is the thread's: the step reads it where it ran.
    const auto step = [this, &result, &failure] {
      ERR_clear_error();
      result = SSL_do_handshake(ssl_);
      const int ssl_error = result == 1 ? SSL_ERROR_NONE : SSL_get_error(ssl_, result);
      failure = result == 1 || ssl_error == SSL_ERROR_WANT_READ ? error_code() : ErrorOf(ssl_error);
    };
    if (offload) {
      co_await offload(step);
    } else {
      step();
    }
    // What the handshake wrote goes first: its messages, or the alert that ends it.
    co_await Flush(error);
    if (failure) error = failure;
    if (error || result == 1) co_return;
    co_await Fill(error);
    if (error) co_return;
  }
}

awaitable<size_t> TlsStream::ReadSome(asio::mutable_buffer buffer, error_code& error) {
  error.clear();
  if (buffer.size() == 0) co_return 0;
  for (;;) {
    ERR_clear_error();
    size_t n = 0;
    const int result = SSL_read_ex(ssl_, buffer.data(), buffer.size(), &n);
    const int ssl_error = result == 1 ? SSL_ERROR_NONE : SSL_get_error(ssl_, result);
    const error_code failure = result == 1 || ssl_error == SSL_ERROR_WANT_READ
                                   ? error_code()
                                   : ErrorOf(ssl_error);
    if (!out_.empty() && !flushing_) {
      // An answer OpenSSL made while reading (a key update's), sent as Asio's stream sends it,
      // before reading on; while Write is sending, Write sends it too. A failed send shows there.
      error_code ignored;
      co_await Flush(ignored);
    }
    if (result == 1) co_return n;
    if (failure) {
      error = failure;
      co_return 0;
    }
    co_await Fill(error);
    if (error) co_return 0;
  }
}

awaitable<size_t> TlsStream::Write(asio::const_buffer data, error_code& error) {
  error.clear();
  ERR_clear_error();
  size_t written = 0;
  // Without SSL_MODE_ENABLE_PARTIAL_WRITE, and with a BIO that never refuses, one call writes
  // every record of `data`.
  const int result = data.size() == 0 ? 1 : SSL_write_ex(ssl_, data.data(), data.size(), &written);
  const error_code failure = result == 1 ? error_code() : ErrorOf(SSL_get_error(ssl_, result));
  co_await Flush(error);
  if (failure) error = failure;
  co_return error ? 0 : written;
}

}  // namespace sudoku
