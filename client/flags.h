// The command line of the client's commands: parsing, and number flags, with the exact usage
// errors they give.
//
// Thread-safety: stateless functions.
#ifndef SUDOKU_CLIENT_FLAGS_H_
#define SUDOKU_CLIENT_FLAGS_H_

#include <chrono>
#include <functional>
#include <memory>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/program_options.hpp>

namespace sudoku::client {

class Connection;
struct CommandSessionOptions;
struct Endpoint;
// How a session makes each connection (SessionOptions::open).
using ConnectionOpener = std::function<std::unique_ptr<Connection>(
    const boost::asio::any_io_executor&, const Endpoint&)>;

// `text` in single quotes, as the client's messages show what the user typed: 'x'.
std::string Quoted(std::string_view text);

// A whole number from 1 to `max`, or ClientError: "--batch expects a whole number from 1 to
// 100000, got '0'".
uint64_t ParseCount(const char* flag, const std::string& text, uint64_t max);

// A decimal number above 0 and at most `max`, or ClientError: "--duration expects a number of
// seconds above 0 (at most 86400), got 'x'", where `what` is "a number of seconds".
double ParsePositive(const char* flag, const std::string& text, const char* what, double max);

// A duration: a number with a unit, ms, s, m or h (s when there is none), from 1 ms to `max`,
// or ClientError: "--timeout expects a duration such as 30s, 2m or 500ms, from 1ms to 86400s,
// got '10x'".
std::chrono::milliseconds ParseDuration(const char* flag, const std::string& text,
                                        std::chrono::milliseconds max);

// A duration above 0 and at most `max_seconds`, in seconds, or ClientError: "--duration expects
// a duration such as 10s, 2m or 500ms (a plain number is seconds), above 0 and at most 86400s,
// got 'x'".
double ParsePositiveDuration(const char* flag, const std::string& text, double max_seconds);

// From inside a catch block: prints the exception in flight to `err` as the client reports a
// failed run, "sudoku-client: WHAT" for a ClientError and "sudoku-client: internal error: WHAT"
// for anything else (a bug).
void ReportError(std::ostream& err);

// --timeout and --retry-for, which every command that talks to sudokud takes: the texts as typed.
// And --tls, --tls-ca, --tls-cert, --tls-key.
struct SessionFlags {
  std::string timeout;
  std::string retry_for;
  bool retry_for_given = false;  // --retry-for was on the command line
  std::string resolve_every;
  bool tls = false;
  std::string tls_ca;
  std::string tls_cert;
  std::string tls_key;
};
// The flags before parsing: --timeout and --retry-for hold the command's defaults as text, as
// --help shows them ("30s"), and nothing else is set.
SessionFlags DefaultSessionFlags(std::chrono::milliseconds timeout,
                                 std::chrono::milliseconds retry_for);
// Adds them to `flags`, their defaults taken from `values`.
void AddSessionFlags(boost::program_options::options_description* flags, SessionFlags* values);
// Parses them into `options` (its timeout, retry_for, retry_for_given and open: TLS, or empty for
// plain TCP), or throws ClientError as ParseDuration() does (and as MakeClientTls() does for the
// TLS files).
void ParseSessionFlags(const SessionFlags& values, CommandSessionOptions* options);

// Parses one command's `args` against its `flags`; the arguments that are not flags go to
// `positionals`. A bad flag is a ClientError that points to the command's help: "unrecognised
// option '--x' (see: sudoku-client solve --help)". With -h/--help, prints `flags` to `out` and
// returns std::nullopt; likewise with --version, which prints "sudoku-client VERSION".
std::optional<boost::program_options::variables_map> ParseCommandLine(
    const std::vector<std::string>& args, const boost::program_options::options_description& flags,
    const char* command, std::vector<std::string>* positionals, std::ostream& out);

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_FLAGS_H_
