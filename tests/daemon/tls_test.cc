// sudokud over TLS (--tls-cert, --tls-key, --tls-client-ca), on the real daemon: the protocol
// over TLS 1.3 and 1.2, mutual TLS, each refusal with its exact words at both ends (another
// connection going on undisturbed), a forged record, the handshake deadline, and certificates
// reloaded on SIGHUP under load. The certificates are made by TestPki at test time.
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/daemon/solve_checks.h"
#include "tests/daemon/http_client.h"
#include "tests/daemon/tls_support.h"
#include "tests/daemon/wire_client.h"

namespace sudoku::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> TlsFlags(bool mutual, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--listen", "127.0.0.1:0", "--tls-cert",
                                   Pki().Path("server.pem"), "--tls-key", Pki().Path("server.key")};
  if (mutual) {
    args.push_back("--tls-client-ca");
    args.push_back(Pki().Path("ca.pem"));
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// Trusts the test CA; presents `name`.pem/.key when `name` is given.
TlsClientOptions As(const std::string& name = "") {
  TlsClientOptions options;
  options.ca = Pki().Path("ca.pem");
  if (!name.empty()) {
    options.cert = Pki().Path(name + ".pem");
    options.key = Pki().Path(name + ".key");
  }
  return options;
}

// The batch this suite sends to check that a connection is served (ExpectServed sends 5 by
// default).
constexpr int kTlsBatch = 20;

// The error a TLS client meets: in the handshake (TLS 1.2, or our own verification), or at its
// first read (TLS 1.3, where the server checks the client's certificate after the client's
// handshake is done).
std::string ClientError(TlsClient& client) {
  try {
    client.Handshake();
    client.SendSolve(1, GeneratePuzzles(1, 28, 1));
    const auto response = client.Read();
    return response ? "answered: " + response->ShortDebugString() : "closed without a word";
  } catch (const std::exception& e) {
    return e.what();
  }
}

void StopCleanly(DaemonProcess& daemon) {
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0) << daemon.Log();
}

TEST(Tls, ServesTheProtocolOverTls13AndTls12) {
  DaemonProcess daemon(TlsFlags(false));
  EXPECT_THAT(daemon.Log(), HasSubstr("; TLS with CN=localhost, expires "));
  TlsClient tls13(daemon.port(), As());
  tls13.Handshake();
  EXPECT_EQ(tls13.Protocol(), "TLSv1.3");
  // The server's preference, whatever the client lists first.
  EXPECT_EQ(tls13.Cipher(), "TLS_AES_128_GCM_SHA256");
  EXPECT_EQ(tls13.ServerSubject(), "/CN=localhost");
  ExpectServed(tls13, 1, 500);
  TlsClientOptions options = As();
  options.tls12_only = true;
  TlsClient tls12(daemon.port(), options);
  tls12.Handshake();
  EXPECT_EQ(tls12.Protocol(), "TLSv1.2");
  ExpectServed(tls12, 2, kTlsBatch);
  ExpectServed(tls13, 3, kTlsBatch);
  StopCleanly(daemon);
  EXPECT_THAT(daemon.Log(), HasSubstr("stopped: 2 connections, 3 batches answered"));
}

TEST(Tls, MutualTlsServesAClientOfItsCaAndNamesItInTheLog) {
  DaemonProcess daemon(TlsFlags(true));
  EXPECT_THAT(daemon.Log(), HasSubstr("; client certificates from " + Pki().Path("ca.pem")));
  TlsClient client(daemon.port(), As("client"));
  client.Handshake();
  ExpectServed(client, 1, kTlsBatch);
  client.Send(wire::Request());  // a Request with no kind: a fault, logged with the subject
  const auto fault = client.Read();
  ASSERT_TRUE(fault && fault->has_fault());
  EXPECT_THAT(daemon.WaitForLog("protocol fault EMPTY_REQUEST"),
              HasSubstr(" (CN=test client): protocol fault EMPTY_REQUEST: frame 2 is a Request"));
  StopCleanly(daemon);
}

