// The soak's load: many connections at once, each running one scenario after another, picked at
// random from valid, invalid and hostile traffic, for a bounded time. Every valid puzzle's answer
// is checked (verdict, solution against the givens, each batch answered exactly once); every
// hostile scenario must get the documented fault (idle ones included), or none where the peer
// cannot read one (resets with work in flight).
//
//   soak_client PORT SECONDS [CONNECTIONS]
//
// Prints one line of counts at the end; exits 1 on any wrong, missing or duplicated answer.
// Used by tests/soak/soak.sh (not by ctest: it runs for minutes).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "proto/framing.h"
#include "tests/daemon/wire_client.h"
#include "tests/support/sudoku_check.h"
#include "tests/support/puzzles.h"

namespace sudoku::testing {
namespace {

using Clock = std::chrono::steady_clock;

struct Counts {
  std::atomic<uint64_t> connections{0};
  std::atomic<uint64_t> batches{0};
  std::atomic<uint64_t> puzzles_checked{0};
  std::atomic<uint64_t> invalid_checked{0};
  std::atomic<uint64_t> faults{0};
  std::atomic<uint64_t> resets{0};
  std::atomic<uint64_t> refused{0};  // TOO_MANY_CONNECTIONS, expected now and then
  std::atomic<uint64_t> errors{0};
};

Counts counts;
std::mutex print_mutex;

void Error(const std::string& what) {
  ++counts.errors;
  std::lock_guard lock(print_mutex);
  std::fprintf(stderr, "soak_client: ERROR: %s\n", what.c_str());
}

// A refusal at --max-connections is the daemon doing its job, not an error.
bool Refused(const std::optional<wire::Response>& response) {
  if (response && response->has_fault() &&
      response->fault().kind() == wire::ProtocolFault::TOO_MANY_CONNECTIONS) {
    ++counts.refused;
    // Back off, as a client should, rather than hammer the limit.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return true;
  }
  return false;
}

// Pipelines a few batches of valid puzzles and checks that each comes back once, solved.
void ValidBatches(uint16_t port, std::mt19937& random) {
  WireClient client(port);
  const int batches = 1 + static_cast<int>(random() % 8);
  std::map<uint64_t, std::vector<std::string>> sent;
  for (int b = 0; b < batches; ++b) {
    const int size = 1 + static_cast<int>(random() % 300);
    sent[static_cast<uint64_t>(b) * 7 + 3] = GeneratePuzzles(
        size, 24 + static_cast<int>(random() % 20), static_cast<uint32_t>(random()));
  }
  for (const auto& [id, puzzles] : sent) client.SendSolve(id, puzzles, random() % 2 ? 1 : 0);
  client.ShutdownSend();
  std::map<uint64_t, int> answered;
  for (;;) {
    auto response = client.Read();
    if (!response) break;
    if (Refused(response)) return;
    if (!response->has_solve()) {
      Error("valid batches got " + response->ShortDebugString());
      return;
    }
    const auto& solve = response->solve();
    auto it = sent.find(solve.batch_id());
    if (it == sent.end() || ++answered[solve.batch_id()] > 1) {
      Error("batch " + std::to_string(solve.batch_id()) + " unknown or answered twice");
      continue;
    }
    const auto& puzzles = it->second;
    if (solve.verdicts_size() != static_cast<int>(puzzles.size()) ||
        solve.solutions().size() != puzzles.size() * 81) {
      Error("batch " + std::to_string(solve.batch_id()) + " has the wrong number of answers");
      continue;
    }
    for (size_t i = 0; i < puzzles.size(); ++i) {
      if (solve.verdicts(static_cast<int>(i)) != wire::SOLVED ||
          !IsSolutionOf(puzzles[i], solve.solutions().substr(i * 81, 81))) {
        Error("wrong answer to " + puzzles[i]);
      } else {
        ++counts.puzzles_checked;
      }
    }
    ++counts.batches;
  }
  if (answered.size() != sent.size()) {
    Error(std::to_string(sent.size() - answered.size()) + " batches never answered");
  }
}

// A batch mixing valid and invalid puzzles: each invalid one gets INVALID and an error.
void InvalidPuzzles(uint16_t port, std::mt19937& random) {
  WireClient client(port);
  std::vector<std::string> puzzles = GeneratePuzzles(4, 30, static_cast<uint32_t>(random()));
  std::string bad = puzzles[0];
  bad[random() % 81] = 'x';
  std::string repeat(81, '.');
  repeat[0] = repeat[1] = '7';
  puzzles.insert(puzzles.begin() + 1, bad);
  puzzles.insert(puzzles.begin() + 3, repeat);
  puzzles.push_back(std::string(random() % 200, '1'));
  client.SendSolve(11, puzzles);
  auto response = client.Read();
  if (Refused(response)) return;
  if (!response || !response->has_solve()) {
    Error("invalid puzzles got no SolveResponse");
    return;
  }
  const auto& solve = response->solve();
  const std::vector<int> invalid = {1, 3, 6};
  if (solve.errors_size() != 3 || solve.solutions().size() != 4u * 81) {
    Error("invalid puzzles: " + solve.ShortDebugString().substr(0, 200));
    return;
  }
  for (int k = 0; k < 3; ++k) {
    if (solve.verdicts(invalid[k]) != wire::INVALID ||
        solve.errors(k).index() != static_cast<uint32_t>(invalid[k])) {
      Error("invalid puzzle " + std::to_string(invalid[k]) + " not reported");
    }
  }
  ++counts.invalid_checked;
  ++counts.batches;
}

// Hostile bytes: each must be answered with its fault, and the connection closed.
void Hostile(uint16_t port, std::mt19937& random) {
  WireClient client(port);
  wire::ProtocolFault::Kind expected;
  switch (random() % 5) {
    case 0:
      client.SendBytes("\x80\xbb\xb0\x21");  // 70000000 declared
      expected = wire::ProtocolFault::FRAME_TOO_LARGE;
      break;
    case 1:
      client.SendBytes(std::string(12, '\xff'));
      expected = wire::ProtocolFault::MALFORMED;
      break;
    case 2: {
      std::string garbage(1 + random() % 100, '\0');
      for (char& c : garbage) c = static_cast<char>(random());
      // A one-byte prefix saying exactly this much follows, then bytes that are no Request
      // (tag 0 is never valid).
      client.SendBytes(std::string(1, static_cast<char>(garbage.size() + 1)) + '\0' + garbage);
      expected = wire::ProtocolFault::MALFORMED;
      break;
    }
    case 3:
      client.SendBytes(std::string("\x02\x48\x01", 3));
      expected = wire::ProtocolFault::EMPTY_REQUEST;
      break;
    default: {
      std::string frame;
      wire::Request request;
      request.mutable_solve()->add_puzzles(std::string(81, '.'));
      wire::AppendFrame(request, &frame);
      client.SendBytes(frame.substr(0, 1 + random() % (frame.size() - 1)));
      client.ShutdownSend();
      expected = wire::ProtocolFault::MALFORMED;
    }
  }
  auto response = client.Read();
  if (Refused(response)) return;
  if (!response || !response->has_fault() || response->fault().kind() != expected) {
    Error("hostile input: expected " + wire::ProtocolFault::Kind_Name(expected) + ", got " +
          (response ? response->ShortDebugString() : "end of stream"));
    return;
  }
  if (client.Read()) Error("the connection stayed open after a fault");
  ++counts.faults;
}

// A peer that vanishes: work in flight, answers unread, then a reset.
void Vanish(uint16_t port, std::mt19937& random) {
  WireClient client(port);
  for (uint64_t id = 0; id < 4; ++id) {
    client.SendSolve(id, GeneratePuzzles(500, 24, static_cast<uint32_t>(random())));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(random() % 50));
  client.Reset();
  ++counts.resets;
}

// A connection that says nothing: closed with IDLE_TIMEOUT after --idle-timeout.
void Idle(uint16_t port) {
  WireClient client(port);
  auto response = client.Read();
  if (Refused(response)) return;
  if (!response || !response->has_fault() ||
      response->fault().kind() != wire::ProtocolFault::IDLE_TIMEOUT) {
    Error("idle connection: got " + (response ? response->ShortDebugString() : "end of stream"));
    return;
  }
  ++counts.faults;
}

void Worker(uint16_t port, Clock::time_point end, uint32_t seed) {
  std::mt19937 random(seed);
  while (Clock::now() < end) {
    ++counts.connections;
    try {
      const unsigned pick = random() % 10;
      if (pick < 5) {
        ValidBatches(port, random);
      } else if (pick < 7) {
        InvalidPuzzles(port, random);
      } else if (pick < 9) {
        Hostile(port, random);
      } else if (random() % 4 != 0) {
        Vanish(port, random);
      } else {
        Idle(port);
      }
    } catch (const std::exception& e) {
      Error(e.what());
    }
  }
}

}  // namespace
}  // namespace sudoku::testing

