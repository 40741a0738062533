// sudoku-client over TLS (--tls, --tls-ca, --tls-cert, --tls-key) against the real sudokud: the
// answers over TLS and mutual TLS, and each refusal and bad flag with the exact words the client
// prints and its exit status. The certificates are made by TestPki at test time.
#include <utility>  // before Asio: asio issue 944

#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "client/client_error.h"
#include "client/endpoint.h"
#include "client/tls_connection.h"
#include "tests/daemon/tls_support.h"
#include "tests/support/daemon_process.h"
#include "tests/support/paths.h"
#include "tests/support/puzzles.h"

namespace sudoku::testing {
namespace {

// A file of two puzzles, and the output `solve` gives for it.
std::string PuzzleFile() {
  const std::string path = Pki().dir() + "/puzzles.txt";
  std::ofstream(path) << kWikipediaPuzzle << "\n" << kWikipediaPuzzle << "\n";
  return path;
}
std::string Solved() { return kWikipediaSolution + "\n" + kWikipediaSolution + "\n"; }

// sudoku-client solve with `args`, connecting to `address`, with a short connect time-out and no
// retrying, so that each refusal is seen at once.
ProcessResult Solve(const std::string& address, std::vector<std::string> args) {
  std::vector<std::string> argv = {TestPath("SUDOKU_CLIENT_BIN"), "solve",  "--connect", address,
                                   "--retry-for", "1ms"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(PuzzleFile());
  return RunToExit(argv);
}

std::vector<std::string> ServerFlags(bool mutual) {
  std::vector<std::string> flags = {"--listen", "127.0.0.1:0", "--tls-cert",
                                    Pki().Path("server.pem"), "--tls-key",
                                    Pki().Path("server.key")};
  if (mutual) {
    flags.push_back("--tls-client-ca");
    flags.push_back(Pki().Path("ca.pem"));
  }
  return flags;
}

std::vector<std::string> Presenting(const std::string& name) {
  return {"--tls", "--tls-ca", Pki().Path("ca.pem"), "--tls-cert", Pki().Path(name + ".pem"),
          "--tls-key", Pki().Path(name + ".key")};
}

std::string Localhost(const DaemonProcess& daemon) {
  return "localhost:" + std::to_string(daemon.port());
}

TEST(ClientTls, SolvesOverTlsByNameAndByAddress) {
  DaemonProcess daemon(ServerFlags(false));
  for (const std::string& address : {Localhost(daemon), daemon.address()}) {
    const ProcessResult result = Solve(address, {"--tls", "--tls-ca", Pki().Path("ca.pem")});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out, Solved());
  }
}

TEST(ClientTls, SolvesOverMutualTls) {
  DaemonProcess daemon(ServerFlags(true));
  const ProcessResult result = Solve(Localhost(daemon), Presenting("client"));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, Solved());
  EXPECT_THAT(daemon.Log(), ::testing::Not(::testing::HasSubstr("refused")));
}

// explain, generate and bench take the same TLS flags as solve, through the same session.
TEST(ClientTls, EveryCommandWorksOverMutualTls) {
  DaemonProcess daemon(ServerFlags(true));
  const std::vector<std::string> tls = Presenting("client");
  auto run = [&](std::vector<std::string> argv) {
    argv.insert(argv.begin() + 2, {"--connect", Localhost(daemon), "--retry-for", "1ms"});
    argv.insert(argv.begin() + 6, tls.begin(), tls.end());
    return RunToExit(argv);
  };
  const std::string client = TestPath("SUDOKU_CLIENT_BIN");

  const ProcessResult explained = run({client, "explain", "--json", kWikipediaPuzzle});
  EXPECT_EQ(explained.exit_code, 0) << explained.err;
  EXPECT_THAT(explained.out, ::testing::HasSubstr("\"verdict\":\"solved\""));
  EXPECT_THAT(explained.out, ::testing::HasSubstr(kWikipediaSolution));

  const ProcessResult generated = run({client, "generate", "--count", "3", "--seed", "1"});
  EXPECT_EQ(generated.exit_code, 0) << generated.err;
  EXPECT_THAT(generated.out, ::testing::MatchesRegex("([1-9.]{81}\n){3}"));

  const ProcessResult benched =
      run({client, "bench", "--requests", "5", "--batch", "2", "--verify", "--json", PuzzleFile()});
  EXPECT_EQ(benched.exit_code, 0) << benched.err;
  EXPECT_THAT(benched.out, ::testing::HasSubstr("\"batches\":5,\"puzzles\":10,"));
  EXPECT_THAT(benched.out, ::testing::HasSubstr("\"verified\":10,\"wrong\":0,\"errors\":{}"));
  EXPECT_THAT(daemon.Log(), ::testing::Not(::testing::HasSubstr("refused")));
}

// Each refusal, as the client words it; exit status 2 (a connection error), nothing on stdout.
struct Refusal {
  const char* name;
  bool mutual;
  std::vector<std::string> (*flags)();
  const char* connect_to;  // "localhost", "127.0.0.1", "plain"
  std::string expected;    // PEER is replaced by the address connected to
};

void PrintTo(const Refusal& refusal, std::ostream* out) { *out << refusal.name; }

class ClientTlsRefusal : public ::testing::TestWithParam<Refusal> {};

TEST_P(ClientTlsRefusal, SaysWhyAndExitsWithTwo) {
  const Refusal& refusal = GetParam();
  const bool plain = std::string(refusal.connect_to) == "plain";
  const std::string host = plain ? "localhost" : refusal.connect_to;
  std::vector<std::string> flags = ServerFlags(refusal.mutual);
  if (plain) flags = {"--listen", "127.0.0.1:0"};
  // 127.0.0.2 is loopback too, and an address the certificate does not hold.
  if (host == "127.0.0.2") flags[1] = "127.0.0.2:0";
  DaemonProcess daemon(flags);
  const std::string address = host + ":" + std::to_string(daemon.port());
  const ProcessResult result = Solve(address, refusal.flags());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  std::string expected = refusal.expected;
  // A name is named with the address it resolved to (sudoku-client(1), --resolve-every).
  expected.replace(expected.find("PEER"), 4,
                   address + (host == "localhost" ? " (127.0.0.1)" : ""));
  EXPECT_EQ(result.err, expected);
}

INSTANTIATE_TEST_SUITE_P(
    EachRefusal, ClientTlsRefusal,
    ::testing::Values(
        Refusal{"NoClientCertificate", true,
                [] { return std::vector<std::string>{"--tls", "--tls-ca", Pki().Path("ca.pem")}; },
                "localhost",
                "sudoku-client: sudokud at PEER refused the connection: it requires a client "
                "certificate (give --tls-cert and --tls-key)\n"},
        Refusal{"CertificateFromAnotherCa", true, [] { return Presenting("stranger"); },
                "localhost",
                "sudoku-client: sudokud at PEER refused our client certificate (--tls-cert): it is "
                "not signed by a CA the daemon trusts (its --tls-client-ca)\n"},
        Refusal{"ExpiredCertificate", true, [] { return Presenting("expired"); }, "localhost",
                "sudoku-client: sudokud at PEER refused our client certificate (--tls-cert): it "
                "has expired\n"},
        Refusal{"ServerFromAnUntrustedCa", false,
                [] {
                  return std::vector<std::string>{"--tls", "--tls-ca",
                                                  Pki().Path("other_ca.pem")};
                },
                "localhost",
                "sudoku-client: cannot verify the certificate of sudokud at PEER: unable to get "
                "local issuer certificate (give --tls-ca with the CA that signed it)\n"},
        Refusal{"NameTheCertificateDoesNotHold", false,
                [] { return std::vector<std::string>{"--tls", "--tls-ca", Pki().Path("ca.pem")}; },
                "127.0.0.2",
                "sudoku-client: the certificate of sudokud at PEER is not valid for '127.0.0.2': "
                "connect by a name (or address) its certificate holds\n"},
        Refusal{"PlaintextPort", false,
                [] { return std::vector<std::string>{"--tls", "--tls-ca", Pki().Path("ca.pem")}; },
                "plain",
                "sudoku-client: sudokud at PEER does not speak TLS on this port (it answered in "
                "plaintext): drop --tls, or connect to its TLS port\n"}),
    [](const ::testing::TestParamInfo<Refusal>& info) { return std::string(info.param.name); });

// A plaintext client on the TLS port is answered with a fault in plaintext, which it prints.
TEST(ClientTls, PlaintextClientOnTheTlsPortIsToldToUseTls) {
  DaemonProcess daemon(ServerFlags(false));
  const ProcessResult result = Solve(daemon.address(), {});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "sudoku-client: sudokud at " + daemon.address() +
                            " reported a protocol fault: NOT_THIS_PROTOCOL: this port speaks "
                            "sudokud's protocol over TLS, not in plaintext; connect with TLS "
                            "(sudoku-client --tls)\n");
}