// Each refusal: the refused client's words, the daemon's one line, and a connection made before
// it still served after it.
class TlsRefusalTest : public ::testing::Test {
 protected:
  void Start(bool mutual, std::vector<std::string> extra = {}) {
    daemon_ = std::make_unique<DaemonProcess>(TlsFlags(mutual, std::move(extra)));
    bystander_ = std::make_unique<TlsClient>(daemon_->port(), As(mutual ? "client" : ""));
    bystander_->Handshake();
    ExpectServed(*bystander_, 1, kTlsBatch);
  }

  // The daemon's line for the refusal: "127.0.0.1:PORT: refused: <message>; closing ...".
  void ExpectLogged(const std::string& message) {
    const std::string line = daemon_->WaitForLog(": refused: ");
    EXPECT_THAT(line, StartsWith("sudokud: 127.0.0.1:"));
    EXPECT_THAT(line, HasSubstr(": refused: " + message + "; closing the connection")) << line;
    ExpectServed(*bystander_, 2, kTlsBatch);
    // One line for the one refusal, written before the bystander's second batch was read.
    EXPECT_EQ(RefusedLines(daemon_->Log()), 1u) << daemon_->Log();
  }

  static size_t RefusedLines(const std::string& log) {
    size_t lines = 0;
    for (size_t at = log.find(": refused: "); at != std::string::npos;
         at = log.find(": refused: ", at + 1)) {
      ++lines;
    }
    return lines;
  }

  void TearDown() override {
    if (daemon_) StopCleanly(*daemon_);
  }

  std::unique_ptr<DaemonProcess> daemon_;
  std::unique_ptr<TlsClient> bystander_;
};

TEST_F(TlsRefusalTest, NoClientCertificate) {
  Start(true);
  TlsClient client(daemon_->port(), As());
  EXPECT_EQ(ClientError(client), "tlsv13 alert certificate required");
  ExpectLogged("no client certificate (--tls-client-ca requires one signed by its CA)");
}

// A storm of refused handshakes is logged as any client-caused lines are: the first ten of the
// kind, then one line with the count (here at exit, within the ten seconds); the metrics and the
// final line still count all of them, and the bystander is served throughout.
TEST_F(TlsRefusalTest, AStormOfRefusalsLogsTenLinesAndACount) {
  Start(true);
  for (int i = 0; i < 25; ++i) {
    TlsClient client(daemon_->port(), As());
    EXPECT_EQ(ClientError(client), "tlsv13 alert certificate required");
  }
  ExpectServed(*bystander_, 2, kTlsBatch);
  StopCleanly(*daemon_);
  const std::string log = daemon_->Log();
  EXPECT_EQ(RefusedLines(log), 10u) << log;
  EXPECT_THAT(log,
              HasSubstr("sudokud: TLS no client certificate: 15 more like this suppressed in "))
      << log;
  daemon_.reset();
}

TEST_F(TlsRefusalTest, ClientCertificateFromAnotherCa) {
  Start(true);
  TlsClient client(daemon_->port(), As("stranger"));
  EXPECT_EQ(ClientError(client), "tlsv1 alert unknown ca");
  ExpectLogged("the client certificate 'CN=stranger' is not signed by --tls-client-ca (unable "
               "to get local issuer certificate)");
}

TEST_F(TlsRefusalTest, ExpiredClientCertificate) {
  Start(true);
  TlsClient client(daemon_->port(), As("expired"));
  EXPECT_EQ(ClientError(client), "sslv3 alert certificate expired");
  ExpectLogged("the client certificate 'CN=expired client' has expired (certificate has "
               "expired)");
}

TEST_F(TlsRefusalTest, ServerNameTheCertificateDoesNotHold) {
  Start(false);
  TlsClientOptions options = As();
  options.server_name = "wrong.example";
  TlsClient client(daemon_->port(), options);
  EXPECT_EQ(ClientError(client), "certificate verify failed");
  ExpectLogged("the client ended the TLS handshake (sslv3 alert bad certificate): does it trust "
               "the CA of --tls-cert, and does it connect by a name the certificate holds?");
}

