#include "proto/tls_files.h"

#include <openssl/err.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <boost/asio/ssl/error.hpp>

namespace sudoku {

std::optional<std::string> CannotRead(const char* flag, const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "r");
  if (file == nullptr) {
    return std::string(flag) + " " + path + ": cannot read it: " + std::strerror(errno);
  }
  std::fclose(file);
  return std::nullopt;
}

std::string TlsErrorReason(const boost::system::error_code& error) {
  if (error.category() == boost::asio::error::get_ssl_category()) {
    const char* reason = ERR_reason_error_string(static_cast<unsigned long>(error.value()));
    if (reason != nullptr) return reason;
  }
  return error.message();
}

}  // namespace sudoku
