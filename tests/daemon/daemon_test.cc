// End-to-end tests of the real sudokud binary ($SUDOKUD_BIN) on an ephemeral loopback port,
// through the blocking WireClient. Results are checked independently (IsSolutionOf); no test
// asserts a timing.
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "proto/codec.h"
#include "proto/framing.h"
#include "solver/solver.h"
#include "tests/daemon/solve_checks.h"
#include "tests/daemon/wire_client.h"
#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"
#include "tests/support/paths.h"

namespace sudoku::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kEmptyGrid(81, '.');
// Counting the empty grid's solutions to the cap takes a core a few tenths of a second; a batch
// of a hundred such puzzles outlasts any test unless it is cancelled.
const std::vector<std::string> kEndlessBatch(100, std::string(81, '.'));

const std::vector<std::string> kLoopback = {"--listen", "127.0.0.1:0"};

std::vector<std::string> Flags(std::vector<std::string> extra) {
  std::vector<std::string> args = kLoopback;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

wire::SolveResponse ReadSolve(WireClient& client) {
  auto response = client.Read();
  if (!response) throw std::runtime_error("the daemon closed the connection instead of answering");
  if (!response->has_solve()) {
    throw std::runtime_error("expected a SolveResponse, got " + response->ShortDebugString());
  }
  return response->solve();
}

// The daemon's STATUS= text, parsed.
struct Status {
  int connections = -1;
  long batches_in_flight = -1;
  long puzzles_in_flight = -1;
  long batches_answered = -1;
};
Status ParseStatus(const std::string& datagram) {
  Status status;
  const size_t at = datagram.find("STATUS=");
  if (at == std::string::npos) return status;
  long puzzles_answered = 0, faults = 0;
  std::sscanf(datagram.c_str() + at,
              "STATUS=%d connections, %ld batches (%ld puzzles) in flight; %ld batches, %ld "
              "puzzles answered; %ld protocol faults",
              &status.connections, &status.batches_in_flight, &status.puzzles_in_flight,
              &status.batches_answered, &puzzles_answered, &faults);
  return status;
}

// Reads STATUS= updates until the daemon has accepted `batches` batches in all.
void WaitUntilAccepted(NotifySocket& notify, long batches) {
  for (;;) {
    const Status status = ParseStatus(notify.WaitFor("STATUS="));
    if (status.batches_in_flight + status.batches_answered >= batches) return;
  }
}

// No sanitizer (in a -DSUDOKU_SANITIZE build) had anything to say.
void ExpectNoSanitizerReport(const std::string& log) {
  EXPECT_THAT(log, ::testing::Not(HasSubstr("runtime error:")));
  EXPECT_THAT(log, ::testing::Not(HasSubstr("Sanitizer")));
}

// Waits until the daemon's STATUS= says `test` holds (any STATUS= datagram counts).
template <typename Predicate>
Status WaitForStatus(NotifySocket& notify, Predicate test) {
  for (;;) {
    const Status status = ParseStatus(notify.WaitFor("STATUS="));
    if (test(status)) return status;
  }
}

// Stops the daemon and checks it exits 0; returns its last log line.
std::string StopDaemon(DaemonProcess& daemon) {
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0) << daemon.Log();
  const std::string log = daemon.Log();
  ExpectNoSanitizerReport(log);
  const size_t last = log.rfind('\n', log.size() - 2);
  return log.substr(last == std::string::npos ? 0 : last + 1);
}

// ---- Solving ----

TEST(Daemon, LogsTheBoundPortAndStopsCleanly) {
  DaemonProcess daemon(Flags({"--threads", "2"}));
  EXPECT_NE(daemon.port(), 0);
  EXPECT_THAT(daemon.Log(), HasSubstr("sudokud: listening on 127.0.0.1:" +
                                      std::to_string(daemon.port()) + " (threads 2, kernel "));
  EXPECT_EQ(StopDaemon(daemon),
            "sudokud: stopped: 0 connections, 0 batches answered, 0 cancelled, "
            "0 puzzles (0 solved, 0 multiple, 0 unsolvable, 0 invalid), 0 protocol faults\n");
}

TEST(Daemon, SolvesThousandsOfPuzzles) {
  DaemonProcess daemon(kLoopback);
  WireClient client(daemon.port());
  const auto puzzles = GeneratePuzzles(5000, 26, 11);
  client.SendSolve(7, puzzles);
  const wire::SolveResponse response = ReadSolve(client);
  EXPECT_EQ(response.batch_id(), 7u);
  ExpectAllSolved(response, puzzles);
  client.Close();
  EXPECT_EQ(StopDaemon(daemon),
            "sudokud: stopped: 1 connections, 1 batches answered, 0 cancelled, "
            "5000 puzzles (5000 solved, 0 multiple, 0 unsolvable, 0 invalid), 0 protocol faults\n");
}

TEST(Daemon, ReportsInvalidPuzzlesMixedIntoABatch) {
  DaemonProcess daemon(kLoopback);
  WireClient client(daemon.port());
  std::string row_repeat(81, '.');
  row_repeat[19] = '5';  // r3c2
  row_repeat[24] = '5';  // r3c7
  std::string box_repeat(81, '.');
  box_repeat[30] = '2';  // r4c4
  box_repeat[40] = '2';  // r5c5
  std::string bad_character(kSeventeenClues);
  bad_character[80] = '?';
  auto puzzles = GeneratePuzzles(6, 30, 3);
  puzzles.insert(puzzles.begin() + 1, std::string(80, '.'));
  puzzles.insert(puzzles.begin() + 3, row_repeat);
  puzzles.insert(puzzles.begin() + 4, bad_character);
  puzzles.push_back(box_repeat);
  // Valid at 0, 2, 5, 6, 7, 8; invalid at 1, 3, 4, 9.
  client.SendSolve(3, puzzles);
  const wire::SolveResponse response = ReadSolve(client);
  ASSERT_EQ(response.verdicts_size(), 10);
  ASSERT_EQ(response.solutions().size(), 6u * 81);
  size_t solution = 0;
  for (int i = 0; i < 10; ++i) {
    const bool invalid = i == 1 || i == 3 || i == 4 || i == 9;
    EXPECT_EQ(response.verdicts(i), invalid ? wire::INVALID : wire::SOLVED) << i;
    EXPECT_EQ(response.solution_counts(i), invalid ? 0u : 1u) << i;
    if (!invalid) {
      EXPECT_TRUE(IsSolutionOf(puzzles[i], response.solutions().substr(solution * 81, 81))) << i;
      ++solution;
    }
  }
  ASSERT_EQ(response.errors_size(), 4);
  EXPECT_EQ(response.errors(0).ShortDebugString(),
            "index: 1 message: \"expected 81 cells, found 80\"");
  EXPECT_EQ(response.errors(1).ShortDebugString(),
            "index: 3 position: 25 message: \"digit 5 repeated in row 3 (r3c2 and r3c7)\"");
  EXPECT_EQ(response.errors(2).index(), 4u);
  EXPECT_EQ(response.errors(2).position(), 81u);
  EXPECT_EQ(response.errors(2).message(),
            "bad character '?' (expected 1-9, or . 0 _ - * for a blank)");
  EXPECT_EQ(response.errors(3).ShortDebugString(),
            "index: 9 position: 41 message: \"digit 2 repeated in box 5 (r4c4 and r5c5)\"");
  client.Close();
  EXPECT_EQ(StopDaemon(daemon),
            "sudokud: stopped: 1 connections, 1 batches answered, 0 cancelled, "
            "10 puzzles (6 solved, 0 multiple, 0 unsolvable, 4 invalid), 0 protocol faults\n");
}

