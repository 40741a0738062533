// sudokud on a network, as an attacker tries it, with default flags unless a test says
// otherwise: requests on the HTTP listeners that used to end the process or grow it without
// bound, idle sockets that used to starve the health checks, work that used to pin the pool or
// outlive its requester, a slow but steady sender, requests accepted before a fault. Each test
// asserts the exact status, message or log line, and that the daemon still serves a bystander.
// Loopback only; waits are bounded, and no speed is asserted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include "proto/codec.h"
#include "proto/framing.h"
#include "tests/daemon/http_client.h"
#include "tests/daemon/solve_checks.h"
#include "tests/daemon/wire_client.h"
#include "tests/support/daemon_process.h"
#include "tests/support/puzzles.h"

namespace sudoku::testing {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// A blocking loopback connection for raw HTTP bytes.
class RawSocket {
 public:
  explicit RawSocket(uint16_t port) : socket_(io_) {
    socket_.connect({asio::ip::address_v4::loopback(), port});
  }
  // Writes what it can of `bytes`; false once the daemon has stopped taking them (it answered
  // and closed).
  bool Send(const std::string& bytes) {
    boost::system::error_code error;
    asio::write(socket_, asio::buffer(bytes), error);
    return !error;
  }
  // Everything until the daemon closes (or resets) the connection.
  std::string ReadToEnd() {
    std::string reply;
    boost::system::error_code error;
    asio::read(socket_, asio::dynamic_buffer(reply), error);
    return reply;
  }
  tcp::socket& socket() { return socket_; }

