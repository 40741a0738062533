// What the client's and the daemon's TLS setup share when they load the files their flags name
// (--tls-ca, --tls-cert, --tls-key, --tls-client-ca): a check that a file can be read, and the
// reason of an OpenSSL error as people read it.
//
// Thread-safety: stateless functions.
#ifndef SUDOKU_PROTO_TLS_FILES_H_
#define SUDOKU_PROTO_TLS_FILES_H_

#include <optional>
#include <string>

#include <boost/system/error_code.hpp>

namespace sudoku {

// "FLAG PATH: cannot read it: No such file or directory" when `path` cannot be opened for
// reading, else std::nullopt. Asked before OpenSSL reads the file: OpenSSL's own errors for a
// missing file are "system library" and "BIO lib", which name neither the file nor the reason.
std::optional<std::string> CannotRead(const char* flag, const std::string& path);

// Throws Error (the caller's exception type) with CannotRead()'s text.
template <typename Error>
void CheckReadable(const char* flag, const std::string& path) {
  if (std::optional<std::string> problem = CannotRead(flag, path)) throw Error(*problem);
}

// The reason of the OpenSSL error `error` ("key values mismatch", "no start line"); the error's
// message when it is not one of OpenSSL's.
std::string TlsErrorReason(const boost::system::error_code& error);

}  // namespace sudoku

#endif  // SUDOKU_PROTO_TLS_FILES_H_