TEST(Daemon, AnswersEmptyBatchesAndIgnoresUnknownOrMissingFields) {
  DaemonProcess daemon(kLoopback);
  WireClient client(daemon.port());
  // SolveRequest{batch_id: 5}: no puzzles.
  client.SendBytes(std::string("\x04\x0a\x02\x08\x05", 5));
  // SolveRequest{batch_id: 6, puzzles: [kSeventeenClues], field 15: 1, field 16: "abc"}, then a
  // field 9 of the Request: fields a newer client may send, ignored.
  std::string solve =
      std::string("\x08\x06\x12\x51", 4) + kSeventeenClues + "\x78\x01\x82\x01\x03" "abc";
  std::string body = "\x0a" + std::string(1, static_cast<char>(solve.size())) + solve + "\x48\x01";
  client.SendBytes(std::string(1, static_cast<char>(body.size())) + body);
  // SolveRequest{puzzles: [kSeventeenClues]}: batch id 0 and the first solution by default.
  solve = std::string("\x12\x51", 2) + kSeventeenClues;
  body = "\x0a" + std::string(1, static_cast<char>(solve.size())) + solve;
  client.SendBytes(std::string(1, static_cast<char>(body.size())) + body);
  client.ShutdownSend();
  std::map<uint64_t, wire::SolveResponse> answers;
  for (const auto& response : client.ReadUntilClosed()) {
    ASSERT_TRUE(response.has_solve()) << response.ShortDebugString();
    EXPECT_TRUE(answers.emplace(response.solve().batch_id(), response.solve()).second);
  }
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[5].ShortDebugString(), "batch_id: 5");
  for (uint64_t id : {0, 6}) {
    const wire::SolveResponse& answer = answers[id];
    ASSERT_EQ(answer.verdicts_size(), 1) << id;
    EXPECT_EQ(answer.verdicts(0), wire::SOLVED);
    EXPECT_EQ(answer.solution_counts(0), 1u);
    EXPECT_TRUE(IsSolutionOf(kSeventeenClues, answer.solutions()));
  }
  EXPECT_EQ(StopDaemon(daemon),
            "sudokud: stopped: 1 connections, 3 batches answered, 0 cancelled, "
            "2 puzzles (2 solved, 0 multiple, 0 unsolvable, 0 invalid), 0 protocol faults\n");
}

// The daemon takes memory for a frame as its bytes arrive, not on the word of its header.
TEST(Daemon, LargeDeclaredFrameGetsMemoryOnlyAsItsBytesArrive) {
  DaemonProcess daemon(Flags({"--max-frame-bytes", "1073741824"}));
  WireClient bystander(daemon.port());
  ExpectServed(bystander, 1);
  const long before = ProcStatusKiB(daemon.pid(), "VmSize:");
  WireClient client(daemon.port());
  // 2^30 declared (exactly the limit), 100 bytes sent.
  client.SendBytes(std::string("\x80\x80\x80\x80\x04", 5) + std::string(100, '\x0a'));
  ExpectServed(bystander, 2);  // the daemon has read the header by now
  const long after = ProcStatusKiB(daemon.pid(), "VmSize:");
  // Address space, not RSS: untouched memory would not show in RSS.
  EXPECT_LT(after - before, 256 << 10)
      << "VmSize grew from " << before << " to " << after << " KiB";
  client.ShutdownSend();
  auto fault = client.Read();
  ASSERT_TRUE(fault && fault->has_fault());
  EXPECT_EQ(fault->fault().message(),
            "the connection was closed in the middle of frame 1 (100 of 1073741824 body bytes "
            "received)");
  bystander.Close();
  StopDaemon(daemon);
}

TEST(Daemon, SolutionLimitTwoGivesMultipleOrSolved) {
  DaemonProcess daemon(kLoopback);
  WireClient client(daemon.port());
  client.SendSolve(1, {kSeventeenClues, kEmptyGrid, kUnsolvable}, 2);
  const wire::SolveResponse response = ReadSolve(client);
  ExpectLimitTwoAnswers(response);
  EXPECT_EQ(response.errors_size(), 0);
}

TEST(Daemon, AnswersEachPipelinedBatchOnceWhateverTheOrder) {
  DaemonProcess daemon(kLoopback);
  WireClient client(daemon.port());
  std::map<uint64_t, std::vector<std::string>> sent;
  for (uint64_t id = 100; id < 130; ++id) {
    // Sizes vary so that batches finish out of order; one is empty.
    sent[id] = GeneratePuzzles(id == 110 ? 0 : static_cast<int>((id * 37) % 400), 27,
                               static_cast<uint32_t>(id));
    client.SendSolve(id, sent[id]);
  }
  client.ShutdownSend();  // end of input: the daemon still answers everything, then closes
  std::set<uint64_t> answered;
  // The counting runs at nice 19 (and here sanitized, perhaps beside other tests): a long wait.
  for (const auto& response : client.ReadUntilClosed(std::chrono::minutes(5))) {
    ASSERT_TRUE(response.has_solve());
    const uint64_t id = response.solve().batch_id();
    ASSERT_TRUE(sent.count(id)) << id;
    EXPECT_TRUE(answered.insert(id).second) << "batch " << id << " answered twice";
    ExpectAllSolved(response.solve(), sent[id]);
  }
  EXPECT_EQ(answered.size(), sent.size());
}

// Lone small batches are solved on the event loop while the solver threads are idle, and go to
// the solver threads while they are busy: the answers are the same either way.
TEST(Daemon, AnswersLoneSmallBatchesWhetherTheSolverThreadsAreIdleOrBusy) {
  DaemonProcess daemon(kLoopback);
  WireClient small(daemon.port());
  auto expect_lone_batches = [&small](uint64_t first_id) {
    for (uint64_t id = first_id; id < first_id + 40; ++id) {
      const auto puzzles = GeneratePuzzles(static_cast<int>(id % 5), 26, static_cast<uint32_t>(id));
      small.SendSolve(id, puzzles);
      const wire::SolveResponse response = ReadSolve(small);
      ASSERT_EQ(response.batch_id(), id);
      ExpectAllSolved(response, puzzles);
    }
  };
  expect_lone_batches(1000);  // idle daemon
  WireClient big(daemon.port());
  const auto many = GeneratePuzzles(60000, 24, 7);
  big.SendSolve(1, many);  // keeps the solver threads busy for a while
  expect_lone_batches(2000);
  ExpectAllSolved(ReadSolve(big), many);
  // Pipelined one-puzzle batches: each answered once.
  std::set<uint64_t> sent;
  std::map<uint64_t, std::vector<std::string>> puzzles;
  for (uint64_t id = 3000; id < 3100; ++id) {
    puzzles[id] = GeneratePuzzles(1, 25, static_cast<uint32_t>(id));
    small.SendSolve(id, puzzles[id]);
    sent.insert(id);
  }
  while (!sent.empty()) {
    const wire::SolveResponse response = ReadSolve(small);
    ASSERT_EQ(sent.erase(response.batch_id()), 1u) << "batch " << response.batch_id();
    ExpectAllSolved(response, puzzles[response.batch_id()]);
  }
}