 private:
  asio::io_context io_;
  tcp::socket socket_;
};

const char kChunkedSolve[] =
    "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    "Transfer-Encoding: chunked\r\n\r\n";

// A body of one JSON puzzle as chunks, ending with the last chunk: the trailer comes next.
std::string ChunkedBody() {
  const std::string json = R"({"puzzle": ")" + kWikipediaPuzzle + R"("})";
  char size[16];
  std::snprintf(size, sizeof size, "%zx", json.size());
  return std::string(size) + "\r\n" + json + "\r\n0\r\n";
}

// What the TCP port answers a small batch, after the attack: the process is alive and serves.
void ExpectTheDaemonServes(const DaemonProcess& daemon, uint64_t batch_id) {
  WireClient bystander(daemon.port());
  ExpectServed(bystander, batch_id);
}

// Item 1: a trailer field of 65,535 bytes (past what an HTTP field may hold in the parser's
// message) used to end the process with "fatal: field value too large". Now the trailer is
// bounded like the header: 431, the connection closes, nothing else is touched. On --http the
// answer is the API's JSON, on --metrics text.
TEST(NetworkSafety, HugeTrailerFieldGets431AndTheDaemonLives) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--metrics",
                        "127.0.0.1:0"});
  const uint16_t http = PortAfter(daemon, "serving the page on http://127.0.0.1:");
  const uint16_t metrics = PortAfter(daemon, "serving metrics on http://127.0.0.1:");
  const std::string trailer = "X: " + std::string(65535, 'b') + "\r\n\r\n";
  {
    RawSocket attacker(http);
    attacker.Send(kChunkedSolve + ChunkedBody() + trailer);
    const std::string reply = attacker.ReadToEnd();
    EXPECT_THAT(reply, StartsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
    EXPECT_THAT(reply, EndsWith("\r\n\r\n{\"error\":\"request header fields too large: the "
                                "chunked body's trailer is more than the limit of 8192 "
                                "bytes\"}\n"));
  }
  {
    RawSocket attacker(metrics);
    attacker.Send(
        "POST /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" +
        trailer);
    const std::string reply = attacker.ReadToEnd();
    EXPECT_THAT(reply, StartsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
    EXPECT_THAT(reply, EndsWith("\r\n\r\nrequest header fields too large: the chunked body's "
                                "trailer is more than the limit of 8192 bytes\n"));
  }
  ExpectTheDaemonServes(daemon, 1);
  EXPECT_EQ(HttpRequest(http, http::verb::get, "/readyz").result_int(), 200u);
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
  EXPECT_THAT(daemon.Log(), ::testing::Not(HasSubstr("fatal")));
}

// Item 3: trailer fields without end used to be buffered without bound (1 GB a connection).
// Now the read buffer holds at most the limit: the sender gets 431 once it is full, and the
// daemon stops reading what follows. A header over its limit gets 431 as well.
TEST(NetworkSafety, EndlessTrailerAndOversizedHeaderGet431) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--http", "127.0.0.1:0"});
  const uint16_t http = PortAfter(daemon, "serving the page on http://127.0.0.1:");
  {
    RawSocket attacker(http);
    attacker.Send(kChunkedSolve + ChunkedBody());
    // 64 MiB of short fields, far past the limit, in pieces: the daemon answers and stops
    // reading long before the end (the daemon drops at most 4 MiB after its answer).
    const std::string fields = [] {
      std::string piece;
      for (int i = 0; i < 4096; ++i) piece += "X-Field: value\r\n";
      return piece;
    }();
    size_t sent = 0;
    while (sent < (size_t{64} << 20) && attacker.Send(fields)) sent += fields.size();
    EXPECT_LT(sent, size_t{64} << 20) << "the daemon read the whole endless trailer";
    const std::string reply = attacker.ReadToEnd();
    EXPECT_THAT(reply, StartsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
    EXPECT_THAT(reply, HasSubstr("the chunked body's trailer is more than the limit of 8192 "
                                 "bytes"));
  }
  for (const std::string target : {"/api/solve", "/readyz"}) {
    RawSocket attacker(http);
    attacker.Send("POST " + target + " HTTP/1.1\r\nHost: x\r\nX-Big: " +
                  std::string(10000, 'a') + "\r\n\r\n");
    const std::string reply = attacker.ReadToEnd();
    EXPECT_THAT(reply, StartsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
    // The API answers in JSON, the rest of the listener in text.
    EXPECT_THAT(reply, EndsWith(target == "/api/solve"
                                    ? "{\"error\":\"request header fields too large: the header "
                                      "is more than the limit of 8192 bytes\"}\n"
                                    : "\r\n\r\nrequest header fields too large: the header is "
                                      "more than the limit of 8192 bytes\n"));
  }
  ExpectTheDaemonServes(daemon, 1);
}

// Item 7: idle keep-alive sockets used to hold every slot of a listener (16 on --metrics, 64 on
// --http), so /readyz failed. Now the listeners hold far more (MetricsRoutes::kMaxConnections,
// WebApi::kMaxConnections), and past that a newcomer closes the connection that has waited
// longest for a request: probes are answered however many sockets sit idle, and the idlest one
// is closed.
TEST(NetworkSafety, IdleSocketsDoNotStarveTheHealthChecks) {
  ASSERT_GT(RaiseDescriptorLimit(), 2 * (256u + 1024u) + 200u);
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--metrics",
                        "127.0.0.1:0"});
  for (const auto& [opening, slots] :
       {std::pair<std::string, int>{"serving metrics on http://127.0.0.1:", 256},
        std::pair<std::string, int>{"serving the page on http://127.0.0.1:", 1024}}) {
    const uint16_t port = PortAfter(daemon, opening);
    // Twice the room: sockets of one io_context, a descriptor each.
    asio::io_context io;
    std::vector<tcp::socket> idle;
    for (int i = 0; i < 2 * slots; ++i) {
      idle.emplace_back(io).connect({asio::ip::address_v4::loopback(), port});
    }
    for (int probe = 0; probe < 5; ++probe) {
      const auto response = HttpRequest(port, http::verb::get, "/readyz");
      EXPECT_EQ(response.result_int(), 200u) << opening;
      EXPECT_EQ(response.body(), "ready\n");
    }
    // The first idle socket was the one waiting longest: closed without a word.
    std::string reply;
    boost::system::error_code error;
    asio::read(idle.front(), asio::dynamic_buffer(reply), error);
    EXPECT_EQ(error, asio::error::eof);
    EXPECT_EQ(reply, "");
  }
  ExpectTheDaemonServes(daemon, 1);
}

