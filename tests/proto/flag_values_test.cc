// What the three binaries' command lines share: HOST:PORT (proto/flag_values.h) and reading a
// command line (proto/command_line.h).
#include "proto/flag_values.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "proto/command_line.h"

namespace sudoku {
namespace {

using Problem = HostPort::Problem;

TEST(SplitHostPort, TakesNamesAddressesAndBracketedIpv6) {
  const HostPort name = SplitHostPort("solver1.example.net:9810");
  EXPECT_EQ(name.problem, Problem::kNone);
  EXPECT_EQ(name.host, "solver1.example.net");
  EXPECT_EQ(name.port, 9810u);
  const HostPort v4 = SplitHostPort("127.0.0.1:0");
  EXPECT_EQ(v4.problem, Problem::kNone);
  EXPECT_EQ(v4.host, "127.0.0.1");
  EXPECT_EQ(v4.port, 0u);
  const HostPort v6 = SplitHostPort("[::1]:65535");
  EXPECT_EQ(v6.problem, Problem::kNone);
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, 65535u);
}

TEST(SplitHostPort, SaysWhetherTheShapeOrThePortIsWrong) {
  for (const char* text : {"9810", "", ":9810", "::1:9810", "[::1:9810", "a b:1", "[]:1"}) {
    EXPECT_EQ(SplitHostPort(text).problem, Problem::kShape) << text;
  }
  for (const char* text : {"host:", "host:65536", "host:-1", "host:80x", "[::1]:http"}) {
    EXPECT_EQ(SplitHostPort(text).problem, Problem::kPort) << text;
  }
}

TEST(DurationText, WholeSecondsOrMilliseconds) {
  EXPECT_EQ(DurationText(std::chrono::milliseconds(30000)), "30s");
  EXPECT_EQ(DurationText(std::chrono::milliseconds(1500)), "1500ms");
  EXPECT_EQ(DurationText(std::chrono::milliseconds(0)), "0s");
}

TEST(SecondsText, DecimalsOnlyWhereThereAreAny) {
  EXPECT_EQ(SecondsText(std::chrono::milliseconds(10000)), "10");
  EXPECT_EQ(SecondsText(std::chrono::milliseconds(1500)), "1.5");
  EXPECT_EQ(SecondsText(std::chrono::milliseconds(100)), "0.1");
  EXPECT_EQ(SecondsText(std::chrono::milliseconds(2050)), "2.05");
  EXPECT_EQ(SecondsText(std::chrono::milliseconds(1)), "0.001");
}

TEST(ReadCommandLine, CollectsTheWordsThatAreNotFlags) {
  namespace po = boost::program_options;
  int count = 0;
  po::options_description flags;
  flags.add_options()("count", po::value(&count));
  std::vector<std::string> words;
  const std::vector<std::string> args = {"a.txt", "--count", "3", "b.txt"};
  const po::variables_map values = ReadCommandLine(po::command_line_parser(args), flags, &words);
  EXPECT_EQ(count, 3);
  EXPECT_EQ(values.count("count"), 1u);
  EXPECT_EQ(words, (std::vector<std::string>{"a.txt", "b.txt"}));
  EXPECT_THROW(ReadCommandLine(po::command_line_parser(std::vector<std::string>{"--nope"}), flags,
                               &words),
               po::error);
}

}  // namespace
}  // namespace sudoku
