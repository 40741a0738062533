#include "daemon/request_work.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "daemon/fair_queue.h"
#include "proto/codec.h"
#include "proto/explain_wire.h"
#include "proto/tsan_fork_join.h"
#include "solver/generator.h"
#include "solver/logic.h"
#include "solver/rating.h"
#include "solver/solver.h"

namespace sudoku::daemon {
namespace {

// The solver's verdicts mirror the wire enum value for value; the casts below rely on it.
static_assert(static_cast<int>(Verdict::kSolved) == wire::SOLVED);
static_assert(static_cast<int>(Verdict::kMultiple) == wire::MULTIPLE);
static_assert(static_cast<int>(Verdict::kUnsolvable) == wire::UNSOLVABLE);
static_assert(static_cast<int>(Verdict::kInvalid) == wire::INVALID);
static_assert(wire::kPackedPuzzleBytes == kPackedBytes);
static_assert(static_cast<int>(rating::HodokuLevel::kEasy) == wire::HODOKU_EASY);
static_assert(static_cast<int>(rating::HodokuLevel::kExtreme) == wire::HODOKU_EXTREME);
// wire::Level mirrors logic::Level value for value.
static_assert(static_cast<int>(logic::Level::kSimple) == wire::SIMPLE);
static_assert(static_cast<int>(logic::Level::kEasy) == wire::EASY);
static_assert(static_cast<int>(logic::Level::kIntermediate) == wire::INTERMEDIATE);
static_assert(static_cast<int>(logic::Level::kExpert) == wire::EXPERT);

// Packed puzzle `i` of a request whose packed_puzzles wire::CheckRequest() accepted.
std::span<const uint8_t, kPackedBytes> PackedPuzzle(const wire::SolveRequest& request, int i) {
  return PackedAt(request.packed_puzzles(), static_cast<size_t>(i));
}

void SetError(const PuzzleError& error, uint32_t index, wire::PuzzleError* out) {
  out->set_index(index);
  out->set_position(error.kind == PuzzleError::Kind::kLength ? 0 : error.position + 1);
  out->set_message(Describe(error));
}

// The solving paths a rating scope asks for (CheckRequest() lets through only the scopes there
// are).
rating::RatedPaths PathsOf(wire::RatingScope scope) {
  switch (scope) {
    case wire::HODOKU_PATH:
      return rating::RatedPaths::kHodoku;
    case wire::SE_PATH:
      return rating::RatedPaths::kSe;
    default:
      return rating::RatedPaths::kBoth;
  }
}

}  // namespace

void StartBatch(const wire::SolveRequest& request, wire::SolveResponse* response) {
  const int n = wire::PuzzleCount(request);
  response->Clear();
  response->set_batch_id(request.batch_id());
  response->mutable_verdicts()->Resize(n, 0);
  response->mutable_solution_counts()->Resize(n, 0);
  response->mutable_guesses()->Resize(n, 0);
  // The columns of the paths rated, as SolveBatchRange() fills them.
  const rating::RatedPaths paths = PathsOf(request.rating_scope());
  if (request.rate() && paths != rating::RatedPaths::kSe) {
    response->mutable_hardest_techniques()->Resize(n, 0);
    response->mutable_steps()->Resize(n, 0);
    response->mutable_levels()->Resize(n, 0);
    response->mutable_logic_guesses()->Resize(n, 0);
    response->mutable_hodoku_levels()->Resize(n, 0);
    response->mutable_hodoku_scores()->Resize(n, 0);
  }
  if (request.rate() && paths != rating::RatedPaths::kHodoku) {
    response->mutable_se_ratings()->Resize(n, 0);
    response->mutable_se_pearls()->Resize(n, 0);
    response->mutable_se_diamonds()->Resize(n, 0);
  }
  // Solutions are written to fixed slots first so that threads never share a position, then
  // moved together by FinishBatch to drop the slots of puzzles without a solution.
  const size_t slot_bytes = request.pack_solutions() ? kPackedBytes : kCells;
  std::string* solutions = request.pack_solutions() ? response->mutable_packed_solutions()
                                                    : response->mutable_solutions();
  solutions->resize(static_cast<size_t>(n) * slot_bytes);
}

bool SolveBatchRange(const wire::SolveRequest& request, int begin, int end,
                     const std::atomic<bool>& cancel, wire::SolveResponse* response) {
  const bool packed_in = !request.packed_puzzles().empty();
  // The wire says 0 or 1 both mean "stop at the first"; the solver treats 0 as 1 as well. The
  // search polls `cancel` too, so that a puzzle asking for many solutions stops within a
  // millisecond or so of it, not when its count is reached.
  const Limits limits{.max_solutions = request.solution_limit(), .cancel = &cancel};
  auto* verdicts = response->mutable_verdicts();
  auto* solution_counts = response->mutable_solution_counts();
  auto* guesses = response->mutable_guesses();
  const bool rate = request.rate();
  const rating::RatedPaths paths = PathsOf(request.rating_scope());
  const bool pack_out = request.pack_solutions();
  const size_t slot_bytes = pack_out ? kPackedBytes : kCells;
  std::string* solutions =
      pack_out ? response->mutable_packed_solutions() : response->mutable_solutions();
  auto solve_range = [&](const tbb::blocked_range<int>& range) {
    RangeBegins();
    if (cancel.load(std::memory_order_relaxed)) return RangeDone(response);
    for (int i = range.begin(); i != range.end(); ++i) {
      const Result result = packed_in ? SolvePacked(PackedPuzzle(request, i), limits)
                                      : Solve(request.puzzles(i), limits);
      if (result.cancelled) break;  // the batch is dropped: nothing of it is answered
      verdicts->Set(i, static_cast<int>(result.verdict));
      solution_counts->Set(i, result.solutions);
      guesses->Set(i, result.guesses);
      if (result.solutions == 0) continue;
      char* slot = solutions->data() + static_cast<size_t>(i) * slot_bytes;
      if (pack_out) {
        PackDigits(result.solution, std::span<uint8_t, kPackedBytes>(
                                        reinterpret_cast<uint8_t*>(slot), kPackedBytes));
      } else {
        std::memcpy(slot, result.solution.data(), kCells);
      }
      // Pencilmark puzzles are not rated: the logical solver starts from givens.
      if (rate && (packed_in || request.puzzles(i).size() == kCells)) {
        Grid grid;  // valid: the solver found a solution
        if (packed_in) {
          ParsePackedPuzzle(PackedPuzzle(request, i), &grid);
        } else {
          ParsePuzzle(request.puzzles(i), &grid);
        }
        // The answer above, where it is the one counted to two that the rating needs: so when
        // it was, and when propagation alone solved the grid (its one solution, no guess).
        const bool counted_to_two = limits.max_solutions == 2 ||
                                    (result.verdict == Verdict::kSolved && result.guesses == 0);
        const rating::Ratings ratings =
            rating::RateGrid(grid, paths, &cancel, counted_to_two ? &result : nullptr);
        if (paths != rating::RatedPaths::kSe) {
          const logic::Rating& qqwing = ratings.qqwing;
          response->mutable_hardest_techniques()->Set(i, wire::TechniqueToWire(qqwing.hardest));
          response->mutable_steps()->Set(i, qqwing.steps);
          response->mutable_levels()->Set(i, static_cast<int>(qqwing.level));
          response->mutable_logic_guesses()->Set(i, qqwing.logic_guesses);
          response->mutable_hodoku_levels()->Set(i, static_cast<int>(ratings.scales.hodoku_level));
          response->mutable_hodoku_scores()->Set(i, ratings.scales.hodoku_score);
        }
        if (paths != rating::RatedPaths::kHodoku) {
          response->mutable_se_ratings()->Set(i, ratings.scales.se_tenths);
          response->mutable_se_pearls()->Set(i, ratings.scales.se_pearl_tenths);
          response->mutable_se_diamonds()->Set(i, ratings.scales.se_diamond_tenths);
        }
      }
    }
    RangeDone(response);
  };
  if (end - begin >= 2 * kParallelGrain) {
    // The ranges other threads take are charged to this job's account too.
    CpuMeter* const meter = CpuMeter::Current();
    Forking();
    tbb::parallel_for(tbb::blocked_range<int>(begin, end, kParallelGrain),
                      [&](const tbb::blocked_range<int>& range) {
                        RangeBegins();  // before the capture is read
                        CpuMeter::Scope measured(meter);
                        solve_range(range);
                      });
    Joined(response);
  } else {
    solve_range(tbb::blocked_range<int>(begin, end));
  }
  return !cancel.load(std::memory_order_relaxed);
}

void FinishBatch(const wire::SolveRequest& request, wire::SolveResponse* response,
                 wire::VerdictTally* counts) {
  const int n = wire::PuzzleCount(request);
  const bool packed_in = !request.packed_puzzles().empty();
  const auto& verdicts = response->verdicts();
  const auto& solution_counts = response->solution_counts();
  const size_t slot_bytes = request.pack_solutions() ? kPackedBytes : kCells;
  std::string* solutions = request.pack_solutions() ? response->mutable_packed_solutions()
                                                    : response->mutable_solutions();
  *counts = wire::VerdictTally{};
  size_t kept = 0;
  for (int i = 0; i < n; ++i) {
    counts->Count(verdicts.Get(i));
    if (solution_counts.Get(i) > 0) {
      const size_t slot = static_cast<size_t>(i) * slot_bytes;
      if (slot != kept) {
        std::memmove(solutions->data() + kept, solutions->data() + slot, slot_bytes);
      }
      kept += slot_bytes;
    } else if (verdicts.Get(i) == wire::INVALID) {
      // Rare, so the error is recomputed here rather than kept for every puzzle. Parsing is
      // deterministic: it finds the same first error Solve() did.
      Grid grid;
      const PuzzleError error = packed_in ? ParsePackedPuzzle(PackedPuzzle(request, i), &grid)
                                          : CheckPuzzle(request.puzzles(i));
      SetError(error, static_cast<uint32_t>(i), response->add_errors());
    }
  }
  solutions->resize(kept);
}

bool SolveBatch(const wire::SolveRequest& request, const std::atomic<bool>& cancel,
                wire::SolveResponse* response, wire::VerdictTally* counts) {
  StartBatch(request, response);
  if (!SolveBatchRange(request, 0, wire::PuzzleCount(request), cancel, response)) return false;
  FinishBatch(request, response, counts);
  return true;
}

bool ExplainPuzzle(const wire::ExplainRequest& request, const std::atomic<bool>& cancel,
                   wire::ExplainResponse* response) {
  if (cancel.load(std::memory_order_relaxed)) return false;
  response->Clear();
  response->set_request_id(request.request_id());
  // Givens, or a candidate state (729 characters: a pencilmark puzzle, a player's notes).
  const bool pencilmarks = request.puzzle().size() == static_cast<size_t>(kCandidateChars);
  Grid grid{};
  CandidateGrid candidates;
  const PuzzleError error = pencilmarks ? ParseCandidates(request.puzzle(), &candidates)
                                        : ParsePuzzle(request.puzzle(), &grid);
  if (error) {
    response->set_verdict(wire::INVALID);
    SetError(error, 0, response->mutable_error());
    return true;
  }
  const logic::Explanation explanation =
      pencilmarks ? logic::Explain(candidates) : logic::Explain(grid);
  response->set_verdict(static_cast<wire::Verdict>(explanation.verdict));
  if (explanation.verdict == Verdict::kUnsolvable) {
    // Notes that contradict at sight are told why, at the cell that shows it.
    int cell = 0;
    const std::string reason = pencilmarks ? logic::ImmediateContradiction(candidates, &cell) : "";
    if (!reason.empty()) {
      response->mutable_error()->set_position(static_cast<uint32_t>(cell * 9 + 1));
      response->mutable_error()->set_message(reason);
    }
    return true;
  }
  logic::Technique hardest = logic::Technique::kNakedSingle;
  logic::QqwingLeveler leveler(grid);
  for (const logic::Step& step : explanation.steps) {
    hardest = std::max(hardest, step.technique);
    leveler.Add(step);
    wire::StepToWire(step, response->add_steps());
  }
  std::string* solution = response->mutable_solution();
  solution->resize(kCells);
  for (int cell = 0; cell < kCells; ++cell) {
    (*solution)[cell] = static_cast<char>('0' + explanation.solution[cell]);
  }
  response->set_hardest_technique(wire::TechniqueToWire(hardest));
  // QQWing's level is of givens; a candidate state takes its hardest technique's level.
  response->set_level(static_cast<wire::Level>(pencilmarks ? logic::LevelOf(hardest)
                                                            : leveler.Result()));
  response->set_guesses(explanation.fast_guesses);
  const rating::Scales scales = pencilmarks
                                    ? rating::RatePuzzle(candidates, explanation.steps, &cancel)
                                    : rating::RatePuzzle(grid, explanation.steps, &cancel);
  // A cancelled rating means nothing: nobody waits for the answer any more.
  if (cancel.load(std::memory_order_relaxed)) return false;
  response->set_hodoku_level(static_cast<wire::HodokuLevel>(scales.hodoku_level));
  response->set_hodoku_score(scales.hodoku_score);
  response->set_se_rating(scales.se_tenths);
  response->set_se_pearl(scales.se_pearl_tenths);
  response->set_se_diamond(scales.se_diamond_tenths);
  return true;
}

wire::RequestKind KindOf(const wire::Request& request) {
  switch (request.kind_case()) {
    case wire::Request::kSolve: return wire::RequestKind::kSolve;
    case wire::Request::kStats: return wire::RequestKind::kStats;
    case wire::Request::kExplain: return wire::RequestKind::kExplain;
    case wire::Request::kGenerate: return wire::RequestKind::kGenerate;
    case wire::Request::KIND_NOT_SET: return wire::RequestKind::kNone;
  }
  return wire::RequestKind::kNone;
}

size_t CostOf(const wire::Request& request, wire::RequestKind kind) {
  switch (kind) {
    case wire::RequestKind::kSolve:
      return std::max<size_t>(static_cast<size_t>(wire::PuzzleCount(request.solve())), 1);
    case wire::RequestKind::kGenerate:
      return std::max<size_t>(request.generate().count(), 1);
    case wire::RequestKind::kExplain:
    case wire::RequestKind::kStats:
    case wire::RequestKind::kMalformed:
    case wire::RequestKind::kNone:
      return 1;
  }
  return 1;
}

bool IsLongWork(const wire::Request& request, wire::RequestKind kind) {
  constexpr uint32_t kBoundedSolutionLimit = 2;
  switch (kind) {
    case wire::RequestKind::kSolve:
      return request.solve().solution_limit() > kBoundedSolutionLimit || request.solve().rate();
    case wire::RequestKind::kExplain:
    case wire::RequestKind::kGenerate:
      return true;
    case wire::RequestKind::kStats:
    case wire::RequestKind::kMalformed:
    case wire::RequestKind::kNone:
      return false;
  }
  return false;
}

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
  if (request.has_hodoku_level() && !wire::HodokuLevel_IsValid(request.hodoku_level())) {
    return what + " asks for unknown HoDoKu level " + std::to_string(request.hodoku_level());
  }
  for (const auto& [name, tenths] : {std::pair{"se_min", request.se_min()},
                                     std::pair{"se_max", request.se_max()}}) {
    if (tenths != 0 && (tenths < rating::kSeMinTenths || tenths > rating::kSeMaxTenths)) {
      return what + " asks for " + name + " " + std::to_string(tenths) +
             " (expected 10 to 119, tenths of the SE rating, or 0 for no bound)";
    }
  }
  if (request.se_min() != 0 && request.se_max() != 0 && request.se_min() > request.se_max()) {
    return what + " asks for se_min " + std::to_string(request.se_min()) + " above se_max " +
           std::to_string(request.se_max());
  }
  if (request.has_needs()) {
    const std::optional<logic::Technique> needs = wire::TechniqueFromWire(request.needs());
    if (!needs) return what + " asks for unknown technique " + std::to_string(request.needs());
    if (!Needable(*needs)) {
      return what + " asks for technique " + std::to_string(request.needs()) + " (" +
             logic::Name(*needs) + "), which no explanation takes (only the SE rating's path does)";
    }
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
  if (request.has_hodoku_level()) {
    options.hodoku_level = static_cast<rating::HodokuLevel>(request.hodoku_level());
  }
  options.se_min = request.se_min();
  options.se_max = request.se_max();
  if (request.has_needs()) options.needs = wire::TechniqueFromWire(request.needs());
  // Polled between attempts too, so that a request no attempt can satisfy stops within a few
  // milliseconds of a cancellation, not after all its attempts.
  options.cancel = &cancel;

  std::vector<Generated> made(end - begin);
  CpuMeter* const meter = CpuMeter::Current();
  Forking();
  tbb::parallel_for(tbb::blocked_range<uint32_t>(begin, end, 1),
                    [&](const tbb::blocked_range<uint32_t>& range) {
                      RangeBegins();
                      CpuMeter::Scope measured(meter);
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

bool DoRequest(const wire::Request& request, wire::RequestKind kind,
               const std::atomic<bool>& cancel, wire::Response* response,
               wire::VerdictTally* counts) {
  switch (kind) {
    case wire::RequestKind::kSolve:
      return SolveBatch(request.solve(), cancel, response->mutable_solve(), counts);
    case wire::RequestKind::kExplain:
      *counts = wire::VerdictTally{};
      return ExplainPuzzle(request.explain(), cancel, response->mutable_explain());
    case wire::RequestKind::kGenerate:
      *counts = wire::VerdictTally{};
      return GenerateChunk(request.generate(), 0, request.generate().count(), cancel,
                           response->mutable_generate());
    case wire::RequestKind::kStats:
    case wire::RequestKind::kMalformed:
    case wire::RequestKind::kNone:
      break;
  }
  throw std::logic_error("no work for a request of this kind");
}


}  // namespace sudoku::daemon