// A malformed request line on --http is answered as the API answers, in JSON.
TEST(NetworkSafety, MalformedRequestLineGetsJsonOnTheHttpListener) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--http", "127.0.0.1:0"});
  const uint16_t http = PortAfter(daemon, "serving the page on http://127.0.0.1:");
  RawSocket attacker(http);
  attacker.Send("HELLO\r\n\r\n");
  const std::string reply = attacker.ReadToEnd();
  EXPECT_THAT(reply, StartsWith("HTTP/1.1 400 Bad Request\r\n"));
  EXPECT_THAT(reply, HasSubstr("Content-Type: application/json\r\n"));
  EXPECT_THAT(reply, EndsWith("{\"error\":\"bad request: bad method\"}\n"));
}

// Item 9: binding a listener beyond this host without TLS is said in the log.
TEST(NetworkSafety, ListenersBeyondThisHostWithoutTlsAreWarnedAbout) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--http", "0.0.0.0:0"});
  EXPECT_THAT(daemon.WaitForLog("--http 0.0.0.0:"),
              HasSubstr(" listens beyond this host without TLS: anyone who reaches it solves "
                        "and generates puzzles in the clear; bind 127.0.0.1, or add "
                        "--http-tls"));
}

// Item 4: generating and explaining are long work, at the lowest priority and off the pool the
// batches and the health canary use: a large generation of minimal symmetric puzzles on a
// one-thread daemon leaves /readyz ready and a normal batch answered.
TEST(NetworkSafety, GenerationDoesNotPinThePool) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--threads", "1", "--metrics",
                        "127.0.0.1:0", "--canary-deadline", "2s"});
  const uint16_t metrics = PortAfter(daemon, "serving metrics on http://127.0.0.1:");
  WireClient generator(daemon.port());
  wire::Request request;
  wire::GenerateRequest& generate = *request.mutable_generate();
  generate.set_request_id(1);
  generate.set_count(1024);
  generate.set_minimal(true);
  generate.set_symmetric(true);
  generate.set_seed(7);
  generator.Send(request);
  // The generation runs all along (1,024 minimal puzzles take far longer than this test).
  const auto until = Clock::now() + std::chrono::seconds(5);
  uint64_t batch_id = 10;
  while (Clock::now() < until) {
    const auto response = HttpRequest(metrics, http::verb::get, "/readyz");
    EXPECT_EQ(response.result_int(), 200u) << response.body();
    ExpectTheDaemonServes(daemon, ++batch_id);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  generator.Reset();
}

// Item 6: a peer that closes its side while a count at the cap is in flight used to keep it
// running (10 s a puzzle), its slot held, the batch counted as answered. Work of unbounded cost
// is cancelled when the peer closes: the slot comes back at once and the batch counts as
// cancelled.
TEST(NetworkSafety, PeerThatLeavesCancelsItsLongWork) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--threads", "1"});
  {
    WireClient leaver(daemon.port());
    leaver.SendSolve(1, std::vector<std::string>(5, std::string(81, '.')),
                     wire::kMaxSolutionLimit);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // on the pool by now
    leaver.ShutdownSend();
    EXPECT_THAT(daemon.WaitForLog("the peer closed its side"),
                HasSubstr(": the peer closed its side with 1 requests of unbounded cost in "
                          "flight (solution limit above 2, rate, generate, explain); "
                          "cancelling them"));
    EXPECT_EQ(leaver.Read(), std::nullopt);  // nothing answered, then closed
  }
  ExpectTheDaemonServes(daemon, 2);
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
  EXPECT_THAT(daemon.Log(), HasSubstr("1 batches answered, 1 cancelled, "));
}