// A port that accepts and never answers the handshake (a plaintext server waiting for a frame):
// the attempt ends within the connect time-out, as a broken connection (which the client retries
// elsewhere) that says why.
TEST(ClientTls, HandshakeThatNeverEndsTimesOut) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor silent(io, {boost::asio::ip::address_v4::loopback(), 0});
  const std::string address = "127.0.0.1:" + std::to_string(silent.local_endpoint().port());
  client::TlsFlags flags;
  flags.tls = true;
  flags.ca = Pki().Path("ca.pem");
  client::TlsConnection connection(io.get_executor(), client::ParseEndpoint(address),
                                   client::MakeClientTls(flags), std::chrono::milliseconds(300));
  std::string error = "still connecting";
  boost::asio::co_spawn(io, connection.Connect(), [&error](std::exception_ptr failure) {
    error = "connected";
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const client::ConnectionLost& lost) {
      error = lost.what();
    } catch (const std::exception& other) {
      error = std::string("not a ConnectionLost: ") + other.what();
    }
  });
  io.run_for(std::chrono::seconds(30));
  EXPECT_EQ(error, "the TLS handshake with sudokud at " + address +
                       " was not done within 0.3 s (is that port sudokud's TLS port?)");
}

TEST(ClientTls, FlagsThatCannotBeUsedSayWhy) {
  const std::string address = "127.0.0.1:1";  // never reached: the flags are checked first
  const std::string missing = Pki().dir() + "/missing.pem";
  struct Case {
    std::vector<std::string> flags;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"--tls-ca", Pki().Path("ca.pem")},
       "sudoku-client: --tls-ca, --tls-cert and --tls-key need --tls\n"},
      {{"--tls", "--tls-cert", Pki().Path("client.pem")},
       "sudoku-client: --tls-cert and --tls-key go together: give both, or neither\n"},
      {{"--tls", "--tls-ca", missing},
       "sudoku-client: --tls-ca " + missing + ": cannot read it: No such file or directory\n"},
      {{"--tls", "--tls-ca", Pki().Path("client.key")},
       "sudoku-client: --tls-ca " + Pki().Path("client.key") +
           ": no PEM CA certificate in it (no certificate or crl found)\n"},
      {{"--tls", "--tls-cert", Pki().Path("client.key"), "--tls-key", Pki().Path("client.key")},
       "sudoku-client: --tls-cert " + Pki().Path("client.key") +
           ": not a PEM certificate (no start line)\n"},
      {{"--tls", "--tls-cert", Pki().Path("client.pem"), "--tls-key", Pki().Path("server.key")},
       "sudoku-client: --tls-key " + Pki().Path("server.key") +
           ": not the unencrypted PEM key of --tls-cert (key values mismatch)\n"},
  };
  for (const Case& c : cases) {
    const ProcessResult result = Solve(address, c.flags);
    EXPECT_EQ(result.exit_code, 2) << c.expected;
    EXPECT_EQ(result.err, c.expected);
  }
}

}  // namespace
}  // namespace sudoku::testing
