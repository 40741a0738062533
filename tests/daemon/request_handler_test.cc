// The one request handler of every listener, without a socket: what it refuses and with which
// words, what it charges and gives back, what it counts, and that a requester's cancel stops
// its work. The listeners' own behaviour on top of it is in daemon_test.cc (the port) and
// web_api_test.cc (the JSON API).
#include "daemon/request_handler.h"

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <memory>
#include <optional>
#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <gtest/gtest.h>

#include "daemon/admission.h"
#include "daemon/metrics.h"
#include "daemon/pool.h"
#include "tests/support/puzzles.h"

namespace sudoku::daemon {
namespace {

namespace asio = boost::asio;
using ::sudoku::testing::kSeventeenClues;
using ::sudoku::testing::kWikipediaPuzzle;

class RequestHandlerTest : public ::testing::Test {
 protected:
  RequestHandlerTest()
      : pool_(1),
        admission_(/*max_in_flight=*/100, /*max_memory=*/1 << 20),
        handler_(pool_, admission_, stats_, jobs_, /*max_batch=*/1000,
                 [this] { return MetricsSnapshot{.stats = stats_}; }) {
    stats_.connections = 7;
  }
  // The Pool holds a tbb::task_group, whose destructor may throw; a test fixture's may not.
  ~RequestHandlerTest() noexcept override {}

  static Job Batch(uint64_t id, int puzzles, uint32_t limit = 1) {
    Job job;
    job.request.mutable_solve()->set_batch_id(id);
    job.request.mutable_solve()->set_solution_limit(limit);
    for (int i = 0; i < puzzles; ++i) job.request.mutable_solve()->add_puzzles(kWikipediaPuzzle);
    return job;
  }
  static Job Explain(uint64_t id) {
    Job job;
    job.request.mutable_explain()->set_request_id(id);
    job.request.mutable_explain()->set_puzzle(kWikipediaPuzzle);
    return job;
  }
  static Job Generate(uint64_t id, uint32_t count) {
    Job job;
    job.request.mutable_generate()->set_request_id(id);
    job.request.mutable_generate()->set_count(count);
    job.request.mutable_generate()->set_seed(11);
    return job;
  }

  // RequestHandler::Serve, run to its end; returns what the work threw.
  std::string Serve(Requester& requester, Job& job) {
    std::optional<std::string> failure;
    asio::co_spawn(
        io_,
        [&]() -> asio::awaitable<void> {
          failure = co_await handler_.Serve(io_.get_executor(), requester, job);
        },
        asio::detached);
    io_.run();
    io_.restart();
    EXPECT_TRUE(failure.has_value());
    return failure.value_or("never finished");
  }

