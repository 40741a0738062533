// What the process's control group (cgroup) allows it: a CPU quota and a memory limit, and the
// defaults of --threads and --max-memory that follow from them, as Go's automaxprocs and the
// JVM's container support size themselves. A container given 1.5 CPUs and 1 GiB then runs one
// solver thread and holds at most 512 MiB for clients, rather than a thread per core of the host
// (throttled by the quota) and a 4 GiB budget the kernel kills it for long before reaching.
//
// Both versions are read. cgroup v2: cpu.max ("QUOTA PERIOD", or "max PERIOD") and memory.max
// (bytes, or "max") in the one hierarchy, mounted at ROOT (/sys/fs/cgroup) or, on a hybrid
// system, at ROOT/unified. cgroup v1: cpu.cfs_quota_us (-1 for none) and cpu.cfs_period_us in
// the cpu controller's hierarchy (ROOT/cpu, or ROOT/cpu,cpuacct as systemd names it), and
// memory.limit_in_bytes in ROOT/memory (none is the largest page multiple below 2^63,
// 9223372036854771712 with 4 KiB pages). A controller that /proc/self/cgroup lists in a v1
// hierarchy is read there, else in v2's.
//
// Every group from the process's own up to the hierarchy's root bounds it (a parent's limit
// applies to its children), so each is read and the tightest counts. A group that does not exist
// under the mount is passed over: inside a container, /proc/self/cgroup may name the group as the
// host sees it (/kubepods/.../ID) while the container's own group is what is mounted at the root,
// where the walk ends. A file that is absent says nothing; one that holds something else than a
// limit is ignored, with the reason kept for the log, never an error.
//
// Thread-safety: ReadCgroupLimits() reads files; the rest are pure functions of their arguments.
#ifndef SUDOKU_DAEMON_CGROUP_LIMITS_H_
#define SUDOKU_DAEMON_CGROUP_LIMITS_H_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sudoku::daemon {

// A CFS bandwidth quota: `quota_us` of CPU time every `period_us`, over all the group's threads.
struct CpuQuota {
  int version = 0;  // the cgroup version it was read from: 1 or 2
  int64_t quota_us = 0;
  int64_t period_us = 0;
  std::filesystem::path group{};  // the group's directory, where the files are
  double cores() const { return static_cast<double>(quota_us) / static_cast<double>(period_us); }
};

struct MemoryLimit {
  int version = 0;  // 1 or 2
  uint64_t bytes = 0;
  std::filesystem::path group{};
};

struct CgroupLimits {
  std::optional<CpuQuota> cpu{};  // the tightest quota, absent when none applies
  std::optional<MemoryLimit> memory{};  // the lowest limit, absent when none applies
  // Files that exist but hold no limit the daemon understands, each "PATH: why": passed over.
  std::vector<std::string> ignored{};
};

// Reads the limits from `proc_self_cgroup` (the text of /proc/self/cgroup: "ID:CONTROLLERS:PATH"
// lines, "0::PATH" for v2) and the hierarchies mounted under `root`.
CgroupLimits ReadCgroupLimits(std::string_view proc_self_cgroup,
                              const std::filesystem::path& root);
// The process's own: /proc/self/cgroup and /sys/fs/cgroup.
CgroupLimits ReadCgroupLimits();

// --max-memory without a memory limit, and the most it is given under one.
inline constexpr uint64_t kMaxMemoryCap = uint64_t{4} << 30;

// --threads without the flag: the CPUs this process may use (`allowed_cpus`, its affinity
// mask), no more than the quota's whole cores (rounded down, as automaxprocs rounds), at least 1.
int DefaultThreads(int allowed_cpus, const CgroupLimits& limits);

// --max-memory without the flag: half the memory limit, the rest left to the solver's work, the
// binary, the threads' stacks and the allocator's slack; at most kMaxMemoryCap (which it is
// without a limit); at least `least` (twice --max-frame-bytes, so that one frame always fits).
uint64_t DefaultMaxMemory(const CgroupLimits& limits, uint64_t least);

// What the daemon runs with, for CgroupLimitsText(): each figure and whether its flag was given.
struct ChosenLimits {
  int threads = 1;
  bool threads_given = false;
  uint64_t max_memory = 0;
  bool max_memory_given = false;
};

// The start-up log's line on the limits read, where from, and what they made of --threads and
// --max-memory, e.g. "cgroup v1: CPU quota 1.5 cores (cpu.cfs_quota_us 150000 / cpu.cfs_period_us
// 100000 at /sys/fs/cgroup/cpu/x) -> 1 solver thread; memory limit 1073741824 bytes
// (memory.limit_in_bytes at /sys/fs/cgroup/memory/x) -> --max-memory 536870912 (half)".
// Empty when no limit applies.
std::string CgroupLimitsText(const CgroupLimits& limits, const ChosenLimits& chosen);

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_CGROUP_LIMITS_H_