// Sends a batch of 140 puzzles (about 12 KB) as `batch_id` on `client`, 400 bytes every 100 ms,
// and expects it answered whole, with no REQUEST_TIMEOUT in `daemon`'s log.
void ExpectALargeFrameSentAt4KBpsIsServed(const DaemonProcess& daemon, WireClient& client,
                                          uint64_t batch_id) {
  wire::Request large;
  large.mutable_solve()->set_batch_id(batch_id);
  for (const auto& puzzle : GeneratePuzzles(140, 30, 4)) large.mutable_solve()->add_puzzles(puzzle);
  std::string frame;
  wire::AppendFrame(large, &frame);
  for (size_t at = 0; at < frame.size(); at += 400) {
    client.SendBytes(frame.substr(at, 400));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_solve())
      << (response ? response->ShortDebugString() : "closed");
  EXPECT_EQ(response->solve().verdicts_size(), 140);
  EXPECT_THAT(daemon.Log(), ::testing::Not(HasSubstr("REQUEST_TIMEOUT")));
}

// Item 8: a client that sends frame after frame at a steady 2 KB/s, never leaving the read
// buffer empty, used to be timed out from the first frame's first byte. The deadline measures
// progress now: no timeout, every answer. One large frame at 4 KB/s, whole after 3 s against
// --frame-timeout 1, is served too.
TEST(NetworkSafety, SteadySlowSenderIsNeverTimedOut) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--frame-timeout", "1"});
  WireClient client(daemon.port());
  std::string stream;
  const auto puzzles = GeneratePuzzles(40, 30, 3);
  for (uint64_t id = 1; id <= 40; ++id) {
    wire::Request request;
    request.mutable_solve()->set_batch_id(id);
    request.mutable_solve()->add_puzzles(puzzles[id - 1]);
    wire::AppendFrame(request, &stream);
  }
  for (size_t at = 0; at < stream.size(); at += 100) {  // 100 bytes every 50 ms
    client.SendBytes(stream.substr(at, 100));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (int i = 0; i < 40; ++i) {
    const auto response = client.Read();
    ASSERT_TRUE(response && response->has_solve())
        << (response ? response->ShortDebugString() : "closed");
  }
  ExpectALargeFrameSentAt4KBpsIsServed(daemon, client, 100);
}

// The first frame's deadline measures progress too: a first frame that keeps arriving at 4 KB/s
// for 3 s is read whole under --first-frame-timeout 1 (it used to be cut at 1 s, so that 50
// connections sending 16 MiB first frames were closed and sent them again every 10 s).
TEST(NetworkSafety, SteadySlowFirstFrameIsNeverTimedOut) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--first-frame-timeout", "1"});
  WireClient client(daemon.port());
  ExpectALargeFrameSentAt4KBpsIsServed(daemon, client, 1);
}

// Item 11: requests read whole before a malformed frame are answered, then the fault, then the
// close, even when all of it came in one write.
TEST(NetworkSafety, RequestsBeforeAFaultAreAnsweredFirst) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0"});
  WireClient client(daemon.port());
  std::string bytes;
  wire::Request batch;
  batch.mutable_solve()->set_batch_id(1);
  for (const auto& puzzle : GeneratePuzzles(300, 25, 5)) batch.mutable_solve()->add_puzzles(puzzle);
  wire::AppendFrame(batch, &bytes);
  wire::Request stats;
  stats.mutable_stats();
  wire::AppendFrame(stats, &bytes);
  bytes += "\x03\xff\xff\xff";  // a frame of three bytes that do not decode
  client.SendBytes(bytes);
  std::vector<wire::Response> responses = client.ReadUntilClosed();
  ASSERT_EQ(responses.size(), 3u);
  bool solved = false;
  bool counted = false;
  for (size_t i = 0; i < 2; ++i) {
    solved |= responses[i].has_solve() && responses[i].solve().verdicts_size() == 300;
    counted |= responses[i].has_stats();
  }
  EXPECT_TRUE(solved && counted);
  ASSERT_TRUE(responses[2].has_fault());
  EXPECT_EQ(wire::ProtocolFault::Kind_Name(responses[2].fault().kind()), "MALFORMED");
  EXPECT_THAT(daemon.WaitForLog("protocol fault MALFORMED"),
              HasSubstr("; answering the requests accepted before it, then closing the "
                        "connection"));
}

