#include "daemon/generate.h"

#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "proto/tsan_fork_join.h"
#include "solver/generator.h"
#include "solver/logic.h"

namespace sudoku::daemon {
namespace {

// wire::Level mirrors logic::Level value for value.
static_assert(static_cast<int>(logic::Level::kSimple) == wire::SIMPLE);
static_assert(static_cast<int>(logic::Level::kEasy) == wire::EASY);
static_assert(static_cast<int>(logic::Level::kIntermediate) == wire::INTERMEDIATE);
static_assert(static_cast<int>(logic::Level::kExpert) == wire::EXPERT);

}  // namespace

std::optional<std::string> CheckGenerateRequest(const wire::GenerateRequest& request,
                                                size_t max_count) {
  const std::string what = "generate request " + std::to_string(request.request_id());
  if (request.count() == 0 || request.count() > max_count) {
    return what + " asks for " + std::to_string(request.count()) +
           " puzzles (expected 1 to --max-batch " + std::to_string(max_count) + ")";
  }
  if (request.clues() != 0 && (request.clues() < kMinClues || request.clues() > kCells)) {
    return what + " asks for " + std::to_string(request.clues()) +
           " clues (expected 17 to 81, or 0 for no target)";
  }
  if (request.has_difficulty() && !wire::Level_IsValid(request.difficulty())) {
    return what + " asks for unknown difficulty " + std::to_string(request.difficulty());
  }
  return std::nullopt;
}

bool GenerateChunk(const wire::GenerateRequest& request, uint32_t begin, uint32_t end,
                   const std::atomic<bool>& cancel, wire::GenerateResponse* response) {
  GenerateOptions options;
  options.seed = request.seed();
  options.clues = static_cast<int>(request.clues());
  options.symmetric = request.symmetric();
  options.minimal = request.minimal();
  if (request.has_difficulty()) options.level = static_cast<logic::Level>(request.difficulty());
  // Polled between attempts too, so that a request no attempt can satisfy stops within a few
  // milliseconds of a cancellation, not after all its attempts.
  options.cancel = &cancel;

  std::vector<Generated> made(end - begin);
  Forking();
  tbb::parallel_for(tbb::blocked_range<uint32_t>(begin, end, 1),
                    [&](const tbb::blocked_range<uint32_t>& range) {
                      RangeBegins();
                      for (uint32_t i = range.begin(); i != range.end(); ++i) {
                        if (cancel.load(std::memory_order_relaxed)) break;
                        made[i - begin] = Generate(options, request.first_index() + i);
                      }
                      RangeDone(&made);
                    });
  Joined(&made);
  if (cancel.load(std::memory_order_relaxed)) return false;

  response->Clear();
  response->set_request_id(request.request_id());
  response->set_first(begin);
  response->set_covered(end - begin);
  response->set_last(end == request.count());
  std::string* puzzles = response->mutable_puzzles();
  puzzles->reserve(made.size() * kCells);
  for (uint32_t i = begin; i < end; ++i) {
    const Generated& g = made[i - begin];
    if (g.ok) {
      puzzles->append(PuzzleText(g.puzzle));
      response->add_clues(static_cast<uint32_t>(g.clues));
    } else {
      auto* failure = response->add_failures();
      failure->set_index(i);
      failure->set_message(g.error);
    }
  }
  return true;
}

}  // namespace sudoku::daemon
