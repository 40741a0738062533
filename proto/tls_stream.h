// TLS over a TCP socket, as both ends use it: an OpenSSL connection whose BIO reads from a buffer
// the socket fills and writes into a buffer that is sent in one call. Asio's SSL stream moves
// every record through a BIO pair and an engine buffer each way (two copies more of each record
// than here) and sends each record as it is made; here a whole answer's records leave in one
// system call, and one read takes what the socket has, up to kReadBytes, for the records to be
// decrypted from.
//
//   TlsStream stream(socket, context, TlsStream::Role::kServer);
//   co_await stream.Handshake(error);
//   size_t n = co_await stream.ReadSome(asio::buffer(frame), error);
//   co_await stream.Write(asio::buffer(answer), error);     // sent when this returns
//
// Errors are those of Asio's SSL stream, so that one reading them needs to know only Asio's:
// OpenSSL's in asio::error::get_ssl_category(), the socket's as they come, and the TCP stream's
// end before the peer's close_notify ssl::error::stream_truncated.
//
// Memory: the read buffer is taken when bytes arrive and given back when all of them have been
// taken and the socket has no more (an idle connection holds none); ReleaseIdle() gives back the
// write buffers too. memory() says what it holds, for a budget.
//
// Thread-safety: none; one connection's, on its io_context thread. One ReadSome and one Write
// may be in progress at once (the handshake alone before them). The handshake's computation may
// run on another thread (Handshake's `offload`), one step at a time, while nothing else uses
// the stream.
#ifndef SUDOKU_PROTO_TLS_STREAM_H_
#define SUDOKU_PROTO_TLS_STREAM_H_

#include <utility>  // before Asio: asio issue 944

#include <openssl/ssl.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace sudoku {

class TlsStream {
 public:
  // The read buffer: a record's worth to begin with (a handshake's flights, a small request),
  // grown to kReadBytes once a read fills it (a stream of records).
  static constexpr size_t kFirstReadBytes = 17 << 10;
  static constexpr size_t kReadBytes = 64 << 10;
  enum class Role { kClient, kServer };

  // Over `socket`, which must outlive this, with the settings of `context`.
  TlsStream(boost::asio::ip::tcp::socket& socket, boost::asio::ssl::context& context, Role role);
  ~TlsStream();
  TlsStream(const TlsStream&) = delete;
  TlsStream& operator=(const TlsStream&) = delete;

  SSL* native_handle() { return ssl_; }
  boost::asio::ip::tcp::socket& socket() { return socket_; }

  // Asked about each certificate of the peer's chain as OpenSSL checks it, with OpenSSL's verdict
  // (`preverified`) and its store; what it returns is the verdict. Set before the handshake.
  using VerifyCallback = std::function<bool(bool preverified, X509_STORE_CTX* store)>;
  void SetVerifyCallback(VerifyCallback callback);

  // Runs `step` somewhere (another thread) and resumes when it is done. A handshake step is
  // CPU work (a key exchange, a signature: up to milliseconds) that need not hold up the
  // thread the connection's io_context runs on.
  using Offload = std::function<boost::asio::awaitable<void>(std::function<void()> step)>;
  // Without `offload`, each step runs here.
  boost::asio::awaitable<void> Handshake(boost::system::error_code& error, Offload offload = {});
  // At least one decrypted byte into `buffer`, unless `error` says why not.
  boost::asio::awaitable<size_t> ReadSome(boost::asio::mutable_buffer buffer,
                                          boost::system::error_code& error);
  // Encrypts all of `data` and sends its records together. Returns data.size(), or 0 with
  // `error` set; after a failed send every later Write fails the same way.
  boost::asio::awaitable<size_t> Write(boost::asio::const_buffer data,
                                       boost::system::error_code& error);

  // Whether bytes already received wait to be decrypted or read: ReadSome would not wait for
  // the socket.
  bool HasBuffered() const;
  // Gives back the write buffers (kept between writes so that an answer's records allocate
  // nothing), unless a write is in progress: for a connection that has gone quiet.
  void ReleaseIdle();
  // Gives back the read buffer when nothing in it waits: call only between reads.
  void ReleaseReadBuffer();
  // Bytes this stream holds in its buffers, beside OpenSSL's own state.
  size_t memory() const { return in_size_ + out_.capacity() + sending_.capacity(); }
  // Bytes received from the socket (records, before decryption), for a deadline that measures a
  // peer's progress by what it sends, not by what has been decrypted yet.
  uint64_t bytes_received() const { return bytes_received_; }
  // Called whenever bytes arrive from the socket, before they are decrypted: a peer sending a
  // record slowly is active, though nothing of it can be read yet.
  void OnReceive(std::function<void()> observer) { on_receive_ = std::move(observer); }

 private:
  static int BioWrite(BIO* bio, const char* data, int size);
  static int BioRead(BIO* bio, char* data, int size);
  static long BioControl(BIO* bio, int command, long number, void* pointer);
  static int Verify(int preverified, X509_STORE_CTX* store);

  // The error an SSL call failed with (SSL_get_error's `ssl_error`), as Asio's stream names it.
  boost::system::error_code ErrorOf(int ssl_error) const;
  // Waits for the socket's next bytes and keeps them for BioRead.
  boost::asio::awaitable<void> Fill(boost::system::error_code& error);
  // Sends what BioWrite kept, and what is kept while it runs.
  boost::asio::awaitable<void> Flush(boost::system::error_code& error);

  boost::asio::ip::tcp::socket& socket_;
  SSL* ssl_;
  VerifyCallback verify_;
  // Received, [in_begin_, in_end_) not yet taken by OpenSSL; null: none. Not zeroed: only what
  // the socket wrote into it is read.
  std::unique_ptr<char[]> in_;
  size_t in_size_ = 0;
  bool filled_ = false;  // the last read filled in_
  uint64_t bytes_received_ = 0;
  std::function<void()> on_receive_;
  size_t in_begin_ = 0;
  size_t in_end_ = 0;
  std::string out_;      // encrypted, not yet being sent
  std::string sending_;  // being sent by Flush()
  bool flushing_ = false;
  boost::system::error_code broken_;   // the send that failed, if one did
  boost::asio::steady_timer flushed_;  // wakes a Flush() waiting for the other's to end
};

}  // namespace sudoku

#endif  // SUDOKU_PROTO_TLS_STREAM_H_