// Item 11: generate and explain ids are checked in flight, as batch ids are. (The first request,
// work of unbounded cost, is cancelled by the fault: its answers, if any came, precede it.)
TEST(NetworkSafety, GenerateAndExplainIdsAreCheckedInFlight) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--threads", "1"});
  {
    WireClient client(daemon.port());
    wire::Request request;
    wire::GenerateRequest& generate = *request.mutable_generate();
    generate.set_request_id(5);
    generate.set_count(64);
    generate.set_seed(1);
    std::string bytes;
    wire::AppendFrame(request, &bytes);
    wire::AppendFrame(request, &bytes);
    client.SendBytes(bytes);
    const auto responses = client.ReadUntilClosed();
    ASSERT_FALSE(responses.empty());
    ASSERT_TRUE(responses.back().has_fault());
    EXPECT_EQ(wire::ProtocolFault::Kind_Name(responses.back().fault().kind()),
              "BAD_GENERATE_REQUEST");
    EXPECT_EQ(responses.back().fault().message(),
              "frame 2: generate request 5 is already in flight on this connection; request ids "
              "must be unique among unfinished generate requests");
  }
  {
    WireClient client(daemon.port());
    wire::Request request;
    request.mutable_explain()->set_request_id(9);
    request.mutable_explain()->set_puzzle(kWikipediaPuzzle);
    std::string bytes;
    wire::AppendFrame(request, &bytes);
    wire::AppendFrame(request, &bytes);
    client.SendBytes(bytes);
    // The first explanation, work of unbounded cost, is cancelled with the fault, unless the
    // pool had finished it first: then its answer comes before the fault.
    const auto responses = client.ReadUntilClosed();
    ASSERT_TRUE(responses.size() == 1u || responses.size() == 2u) << responses.size();
    if (responses.size() == 2u) {
      ASSERT_TRUE(responses[0].has_explain()) << responses[0].ShortDebugString();
      EXPECT_EQ(responses[0].explain().request_id(), 9u);
    }
    ASSERT_TRUE(responses.back().has_fault());
    EXPECT_EQ(wire::ProtocolFault::Kind_Name(responses.back().fault().kind()),
              "BAD_EXPLAIN_REQUEST");
    EXPECT_EQ(responses.back().fault().message(),
              "frame 2: explain request 9 is already in flight on this connection; request ids "
              "must be unique among unanswered explain requests");
  }
}

// Famous hard puzzles (tests/data/very_hard.txt): quick to solve, seconds each to rate (SE's
// nested chains).
const std::vector<std::string> kHardPuzzles = {
    // Inkala 2012, AI Escargot, Easter Monster, Golden Nugget, Platinum Blonde
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
    ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
};

// Five of top1465 that SE rates 8.3-8.9 (its dynamic forcing chains): rated in milliseconds
// each.
const std::vector<std::string> kChainPuzzles = {
    ".3174.5.........2.95.8............19..6.9.872...1..6...9.......81..2.......5..2.3",
    "2..4.98......5...7.4.87.6.....928..........9.8.5...3....6.82.15.....4...1..7.....",
    ".5..64..8.482...313..8.9.......9...5125..3.6........2..9.7.......7.............14",
    ".68.....9.9...2....1.3.7.2...67...4..7...95.28............5.........8..1..4....7.",
    "...........976.4..7.3524.......3..87.5.2........8..9.2..43.2.95.75......6.......1",
};