TEST_F(TlsRefusalTest, ServerCertificateFromACaTheClientDoesNotTrust) {
  Start(false);
  TlsClientOptions options = As();
  options.ca = Pki().Path("other_ca.pem");
  TlsClient client(daemon_->port(), options);
  EXPECT_EQ(ClientError(client), "certificate verify failed");
  ExpectLogged("the client ended the TLS handshake (tlsv1 alert unknown ca): does it trust the "
               "CA of --tls-cert, and does it connect by a name the certificate holds?");
}

TEST_F(TlsRefusalTest, HandshakeNotDoneInTime) {
  Start(false, {"--first-frame-timeout", "1s"});
  WireClient client(daemon_->port());
  client.SendBytes("\x16\x03");  // the start of a TLS record, and nothing more
  ExpectLogged("no TLS handshake within 1 s of connecting (--first-frame-timeout 1)");
  EXPECT_EQ(client.Read(), std::nullopt);
}

TEST_F(TlsRefusalTest, PlaintextClientOnTheTlsPort) {
  Start(true);
  WireClient client(daemon_->port());
  client.SendSolve(1, GeneratePuzzles(1, 28, 1));
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_fault()) << "no fault";
  EXPECT_EQ(response->fault().kind(), wire::ProtocolFault::NOT_THIS_PROTOCOL);
  const std::string message =
      "this port speaks sudokud's protocol over TLS, not in plaintext; connect with TLS "
      "(sudoku-client --tls)";
  EXPECT_EQ(response->fault().message(), message);
  EXPECT_THAT(daemon_->WaitForLog("protocol fault NOT_THIS_PROTOCOL"),
              HasSubstr(": protocol fault NOT_THIS_PROTOCOL: " + message));
  ExpectServed(*bystander_, 2, kTlsBatch);
}

// A record that does not decrypt (forged bytes after the handshake) ends its connection with
// OpenSSL's alert and a line in the log; a connection beside it is served on.
TEST(Tls, ARecordThatDoesNotDecryptEndsThatConnectionAlone) {
  DaemonProcess daemon(TlsFlags(false));
  TlsClient forger(daemon.port(), As());
  forger.Handshake();
  TlsClient bystander(daemon.port(), As());
  bystander.Handshake();
  ExpectServed(bystander, 1, kTlsBatch);
  // Application data (type 23), TLS 1.2 on the outside as TLS 1.3 writes it, 32 bytes that no
  // key encrypted.
  std::string record = {23, 3, 3, 0, 32};
  record += std::string(32, 'Z');
  boost::asio::write(forger.Socket(), boost::asio::buffer(record));
  std::string error;
  try {
    const auto response = forger.Read();
    error = response ? "answered: " + response->ShortDebugString() : "closed without a word";
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_THAT(error, HasSubstr("bad record mac"));
  ExpectServed(bystander, 2, kTlsBatch);
  StopCleanly(daemon);
  EXPECT_THAT(daemon.Log(), HasSubstr("stopped: 2 connections, 2 batches answered"));
  EXPECT_THAT(daemon.Log(),
              ::testing::ContainsRegex("sudokud: 127\\.0\\.0\\.1:[0-9]+: TLS error: decryption "
                                       "failed or bad record mac; closing the connection\n"));
}

// A client that offers only a finite-field group is refused at once, on the port and on the
// HTTPS listeners: an ffdhe8192 key exchange costs the server 110-190 ms, so one captured
// ClientHello replayed on a few connections used to keep the event loop busy. The groups offered
// are Mozilla's "intermediate" list, and each of them is served.
TEST(Tls, AClientHelloOfferingOnlyFfdhe8192IsRefused) {
  DaemonProcess daemon(TlsFlags(false, {"--http", "127.0.0.1:0", "--http-tls"}));
  const uint16_t page = PortAfter(daemon, "serving the page on https://127.0.0.1:");
  TlsClientOptions ffdhe = As();
  ffdhe.groups = "ffdhe8192";
  TlsClient refused(daemon.port(), ffdhe);
  EXPECT_THAT(ClientError(refused), HasSubstr("handshake failure"));
  EXPECT_THAT(daemon.WaitForLog("refused: TLS handshake failed"),
              ::testing::MatchesRegex("sudokud: 127\\.0\\.0\\.1:[0-9]+: refused: TLS handshake "
                                      "failed: no suitable key share; closing the connection"));
  TlsClient refused_https(page, ffdhe);
  EXPECT_THROW(refused_https.Handshake(), std::runtime_error);
  EXPECT_THAT(daemon.WaitForLog("http: 127.0.0.1:"),
              ::testing::MatchesRegex("sudokud: http: 127\\.0\\.0\\.1:[0-9]+: TLS handshake "
                                      "failed: no suitable key share; closing the connection"));
  uint64_t batch_id = 0;
  for (const char* group : {"X25519", "P-256", "P-384"}) {
    TlsClientOptions offered = As();
    offered.groups = group;
    TlsClient client(daemon.port(), offered);
    client.Handshake();
    ExpectServed(client, ++batch_id, kTlsBatch);
    TlsClient https(page, offered);
    https.Handshake();
    EXPECT_EQ(https.Get("/healthz").body, "alive\n") << group;
  }
  StopCleanly(daemon);
}

// A TLS record can be read only once it is whole, so a client sending steadily at 1,400 bytes a
// second has nothing decrypted for seconds: the deadlines count the bytes the socket received
// (the man page's "a sender that keeps up 1024 bytes a second is never timed out"), and the
// slow record keeps the connection from counting as idle.
TEST(Tls, ASteadySenderOfTlsRecordsIsNotTimedOut) {
  DaemonProcess daemon(TlsFlags(false, {"--first-frame-timeout", "2s", "--frame-timeout", "2s"}));
  ThrottledRelay relay(daemon.port(), 1400);
  TlsClient client(relay.port(), As());
  client.Handshake();
  // About 3.5 KB in one record: 2.5 s through the relay, longer than either timeout.
  const auto puzzles = GeneratePuzzles(40, 30, 9);
  client.SendSolve(1, puzzles);
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_solve())
      << (response ? response->ShortDebugString() : "closed");
  ExpectAllSolved(response->solve(), puzzles);
  StopCleanly(daemon);
  EXPECT_THAT(daemon.Log(), ::testing::Not(HasSubstr("REQUEST_TIMEOUT")));
}

