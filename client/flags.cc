#include "client/flags.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <system_error>

#include "client/client_error.h"
#include "client/session.h"
#include "client/tls_connection.h"
#include "proto/command_line.h"
#include "proto/flag_values.h"
#include "proto/version.h"

namespace sudoku::client {
namespace {

std::string Number(double value) {
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

void ReportError(std::ostream& err) {
  try {
    throw;
  } catch (const ClientError& error) {
    err << "sudoku-client: " << error.what() << "\n";
  } catch (const std::exception& error) {
    err << "sudoku-client: internal error: " << error.what() << "\n";
  } catch (...) {
    err << "sudoku-client: internal error: an exception of unknown type\n";
  }
}

std::optional<boost::program_options::variables_map> ParseCommandLine(
    const std::vector<std::string>& args, const boost::program_options::options_description& flags,
    const char* command, std::vector<std::string>* positionals, std::ostream& out) {
  namespace po = boost::program_options;
  // Every command takes --version, and lists it in its --help after its own options.
  po::options_description common;
  common.add_options()("version", "print the version and exit");
  po::options_description visible;
  visible.add(flags).add(common);
  po::variables_map values;
  try {
    values = ReadCommandLine(po::command_line_parser(args), visible, positionals);
  } catch (const po::error& error) {
    throw ClientError(std::string(error.what()) + " (see: sudoku-client " + command + " --help)");
  }
  if (values.count("help")) {
    // Program_options puts a blank line before a nested group's caption: the help starts with
    // the usage line instead.
    std::ostringstream help;
    help << visible;
    std::string text = help.str();
    text.erase(0, text.find_first_not_of('\n'));
    out << text << "\n";
    return std::nullopt;
  }
  if (values.count("version")) {
    out << VersionLine("sudoku-client") << "\n";
    return std::nullopt;
  }
  return values;
}

std::string Quoted(std::string_view text) {
  // Appended piece by piece: "'" + std::string(text) makes g++ 12 warn falsely (-Wrestrict).
  std::string quoted;
  quoted.reserve(text.size() + 2);
  quoted += '\'';
  quoted += text;
  quoted += '\'';
  return quoted;
}

uint64_t ParseCount(const char* flag, const std::string& text, uint64_t max) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 1 ||
      value > max) {
    throw ClientError(std::string(flag) + " expects a whole number from 1 to " +
                      std::to_string(max) + ", got " + Quoted(text));
  }
  return value;
}

double ParsePositiveDuration(const char* flag, const std::string& text, double max_seconds) {
  const auto duration = ::sudoku::ParseDuration(text);
  if (!duration || duration->count() <= 0 || duration->count() > max_seconds) {
    throw ClientError(std::string(flag) + " expects " + std::string(kDurationHint) +
                      ", above 0 and at most " + Number(max_seconds) + "s, got " + Quoted(text));
  }
  return duration->count();
}

double ParsePositive(const char* flag, const std::string& text, const char* what, double max) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value) || value <= 0 || value > max) {
    throw ClientError(std::string(flag) + " expects " + what + " above 0 (at most " + Number(max) +
                      "), got " + Quoted(text));
  }
  return value;
}

std::chrono::milliseconds ParseDuration(const char* flag, const std::string& text,
                                        std::chrono::milliseconds max) {
  // The parser the daemon and sudoku-bench use too (proto/flag_values.h).
  const auto duration = ::sudoku::ParseDuration(text);
  const double ms = duration ? duration->count() * 1000 : 0;
  if (!duration || ms < 1 || ms > static_cast<double>(max.count())) {
    throw ClientError(std::string(flag) + " expects a duration such as 30s, 2m or 500ms, from " +
                      "1ms to " + std::to_string(max.count() / 1000) + "s, got " + Quoted(text));
  }
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(ms)));
}

SessionFlags DefaultSessionFlags(std::chrono::milliseconds timeout,
                                 std::chrono::milliseconds retry_for) {
  SessionFlags values;
  values.timeout = DurationText(timeout);
  values.retry_for = DurationText(retry_for);
  values.resolve_every = DurationText(kDefaultResolveEvery);
  return values;
}

void AddSessionFlags(boost::program_options::options_description* flags, SessionFlags* values) {
  // The defaults in the descriptions are the values' own, so that --help cannot drift from them.
  const std::string timeout_help =
      "a connection with requests out that answers nothing for this long (e.g. 30s, 2m, 500ms; "
      "default " + values->timeout + ") counts as broken: its requests go to another "
      "connection, and an address silent twice in a row is given up";
  const std::string retry_for_help =
      "when sudokud refuses, resets or turns away connections (TOO_MANY_CONNECTIONS), keep "
      "reconnecting, with growing waits, for this long (default " + values->retry_for +
      ") before giving up; before the first answer, a refused connect is retried for " +
      DurationText(kDefaultFirstConnectFor) + " unless this is given";
  const std::string resolve_every_help =
      "a --connect name stands for every address it resolves to (A and AAAA), connections "
      "spread over them; resolve it again this often (default " + values->resolve_every +
      "), and within a second after a connection breaks: new addresses get their share of the "
      "connections, those gone get no more";
  flags->add_options()
      ("timeout", boost::program_options::value(&values->timeout)->value_name("DURATION"),
       timeout_help.c_str())
      ("retry-for",
       boost::program_options::value(&values->retry_for)
           ->value_name("DURATION")
           ->notifier([values](const std::string&) { values->retry_for_given = true; }),
       retry_for_help.c_str())
      ("resolve-every",
       boost::program_options::value(&values->resolve_every)->value_name("DURATION"),
       resolve_every_help.c_str())
      ("tls", boost::program_options::bool_switch(&values->tls),
       "connect over TLS, verifying the daemon's certificate and the name (or address) of "
       "--connect against it")
      ("tls-ca", boost::program_options::value(&values->tls_ca)->value_name("FILE"),
       "with --tls: trust the CAs in this PEM file for the daemon's certificate (default: the "
       "system's)")
      ("tls-cert", boost::program_options::value(&values->tls_cert)->value_name("FILE"),
       "with --tls: present this PEM client certificate (for a daemon with --tls-client-ca)")
      ("tls-key", boost::program_options::value(&values->tls_key)->value_name("FILE"),
       "with --tls: the unencrypted PEM private key of --tls-cert");
}

void ParseSessionFlags(const SessionFlags& values, CommandSessionOptions* options) {
  options->timeout = ParseDuration("--timeout", values.timeout, kMaxSessionDuration);
  options->retry_for = ParseDuration("--retry-for", values.retry_for, kMaxSessionDuration);
  options->retry_for_given = values.retry_for_given;
  options->resolve_every =
      ParseDuration("--resolve-every", values.resolve_every, kMaxSessionDuration);
  options->open = TlsOpener(MakeClientTls(TlsFlags{.tls = values.tls,
                                                    .ca = values.tls_ca,
                                                    .cert = values.tls_cert,
                                                    .key = values.tls_key}));
}

}  // namespace sudoku::client