// Two that SE rates by its nested chains (tests/data/serate_nested_ratings.txt, 9.9 and 10.3):
// a fraction of a second each to rate, where one of kHardPuzzles takes seconds.
const std::vector<std::string> kNestedPuzzles = {
    "98.7..6..75.....9...6......4...3.....3...2..4..59...8..9....1....76...5..6...1..2",
    "98.7..6..7...9.5....4..3.9.6.........2...14....13..27...8.3..4....4.7..5.....8..2",
};

// A rated batch of `count` puzzles of `puzzles`, in turn, as `batch_id`.
wire::Request RatedBatch(uint64_t batch_id, int count,
                         const std::vector<std::string>& puzzles = kNestedPuzzles) {
  wire::Request request;
  wire::SolveRequest& solve = *request.mutable_solve();
  solve.set_batch_id(batch_id);
  solve.set_rate(true);
  for (int i = 0; i < count; ++i) solve.add_puzzles(puzzles[i % puzzles.size()]);
  return request;
}

// Fair by cost, item 1: rating used to be charged and run as solving, at full priority on the
// batches' arena, a hard puzzle's rating a thousand times its solving, so a few rated batches
// held every other client's answer and the readiness canary for tens of seconds. A rated batch
// is long work now: a batch sent after it is answered first, and /readyz stays ready.
TEST(NetworkSafety, RatedBatchesLeaveBatchesAndTheCanaryAlone) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0"});
  const uint16_t metrics = PortAfter(daemon, "serving metrics on http://127.0.0.1:");
  std::vector<std::unique_ptr<WireClient>> raters;
  for (uint64_t i = 0; i < 2; ++i) {
    raters.push_back(std::make_unique<WireClient>(daemon.port()));
    // A fraction of a second of a core each (a sanitizer's: seconds): SE's nested chains try
    // every candidate at each step of a hard puzzle.
    raters.back()->Send(RatedBatch(1, 2));
  }
  WireClient normal(daemon.port());
  const auto puzzles = GeneratePuzzles(2000, 28, 44);
  normal.SendSolve(7, puzzles);
  const auto answer = normal.Read();
  ASSERT_TRUE(answer && answer->has_solve());
  ExpectAllSolved(answer->solve(), puzzles);
  for (auto& rater : raters) EXPECT_EQ(rater->Unread(), 0u);  // still being rated
  const auto ready = HttpRequest(metrics, http::verb::get, "/readyz");
  EXPECT_EQ(ready.result_int(), 200u);
  EXPECT_EQ(ready.body(), "ready\n");
  for (auto& rater : raters) {
    const auto rated = rater->Read();
    ASSERT_TRUE(rated && rated->has_solve());
    ASSERT_EQ(rated->solve().se_ratings_size(), 2);
    EXPECT_GT(rated->solve().se_ratings(0), 0u);
  }
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
}

// A large rated batch takes its turns among the long work a piece at a time (64 puzzles, a
// fraction of a second), so a small one sent after it by another client is answered first, on
// the daemon's one long-work thread; the large one's ratings are those the small one got for
// the same puzzles.
TEST(NetworkSafety, ALargeRatedBatchTakesItsTurnsAPieceAtATime) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--threads", "1"});
  WireClient large(daemon.port());
  constexpr int kLarge = 2 * 64 + 1;  // three pieces
  // Minutes, not the usual seconds: under the sanitizers a piece of 64 puzzles rated by SE's
  // dynamic chains takes tens of seconds (HoDoKu's path and SE's, each a run of the logical
  // solver). Not the forum's hardest: under TSan, a piece of those took minutes.
  constexpr auto kRatingTimeout = std::chrono::minutes(4);
  large.Send(RatedBatch(1, kLarge, kChainPuzzles));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  WireClient small(daemon.port());
  small.Send(RatedBatch(1, 10, kChainPuzzles));
  const auto quick = small.Read(kRatingTimeout);
  ASSERT_TRUE(quick && quick->has_solve());
  ASSERT_EQ(quick->solve().se_ratings_size(), 10);
  EXPECT_EQ(large.Unread(), 0u);  // still being rated
  const auto slow = large.Read(kRatingTimeout);
  ASSERT_TRUE(slow && slow->has_solve());
  ASSERT_EQ(slow->solve().se_ratings_size(), kLarge);
  ASSERT_EQ(slow->solve().solutions().size(), kLarge * 81u);
  for (int i = 0; i < kLarge; ++i) {
    EXPECT_EQ(slow->solve().se_ratings(i), quick->solve().se_ratings(i % 5)) << i;
    EXPECT_EQ(slow->solve().hodoku_scores(i), quick->solve().hodoku_scores(i % 5)) << i;
  }
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
}