  asio::io_context io_;
  Pool pool_;
  Admission admission_;
  ServerStats stats_;
  JobPool jobs_;
  RequestHandler handler_;
};

TEST_F(RequestHandlerTest, AcceptChargesTheCostToTheRequesterAndTheDaemon) {
  Requester requester(pool_.NewOwner());
  Job job = Batch(1, 3);
  EXPECT_EQ(handler_.Accept(requester, job, wire::RequestKind::kSolve), std::nullopt);
  EXPECT_EQ(job.cost, 3u);
  EXPECT_FALSE(job.long_work);
  EXPECT_TRUE(job.working);
  EXPECT_EQ(requester.in_flight(), 3u);
  EXPECT_EQ(admission_.in_flight(), 3u);
  // Counting past two solutions has no bound on its time: long work.
  Job count = Batch(2, 1, /*limit=*/3);
  EXPECT_EQ(handler_.Accept(requester, count, wire::RequestKind::kSolve), std::nullopt);
  EXPECT_TRUE(count.long_work);
  EXPECT_EQ(requester.in_flight(), 4u);
}

TEST_F(RequestHandlerTest, AnIdInFlightIsRefusedWithTheKindsWordsAndNothingCharged) {
  Requester requester(pool_.NewOwner());
  Job first = Batch(5, 1);
  Job explain = Explain(5);
  Job generate = Generate(5, 2);
  ASSERT_EQ(handler_.Accept(requester, first, wire::RequestKind::kSolve), std::nullopt);
  // Ids are per kind: an explanation and a generation may use the batch's.
  ASSERT_EQ(handler_.Accept(requester, explain, wire::RequestKind::kExplain), std::nullopt);
  ASSERT_EQ(handler_.Accept(requester, generate, wire::RequestKind::kGenerate), std::nullopt);
  const size_t held = requester.in_flight();

  Job again = Batch(5, 1);
  auto refusal = handler_.Accept(requester, again, wire::RequestKind::kSolve);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->kind, wire::ProtocolFault::BAD_SOLVE_REQUEST);
  EXPECT_EQ(refusal->message,
            "batch 5 is already in flight on this connection; batch ids must be unique among "
            "unanswered batches");
  Job explain_again = Explain(5);
  refusal = handler_.Accept(requester, explain_again, wire::RequestKind::kExplain);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->kind, wire::ProtocolFault::BAD_EXPLAIN_REQUEST);
  EXPECT_EQ(refusal->message,
            "explain request 5 is already in flight on this connection; request ids must be "
            "unique among unanswered explain requests");
  Job generate_again = Generate(5, 2);
  refusal = handler_.Accept(requester, generate_again, wire::RequestKind::kGenerate);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->kind, wire::ProtocolFault::BAD_GENERATE_REQUEST);
  EXPECT_EQ(refusal->message,
            "generate request 5 is already in flight on this connection; request ids must be "
            "unique among unfinished generate requests");
  EXPECT_EQ(requester.in_flight(), held);
  EXPECT_EQ(admission_.in_flight(), held);

  // Another requester's ids are its own.
  Requester other(pool_.NewOwner());
  Job theirs = Batch(5, 1);
  EXPECT_EQ(handler_.Accept(other, theirs, wire::RequestKind::kSolve), std::nullopt);

  // Once its answer is delivered, the id may be used again.
  handler_.Ended(requester, first, /*delivered=*/true);
  Job reused = Batch(5, 1);
  EXPECT_EQ(handler_.Accept(requester, reused, wire::RequestKind::kSolve), std::nullopt);
}

TEST_F(RequestHandlerTest, AGenerationPastMaxBatchIsRefused) {
  Requester requester(pool_.NewOwner());
  Job job = Generate(3, 1001);
  const auto refusal = handler_.Accept(requester, job, wire::RequestKind::kGenerate);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->kind, wire::ProtocolFault::BAD_GENERATE_REQUEST);
  EXPECT_EQ(refusal->message,
            "generate request 3 asks for 1001 puzzles (expected 1 to --max-batch 1000)");
  EXPECT_EQ(admission_.in_flight(), 0u);
  Job most = Generate(3, 1000);
  EXPECT_EQ(handler_.Accept(requester, most, wire::RequestKind::kGenerate), std::nullopt);
  EXPECT_EQ(most.cost, 1000u);
  EXPECT_TRUE(most.long_work);
}

TEST_F(RequestHandlerTest, AStatsRequestIsAnsweredAtOnceAndCostsOne) {
  Requester requester(pool_.NewOwner());
  Job job;
  job.request.mutable_stats();
  EXPECT_EQ(handler_.Accept(requester, job, wire::RequestKind::kStats), std::nullopt);
  EXPECT_TRUE(job.at_once);
  EXPECT_EQ(job.response.stats().connections_total(), 7u);
  EXPECT_EQ(job.cost, 1u);
  EXPECT_EQ(requester.in_flight(), 1u);
}

TEST_F(RequestHandlerTest, ServeAnswersCountsAndGivesEverythingBack) {
  Requester requester(pool_.NewOwner());
  Job batch = Batch(1, 2);
  ASSERT_EQ(handler_.Accept(requester, batch, wire::RequestKind::kSolve), std::nullopt);
  EXPECT_EQ(Serve(requester, batch), "");
  EXPECT_TRUE(batch.complete);
  ASSERT_EQ(batch.response.solve().verdicts_size(), 2);
  EXPECT_EQ(batch.response.solve().verdicts(0), wire::SOLVED);

  Job generate = Generate(1, 3);
  ASSERT_EQ(handler_.Accept(requester, generate, wire::RequestKind::kGenerate), std::nullopt);
  EXPECT_EQ(Serve(requester, generate), "");
  EXPECT_EQ(generate.response.generate().clues_size(), 3);

  EXPECT_EQ(stats_.batches, 1u);
  EXPECT_EQ(stats_.puzzles.solved, 2u);
  EXPECT_EQ(stats_.generates, 1u);
  EXPECT_EQ(stats_.puzzles_generated, 3u);
  EXPECT_EQ(requester.in_flight(), 0u);
  EXPECT_EQ(admission_.in_flight(), 0u);
  // The ids are free again.
  Job again = Batch(1, 1);
  EXPECT_EQ(handler_.Accept(requester, again, wire::RequestKind::kSolve), std::nullopt);
}

