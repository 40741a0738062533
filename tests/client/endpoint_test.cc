#include "client/endpoint.h"

#include <gtest/gtest.h>

#include "client/client_error.h"
#include "tests/client/client_error_of.h"

namespace sudoku::client {
namespace {

std::string ErrorOf(std::string_view text) {
  return ClientErrorOf([text] { ParseEndpoint(text); });
}

TEST(Endpoint, ParsesHostAndPort) {
  const Endpoint endpoint = ParseEndpoint("127.0.0.1:9810");
  EXPECT_EQ(endpoint.host, "127.0.0.1");
  EXPECT_EQ(endpoint.port, "9810");
  EXPECT_EQ(endpoint.ToString(), "127.0.0.1:9810");
  EXPECT_EQ(ParseEndpoint("localhost:1").ToString(), "localhost:1");
}

TEST(Endpoint, ParsesBracketedIpv6) {
  const Endpoint endpoint = ParseEndpoint("[::1]:65535");
  EXPECT_EQ(endpoint.host, "::1");
  EXPECT_EQ(endpoint.port, "65535");
  EXPECT_EQ(endpoint.ToString(), "[::1]:65535");
}

TEST(Endpoint, RejectsMalformedAddresses) {
  const std::string expected = ": expected HOST:PORT, e.g. 127.0.0.1:9810";
  EXPECT_EQ(ErrorOf("localhost"), "bad address 'localhost'" + expected);
  EXPECT_EQ(ErrorOf(":9810"), "bad address ':9810'" + expected);
  EXPECT_EQ(ErrorOf("::1:9810"), "bad address '::1:9810'" + expected);
  EXPECT_EQ(ErrorOf(""), "bad address ''" + expected);
  EXPECT_EQ(ErrorOf("[]:9810"), "bad address '[]:9810'" + expected);
}

TEST(Endpoint, RejectsBadPorts) {
  const std::string expected = ": expected a number from 1 to 65535";
  EXPECT_EQ(ErrorOf("127.0.0.1:"), "bad port in '127.0.0.1:'" + expected);
  EXPECT_EQ(ErrorOf("127.0.0.1:0"), "bad port in '127.0.0.1:0'" + expected);
  EXPECT_EQ(ErrorOf("127.0.0.1:65536"), "bad port in '127.0.0.1:65536'" + expected);
  EXPECT_EQ(ErrorOf("127.0.0.1:http"), "bad port in '127.0.0.1:http'" + expected);
  EXPECT_EQ(ErrorOf("127.0.0.1:-1"), "bad port in '127.0.0.1:-1'" + expected);
  EXPECT_EQ(ErrorOf("127.0.0.1:98 "), "bad port in '127.0.0.1:98 '" + expected);
}

TEST(Endpoint, ListsFromRepeatedAndCommaSeparatedFlags) {
  const std::vector<Endpoint> endpoints =
      ParseEndpoints({"127.0.0.1:1,127.0.0.1:2", "[::1]:3"});
  ASSERT_EQ(endpoints.size(), 3u);
  EXPECT_EQ(endpoints[0].ToString(), "127.0.0.1:1");
  EXPECT_EQ(endpoints[1].ToString(), "127.0.0.1:2");
  EXPECT_EQ(endpoints[2].ToString(), "[::1]:3");
}

TEST(Endpoint, DefaultsToLoopback) {
  const std::vector<Endpoint> endpoints = ParseEndpoints({});
  ASSERT_EQ(endpoints.size(), 1u);
  EXPECT_EQ(endpoints[0].ToString(), "127.0.0.1:9810");
}

TEST(Endpoint, EmptyListEntryIsAnError) {
  try {
    ParseEndpoints({"127.0.0.1:1,"});
    FAIL() << "no error";
  } catch (const ClientError& error) {
    EXPECT_STREQ(error.what(), "bad address '': expected HOST:PORT, e.g. 127.0.0.1:9810");
  }
}

}  // namespace
}  // namespace sudoku::client