// A large batch of bounded work takes its turns a piece at a time too (kBoundedBatchPiece,
// 4,096 puzzles): on one thread, a batch of one puzzle sent while a batch of 61,441 hard ones is
// being solved is answered after the piece in hand, before the large batch, not after all of it.
// The large batch is sixteen pieces (a second or more of a core; four under a sanitizer, which
// solves some ten times slower), so that it is still being solved when the small one comes, 0.1 s
// in, however fast a piece is.
TEST(NetworkSafety, ALargeBatchTakesItsTurnsAPieceAtATime) {
  constexpr int kLarge = RunLongEnough(16 * 4096) - 4096 + 1;
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--threads", "1"});
  WireClient large(daemon.port());
  std::vector<std::string> hard;
  for (int i = 0; i < kLarge; ++i) hard.push_back(kHardPuzzles[i % kHardPuzzles.size()]);
  large.SendSolve(1, hard, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  WireClient small(daemon.port());
  small.SendSolve(1, {kHardPuzzles[0]}, 1);
  const auto quick = small.Read();
  ASSERT_TRUE(quick && quick->has_solve());
  ASSERT_EQ(quick->solve().solutions().size(), 81u);
  EXPECT_EQ(large.Unread(), 0u);  // still being solved
  const auto slow = large.Read();
  ASSERT_TRUE(slow && slow->has_solve());
  const std::string& solutions = slow->solve().solutions();
  ASSERT_EQ(solutions.size(), size_t{kLarge} * 81);
  EXPECT_EQ(solutions.substr(0, 81), quick->solve().solutions());
  // Each piece's first and last puzzle solved as the first piece solved the same puzzle.
  for (int i = 4095; i < kLarge; i += 4096) {
    for (const int at : {i, i + 1}) {
      if (at >= kLarge) continue;
      const size_t same = static_cast<size_t>(at % kHardPuzzles.size());
      EXPECT_EQ(solutions.substr(static_cast<size_t>(at) * 81, 81), solutions.substr(same * 81, 81))
          << at;
    }
  }
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
}

// Fair by cost, item 6: a requester that left while its request waited for room used to keep
// it; the request started once admitted (seconds of generation, for nobody). The reader reads
// nothing while it waits, so the kernel's view of the connection is looked at: a reset is seen
// within a quarter of a second, the request dropped before it starts, logged and counted.
TEST(NetworkSafety, ARequesterThatResetsWhileItsRequestWaitsForRoomIsDropped) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--threads", "1",
                        "--max-in-flight", "1000"});
  const uint16_t metrics = PortAfter(daemon, "serving metrics on http://127.0.0.1:");
  // 1,000 empty grids counted to the cap: the whole budget, for as long as the test needs.
  WireClient holder(daemon.port());
  holder.SendSolve(1, std::vector<std::string>(1000, std::string(81, '.')),
                   wire::kMaxSolutionLimit);
  ASSERT_EQ(WaitForMetric(metrics, "sudokud_puzzles_in_flight", 1000), 1000);
  {
    WireClient leaver(daemon.port());
    leaver.SendSolve(1, std::vector<std::string>(1001, std::string(81, '.')),
                     wire::kMaxSolutionLimit);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // waiting for room by now
    leaver.Reset();
  }
  EXPECT_THAT(daemon.WaitForLog("the peer reset the connection"),
              ::testing::MatchesRegex("sudokud: 127\\.0\\.0\\.1:[0-9]+: the peer reset the "
                                      "connection while frame 1 waited for room; dropping what "
                                      "has not started"));
  EXPECT_EQ(WaitForMetric(metrics, "sudokud_departed_requests_dropped_total", 1), 1);
  // Its side closed instead (a FIN): work of unbounded cost waiting for room is dropped too, as
  // at an end of input, and the connection ends without an answer.
  WireClient closer(daemon.port());
  closer.SendSolve(1, std::vector<std::string>(1001, std::string(81, '.')),
                   wire::kMaxSolutionLimit);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  closer.ShutdownSend();
  EXPECT_THAT(daemon.WaitForLog("the peer closed its side while"),
              ::testing::MatchesRegex("sudokud: 127\\.0\\.0\\.1:[0-9]+: the peer closed its "
                                      "side while frame 1 \\(work of unbounded cost\\) waited "
                                      "for room; dropped it before its work started"));
  EXPECT_EQ(closer.Read(), std::nullopt);
  EXPECT_EQ(WaitForMetric(metrics, "sudokud_departed_requests_dropped_total", 2), 2);
  holder.Reset();
  ExpectTheDaemonServes(daemon, 2);
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
}

