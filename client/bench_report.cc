#include "client/bench_report.h"

#include <fmt/format.h>

#include "client/bench_command.h"
#include "client/json_output.h"

namespace sudoku::client {
namespace {

std::string Fixed(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

std::string Micros(uint64_t nanos) { return Fixed(static_cast<double>(nanos) / 1000, 1); }

std::string Megabytes(uint64_t bytes) { return Fixed(static_cast<double>(bytes) / 1e6, 1); }

double PerSecond(uint64_t n, double seconds) {
  return seconds > 0 ? static_cast<double>(n) / seconds : 0;
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
  auto micros = [](uint64_t nanos) { return Rounded(static_cast<double>(nanos) / 1000, 1); };
  Json endpoints = Json::array();
  for (const Endpoint& endpoint : options.endpoints) endpoints.push_back(endpoint.ToString());
  Json json = {
      {"target", options.echo ? "echo" : "sudokud"},
      {"endpoints", std::move(endpoints)},
      {"connections", options.connections},
      {"batch", options.batch_size},
      {"in_flight", options.in_flight},
      {"seconds", Rounded(s, 6)},
      {"batches", report.batches},
      {"puzzles", report.puzzles},
      {"batches_per_second", Rounded(PerSecond(report.batches, s), 1)},
      {"puzzles_per_second", Rounded(PerSecond(report.puzzles, s), 1)},
      {"latency_us",
       {{"p50", micros(l.Percentile(0.5))},
        {"p90", micros(l.Percentile(0.9))},
        {"p99", micros(l.Percentile(0.99))},
        {"p99_9", micros(l.Percentile(0.999))},
        {"max", micros(l.max())}}},
      {"bytes_sent", report.bytes_sent},
      {"bytes_received", report.bytes_received},
  };
  if (options.verify) {
    json["verified"] = report.verified;
    json["wrong"] = report.wrong;
  }
  Json errors = Json::object();
  for (const auto& [kind, n] : report.errors) errors[kind] = n;
  json["errors"] = std::move(errors);
  return JsonLine(json);
}

}  // namespace sudoku::client
