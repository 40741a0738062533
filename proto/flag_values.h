// The values the three binaries' flags share: durations with units (10s, 2m, 500ms), so that every
// flag that takes a time reads it the same way, and addresses (HOST:PORT), so that sudokud's
// --listen and sudoku-client's --connect take the same forms.
//
// Thread-safety: stateless functions.
#ifndef SUDOKU_PROTO_FLAG_VALUES_H_
#define SUDOKU_PROTO_FLAG_VALUES_H_

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace sudoku {

// A duration: a decimal number followed by a unit, ms, s, m or h ("500ms", "10s", "1.5m");
// a plain number is seconds ("30"). std::nullopt for anything else, negative numbers included.
std::optional<std::chrono::duration<double>> ParseDuration(std::string_view text);

// A duration as a flag would take it, for help texts and messages: "30s", "1500ms".
std::string DurationText(std::chrono::milliseconds duration);

// A duration in seconds as messages say it, after "within": "10", "1.5", "0.25".
std::string SecondsText(std::chrono::milliseconds duration);

// What a duration flag accepts, for usage errors: "a duration such as 10s, 2m or 500ms (a plain
// number is seconds)".
inline constexpr std::string_view kDurationHint =
    "a duration such as 10s, 2m or 500ms (a plain number is seconds)";

// An address as written on a command line: "HOST:PORT", or "[IPv6]:PORT" (an IPv6 literal
// needs its brackets: the last colon is the port's). Nothing is resolved here.
struct HostPort {
  enum class Problem {
    kNone,
    kShape,  // not HOST:PORT: no colon, no host, an unbracketed IPv6 literal, brackets or spaces
    kPort,   // the port is not a number from 0 to 65535
  };
  Problem problem = Problem::kNone;
  std::string host;  // without the brackets of an IPv6 literal
  unsigned port = 0;
};
HostPort SplitHostPort(std::string_view text);

}  // namespace sudoku

#endif  // SUDOKU_PROTO_FLAG_VALUES_H_