TEST_F(RequestHandlerTest, ACancelledRequesterGetsNoAnswerAndItsRequestCountsAsCancelled) {
  Requester requester(pool_.NewOwner());
  // All 81 cells blank, every solution counted: only a cancel ends it soon.
  Job count = Batch(9, 0, /*limit=*/1000000);
  count.request.mutable_solve()->add_puzzles(std::string(81, '.'));
  ASSERT_EQ(handler_.Accept(requester, count, wire::RequestKind::kSolve), std::nullopt);
  requester.Cancel();
  EXPECT_EQ(Serve(requester, count), "");
  EXPECT_FALSE(count.complete);
  EXPECT_EQ(stats_.batches, 0u);
  EXPECT_EQ(stats_.batches_cancelled, 1u);
  EXPECT_EQ(requester.in_flight(), 0u);
  EXPECT_EQ(admission_.in_flight(), 0u);
}

TEST_F(RequestHandlerTest, CancellingLongWorkLeavesBoundedWorkAlone) {
  Requester requester(pool_.NewOwner());
  Job bounded = Batch(1, 1);
  Job explain = Explain(2);
  ASSERT_EQ(handler_.Accept(requester, bounded, wire::RequestKind::kSolve), std::nullopt);
  ASSERT_EQ(handler_.Accept(requester, explain, wire::RequestKind::kExplain), std::nullopt);
  requester.CancelLong();  // as when a protocol peer closes its side
  EXPECT_EQ(Serve(requester, bounded), "");
  EXPECT_TRUE(bounded.complete);
  EXPECT_EQ(Serve(requester, explain), "");
  EXPECT_FALSE(explain.complete);
  EXPECT_EQ(stats_.explains, 0u);
}

TEST_F(RequestHandlerTest, BusyNamesTheBudgetWithoutRoom) {
  EXPECT_EQ(handler_.Busy(100, 10), std::nullopt);
  admission_.Charge(0, 150);
  EXPECT_EQ(handler_.Busy(100, 10),
            "busy: the daemon has 150 puzzles in flight, its limit is 100 (--max-in-flight); try "
            "again shortly");
  admission_.WorkDone(150);
  admission_.Release(0, 150, false);
  admission_.MemoryChanged(0, 1 << 20);
  EXPECT_EQ(handler_.Busy(1, 10),
            "busy: the daemon holds 1048576 bytes of requests and answers, its budget is "
            "1048576 (--max-memory); try again shortly");
}

TEST_F(RequestHandlerTest, AnInternalErrorNamesTheRequestAsItsRequesterDid) {
  Requester requester(pool_.NewOwner());
  Job batch = Batch(4, 1);
  Job explain = Explain(6);
  Job generate = Generate(8, 1);
  ASSERT_EQ(handler_.Accept(requester, batch, wire::RequestKind::kSolve), std::nullopt);
  ASSERT_EQ(handler_.Accept(requester, explain, wire::RequestKind::kExplain), std::nullopt);
  ASSERT_EQ(handler_.Accept(requester, generate, wire::RequestKind::kGenerate), std::nullopt);
  EXPECT_EQ(RequestHandler::InternalError(batch, "boom"),
            "internal error while solving batch 4: boom");
  EXPECT_EQ(RequestHandler::InternalError(explain, "boom"),
            "internal error while explaining request 6: boom");
  EXPECT_EQ(RequestHandler::InternalError(generate, "boom"),
            "internal error while generating for request 8: boom");
}

}  // namespace
}  // namespace sudoku::daemon