// What a TLS connection holds (OpenSSL's state, its buffers) counts against --max-memory, and a
// quiet one holds no read buffer (64 KiB while bytes arrive): 20 idle TLS connections hold 20
// times the state's estimate and the records OpenSSL wrote after the handshake (its session
// tickets, about a kilobyte), and nothing once they have gone.
TEST(Tls, IdleTlsConnectionsAreChargedToTheMemoryBudgetAndGiveItBack) {
  DaemonProcess daemon(TlsFlags(false, {"--metrics", "127.0.0.1:0"}));
  const uint16_t metrics = PortAfter(daemon, "serving metrics on http://127.0.0.1:");
  EXPECT_EQ(MetricSample(metrics, "sudokud_memory_held_bytes"), 0);
  constexpr int kIdle = 20;
  constexpr double kState = 48 << 10;  // Stream::kTlsStateBytes
  {
    std::vector<std::unique_ptr<TlsClient>> idle;
    for (int i = 0; i < kIdle; ++i) {
      idle.push_back(std::make_unique<TlsClient>(daemon.port(), As()));
      idle.back()->Handshake();
    }
    // Settled once every connection has answered its handshake and gone quiet.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const double held = MetricSample(metrics, "sudokud_memory_held_bytes");
    EXPECT_GE(held, kIdle * kState);
    EXPECT_LE(held, kIdle * (kState + 2048));
  }
  EXPECT_EQ(WaitForMetric(metrics, "sudokud_memory_held_bytes", 0), 0);
  StopCleanly(daemon);
}

TEST(Tls, TlsClientOnThePlaintextPort) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0"});
  WireClient bystander(daemon.port());
  TlsClient client(daemon.port(), As());
  // The daemon answers the ClientHello with a plaintext fault, which is no TLS record.
  EXPECT_EQ(ClientError(client), "wrong version number");
  EXPECT_THAT(daemon.WaitForLog("protocol fault NOT_THIS_PROTOCOL"),
              HasSubstr("not TLS; connect without TLS (or through a proxy that ends it)"));
  ExpectServed(bystander, 1, kTlsBatch);
  StopCleanly(daemon);
}

