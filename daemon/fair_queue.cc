#include "daemon/fair_queue.h"

#include <time.h>

#include <algorithm>
#include <string>
#include <utility>

namespace sudoku::daemon {
namespace {

thread_local CpuMeter* current_meter = nullptr;
thread_local uint64_t current_started = 0;

// An owner's measured history is halved past this much weight, so that its estimate follows what
// its work costs lately, not since it connected.
constexpr uint64_t kMeasuredUnitsKept = 1 << 20;

}  // namespace

uint64_t SourceOf(std::string_view address) {
  // Never 0, which stands for "no particular source" (Account's default).
  return std::hash<std::string_view>{}(address) | 1;
}

uint64_t CpuMeter::ThreadNanoseconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(now.tv_nsec);
}

CpuMeter* CpuMeter::Current() { return current_meter; }

CpuMeter::Scope::Scope(CpuMeter* meter) : meter_(meter == current_meter ? nullptr : meter) {
  // Null, or already measuring this meter on this thread: nothing to add.
  if (meter_ == nullptr) return;
  started_ = ThreadNanoseconds();
  outer_ = current_meter;
  if (outer_ != nullptr) {
    outer_->ns_.fetch_add(started_ - current_started, std::memory_order_relaxed);
  }
  current_meter = meter_;
  current_started = started_;
}

CpuMeter::Scope::~Scope() {
  if (meter_ == nullptr) return;
  const uint64_t now = ThreadNanoseconds();
  meter_->ns_.fetch_add(now - current_started, std::memory_order_relaxed);
  current_meter = outer_;
  current_started = now;  // the outer meter goes on from here
}

uint64_t FairQueue::Estimate(const Owner& owner, uint64_t weight) const {
  if (owner.measured_units == 0) return default_unit_ns_ * weight;
  return static_cast<uint64_t>(static_cast<double>(owner.measured_ns) *
                               static_cast<double>(weight) /
                               static_cast<double>(owner.measured_units));
}

void FairQueue::Push(Account account, std::function<void()> job, uint64_t weight) {
  auto [source_at, new_source] = sources_.try_emplace(account.source);
  Source& source = source_at->second;
  if (new_source) {
    source.used = now_;  // no credit for having been away
  } else if (source.idle) {
    idle_sources_.erase(source.idle_at);
    source.idle = false;
    source.used = std::max(source.used, now_);  // debt kept, credit not
  }
  auto [owner_at, new_owner] = source.owners.try_emplace(account.owner);
  Owner& owner = owner_at->second;
  if (new_owner) {
    owner.used = source.now;
  } else if (owner.idle) {
    idle_owners_.erase(owner.idle_at);
    owner.idle = false;
    owner.used = std::max(owner.used, source.now);
  }
  owner.jobs.push_back(Queued{std::move(job), weight});
  // Behind its own first job, a job changes nothing of the order.
  if (owner.jobs.size() == 1) File(account.source, source, account.owner, owner);
}

void FairQueue::File(uint64_t source_id, Source& source, uint64_t owner_id, Owner& owner) {
  if (owner.jobs.empty()) {
    source.ready.erase(owner.key);
    if (owner.running == 0 && !owner.idle) {
      owner.idle = true;
      owner.idle_at = idle_owners_.insert(idle_owners_.end(), Account(source_id, owner_id));
    }
  } else {
    const uint64_t finish = owner.used + Estimate(owner, owner.jobs.front().weight);
    // Filed already with that finish, it keeps its place among equals.
    if (std::get<0>(owner.key) != finish || !source.ready.contains(owner.key)) {
      source.ready.erase(owner.key);
      owner.key = Key(finish, sequence_++, owner_id);
      source.ready.insert(owner.key);
    }
  }
  FileSource(source_id, source);
}

void FairQueue::FileSource(uint64_t source_id, Source& source) {
  if (source.ready.empty()) {
    ready_sources_.erase(source.key);
    if (source.running == 0 && !source.idle) {
      source.idle = true;
      source.idle_at = idle_sources_.insert(idle_sources_.end(), source_id);
    }
  } else {
    // Its turn comes by what its best owner's next job would bring it to.
    const Key& best = *source.ready.begin();
    const Owner& owner = source.owners.at(std::get<2>(best));
    const uint64_t finish = source.used + (std::get<0>(best) - owner.used);
    if (std::get<0>(source.key) != finish || !ready_sources_.contains(source.key)) {
      ready_sources_.erase(source.key);
      source.key = Key(finish, sequence_++, source_id);
      ready_sources_.insert(source.key);
    }
  }
  Forget();
}

void FairQueue::Forget() {
  while (idle_owners_.size() > kRemembered) {
    const Account oldest = idle_owners_.front();
    idle_owners_.pop_front();
    sources_.at(oldest.source).owners.erase(oldest.owner);
  }
  while (idle_sources_.size() > kRemembered) {
    // An idle source's requesters are idle too: they go with it.
    Source& oldest = sources_.at(idle_sources_.front());
    for (auto& [id, owner] : oldest.owners) idle_owners_.erase(owner.idle_at);
    sources_.erase(idle_sources_.front());
    idle_sources_.pop_front();
  }
}

FairQueue::Next FairQueue::Pop() {
  const uint64_t source_id = std::get<2>(*ready_sources_.begin());
  Source& source = sources_.at(source_id);
  const uint64_t owner_id = std::get<2>(*source.ready.begin());
  Owner& owner = source.owners.at(owner_id);
  Next next{std::move(owner.jobs.front().job),
            Ticket{Account(source_id, owner_id), 0, owner.jobs.front().weight}};
  owner.jobs.pop_front();
  // Where those who come back start: the use of the ones served now, before this job.
  now_ = std::max(now_, source.used);
  source.now = std::max(source.now, owner.used);
  next.ticket.estimate = Estimate(owner, next.ticket.weight);
  owner.used += next.ticket.estimate;
  source.used += next.ticket.estimate;
  ++owner.running;
  ++source.running;
  File(source_id, source, owner_id, owner);
  return next;
}

void FairQueue::Charge(const Ticket& ticket, uint64_t ns) {
  Source& source = sources_.at(ticket.account.source);
  Owner& owner = source.owners.at(ticket.account.owner);
  owner.used = owner.used - ticket.estimate + ns;
  source.used = source.used - ticket.estimate + ns;
  owner.measured_ns += ns;
  owner.measured_units += ticket.weight;
  if (owner.measured_units > kMeasuredUnitsKept) {
    owner.measured_ns /= 2;
    owner.measured_units /= 2;
  }
  --owner.running;
  --source.running;
  File(ticket.account.source, source, ticket.account.owner, owner);
}

}  // namespace sudoku::daemon