int main(int argc, char** argv) {
  using namespace sudoku::testing;
  if (argc < 3) {
    std::fprintf(stderr, "usage: soak_client PORT SECONDS [CONNECTIONS]\n");
    return 2;
  }
  const auto port = static_cast<uint16_t>(std::atoi(argv[1]));
  const int seconds = std::atoi(argv[2]);
  const int connections = argc > 3 ? std::atoi(argv[3]) : 64;
  const auto end = Clock::now() + std::chrono::seconds(seconds);
  std::vector<std::thread> workers;
  for (int i = 0; i < connections; ++i) {
    workers.emplace_back(Worker, port, end, static_cast<uint32_t>(i + 1));
  }
  for (auto& worker : workers) worker.join();
  std::printf(
      "soak_client: %llu connections, %llu batches answered, %llu valid puzzles checked, %llu "
      "invalid-puzzle batches checked, %llu hostile inputs faulted, %llu resets, %llu refused "
      "at --max-connections, %llu errors\n",
      static_cast<unsigned long long>(counts.connections.load()),
      static_cast<unsigned long long>(counts.batches.load()),
      static_cast<unsigned long long>(counts.puzzles_checked.load()),
      static_cast<unsigned long long>(counts.invalid_checked.load()),
      static_cast<unsigned long long>(counts.faults.load()),
      static_cast<unsigned long long>(counts.resets.load()),
      static_cast<unsigned long long>(counts.refused.load()),
      static_cast<unsigned long long>(counts.errors.load()));
  return counts.errors.load() == 0 ? 0 : 1;
}