TEST(Tls, FilesThatCannotBeUsedStopTheStartWithWhy) {
  const std::string missing = Pki().dir() + "/missing.pem";
  ProcessResult result = RunDaemonToExit(
      {"--listen", "127.0.0.1:0", "--tls-cert", missing, "--tls-key", Pki().Path("server.key")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "sudokud: --tls-cert " + missing + ": cannot read it: No such file or directory\n");
  result = RunDaemonToExit({"--listen", "127.0.0.1:0", "--tls-cert", Pki().Path("server.pem"),
                            "--tls-key", Pki().Path("client.key")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "sudokud: --tls-key " + Pki().Path("client.key") +
                            ": the key does not match the certificate in --tls-cert " +
                            Pki().Path("server.pem") + "\n");
  result = RunDaemonToExit({"--listen", "127.0.0.1:0", "--tls-cert", Pki().Path("server.key"),
                            "--tls-key", Pki().Path("server.key")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "sudokud: --tls-cert " + Pki().Path("server.key") +
                            ": not a PEM certificate (no start line)\n");
  result = RunDaemonToExit({"--listen", "127.0.0.1:0", "--tls-cert", Pki().Path("server.pem")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "sudokud: --tls-cert and --tls-key go together: give both, or neither for plain TCP "
            "(see sudokud --help)\n");
}

// What a plain TCP client reads back for `bytes` sent, until the daemon closes.
std::string PlainExchange(uint16_t port, const std::string& bytes) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::address_v4::loopback(), port});
  boost::asio::write(socket, boost::asio::buffer(bytes));
  std::string reply;
  boost::system::error_code error;
  boost::asio::read(socket, boost::asio::dynamic_buffer(reply), error);
  return reply;
}

// --http-tls: metrics, health and the page over HTTPS with the port's certificate, no client
// certificate asked even when the port wants one; plain HTTP there is told why; SIGHUP reloads.
TEST(Tls, HttpListenersServeHttpsWithTheSameCertificate) {
  const std::string cert = Pki().dir() + "/http_live.pem";
  const std::string key = Pki().dir() + "/http_live.key";
  std::filesystem::copy_file(Pki().Path("server.pem"), cert,
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(Pki().Path("server.key"), key,
                             std::filesystem::copy_options::overwrite_existing);
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key,
                        "--tls-client-ca", Pki().Path("ca.pem"), "--metrics", "127.0.0.1:0",
                        "--http", "127.0.0.1:0", "--http-tls"});
  const uint16_t metrics = PortAfter(daemon, "serving metrics on https://127.0.0.1:");
  const uint16_t page = PortAfter(daemon, "serving the page on https://127.0.0.1:");
  for (const uint16_t port : {metrics, page}) {
    TlsClient client(port, As());
    client.Handshake();
    EXPECT_EQ(client.ServerSubject(), "/CN=localhost");
    const TlsClient::HttpReply alive = client.Get("/healthz");
    EXPECT_EQ(alive.status, 200u);
    EXPECT_EQ(alive.body, "alive\n");
    // Keep-alive: a second request on the same connection.
    EXPECT_THAT(client.Get("/metrics").body, HasSubstr("\nsudokud_ready 1\n"));
  }
  EXPECT_THAT(
      PlainExchange(metrics, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"),
      ::testing::AllOf(StartsWith("HTTP/1.1 400 Bad Request\r\n"),
                       ::testing::EndsWith("\r\n\r\nbad request: this port serves HTTPS "
                                           "(--http-tls): use https://\n")));
  // A client that trusts another CA refuses the certificate; the listener goes on.
  TlsClientOptions stranger;
  stranger.ca = Pki().Path("other_ca.pem");
  TlsClient refused(metrics, stranger);
  EXPECT_THROW(refused.Handshake(), std::runtime_error);
  EXPECT_THAT(daemon.WaitForLog("metrics: 127.0.0.1:"),
              ::testing::MatchesRegex(".*metrics: 127\\.0\\.0\\.1:[0-9]+: TLS handshake failed: "
                                      ".*; closing the connection"));

  std::filesystem::copy_file(Pki().Path("server2.pem"), cert,
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(Pki().Path("server2.key"), key,
                             std::filesystem::copy_options::overwrite_existing);
  daemon.Signal(SIGHUP);
  daemon.WaitForLog("SIGHUP: reloaded the HTTPS certificate for new connections");
  TlsClient rotated(metrics, As());
  rotated.Handshake();
  EXPECT_EQ(rotated.ServerSubject(), "/CN=localhost rotated");
  EXPECT_EQ(rotated.Get("/readyz").status, 200u);
  StopCleanly(daemon);
}

TEST(Tls, HttpTlsNeedsACertificateAndAListener) {
  ProcessResult result = RunDaemonToExit({"--listen", "127.0.0.1:0", "--metrics",
                                          "127.0.0.1:0", "--http-tls"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "sudokud: --http-tls needs --tls-cert and --tls-key: the HTTP listeners serve their "
            "certificate (see sudokud --help)\n");
  result = RunDaemonToExit({"--listen", "127.0.0.1:0", "--tls-cert", Pki().Path("server.pem"),
                            "--tls-key", Pki().Path("server.key"), "--http-tls"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "sudokud: --http-tls needs --metrics or --http: there is no HTTP listener to secure "
            "(see sudokud --help)\n");
}

// Waits (boundedly) until the load has had `count` batches answered.
void WaitForAnswers(const std::atomic<int>& answered, int count) {
  for (int i = 0; i < 12000 && answered.load() < count && !::testing::Test::HasFailure(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GE(answered.load(), count) << "the load stalled";
}

// Rotation as operators do it: the files replaced, then SIGHUP, while a client keeps solving on
// a connection opened before and new connections come: every answer arrives and is right, the
// open connection keeps its certificate, new ones get the new one; a bad file keeps the old.
TEST(Tls, SighupReloadsTheCertificateForNewConnectionsUnderLoad) {
  const std::string cert = Pki().dir() + "/live.pem";
  const std::string key = Pki().dir() + "/live.key";
  std::filesystem::copy_file(Pki().Path("server.pem"), cert,
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(Pki().Path("server.key"), key,
                             std::filesystem::copy_options::overwrite_existing);
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--threads", "2", "--tls-cert", cert,
                        "--tls-key", key, "--tls-client-ca", Pki().Path("ca.pem")});
  TlsClient old_client(daemon.port(), As("client"));
  old_client.Handshake();
  EXPECT_EQ(old_client.ServerSubject(), "/CN=localhost");

  // Load: one long-lived connection and a stream of new ones, each batch checked.
  std::atomic<bool> stop{false};
  std::atomic<int> answered{0};
  std::thread load([&] {
    TlsClient steady(daemon.port(), As("client"));
    steady.Handshake();
    for (uint64_t batch = 1; !stop.load() && batch < 100000; ++batch) {
      try {
        ExpectServed(steady, batch, 200);
        TlsClient fresh(daemon.port(), As("client"));
        fresh.Handshake();
        ExpectServed(fresh, batch, 5);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "batch " << batch << ": " << e.what();
        return;
      }
      answered += 2;
      if (::testing::Test::HasFailure()) return;
    }
  });
  // Whatever fails below, the load stops and is joined before the daemon goes.
  try {
    WaitForAnswers(answered, 10);

    std::filesystem::copy_file(Pki().Path("server2.pem"), cert,
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(Pki().Path("server2.key"), key,
                               std::filesystem::copy_options::overwrite_existing);
    daemon.Signal(SIGHUP);
    EXPECT_THAT(daemon.WaitForLog("SIGHUP: "),
                HasSubstr("SIGHUP: reloaded the TLS certificate (CN=localhost rotated, expires "));
    TlsClient new_client(daemon.port(), As("client"));
    new_client.Handshake();
    EXPECT_EQ(new_client.ServerSubject(), "/CN=localhost rotated");
    ExpectServed(new_client, 1, kTlsBatch);
    ExpectServed(old_client, 1, kTlsBatch);
    EXPECT_EQ(old_client.ServerSubject(), "/CN=localhost");

    // A key that is no key: the rotated certificate stays in use.
    std::ofstream(key) << "not a key\n";
    daemon.Signal(SIGHUP);
    EXPECT_THAT(daemon.WaitForLog("SIGHUP: kept"),
                HasSubstr("SIGHUP: kept the TLS certificate in use (CN=localhost rotated, "));
    EXPECT_THAT(daemon.Log(), HasSubstr(": --tls-key " + key +
                                        ": not an unencrypted PEM private key ("));
    TlsClient after_bad(daemon.port(), As("client"));
    after_bad.Handshake();
    EXPECT_EQ(after_bad.ServerSubject(), "/CN=localhost rotated");
    ExpectServed(after_bad, 1, kTlsBatch);

  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what() << "\n" << daemon.Log();
  }
  const int before = answered.load();
  WaitForAnswers(answered, before + 10);
  stop = true;
  load.join();
  StopCleanly(daemon);
  EXPECT_THAT(daemon.Log(), HasSubstr(" 0 cancelled, "));
  EXPECT_THAT(daemon.Log(), HasSubstr(" 0 protocol faults"));
}

// A certificate and a key of different types (an RSA certificate with an EC key, or the
// reverse) are a pair that does not match, said as such: at start, exit 2 before anything
// listens, on --http-tls too; on SIGHUP (a rotation that copied the certificate before its
// key), a log line, and the pair in use stays, serving new connections.
TEST(Tls, CertificateAndKeyOfDifferentTypesAreRefusedAsAPair) {
  const std::string rsa_cert = Pki().Path("rsa_server.pem");
  const std::string ec_key = Pki().Path("server.key");
  ProcessResult result = RunDaemonToExit(
      {"--listen", "127.0.0.1:0", "--tls-cert", rsa_cert, "--tls-key", ec_key});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "sudokud: --tls-key " + ec_key +
                            ": the key does not match the certificate in --tls-cert " + rsa_cert +
                            " (a key of type EC for a certificate of type RSA)\n");
  const std::string ec_cert = Pki().Path("server.pem");
  const std::string rsa_key = Pki().Path("rsa_server.key");
  result = RunDaemonToExit({"--listen", "127.0.0.1:0", "--tls-cert", ec_cert, "--tls-key",
                            rsa_key, "--metrics", "127.0.0.1:0", "--http-tls"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "sudokud: --tls-key " + rsa_key +
                            ": the key does not match the certificate in --tls-cert " + ec_cert +
                            " (a key of type RSA for a certificate of type EC)\n");

  const std::string cert = Pki().dir() + "/typed_live.pem";
  const std::string key = Pki().dir() + "/typed_live.key";
  std::filesystem::copy_file(ec_cert, cert, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(ec_key, key, std::filesystem::copy_options::overwrite_existing);
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key,
                        "--metrics", "127.0.0.1:0", "--http-tls"});
  // The new certificate is copied first: for a moment it is RSA and the key still EC.
  std::filesystem::copy_file(rsa_cert, cert, std::filesystem::copy_options::overwrite_existing);
  daemon.Signal(SIGHUP);
  const std::string kept = daemon.WaitForLog("SIGHUP: kept the TLS certificate in use");
  EXPECT_THAT(kept, HasSubstr("SIGHUP: kept the TLS certificate in use (CN=localhost, expires "));
  EXPECT_THAT(kept, HasSubstr(" GMT): --tls-key " + key +
                              ": the key does not match the certificate in --tls-cert " + cert +
                              " (a key of type EC for a certificate of type RSA)"));
  EXPECT_THAT(daemon.WaitForLog("SIGHUP: kept the HTTPS certificate in use"),
              HasSubstr("(a key of type EC for a certificate of type RSA)"));
  TlsClient client(daemon.port(), As());
  client.Handshake();
  EXPECT_EQ(client.ServerSubject(), "/CN=localhost");
  ExpectServed(client, 1, kTlsBatch);
  StopCleanly(daemon);
}

// Where the TCP port takes only clients with a certificate, the JSON API does too: on plain
// --http it answers 403 saying how to open it, on --http-tls it asks for a certificate (without
// requiring one: metrics and health stay open) and serves only clients that presented one;
// --http-api-without-client-cert opens it. Health and the page stay open throughout.
TEST(Tls, HttpApiRequiresAClientCertificateWhereThePortDoes) {
  const std::string solve =
      R"({"puzzle": "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"})";
  const std::vector<std::string> port_flags = {
      "--listen", "127.0.0.1:0", "--tls-cert", Pki().Path("server.pem"), "--tls-key",
      Pki().Path("server.key"), "--tls-client-ca", Pki().Path("ca.pem")};
  {
    std::vector<std::string> flags = port_flags;
    flags.insert(flags.end(), {"--http", "127.0.0.1:0"});
    DaemonProcess daemon(flags);
    const uint16_t http = PortAfter(daemon, "serving the page on http://127.0.0.1:");
    const std::string reply = PlainExchange(
        http, "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              "Connection: close\r\nContent-Length: " + std::to_string(solve.size()) +
              "\r\n\r\n" + solve);
    EXPECT_THAT(reply, StartsWith("HTTP/1.1 403 Forbidden\r\n"));
    EXPECT_THAT(reply,
                HasSubstr(R"({"error":"forbidden: the TCP port takes only clients with a )"
                          R"(certificate (--tls-client-ca), and this listener is plain HTTP: )"
                          R"(serve it with --http-tls (clients present their certificate )"
                          R"(there), or pass --http-api-without-client-cert to open the API )"
                          R"(to anyone who reaches it"})"));
    EXPECT_THAT(PlainExchange(http, "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close"
                                    "\r\n\r\n"),
                StartsWith("HTTP/1.1 200 OK\r\n"));
    StopCleanly(daemon);
  }
  {
    std::vector<std::string> flags = port_flags;
    flags.insert(flags.end(), {"--http", "127.0.0.1:0", "--http-tls"});
    DaemonProcess daemon(flags);
    const uint16_t http = PortAfter(daemon, "serving the page on https://127.0.0.1:");
    TlsClient anonymous(http, As());
    anonymous.Handshake();
    EXPECT_EQ(anonymous.Get("/readyz").status, 200u);
    const TlsClient::HttpReply refused = anonymous.Post("/api/solve", solve);
    EXPECT_EQ(refused.status, 403u);
    EXPECT_EQ(refused.body,
              R"({"error":"forbidden: the API takes only clients with a certificate signed by )"
              R"(--tls-client-ca, as the TCP port does, and this connection presented none"})"
              "\n");
    TlsClient client(http, As("client"));
    client.Handshake();
    const TlsClient::HttpReply solved = client.Post("/api/solve", solve);
    EXPECT_EQ(solved.status, 200u) << solved.body;
    EXPECT_THAT(solved.body, HasSubstr(R"("verdict":"solved")"));
    // A certificate the CA did not sign is refused at the handshake, as on the port.
    TlsClient stranger(http, As("stranger"));
    EXPECT_ANY_THROW({
      stranger.Handshake();
      stranger.Get("/readyz");
    });
    StopCleanly(daemon);
  }
  {
    std::vector<std::string> flags = port_flags;
    flags.insert(flags.end(), {"--http", "127.0.0.1:0", "--http-api-without-client-cert"});
    DaemonProcess daemon(flags);
    const uint16_t http = PortAfter(daemon, "serving the page on http://127.0.0.1:");
    EXPECT_THAT(PlainExchange(
                    http, "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: "
                          "application/json\r\nConnection: close\r\nContent-Length: " +
                              std::to_string(solve.size()) + "\r\n\r\n" + solve),
                StartsWith("HTTP/1.1 200 OK\r\n"));
    StopCleanly(daemon);
  }
  const ProcessResult result =
      RunDaemonToExit({"--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
                       "--http-api-without-client-cert"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "sudokud: --http-api-without-client-cert goes with --tls-client-ca: without it, no "
            "listener asks for client certificates (see sudokud --help)\n");
}

}  // namespace
}  // namespace sudoku::testing