TEST(Daemon, ServesSeveralConnectionsAtOnce) {
  DaemonProcess daemon(kLoopback);
  constexpr int kConnections = 6;
  std::vector<std::thread> threads;
  std::atomic<int> answered{0};
  for (int c = 0; c < kConnections; ++c) {
    threads.emplace_back([&, c] {
      WireClient client(daemon.port());
      std::map<uint64_t, std::vector<std::string>> sent;
      for (uint64_t b = 0; b < 8; ++b) {
        const uint64_t id = c * 100 + b;
        sent[id] = GeneratePuzzles(150, 26, static_cast<uint32_t>(id));
        client.SendSolve(id, sent[id]);
      }
      while (!sent.empty()) {
        const wire::SolveResponse response = ReadSolve(client);
        ASSERT_TRUE(sent.count(response.batch_id()));
        ExpectAllSolved(response, sent[response.batch_id()]);
        sent.erase(response.batch_id());
        ++answered;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(answered.load(), kConnections * 8);
}

TEST(Daemon, StopsReadingPastTheInFlightLimitsAndAnswersEverything) {
  NotifySocket notify;
  DaemonProcess daemon(
      Flags({"--max-in-flight-per-connection", "100", "--max-in-flight", "150", "--threads", "1"}),
      {notify.EnvEntry(), "WATCHDOG_USEC=20000"});
  notify.WaitFor("READY=1");
  std::atomic<bool> done{false};
  long most_in_flight = 0;
  std::thread watcher([&] {
    while (!done) {
      auto message = notify.Receive(std::chrono::milliseconds(100));
      if (message) {
        most_in_flight = std::max(most_in_flight, ParseStatus(*message).puzzles_in_flight);
      }
    }
  });
  std::vector<std::thread> clients;
  for (int c = 0; c < 2; ++c) {
    clients.emplace_back([&, c] {
      WireClient client(daemon.port());
      std::map<uint64_t, std::vector<std::string>> sent;
      for (uint64_t b = 0; b < 40; ++b) {
        // One batch is larger than the per-connection limit: admitted once the connection has
        // nothing else in flight.
        sent[c * 1000 + b] = GeneratePuzzles(b == 20 ? 120 : 50, 27, static_cast<uint32_t>(b));
      }
      std::thread sender([&] {
        for (const auto& [id, puzzles] : sent) client.SendSolve(id, puzzles);
      });
      std::set<uint64_t> answered;
      while (answered.size() < sent.size()) {
        const wire::SolveResponse response = ReadSolve(client);
        ASSERT_TRUE(sent.count(response.batch_id()));
        EXPECT_TRUE(answered.insert(response.batch_id()).second);
        ExpectAllSolved(response, sent.at(response.batch_id()));
      }
      sender.join();
    });
  }
  for (auto& thread : clients) thread.join();
  done = true;
  watcher.join();
  // What the daemon held never passed twice the global limit (a connection below its fair
  // share is admitted past the limit) plus the one oversized batch.
  EXPECT_LE(most_in_flight, 2 * 150 + 120);
  EXPECT_EQ(StopDaemon(daemon),
            "sudokud: stopped: 2 connections, 80 batches answered, 0 cancelled, "
            "4140 puzzles (4140 solved, 0 multiple, 0 unsolvable, 0 invalid), 0 protocol faults\n");
}

TEST(Daemon, SolvesEverySharedDataFileWithUniqueSolutions) {
  std::ifstream file(TestPath("SUDOKU_SHARED_DATA_DIR") + "/qqwing_mixed.txt");
  if (!file) GTEST_SKIP() << "no shared data beside the checkout";
  std::vector<std::string> puzzles;
  for (std::string line; std::getline(file, line);) puzzles.push_back(line);
  DaemonProcess daemon(kLoopback);
  WireClient client(daemon.port());
  constexpr size_t kBatch = 2000;
  for (size_t start = 0; start < puzzles.size(); start += kBatch) {
    client.SendSolve(start, std::vector<std::string>(
                                puzzles.begin() + start,
                                puzzles.begin() + std::min(puzzles.size(), start + kBatch)),
                     2);
  }
  client.ShutdownSend();
  size_t checked = 0;
  for (const auto& response : client.ReadUntilClosed()) {
    const auto& solve = response.solve();
    for (int i = 0; i < solve.verdicts_size(); ++i) {
      const std::string& puzzle = puzzles[solve.batch_id() + i];
      EXPECT_EQ(solve.verdicts(i), wire::SOLVED) << puzzle;
      EXPECT_EQ(solve.solution_counts(i), 1u) << puzzle;
      EXPECT_TRUE(IsSolutionOf(puzzle, solve.solutions().substr(i * 81, 81))) << puzzle;
      ++checked;
    }
  }
  EXPECT_EQ(checked, puzzles.size());
}

// ---- Protocol faults: each closes only its own connection ----

// A daemon with a bystander connection that must be served before and after the fault.
class FaultTest : public ::testing::Test {
 protected:
  void Start(const std::vector<std::string>& extra = {}) {
    daemon_ = std::make_unique<DaemonProcess>(Flags(extra));
    bystander_ = std::make_unique<WireClient>(daemon_->port());
    ExpectServed(*bystander_, 1);
  }

  // Reads the one fault the daemon sends, then expects the connection to close.
  static wire::ProtocolFault ReadFault(WireClient& client) {
    auto response = client.Read();
    if (!response || !response->has_fault()) {
      throw std::runtime_error("expected a ProtocolFault, got " +
                               (response ? response->ShortDebugString() : "end of stream"));
    }
    EXPECT_EQ(client.Read(), std::nullopt) << "the connection stays open after a fault";
    return response->fault();
  }

  void ExpectFault(WireClient& client, wire::ProtocolFault::Kind kind, const std::string& message) {
    const wire::ProtocolFault fault = ReadFault(client);
    EXPECT_EQ(wire::ProtocolFault::Kind_Name(fault.kind()), wire::ProtocolFault::Kind_Name(kind));
    EXPECT_EQ(fault.message(), message);
    const std::string line =
        daemon_->WaitForLog("protocol fault " + wire::ProtocolFault::Kind_Name(kind));
    EXPECT_THAT(line, HasSubstr(": protocol fault " + wire::ProtocolFault::Kind_Name(kind) +
                                ": " + message + "; "));
    EXPECT_THAT(line, ::testing::EndsWith("closing the connection"));
    ExpectServed(*bystander_, 2);
  }

  // ReadFault() for a fault that comes after a timeout: meanwhile the bystander is served over
  // and over, so that it is never idle itself.
  wire::ProtocolFault ReadFaultWhileBystanderIsServed(WireClient& client) {
    std::atomic<bool> done{false};
    std::thread busy([&] {
      for (uint64_t id = 100; !done; ++id) ExpectServed(*bystander_, id);
    });
    const wire::ProtocolFault fault = ReadFault(client);
    done = true;
    busy.join();
    return fault;
  }

  void TearDown() override {
    if (!daemon_) return;
    bystander_->Close();
    const std::string last = StopDaemon(*daemon_);
    EXPECT_THAT(last, HasSubstr(", " + std::to_string(expected_faults_) + " protocol faults"))
        << daemon_->Log();
  }

  int expected_faults_ = 1;
  std::unique_ptr<DaemonProcess> daemon_;
  std::unique_ptr<WireClient> bystander_;
};

TEST_F(FaultTest, FrameLargerThanTheLimit) {
  Start();
  WireClient client(daemon_->port());
  // The declared length of 70000000 as a varint, and no body: the daemon must not wait for it.
  client.SendBytes("\x80\xbb\xb0\x21");
  ExpectFault(client, wire::ProtocolFault::FRAME_TOO_LARGE,
              "frame 1 of 70000000 bytes exceeds --max-frame-bytes 16777216");
}

TEST_F(FaultTest, DeclaredLengthOverTheLimitAllocatesNothing) {
  Start({"--max-frame-bytes", "1073741824"});
  const long before = ProcStatusKiB(daemon_->pid(), "VmSize:");
  WireClient client(daemon_->port());
  // 2^30 + 1 declared, and the bytes of a body following.
  client.SendBytes(std::string("\x81\x80\x80\x80\x04", 5) + std::string(1000, '\x0a'));
  ExpectFault(client, wire::ProtocolFault::FRAME_TOO_LARGE,
              "frame 1 of 1073741825 bytes exceeds --max-frame-bytes 1073741824");
  const long after = ProcStatusKiB(daemon_->pid(), "VmSize:");
  EXPECT_LT(after - before, 256 << 10)
      << "VmSize grew from " << before << " to " << after << " KiB";
}

TEST_F(FaultTest, LengthVarintBeyond64Bits) {
  Start();
  WireClient client(daemon_->port());
  // Bit 64 set: wrapped around, it would read as a length of 0.
  client.SendBytes(std::string(9, '\x80') + '\x02');
  ExpectFault(client, wire::ProtocolFault::FRAME_TOO_LARGE,
              "frame 1 of 18446744073709551615 bytes exceeds --max-frame-bytes 16777216");
}

TEST_F(FaultTest, FrameLargerThanALoweredLimitAfterGoodFrames) {
  Start({"--max-frame-bytes", "4096"});
  WireClient client(daemon_->port());
  ExpectServed(client, 10);
  // A 4985-byte body: 60 puzzles of 83 bytes, the batch id (2) and the submessage header (3).
  client.SendSolve(11, GeneratePuzzles(60, 30, 1));
  ExpectFault(client, wire::ProtocolFault::FRAME_TOO_LARGE,
              "frame 2 of 4985 bytes exceeds --max-frame-bytes 4096");
}

TEST_F(FaultTest, LengthPrefixThatIsNotAVarint) {
  Start();
  WireClient client(daemon_->port());
  client.SendBytes(std::string(10, '\xff'));
  ExpectFault(client, wire::ProtocolFault::MALFORMED,
              "frame 1: the length prefix is not a varint (10 bytes without an end)");
}

TEST_F(FaultTest, BodyThatDoesNotDecode) {
  Start();
  WireClient client(daemon_->port());
  ExpectServed(client, 10);
  client.SendBytes(std::string("\x05\xff\xff\xff\xff\xff", 6));
  ExpectFault(client, wire::ProtocolFault::MALFORMED,
              "frame 2 of 5 bytes does not decode as a Request");
}

// The fault for a first frame that holds no request kind this daemon knows.
const std::string kNoKindFault =
    "frame 1 is a Request with no kind set (expected solve, stats, explain or generate)";

TEST_F(FaultTest, RequestWithNoKind) {
  Start();
  WireClient client(daemon_->port());
  client.SendBytes(std::string("\x00", 1));
  ExpectFault(client, wire::ProtocolFault::EMPTY_REQUEST, kNoKindFault);
}

TEST_F(FaultTest, RequestWithOnlyUnknownFields) {
  Start();
  WireClient client(daemon_->port());
  // Field 9, varint 1: a newer client's request kind this daemon does not know.
  client.SendBytes(std::string("\x02\x48\x01", 3));
  ExpectFault(client, wire::ProtocolFault::EMPTY_REQUEST, kNoKindFault);
}

TEST_F(FaultTest, BatchOverTheLimit) {
  Start({"--max-batch", "10"});
  WireClient client(daemon_->port());
  client.SendSolve(7, GeneratePuzzles(11, 30, 1));
  ExpectFault(client, wire::ProtocolFault::BATCH_TOO_LARGE,
              "frame 1: batch 7 has 11 puzzles, more than --max-batch 10");
}

TEST_F(FaultTest, PackedPuzzlesCutShort) {
  Start();
  WireClient client(daemon_->port());
  wire::Request request;
  request.mutable_solve()->set_batch_id(3);
  request.mutable_solve()->set_packed_puzzles(std::string(2 * kPackedBytes - 1, '\0'));
  client.Send(request);
  ExpectFault(client, wire::ProtocolFault::BAD_SOLVE_REQUEST,
              "frame 1: batch 3 has 81 bytes of packed_puzzles, not a multiple of 41 (the bytes "
              "of one packed puzzle)");
}

TEST_F(FaultTest, ConnectionClosedInsideAFrame) {
  Start();
  WireClient client(daemon_->port());
  std::string frame;
  wire::Request request;
  request.mutable_solve()->add_puzzles(kSeventeenClues);
  wire::AppendFrame(request, &frame);  // a 1-byte prefix and an 85-byte body
  client.SendBytes(frame.substr(0, 41));
  client.ShutdownSend();
  ExpectFault(client, wire::ProtocolFault::MALFORMED,
              "the connection was closed in the middle of frame 1 (40 of 85 body bytes received)");
}

TEST_F(FaultTest, ConnectionClosedInsideALengthPrefix) {
  Start();
  WireClient client(daemon_->port());
  ExpectServed(client, 10);
  client.SendBytes("\x80");
  client.ShutdownSend();
  ExpectFault(client, wire::ProtocolFault::MALFORMED,
              "the connection was closed in the middle of frame 2 (inside its length prefix)");
}

// A peer that closes both ways mid-frame cannot read the fault; the daemon still logs it, and
// the bystander is served.
TEST_F(FaultTest, PeerGoneInsideAFrame) {
  Start();
  {
    WireClient client(daemon_->port());
    std::string frame;
    wire::Request request;
    request.mutable_solve()->add_puzzles(kSeventeenClues);
    wire::AppendFrame(request, &frame);
    client.SendBytes(frame.substr(0, 30));
    client.Close();
  }
  EXPECT_THAT(daemon_->WaitForLog("protocol fault MALFORMED"),
              HasSubstr(": protocol fault MALFORMED: the connection was closed in the middle of "
                        "frame 1 (29 of 85 body bytes received); closing the connection"));
  ExpectServed(*bystander_, 2);
}

// A reset mid-frame: nobody is left to answer, nothing is counted as a fault, and the
// connection's slot is free again.
TEST_F(FaultTest, PeerResetInsideAFrame) {
  expected_faults_ = 0;
  Start({"--max-connections", "2"});
  {
    WireClient client(daemon_->port());
    ExpectServed(client, 10);
    client.SendBytes(std::string("\x55\x0a\x53\x08", 4));
    client.Reset();
  }
  ExpectServed(*bystander_, 2);
  for (int attempt = 0;; ++attempt) {
    WireClient next(daemon_->port());
    next.SendSolve(30, {kSeventeenClues});
    auto response = next.Read();
    ASSERT_TRUE(response);
    if (response->has_solve()) break;
    EXPECT_EQ(response->fault().kind(), wire::ProtocolFault::TOO_MANY_CONNECTIONS);
    ASSERT_LT(attempt, 500) << "the reset connection's slot never came back";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    expected_faults_ += 1;
  }
}

// A half-open connection: the peer sent part of a frame and went silent. Durations are kept to
// the millisecond: 1500ms is 1.5 s, not 2.
TEST_F(FaultTest, ConnectionStalledInsideAFrame) {
  Start({"--idle-timeout", "1500ms"});
  WireClient client(daemon_->port());
  client.SendBytes(std::string("\x55\x0a\x53\x08", 4));
  const wire::ProtocolFault fault = ReadFaultWhileBystanderIsServed(client);
  EXPECT_EQ(fault.kind(), wire::ProtocolFault::IDLE_TIMEOUT);
  EXPECT_EQ(fault.message(), "nothing received for 1.5 s (--idle-timeout 1.5)");
  ExpectServed(*bystander_, 2);
}

// A client that sends and never reads: the daemon stops reading it at its in-flight limit, so
// what it holds for that client stays bounded; others are served; once nothing has moved for
// --write-stall-timeout the connection is dropped.
TEST_F(FaultTest, PeerThatSendsAndNeverReads) {
  expected_faults_ = 0;
  Start({"--max-in-flight-per-connection", "5000", "--write-stall-timeout", "2"});
  const long rss_before = ProcStatusKiB(daemon_->pid(), "VmRSS:");
  WireClient flood(daemon_->port());
  const auto puzzles = GeneratePuzzles(1000, 30, 9);
  std::atomic<int> sent{0};
  std::thread sender([&] {
    try {
      // 200000 answers (17 MB): more than the socket buffers hold.
      for (uint64_t id = 0; id < 200; ++id) {
        flood.SendSolve(id, puzzles);
        ++sent;
      }
    } catch (const std::runtime_error&) {
      // The daemon closed the connection: expected.
    }
  });
  // Served all along (and so never idle), while the flood's answers pile up.
  std::atomic<bool> done{false};
  std::thread busy([&] {
    for (uint64_t id = 100; !done; ++id) ExpectServed(*bystander_, id);
  });
  const std::string line = daemon_->WaitForLog("the peer has read nothing");
  const long rss_stuck = ProcStatusKiB(daemon_->pid(), "VmRSS:");
  done = true;
  busy.join();
  EXPECT_THAT(line,
              ::testing::MatchesRegex(
                  ".*: the peer has read nothing for 2 s \\(--write-stall-timeout 2\\); dropping "
                  "the answers to [0-9]+ puzzles and closing the connection"));
  // At most the per-connection limit plus one batch was ever held for it.
  const long dropped = std::stol(line.substr(line.find("answers to ") + 11));
  EXPECT_LE(dropped, 5000 + 1000);
  EXPECT_LT(sent.load(), 200) << "the daemon read everything instead of pushing back";
  sender.join();
  if (!kSanitized) {
    EXPECT_LT(rss_stuck - rss_before, 64 << 10) << "RSS " << rss_before << " -> " << rss_stuck;
  }
  ExpectServed(*bystander_, 2);
}

TEST_F(FaultTest, IdleConnection) {
  Start({"--idle-timeout", "1"});
  WireClient client(daemon_->port());
  const wire::ProtocolFault fault = ReadFaultWhileBystanderIsServed(client);
  EXPECT_EQ(fault.kind(), wire::ProtocolFault::IDLE_TIMEOUT);
  EXPECT_EQ(fault.message(), "nothing received for 1 s (--idle-timeout 1)");
  ExpectServed(*bystander_, 2);
}

// --max-connections: tests/daemon/bounded_test.cc (room made by closing the idlest).

// A batch read whole before a malformed frame was accepted: it is answered, whole, and only then
// comes the fault and the close, even when the garbage arrives before the batch is solved.
TEST_F(FaultTest, BatchesInFlightAreAnsweredBeforeTheFault) {
  Start();
  WireClient client(daemon_->port());
  const auto puzzles = GeneratePuzzles(20000, 24, 5);
  client.SendSolve(1, puzzles);
  client.SendBytes(std::string(10, '\xff'));
  auto first = client.Read();
  ASSERT_TRUE(first && first->has_solve()) << (first ? first->ShortDebugString() : "closed");
  ExpectAllSolved(first->solve(), puzzles);
  ExpectFault(client, wire::ProtocolFault::MALFORMED,
              "frame 2: the length prefix is not a varint (10 bytes without an end)");
}

// Clients that vanish (reset) with batches solving and answers unread: their work is cancelled
// and dropped, nothing stays in flight, and memory does not grow from one round to the next.
TEST(Daemon, DisconnectWithBatchesInFlightDropsTheirWork) {
  NotifySocket notify;
  DaemonProcess daemon(Flags({"--threads", "2", "--max-in-flight-per-connection", "1000000",
                              "--max-in-flight", "1000000"}),
                       {notify.EnvEntry(), "WATCHDOG_USEC=20000"});
  notify.WaitFor("READY=1");
  const auto many = GeneratePuzzles(50000, 30, 4);
  const std::vector<std::string> slow(256, kEmptyGrid);
  std::vector<long> rss;
  for (int round = 0; round < 3; ++round) {
    WireClient client(daemon.port());
    // 150000 answers that pile up unread, and a batch that takes minutes to count.
    for (uint64_t id = 1; id <= 3; ++id) client.SendSolve(id, many);
    client.SendSolve(4, slow, 1000000);
    WaitForStatus(notify, [](const Status& s) { return s.puzzles_in_flight == 150256; });
    client.Reset();
    WaitForStatus(notify, [](const Status& s) {
      return s.connections == 0 && s.batches_in_flight == 0 && s.puzzles_in_flight == 0;
    });
    rss.push_back(ProcStatusKiB(daemon.pid(), "VmRSS:"));
  }
  std::cout << "daemon RSS after each round (KiB): " << rss[0] << " " << rss[1] << " " << rss[2]
            << "\n";
  if (!kSanitized) {
    EXPECT_LT(rss[2] - rss[0], 32 << 10) << "RSS grows with each round";
  }
  // The slow batches were cancelled, never finished: no MULTIPLE verdict counted. Every batch is
  // either answered (an answer written whole before the reset) or cancelled.
  const std::string last = StopDaemon(daemon);
  EXPECT_THAT(last, ::testing::MatchesRegex(
                        "sudokud: stopped: 3 connections, [0-9]+ batches answered, [0-9]+ "
                        "cancelled, [0-9]+ puzzles \\([0-9]+ solved, 0 multiple, 0 unsolvable, 0 "
                        "invalid\\), 0 protocol faults\n"));
  long answered = -1, cancelled = -1;
  std::sscanf(last.c_str(), "sudokud: stopped: 3 connections, %ld batches answered, %ld cancelled",
              &answered, &cancelled);
  EXPECT_EQ(answered + cancelled, 12) << last;
}

// A client that sends a batch and resets without reading: the answer, solved and partly
// written, is dropped, and counted as cancelled, not answered, in the Stats answer and the last
// log line.
TEST(Daemon, AnAnswerDroppedByAResetCountsAsCancelled) {
  DaemonProcess daemon(Flags({"--threads", "2"}));
  // An answer larger than both ends' socket buffers hold (loopback's send buffer grows to 4 MiB
  // at most, and a peer that never reads keeps its receive window small): its write cannot end.
  const auto puzzles = GeneratePuzzles(65536, 30, 5);
  {
    WireClient gone(daemon.port());
    gone.SendSolve(1, puzzles);
    // The answer's first bytes arrive: it is solved and its write is under way.
    const auto give_up = std::chrono::steady_clock::now() + kReplyTimeout;
    while (gone.Unread() == 0) {
      ASSERT_LT(std::chrono::steady_clock::now(), give_up) << "no byte of the answer came";
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    gone.Reset();
  }
  // Connected only now: an idle connection would meet --first-frame-timeout under sanitizers.
  WireClient observer(daemon.port());
  wire::Request stats_request;
  stats_request.mutable_stats();
  auto stats = [&] {
    observer.Send(stats_request);
    const auto response = observer.Read();
    if (!response || !response->has_stats()) throw std::runtime_error("expected a StatsResponse");
    return response->stats();
  };
  wire::StatsResponse counts = stats();
  for (int attempt = 0; counts.connections_open() != 1 || counts.batches_in_flight() != 0;
       ++attempt) {
    ASSERT_LT(attempt, 3000) << "the reset connection stays: " << counts.ShortDebugString();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    counts = stats();
  }
  EXPECT_EQ(counts.batches_answered(), 0u);
  EXPECT_EQ(counts.batches_cancelled(), 1u);
  EXPECT_EQ(counts.puzzles_solved() + counts.puzzles_multiple(), 0u);
  observer.Close();
  EXPECT_EQ(StopDaemon(daemon),
            "sudokud: stopped: 2 connections, 0 batches answered, 1 cancelled, "
            "0 puzzles (0 solved, 0 multiple, 0 unsolvable, 0 invalid), 0 protocol faults\n");
}

// ---- Stopping ----

// SIGTERM while several clients stream batches: the daemon stops accepting, answers every batch
// it accepted (each answer whole and correct), closes, and exits 0 inside the drain timeout.
TEST(Daemon, SigtermUnderLoadAnswersEveryAcceptedBatch) {
  DaemonProcess daemon(Flags({"--threads", "2", "--drain-timeout", "300"}));
  constexpr int kClients = 4;
  const auto puzzles = GeneratePuzzles(200, 26, 8);
  std::atomic<int> answered{0};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  std::vector<std::unique_ptr<WireClient>> clients;
  for (int c = 0; c < kClients; ++c) clients.push_back(std::make_unique<WireClient>(daemon.port()));
  for (int c = 0; c < kClients; ++c) {
    WireClient& client = *clients[c];
    threads.emplace_back([&client, &puzzles] {
      try {
        for (uint64_t id = 0; id < 2000; ++id) client.SendSolve(id, puzzles);
      } catch (const std::runtime_error&) {
        // The daemon stopped reading and closed: expected once draining.
      }
    });
    threads.emplace_back([&client, &puzzles, &answered, &wrong] {
      std::set<uint64_t> seen;
      int drain_notices = 0;
      // Throws (and fails the test) on a frame cut short or a reset.
      while (const auto response = client.Read()) {
        if (response->has_draining()) {
          // Once, and only for frames sent: the batches it read are the ones answered.
          if (++drain_notices > 1 || response->draining().last_frame() > 2000) ++wrong;
          continue;
        }
        const auto& solve = response->solve();
        if (!response->has_solve() || !seen.insert(solve.batch_id()).second ||
            solve.verdicts_size() != 200 ||
            !IsSolutionOf(puzzles[199], solve.solutions().substr(199 * 81, 81))) {
          ++wrong;
        }
        ++answered;
      }
    });
  }
  while (answered < kClients * 5) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  daemon.Signal(SIGTERM);
  EXPECT_THAT(daemon.WaitForLog("SIGTERM: stopped accepting"),
              HasSubstr("draining 4 connections with "));
  EXPECT_THROW(WireClient late(daemon.port()), std::runtime_error) << "still accepting";
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(daemon.Wait(), 0);
  const std::string log = daemon.Log();
  ExpectNoSanitizerReport(log);
  EXPECT_THAT(log, ::testing::Not(HasSubstr(": cancelled ")));
  // Every batch the daemon counts as answered reached its client.
  EXPECT_THAT(log, HasSubstr("sudokud: stopped: 4 connections, " +
                             std::to_string(answered.load()) + " batches answered, 0 cancelled, " +
                             std::to_string(answered.load() * 200) + " puzzles ("));
}

TEST(Daemon, SigtermAnswersEveryAcceptedBatchThenExitsZero) {
  NotifySocket notify;
  // The drain must outlast the batches however slow the build: sanitized on a busy machine they
  // took more than the default 30 s, and the drain timeout is another test's subject.
  DaemonProcess daemon(Flags({"--threads", "1", "--drain-timeout", "300s"}),
                       {notify.EnvEntry(), "WATCHDOG_USEC=20000"});
  notify.WaitFor("READY=1");
  WireClient client(daemon.port());
  // Slow batches (counting many solutions of the empty grid) so that some are still solving
  // when the signal comes: counting runs at nice 19, so under a sanitizer, beside another test,
  // 100,000 solutions a puzzle took more than a minute an answer.
  constexpr uint32_t kLimit = 20000;
  for (uint64_t id = 1; id <= 4; ++id) client.SendSolve(id, {kEmptyGrid, kEmptyGrid}, kLimit);
  WaitUntilAccepted(notify, 4);
  daemon.Signal(SIGTERM);
  EXPECT_THAT(daemon.WaitForLog("SIGTERM: stopped accepting"),
              HasSubstr("draining 1 connections with "));
  notify.WaitFor("STOPPING=1");
  // Requests sent after the signal are not read; what was accepted is answered, after a notice
  // that says so.
  client.SendSolve(99, {kSeventeenClues});
  std::vector<wire::Response> responses = client.ReadUntilClosed();
  ASSERT_FALSE(responses.empty());
  EXPECT_EQ(responses.front().ShortDebugString(),
            "draining { last_frame: 4 drain_timeout_ms: 300000 message: \"sudokud is stopping "
            "(SIGTERM): it answers frames 1-4 of this connection (within --drain-timeout 300s) "
            "and reads none after frame 4\" }");
  responses.erase(responses.begin());
  std::set<uint64_t> answered;
  for (const auto& response : responses) {
    ASSERT_TRUE(response.has_solve()) << response.ShortDebugString();
    const auto& solve = response.solve();
    EXPECT_TRUE(answered.insert(solve.batch_id()).second);
    ASSERT_EQ(solve.verdicts_size(), 2);
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(solve.verdicts(i), wire::MULTIPLE);
      EXPECT_EQ(solve.solution_counts(i), kLimit);
      EXPECT_TRUE(IsSolutionOf(kEmptyGrid, solve.solutions().substr(i * 81, 81)));
    }
  }
  EXPECT_EQ(answered, (std::set<uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(daemon.Wait(), 0);
  ExpectNoSanitizerReport(daemon.Log());
  EXPECT_THAT(daemon.Log(),
              HasSubstr("\nsudokud: stopped: 1 connections, 4 batches answered, 0 cancelled, "
                        "8 puzzles (0 solved, 8 multiple, 0 unsolvable, 0 invalid), "
                        "0 protocol faults\n"));
}

// One solver thread and two batches that do not end in a test's lifetime unless cancelled.
class StuckDaemonTest : public ::testing::Test {
 protected:
  void Start(const std::vector<std::string>& extra) {
    auto args = Flags({"--threads", "1"});
    args.insert(args.end(), extra.begin(), extra.end());
    daemon_ = std::make_unique<DaemonProcess>(args,
                                              std::vector<std::string>{notify_.EnvEntry(),
                                                                       "WATCHDOG_USEC=20000"});
    notify_.WaitFor("READY=1");
    client_ = std::make_unique<WireClient>(daemon_->port());
    client_->SendSolve(1, kEndlessBatch, wire::kMaxSolutionLimit);
    client_->SendSolve(2, kEndlessBatch, wire::kMaxSolutionLimit);
    WaitUntilAccepted(notify_, 2);
  }

  // A one-thread daemon with nothing sent yet (the watchdog interval makes STATUS= updates
  // frequent).
  void StartIdle() {
    daemon_ = std::make_unique<DaemonProcess>(
        Flags({"--threads", "1"}),
        std::vector<std::string>{notify_.EnvEntry(), "WATCHDOG_USEC=20000"});
    notify_.WaitFor("READY=1");
  }

  // Once every connection is gone, the solver serves the next client; then a clean stop.
  void ExpectFreeForTheNextThenStop() {
    WaitForStatus(notify_, [](const Status& status) {
      return status.connections == 0 && status.batches_in_flight == 0;
    });
    WireClient next(daemon_->port());
    ExpectServed(next, 2);
    next.Close();
    daemon_->Signal(SIGTERM);
    EXPECT_EQ(daemon_->Wait(), 0);
    ExpectNoSanitizerReport(daemon_->Log());
  }

  // `told`: the connection was told it drains before it was closed (a second signal that comes
  // at once may close it before its Draining message is written).
  void ExpectCancelledAndStopped(const std::string& why, bool told = true) {
    // Told it drains, with both batches among the frames it answers; then closed without them.
    std::optional<wire::Response> notice = client_->Read();
    if (told || (notice && notice->has_draining())) {
      ASSERT_TRUE(notice && notice->has_draining()) << (notice ? notice->ShortDebugString() : "");
      EXPECT_EQ(notice->draining().last_frame(), 2u);
      notice = client_->Read();
    }
    EXPECT_EQ(notice, std::nullopt);
    EXPECT_EQ(daemon_->Wait(), 0);
    ExpectNoSanitizerReport(daemon_->Log());
    const std::string log = daemon_->Log();
    EXPECT_THAT(log, HasSubstr("sudokud: SIGTERM: stopped accepting; draining 1 connections with "
                               "2 batches (200 puzzles) in flight (--drain-timeout "));
    EXPECT_THAT(log, HasSubstr("sudokud: after " + why +
                               ": cancelled 2 batches (200 puzzles) on 1 connections\n"));
    // The search in progress notices the cancellation: nothing is left to abandon.
    EXPECT_THAT(log, ::testing::Not(HasSubstr("abandoning")));
    EXPECT_THAT(log, HasSubstr("sudokud: stopped: 1 connections, 0 batches answered, 2 cancelled, "
                               "0 puzzles (0 solved, 0 multiple, 0 unsolvable, 0 invalid), "
                               "0 protocol faults\n"));
  }

  NotifySocket notify_;
  std::unique_ptr<DaemonProcess> daemon_;
  std::unique_ptr<WireClient> client_;
};

// A sub-second drain timeout is kept as given (100 ms, not a second).
TEST_F(StuckDaemonTest, DrainTimeoutCancelsWhatRemains) {
  Start({"--drain-timeout", "100ms"});
  daemon_->Signal(SIGTERM);
  ExpectCancelledAndStopped("the drain timeout (0.1 s)");
}

TEST_F(StuckDaemonTest, SecondSignalCancelsWhatRemains) {
  Start({"--drain-timeout", "600"});
  daemon_->Signal(SIGTERM);
  daemon_->WaitForLog("SIGTERM: stopped accepting");
  daemon_->Signal(SIGTERM);
  ExpectCancelledAndStopped("a second SIGTERM", /*told=*/false);
}

// A client that goes away (its connection reset) while its batch counts the empty grid's
// solutions to the cap: the search stops, the one solver thread is free, and the next client is
// served.
TEST_F(StuckDaemonTest, AResetConnectionFreesTheSolverForTheNext) {
  StartIdle();
  {
    WireClient gone(daemon_->port());
    gone.SendSolve(1, kEndlessBatch, wire::kMaxSolutionLimit);
    WaitUntilAccepted(notify_, 1);
    gone.Reset();
  }
  ExpectFreeForTheNextThenStop();
  EXPECT_THAT(daemon_->Log(),
              HasSubstr("sudokud: stopped: 2 connections, 1 batches answered, 1 cancelled, "
                        "5 puzzles (5 solved, 0 multiple, 0 unsolvable, 0 invalid), "
                        "0 protocol faults\n"));
}

// The same for a generate request no attempt can satisfy (a minimal puzzle of 60 clues): the
// generator stops between attempts.
TEST_F(StuckDaemonTest, AResetConnectionStopsItsGenerateRequest) {
  StartIdle();
  {
    WireClient gone(daemon_->port());
    wire::Request request;
    wire::GenerateRequest* generate = request.mutable_generate();
    generate->set_request_id(1);
    generate->set_count(1000);  // below --max-in-flight-per-connection: the reader sees the reset
    generate->set_clues(60);
    generate->set_minimal(true);
    gone.Send(request);
    // Charged in full while its first chunk is made (the first chunk's 64 puzzles would take
    // seconds to fail).
    WaitForStatus(notify_, [](const Status& status) { return status.puzzles_in_flight == 1000; });
    gone.Reset();
  }
  ExpectFreeForTheNextThenStop();
}

TEST(Daemon, RefusesASolutionLimitAboveTheCap) {
  DaemonProcess daemon(kLoopback);
  WireClient client(daemon.port());
  client.SendSolve(7, {kEmptyGrid}, wire::kMaxSolutionLimit + 1);
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_fault());
  EXPECT_EQ(response->fault().kind(), wire::ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(response->fault().message(),
            "frame 1: batch 7 asks for up to 1000001 solutions a puzzle, more than the cap of "
            "1000000");
  EXPECT_EQ(client.Read(), std::nullopt);
  WireClient next(daemon.port());
  ExpectServed(next, 1);
}

// A rating scope the protocol does not name is a fault of its own; the daemon goes on serving.
TEST(Daemon, RefusesARatingScopeItDoesNotKnow) {
  DaemonProcess daemon(kLoopback);
  WireClient client(daemon.port());
  wire::Request request;
  request.mutable_solve()->set_batch_id(8);
  request.mutable_solve()->set_rate(true);
  request.mutable_solve()->set_rating_scope(static_cast<wire::RatingScope>(9));
  request.mutable_solve()->add_puzzles(kSeventeenClues);
  client.Send(request);
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_fault());
  EXPECT_EQ(response->fault().kind(), wire::ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(response->fault().message(),
            "frame 1: batch 8 asks for rating_scope 9, which names no scope (0 ALL_RATINGS, 1 "
            "HODOKU_PATH, 2 SE_PATH)");
  EXPECT_EQ(client.Read(), std::nullopt);
  WireClient next(daemon.port());
  ExpectServed(next, 1);
}

// Two batches in flight with one id could not be told apart by their answers: the second is a
// fault. The first, a count of unbounded cost, is cancelled with it (bounded work accepted
// before a fault is answered first; see NetworkSafety.RequestsBeforeAFaultAreAnsweredFirst),
// and an id is free again once its answer has come.
TEST(Daemon, RefusesABatchIdStillInFlight) {
  DaemonProcess daemon(Flags({"--threads", "1"}));
  WireClient client(daemon.port());
  ExpectServed(client, 7);
  client.SendSolve(7, kEndlessBatch, wire::kMaxSolutionLimit);  // in flight until cancelled
  client.SendSolve(7, {kSeventeenClues});
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_fault())
      << (response ? response->ShortDebugString() : "end of stream");
  EXPECT_EQ(response->fault().kind(), wire::ProtocolFault::BAD_SOLVE_REQUEST);
  const std::string message =
      "frame 3: batch 7 is already in flight on this connection; batch ids must be unique among "
      "unanswered batches";
  EXPECT_EQ(response->fault().message(), message);
  EXPECT_EQ(client.Read(), std::nullopt);
  EXPECT_THAT(daemon.WaitForLog("protocol fault BAD_SOLVE_REQUEST"),
              HasSubstr(": protocol fault BAD_SOLVE_REQUEST: " + message +
                        "; closing the connection"));
  client.Close();
  EXPECT_EQ(StopDaemon(daemon),
            "sudokud: stopped: 1 connections, 1 batches answered, 1 cancelled, "
            "5 puzzles (5 solved, 0 multiple, 0 unsolvable, 0 invalid), 1 protocol faults\n");
}

// ---- systemd ----

// ---- Logging ----

// A storm of faulty connections: ten lines of a kind, then one count at exit; the summary (as
// the metrics) counts every fault.
TEST(Daemon, LogsTheFirstTenFaultsOfAKindAndCountsTheRest) {
  DaemonProcess daemon(kLoopback);
  for (int i = 0; i < 30; ++i) {
    WireClient faulty(daemon.port());
    faulty.SendBytes(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11));
    const auto response = faulty.Read();
    ASSERT_TRUE(response && response->has_fault());
  }
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
  const std::string log = daemon.Log();
  size_t lines = 0;
  for (size_t at = log.find("; closing the connection\n"); at != std::string::npos;
       at = log.find("; closing the connection\n", at + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 10u);
  EXPECT_THAT(log, HasSubstr("\nsudokud: protocol fault MALFORMED: 20 more like this suppressed "
                             "in 10 s\nsudokud: stopped: "));
  EXPECT_THAT(log, HasSubstr(", 30 protocol faults\n"));
}


// A port nobody listens on now (bound, read and released; loopback ports are not reused at once).
uint16_t FreeLoopbackPort() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(
      io, boost::asio::ip::tcp::endpoint(boost::asio::ip::address_v4::loopback(), 0));
  return acceptor.local_endpoint().port();
}

// Whoever reads sudokud's stderr may go away (a log collector restarting, a closed terminal):
// writing a line then fails with EPIPE, and must not kill the daemon with SIGPIPE.
TEST(Daemon, KeepsServingWhenItsStderrPipeIsClosed) {
  const uint16_t port = FreeLoopbackPort();
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string binary = DaemonBinary();
  const std::string listen = "127.0.0.1:" + std::to_string(port);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execl(binary.c_str(), binary.c_str(), "--listen", listen.c_str(), "--threads", "1",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  ::close(fds[0]);  // nobody reads: its "listening on" line already meets a closed pipe
  std::unique_ptr<WireClient> client;
  for (int attempt = 0; attempt < 200 && client == nullptr; ++attempt) {
    try {
      client = std::make_unique<WireClient>(port);
    } catch (const std::runtime_error&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ASSERT_NE(client, nullptr) << "sudokud never listened on " << listen;
  ExpectServed(*client, 1);
  {
    WireClient faulty(port);
    faulty.SendBytes(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11));
    const auto response = faulty.Read();  // the fault is logged on the way
    ASSERT_TRUE(response && response->has_fault());
  }
  ExpectServed(*client, 2);
  client->Close();
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(Daemon, NotifiesReadyWatchdogAndStopping) {
  NotifySocket notify;
  DaemonProcess daemon(kLoopback, {notify.EnvEntry(), "WATCHDOG_USEC=200000"});
  EXPECT_THAT(notify.WaitFor("READY=1"),
              HasSubstr("STATUS=0 connections, 0 batches (0 puzzles) in flight; 0 batches, "
                        "0 puzzles answered; 0 protocol faults"));
  EXPECT_EQ(notify.WaitFor("WATCHDOG=1").substr(0, 10), "WATCHDOG=1");
  {
    WireClient client(daemon.port());
    ExpectServed(client, 1);
    EXPECT_THAT(notify.WaitFor("1 batches, 5 puzzles answered"), HasSubstr("STATUS="));
  }
  daemon.Signal(SIGTERM);
  EXPECT_EQ(notify.WaitFor("STOPPING=1").substr(0, 10), "STOPPING=1");
  EXPECT_EQ(daemon.Wait(), 0);
  ExpectNoSanitizerReport(daemon.Log());
}

// ---- Flags ----

struct BadFlag {
  std::vector<std::string> args;
  std::string message;
};

TEST(Daemon, RejectsBadFlagsNamingTheFlagAndTheRange) {
  const std::vector<BadFlag> cases = {
      {{"--threads", "0"}, "--threads must be an integer from 1 to 1024, got '0'"},
      {{"--threads", "two"}, "--threads must be an integer from 1 to 1024, got 'two'"},
      {{"--max-frame-bytes", "100"},
       "--max-frame-bytes must be an integer from 1024 to 1073741824, got '100'"},
      {{"--max-batch", "-1"}, "--max-batch must be an integer from 1 to 16777216, got '-1'"},
      {{"--max-connections", "0"},
       "--max-connections must be an integer from 1 to 1048576, got '0'"},
      {{"--max-in-flight-per-connection", "0"},
       "--max-in-flight-per-connection must be an integer from 1 to 1073741824, got '0'"},
      {{"--max-in-flight", "x"},
       "--max-in-flight must be an integer from 1 to 4294967296, got 'x'"},
      {{"--idle-timeout", "-5"},
       "--idle-timeout must be a duration such as 10s, 2m or 500ms (a plain number is seconds) "
       "from 0s to 604800s, got '-5'"},
      {{"--drain-timeout", "1e3"},
       "--drain-timeout must be a duration such as 10s, 2m or 500ms (a plain number is seconds) "
       "from 0s to 86400s, got '1e3'"},
      {{"--drain-timeout", "25h"},
       "--drain-timeout must be a duration such as 10s, 2m or 500ms (a plain number is seconds) "
       "from 0s to 86400s, got '25h'"},
      {{"extra"}, "unexpected argument 'extra': sudokud takes only options"},
      {{"--listen", "::1:9810"},
       "--listen '::1:9810': expected [HOST:]PORT, e.g. 9810, 127.0.0.1:9810 or [::1]:9810"},
      {{"--listen", "127.0.0.1:70000"},
       "--listen '127.0.0.1:70000': the port must be a number from 0 to 65535 "
       "(0 picks a free one)"},
      {{"--solver-cpus", "x"},
       "--solver-cpus must list CPUs as taskset -c does, e.g. 3 or 0-2,5, got 'x'"},
      {{"--solver-cpus", "2-1"},
       "--solver-cpus must list CPUs as taskset -c does, e.g. 3 or 0-2,5, got '2-1'"},
      {{"--solver-cpus", "0,,1"},
       "--solver-cpus must list CPUs as taskset -c does, e.g. 3 or 0-2,5, got '0,,1'"},
      {{"--solver-cpus", "4096"},
       "--solver-cpus must list CPUs as taskset -c does, e.g. 3 or 0-2,5, got '4096'"},
      {{"--bogus"}, "unrecognised option '--bogus'"},
      {{"--threads"}, "the required argument for option '--threads' is missing"},
  };
  for (const auto& bad : cases) {
    const ProcessResult result = RunDaemonToExit(bad.args);
    EXPECT_EQ(result.exit_code, 2) << bad.args[0];
    EXPECT_EQ(result.err, "sudokud: " + bad.message + " (see sudokud --help)\n") << bad.args[0];
  }
}

// Every listener takes a port alone, for this host only, as --http always did.
TEST(Daemon, APortAloneListensOnThisHostOnly) {
  DaemonProcess daemon({"--listen", "0", "--metrics", "0"});
  EXPECT_THAT(daemon.WaitForLog("listening on "), HasSubstr("listening on 127.0.0.1:"));
  EXPECT_THAT(daemon.WaitForLog("serving metrics on "),
              HasSubstr("serving metrics on http://127.0.0.1:"));
  WireClient client(daemon.port());
  ExpectServed(client, 1);
}

TEST(Daemon, HelpListsEveryFlag) {
  const ProcessResult result = RunDaemonToExit({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  for (const char* flag : {"--listen", "--threads", "--max-frame-bytes", "--max-batch",
                           "--max-connections", "--max-in-flight-per-connection",
                           "--max-in-flight", "--idle-timeout", "--drain-timeout"}) {
    EXPECT_THAT(result.out, HasSubstr(flag));
  }
}

// The CPUs this process may use, and as taskset -c lists them.
std::vector<int> AllowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

std::string ListText(const std::vector<int>& cpus) {
  std::string text;
  for (int cpu : cpus) {
    if (!text.empty()) text += ',';
    text += std::to_string(cpu);
  }
  return text;
}

TEST(Daemon, RefusesASolverCpuThisProcessMayNotUse) {
  const std::vector<int> allowed = AllowedCpus();
  const int outside = allowed.back() + 1;
  const ProcessResult result = RunDaemonToExit({"--solver-cpus", std::to_string(outside)});
  EXPECT_EQ(result.exit_code, 2);
  // Consecutive CPUs as one range, as taskset -c shows them; a test machine's are 0 to N-1.
  const bool consecutive = allowed.back() - allowed.front() + 1 == static_cast<int>(allowed.size());
  const std::string shown = consecutive && allowed.size() > 1
                                ? std::to_string(allowed.front()) + "-" +
                                      std::to_string(allowed.back())
                                : ListText(allowed);
  EXPECT_EQ(result.err, "sudokud: --solver-cpus " + std::to_string(outside) + ": CPU " +
                            std::to_string(outside) + " is not one this process may use (" +
                            shown + ") (see sudokud --help)\n");
}

// What each thread of `pid` may run on, by name: "sudokud-solve" -> {"1"}.
std::map<std::string, std::set<std::string>> ThreadCpus(pid_t pid) {
  std::map<std::string, std::set<std::string>> cpus;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  for (const auto& task : std::filesystem::directory_iterator(tasks)) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    std::ifstream status(task.path() / "status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("Cpus_allowed_list:", 0) == 0) {
        cpus[name].insert(line.substr(line.find_first_not_of(" \t", 18)));
      }
    }
  }
  return cpus;
}

TEST(Daemon, SolverCpusKeepTheSolversThereAndTheRestElsewhere) {
  const std::vector<int> allowed = AllowedCpus();
  const std::string solver = std::to_string(allowed.back());
  DaemonProcess daemon(Flags({"--threads", "1", "--solver-cpus", solver}));
  WireClient client(daemon.port());
  ExpectServed(client, 1);  // the solver thread has joined the arena
  const std::vector<int> others(allowed.begin(), allowed.end() - 1);
  const std::string log = daemon.WaitForLog("listening on ");
  EXPECT_THAT(log, HasSubstr("(threads 1 on CPU " + solver));
  if (others.size() == 1) {
    EXPECT_THAT(log, HasSubstr(", the rest on " + std::to_string(others[0]) + ", kernel "));
  }
  if (others.empty()) {
    EXPECT_THAT(log, Not(HasSubstr("the rest")));
  }
  const auto cpus = ThreadCpus(daemon.pid());
  ASSERT_TRUE(cpus.count("sudokud-solve")) << "no solver thread";
  EXPECT_EQ(cpus.at("sudokud-solve"), std::set<std::string>{solver});
  if (!others.empty()) {
    for (const auto& [name, lists] : cpus) {
      if (name != "sudokud-solve") {
        EXPECT_EQ(lists.count(solver), 0u) << name;
      }
    }
  }
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
}

TEST(Daemon, ReportsAnAddressInUse) {
  DaemonProcess first(kLoopback);
  const std::string address = "127.0.0.1:" + std::to_string(first.port());
  const ProcessResult result = RunDaemonToExit({"--listen", address});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "sudokud: cannot listen on " + address +
                            ": Address already in use (another program, perhaps a sudokud "
                            "started earlier, holds it: stop it, or give --listen another port)\n");
}

}  // namespace
}  // namespace sudoku::testing