// Fair by cost, items 2 and 6 on the JSON API: a rated /api/solve is long work, charged to the
// one account of its address, and when its client leaves while it waits for its turn it is
// dropped before it starts, logged and counted.
TEST(NetworkSafety, ARatedApiRequestWhoseClientLeftIsDroppedBeforeItStarts) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--http",
                        "127.0.0.1:0", "--threads", "1"});
  const uint16_t metrics = PortAfter(daemon, "serving metrics on http://127.0.0.1:");
  const uint16_t http = PortAfter(daemon, "serving the page on http://127.0.0.1:");
  // The one long-work thread, busy counting empty grids' solutions to the cap: eight of them,
  // over two seconds of a core where one can take under 0.3 s (AVX-512), longer than the client
  // below stays and the listener takes to see it gone. Started on that thread before the API
  // request is sent: admitted is not enough, as the two jobs would then both wait for the
  // thread (nice 19, slow to run on a busy machine), and the API request's account, having
  // used less, would go first.
  WireClient holder(daemon.port());
  holder.SendSolve(1, std::vector<std::string>(8, std::string(81, '.')),
                   wire::kMaxSolutionLimit);
  ASSERT_EQ(WaitForMetric(metrics, "sudokud_puzzles_in_flight", 8), 8);
  daemon.WaitForThreadToRun("sudokud-long");
  {
    asio::io_context io;
    tcp::socket leaver(io);
    leaver.connect({asio::ip::address_v4::loopback(), http});
    const std::string body = R"({"puzzle": ")" + kHardPuzzles[0] + R"(", "rate": true})";
    asio::write(leaver, asio::buffer("POST /api/solve HTTP/1.1\r\nHost: localhost\r\n"
                                     "Content-Type: application/json\r\nContent-Length: " +
                                     std::to_string(body.size()) + "\r\n\r\n" + body));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // as curl -m 0.3 gives up
  }
  // The listener looks every 100 ms whether a working request's client has gone (a second:
  // room for a slow build, a sanitizer's).
  std::this_thread::sleep_for(std::chrono::seconds(1));
  holder.Reset();  // the long-work thread is free: the API request's turn comes
  EXPECT_THAT(daemon.WaitForLog("left before its /api/solve"),
              HasSubstr("sudokud: http: 127.0.0.1: the client left before its /api/solve "
                        "request's work started; dropped it"));
  EXPECT_EQ(WaitForMetric(metrics, "sudokud_departed_requests_dropped_total", 1), 1);
  ExpectTheDaemonServes(daemon, 2);
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
}

}  // namespace
}  // namespace sudoku::testing
