#include "client/bench_report.h"

#include <cstdio>

#include "client/bench_command.h"

namespace sudoku::client {
namespace {

std::string Fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string Micros(uint64_t nanos) { return Fixed(static_cast<double>(nanos) / 1000, 1); }

std::string Megabytes(uint64_t bytes) { return Fixed(static_cast<double>(bytes) / 1e6, 1); }

double PerSecond(uint64_t n, double seconds) {
  return seconds > 0 ? static_cast<double>(n) / seconds : 0;
}

std::string JsonString(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      quoted += escaped;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

std::string Target(const BenchOptions& options) {
  std::string text = options.echo ? "echo server at " : "sudokud at ";
  for (size_t i = 0; i < options.endpoints.size(); ++i) {
    if (i > 0) text += ',';
    text += options.endpoints[i].ToString();
  }
  return text;
}

}  // namespace

std::string FormatBenchReport(const BenchOptions& options, const BenchReport& report) {
  const double s = report.seconds;
  std::string text = Target(options) + ": " + std::to_string(options.connections) +
                     " connections, batch " + std::to_string(options.batch_size) +
                     ", in-flight " + std::to_string(options.in_flight) + ", " + Fixed(s, 2) +
                     " s\n";
  text += "  batches   " + std::to_string(report.batches) + " (" +
          Fixed(PerSecond(report.batches, s), 1) + "/s)\n";
  text += "  puzzles   " + std::to_string(report.puzzles) + " (" +
          Fixed(PerSecond(report.puzzles, s), 1) + "/s)\n";
  const LatencyHistogram& l = report.latency;
  text += "  latency   p50 " + Micros(l.Percentile(0.5)) + " us, p90 " +
          Micros(l.Percentile(0.9)) + " us, p99 " + Micros(l.Percentile(0.99)) + " us, p99.9 " +
          Micros(l.Percentile(0.999)) + " us, max " + Micros(l.max()) + " us (per batch)\n";
  text += "  bytes     sent " + Megabytes(report.bytes_sent) + " MB (" +
          Fixed(PerSecond(report.bytes_sent, s) / 1e6, 1) + " MB/s), received " +
          Megabytes(report.bytes_received) + " MB (" +
          Fixed(PerSecond(report.bytes_received, s) / 1e6, 1) + " MB/s)\n";
  if (options.verify) {
    text += "  verified  " + std::to_string(report.verified) + " solutions right, " +
            std::to_string(report.wrong) + " wrong";
    if (!report.first_wrong.empty()) text += " (first: " + report.first_wrong + ")";
    text += "\n";
  }
  text += "  errors    ";
  if (report.errors.empty()) text += "none";
  bool first = true;
  for (const auto& [kind, n] : report.errors) {
    text += (first ? "" : ", ") + kind + " " + std::to_string(n);
    first = false;
  }
  return text + "\n";
}

std::string FormatBenchJson(const BenchOptions& options, const BenchReport& report) {
  const double s = report.seconds;
  const LatencyHistogram& l = report.latency;
  std::string endpoints;
  for (const Endpoint& endpoint : options.endpoints) {
    if (!endpoints.empty()) endpoints += ',';
    endpoints += JsonString(endpoint.ToString());
  }
  std::string errors;
  for (const auto& [kind, n] : report.errors) {
    if (!errors.empty()) errors += ',';
    errors += JsonString(kind);
    errors += ':';
    errors += std::to_string(n);
  }
  std::string text = "{\"target\":" + JsonString(options.echo ? "echo" : "sudokud") +
                     ",\"endpoints\":[" + endpoints + "]" +
                     ",\"connections\":" + std::to_string(options.connections) +
                     ",\"batch\":" + std::to_string(options.batch_size) +
                     ",\"in_flight\":" + std::to_string(options.in_flight) +
                     ",\"seconds\":" + Fixed(s, 6) +
                     ",\"batches\":" + std::to_string(report.batches) +
                     ",\"puzzles\":" + std::to_string(report.puzzles) +
                     ",\"batches_per_second\":" + Fixed(PerSecond(report.batches, s), 1) +
                     ",\"puzzles_per_second\":" + Fixed(PerSecond(report.puzzles, s), 1) +
                     ",\"latency_us\":{\"p50\":" + Micros(l.Percentile(0.5)) +
                     ",\"p90\":" + Micros(l.Percentile(0.9)) +
                     ",\"p99\":" + Micros(l.Percentile(0.99)) +
                     ",\"p99_9\":" + Micros(l.Percentile(0.999)) + ",\"max\":" + Micros(l.max()) +
                     "},\"bytes_sent\":" + std::to_string(report.bytes_sent) +
                     ",\"bytes_received\":" + std::to_string(report.bytes_received);
  if (options.verify) {
    text += ",\"verified\":" + std::to_string(report.verified) +
            ",\"wrong\":" + std::to_string(report.wrong);
  }
  return text + ",\"errors\":{" + errors + "}}\n";
}

}  // namespace sudoku::client
