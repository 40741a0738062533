#include "daemon/http_message.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>

namespace sudoku::daemon {

namespace http = boost::beast::http;

size_t ReadBufferLimit(const HttpLimits& limits) {
  return std::max(limits.max_header_bytes, limits.max_trailer_bytes);
}

void LimitParser(const HttpLimits& limits, HttpRequestParser* parser) {
  parser->header_limit(static_cast<uint32_t>(limits.max_header_bytes));
  parser->body_limit(limits.max_body_bytes);
}

HttpRefusal RefusalFor(const boost::system::error_code& error, const HttpRequestParser& parser,
                       const HttpLimits& limits) {
  // Set once the request line is read (a body over the limit is found with the header, before
  // the parser counts the header as done); empty before that.
  std::string target(parser.get().target().data(), parser.get().target().size());
  if (error == http::error::header_limit ||
      (error == http::error::buffer_overflow && !parser.is_header_done())) {
    return {http::status::request_header_fields_too_large, std::move(target),
            "the header is more than the limit of " + std::to_string(limits.max_header_bytes) +
                " bytes"};
  }
  if (error == http::error::buffer_overflow) {
    // The header is read, and the body's bytes are taken as they come: what did not fit is a
    // chunk line or the trailer fields after the last chunk, which must be whole to be parsed.
    return {http::status::request_header_fields_too_large, std::move(target),
            "the chunked body's trailer is more than the limit of " +
                std::to_string(limits.max_trailer_bytes) + " bytes"};
  }
  if (error != http::error::body_limit) {
    return {http::status::bad_request, std::move(target), error.message()};
  }
  const std::string limit = std::to_string(limits.max_body_bytes);
  const auto length = parser.content_length();
  return {http::status::payload_too_large, std::move(target),
          length ? "the body is " + std::to_string(*length) + " bytes, more than the limit of " +
                       limit
                 : "the body is more than the limit of " + limit + " bytes"};
}

std::string RefusalText(http::status status, const std::string& why) {
  std::string reason(http::obsolete_reason(status));
  std::transform(reason.begin(), reason.end(), reason.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return reason + ": " + why;
}

HttpResponse MakeResponse(http::status status, std::string_view content_type, std::string body) {
  HttpResponse response{status, 11};
  response.set(http::field::content_type,
               boost::beast::string_view(content_type.data(), content_type.size()));
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

}  // namespace sudoku::daemon
