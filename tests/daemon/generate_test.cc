// Generation in the daemon: CheckGenerateRequest's exact refusals, GenerateChunk,
// pencilmark puzzles in SolveBatch, and the real sudokud streaming generated puzzles in chunks.
#include "daemon/request_work.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "solver/generator.h"
#include "solver/logic.h"
#include "solver/solver.h"
#include "tests/daemon/wire_client.h"
#include "tests/support/puzzles.h"
#include "tests/support/sudoku_check.h"

namespace sudoku::daemon {
namespace {

using ::sudoku::testing::kSeventeenClues;
using ::sudoku::testing::Pencilmarks;

using ::testing::HasSubstr;

wire::GenerateRequest MakeGenerate(uint64_t id, uint32_t count, uint64_t seed = 1) {
  wire::GenerateRequest request;
  request.set_request_id(id);
  request.set_count(count);
  request.set_seed(seed);
  return request;
}

// Each 81-character puzzle of `puzzles` has exactly one solution.
void ExpectUnique(const std::string& puzzles, size_t count) {
  ASSERT_EQ(puzzles.size(), count * kCells);
  for (size_t i = 0; i < count; ++i) {
    const std::string puzzle = puzzles.substr(i * kCells, kCells);
    EXPECT_EQ(Solve(puzzle, {.max_solutions = 2}).verdict, Verdict::kSolved) << puzzle;
  }
}

TEST(CheckGenerateRequest, RefusesEachBadFieldWithItsMessage) {
  EXPECT_EQ(CheckGenerateRequest(MakeGenerate(3, 10), 100), std::nullopt);
  EXPECT_EQ(CheckGenerateRequest(MakeGenerate(3, 0), 100),
            "generate request 3 asks for 0 puzzles (expected 1 to --max-batch 100)");
  EXPECT_EQ(CheckGenerateRequest(MakeGenerate(4, 101), 100),
            "generate request 4 asks for 101 puzzles (expected 1 to --max-batch 100)");
  wire::GenerateRequest clues = MakeGenerate(5, 1);
  clues.set_clues(16);
  EXPECT_EQ(CheckGenerateRequest(clues, 100),
            "generate request 5 asks for 16 clues (expected 17 to 81, or 0 for no target)");
  clues.set_clues(82);
  EXPECT_EQ(CheckGenerateRequest(clues, 100),
            "generate request 5 asks for 82 clues (expected 17 to 81, or 0 for no target)");
  wire::GenerateRequest level = MakeGenerate(6, 1);
  level.set_difficulty(static_cast<wire::Level>(9));
  EXPECT_EQ(CheckGenerateRequest(level, 100), "generate request 6 asks for unknown difficulty 9");
  wire::GenerateRequest scales = MakeGenerate(7, 1);
  scales.set_hodoku_level(static_cast<wire::HodokuLevel>(5));
  EXPECT_EQ(CheckGenerateRequest(scales, 100),
            "generate request 7 asks for unknown HoDoKu level 5");
  scales.set_hodoku_level(wire::HODOKU_EXTREME);
  scales.set_se_min(9);
  EXPECT_EQ(CheckGenerateRequest(scales, 100),
            "generate request 7 asks for se_min 9 (expected 10 to 119, tenths of the SE rating, "
            "or 0 for no bound)");
  scales.set_se_min(0);
  scales.set_se_max(120);
  EXPECT_EQ(CheckGenerateRequest(scales, 100),
            "generate request 7 asks for se_max 120 (expected 10 to 119, tenths of the SE "
            "rating, or 0 for no bound)");
  scales.set_se_min(50);
  scales.set_se_max(40);
  EXPECT_EQ(CheckGenerateRequest(scales, 100),
            "generate request 7 asks for se_min 50 above se_max 40");
  scales.set_se_max(50);
  EXPECT_EQ(CheckGenerateRequest(scales, 100), std::nullopt);
  wire::GenerateRequest needs = MakeGenerate(8, 1);
  needs.set_needs(static_cast<wire::Technique>(99));
  EXPECT_EQ(CheckGenerateRequest(needs, 100), "generate request 8 asks for unknown technique 99");
  needs.set_needs(wire::WXYZ_WING);
  EXPECT_EQ(CheckGenerateRequest(needs, 100),
            "generate request 8 asks for technique 31 (wxyz-wing), which no explanation takes "
            "(only the SE rating's path does)");
  for (const wire::Technique technique :
       {wire::NAKED_SINGLE, wire::XY_CHAIN, wire::TRIAL, wire::MULTI_COLOURS}) {
    needs.set_needs(technique);
    EXPECT_EQ(CheckGenerateRequest(needs, 100), std::nullopt) << technique;
  }
}

TEST(GenerateChunk, FillsTheRunAndMarksTheLast) {
  const std::atomic<bool> cancel{false};
  const wire::GenerateRequest request = MakeGenerate(8, 10, 42);
  wire::GenerateResponse first, second;
  ASSERT_TRUE(GenerateChunk(request, 0, 6, cancel, &first));
  ASSERT_TRUE(GenerateChunk(request, 6, 10, cancel, &second));
  EXPECT_EQ(first.request_id(), 8u);
  EXPECT_EQ(first.first(), 0u);
  EXPECT_EQ(first.covered(), 6u);
  EXPECT_FALSE(first.last());
  EXPECT_EQ(second.first(), 6u);
  EXPECT_EQ(second.covered(), 4u);
  EXPECT_TRUE(second.last());
  ExpectUnique(first.puzzles(), 6);
  ExpectUnique(second.puzzles(), 4);
  EXPECT_EQ(first.clues_size(), 6);
  EXPECT_EQ(first.failures_size(), 0);

  // The same puzzles however the request is cut: puzzle 7 is index 7 of seed 42.
  wire::GenerateRequest later = MakeGenerate(9, 3, 42);
  later.set_first_index(6);
  wire::GenerateResponse same;
  ASSERT_TRUE(GenerateChunk(later, 0, 3, cancel, &same));
  EXPECT_EQ(same.puzzles(), second.puzzles().substr(0, 3 * kCells));
}

TEST(GenerateChunk, ReportsPuzzlesThatCannotBeMade) {
  const std::atomic<bool> cancel{false};
  wire::GenerateRequest request = MakeGenerate(1, 2);
  request.set_clues(60);
  request.set_minimal(true);  // no minimal puzzle has 60 clues
  wire::GenerateResponse response;
  ASSERT_TRUE(GenerateChunk(request, 0, 2, cancel, &response));
  EXPECT_EQ(response.puzzles(), "");
  ASSERT_EQ(response.failures_size(), 2);
  EXPECT_EQ(response.failures(1).index(), 1u);
  EXPECT_EQ(response.failures(1).message(), "no minimal and 60-clue puzzle found in 2000 attempts");
}

TEST(GenerateChunk, MakesPuzzlesWhoseExplanationTakesTheTechnique) {
  const std::atomic<bool> cancel{false};
  wire::GenerateRequest request = MakeGenerate(1, 3, 21);
  request.set_needs(wire::X_WING);
  wire::GenerateResponse response;
  ASSERT_TRUE(GenerateChunk(request, 0, 3, cancel, &response));
  ASSERT_EQ(response.failures_size(), 0);
  ExpectUnique(response.puzzles(), 3);
  for (size_t i = 0; i < 3; ++i) {
    const std::string puzzle = response.puzzles().substr(i * kCells, kCells);
    Grid grid;
    ASSERT_FALSE(ParsePuzzle(puzzle, &grid));
    const logic::Explanation explanation = logic::Explain(grid);
    EXPECT_TRUE(std::any_of(
        explanation.steps.begin(), explanation.steps.end(),
        [](const logic::Step& step) { return step.technique == logic::Technique::kXWing; }))
        << puzzle;
  }
  // What could not be made names the technique.
  request.set_clues(70);
  ASSERT_TRUE(GenerateChunk(request, 0, 1, cancel, &response));
  ASSERT_EQ(response.failures_size(), 1);
  EXPECT_EQ(response.failures(0).message(),
            "no 70-clue puzzle needing an x-wing found in 2000 attempts");
}

TEST(GenerateChunk, StopsWhenCancelled) {
  const std::atomic<bool> cancel{true};
  wire::GenerateResponse response;
  EXPECT_FALSE(GenerateChunk(MakeGenerate(1, 5), 0, 5, cancel, &response));
}

// Puzzles no attempt can make: without the poll between attempts, each would try all 2000.
TEST(Generate, StopsBetweenAttemptsWhenCancelled) {
  const std::atomic<bool> cancel{true};
  GenerateOptions options;
  options.clues = 60;
  options.minimal = true;
  options.cancel = &cancel;
  const Generated made = Generate(options, 0);
  EXPECT_TRUE(made.cancelled);
  EXPECT_FALSE(made.ok);
  EXPECT_EQ(made.attempts, 0u);
}

TEST(GenerateChunk, StopsAnImpossibleRunWhenCancelledMidway) {
  std::atomic<bool> cancel{false};
  std::thread canceller([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel.store(true, std::memory_order_relaxed);
  });
  wire::GenerateRequest request = MakeGenerate(1, 64);
  request.set_clues(60);
  request.set_minimal(true);
  wire::GenerateResponse response;
  EXPECT_FALSE(GenerateChunk(request, 0, 64, cancel, &response));
  canceller.join();
}

TEST(SolveBatch, SolvesPencilmarkPuzzlesAndLocatesTheirErrors) {
  const std::string puzzle =
      kSeventeenClues;
  std::string bad = Pencilmarks(puzzle);
  bad[9 * 4 + 6] = '3';  // r1c5, seventh candidate
  wire::SolveRequest request;
  request.set_batch_id(1);
  request.set_solution_limit(2);
  request.add_puzzles(Pencilmarks(puzzle));
  request.add_puzzles(bad);
  const std::atomic<bool> cancel{false};
  wire::SolveResponse response;
  wire::VerdictTally counts;
  ASSERT_TRUE(SolveBatch(request, cancel, &response, &counts));
  EXPECT_EQ(response.verdicts(0), wire::SOLVED);
  EXPECT_TRUE(testing::IsSolutionOf(puzzle, response.solutions()));
  EXPECT_EQ(response.verdicts(1), wire::INVALID);
  ASSERT_EQ(response.errors_size(), 1);
  EXPECT_EQ(response.errors(0).index(), 1u);
  EXPECT_EQ(response.errors(0).position(), 43u);
  EXPECT_EQ(response.errors(0).message(),
            "bad character '3' for candidate 7 of r1c5 (expected 7, or . 0 if excluded)");
}

// ---- The real daemon ----

TEST(DaemonGenerate, StreamsThePuzzlesInChunks) {
  testing::DaemonProcess daemon({"--listen", "127.0.0.1:0", "--threads", "2"});
  testing::WireClient client(daemon.port());
  const uint32_t count = 2 * kGenerateChunk + 5;
  wire::Request request;
  *request.mutable_generate() = MakeGenerate(77, count, 5);
  request.mutable_generate()->set_symmetric(true);
  client.Send(request);
  std::string puzzles;
  uint32_t next = 0;
  for (bool last = false; !last;) {
    const auto response = client.Read();
    ASSERT_TRUE(response && response->has_generate())
        << (response ? response->ShortDebugString() : "closed");
    const wire::GenerateResponse& chunk = response->generate();
    EXPECT_EQ(chunk.request_id(), 77u);
    EXPECT_EQ(chunk.first(), next);
    next += chunk.covered();
    puzzles += chunk.puzzles();
    last = chunk.last();
  }
  EXPECT_EQ(next, count);
  ExpectUnique(puzzles, count);
  for (size_t i = 0; i < count; ++i) {
    for (int cell = 0; cell < kCells; ++cell) {
      ASSERT_EQ(puzzles[i * kCells + cell] == '.', puzzles[i * kCells + kCells - 1 - cell] == '.');
    }
  }
  client.Close();
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0) << daemon.Log();
}

TEST(DaemonGenerate, RefusesABadRequestWithAFault) {
  testing::DaemonProcess daemon({"--listen", "127.0.0.1:0", "--max-batch", "50"});
  testing::WireClient client(daemon.port());
  wire::Request request;
  *request.mutable_generate() = MakeGenerate(2, 51);
  client.Send(request);
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_fault());
  EXPECT_EQ(response->fault().kind(), wire::ProtocolFault::BAD_GENERATE_REQUEST);
  EXPECT_EQ(response->fault().message(),
            "frame 1: generate request 2 asks for 51 puzzles (expected 1 to --max-batch 50)");
  EXPECT_THAT(daemon.WaitForLog("protocol fault"), HasSubstr("BAD_GENERATE_REQUEST"));
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0) << daemon.Log();
}

TEST(DaemonGenerate, RefusesAnUnknownTechniqueWithAFault) {
  testing::DaemonProcess daemon({"--listen", "127.0.0.1:0"});
  testing::WireClient client(daemon.port());
  wire::Request request;
  *request.mutable_generate() = MakeGenerate(3, 1);
  request.mutable_generate()->set_needs(static_cast<wire::Technique>(99));
  client.Send(request);
  const auto response = client.Read();
  ASSERT_TRUE(response && response->has_fault());
  EXPECT_EQ(response->fault().kind(), wire::ProtocolFault::BAD_GENERATE_REQUEST);
  EXPECT_EQ(response->fault().message(),
            "frame 1: generate request 3 asks for unknown technique 99");
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0) << daemon.Log();
}

}  // namespace
}  // namespace sudoku::daemon
