// ReadCgroupLimits over fake cgroup trees in a temporary directory: v1 (controllers named "cpu"
// or "cpu,cpuacct") and v2, hybrid systems, nested groups whose parent is the tighter, a
// container's group mounted at the root, values meaning "no limit", files absent, unreadable or
// holding something else. Then the defaults of --threads and --max-memory they make, and the
// start-up log's exact line.
#include "daemon/cgroup_limits.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sudoku::daemon {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;
// Twice the default --max-frame-bytes: the least --max-memory may be.
constexpr uint64_t kLeast = 32 * kMiB;
// What v1's memory.limit_in_bytes holds with no limit (4 KiB pages).
constexpr const char* kV1NoLimit = "9223372036854771712\n";

// A directory standing for /sys/fs/cgroup, removed with its files at the end of the test.
class FakeCgroups : public ::testing::Test {
 protected:
  FakeCgroups()
      : root_(fs::path(::testing::TempDir()) /
              ("cgroups_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  ~FakeCgroups() override { fs::remove_all(root_); }

  // Writes `text` to ROOT/relative, making its directories.
  void Write(const std::string& relative, const std::string& text) {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  void MakeGroup(const std::string& relative) { fs::create_directories(root_ / relative); }
  std::string At(const std::string& relative) const { return (root_ / relative).string(); }

  CgroupLimits Read(const std::string& proc_self_cgroup) const {
    return ReadCgroupLimits(proc_self_cgroup, root_);
  }

  // A v1 system's /proc/self/cgroup with the process in `cpu` and `memory`.
  static std::string V1(const std::string& cpu, const std::string& memory,
                        const std::string& cpu_controllers = "cpu") {
    return "9:name=systemd:/\n8:pids:/\n4:memory:" + memory + "\n2:cpuacct:/\n1:" +
           cpu_controllers + ":" + cpu + "\n0::/\n";
  }

  const fs::path root_;
};

TEST_F(FakeCgroups, V1QuotaAndLimitOfTheProcesssOwnGroups) {
  Write("cpu/cpu.cfs_quota_us", "-1\n");
  Write("cpu/cpu.cfs_period_us", "100000\n");
  Write("cpu/x/cpu.cfs_quota_us", "150000\n");
  Write("cpu/x/cpu.cfs_period_us", "100000\n");
  Write("memory/memory.limit_in_bytes", kV1NoLimit);
  Write("memory/y/memory.limit_in_bytes", "1073741824\n");
  const CgroupLimits limits = Read(V1("/x", "/y"));
  ASSERT_TRUE(limits.cpu);
  EXPECT_EQ(limits.cpu->version, 1);
  EXPECT_EQ(limits.cpu->quota_us, 150000);
  EXPECT_EQ(limits.cpu->period_us, 100000);
  EXPECT_EQ(limits.cpu->cores(), 1.5);
  EXPECT_EQ(limits.cpu->group.string(), At("cpu/x"));
  ASSERT_TRUE(limits.memory);
  EXPECT_EQ(limits.memory->version, 1);
  EXPECT_EQ(limits.memory->bytes, kGiB);
  EXPECT_EQ(limits.memory->group.string(), At("memory/y"));
  EXPECT_THAT(limits.ignored, IsEmpty());

  EXPECT_EQ(DefaultThreads(2, limits), 1);  // 1.5 cores: one whole core
  EXPECT_EQ(DefaultMaxMemory(limits, kLeast), 512 * kMiB);
  EXPECT_EQ(CgroupLimitsText(limits, {.threads = 1, .max_memory = 512 * kMiB}),
            "cgroup v1: CPU quota 1.5 cores (cpu.cfs_quota_us 150000 / cpu.cfs_period_us 100000 "
            "at " + At("cpu/x") + ") -> 1 solver thread; memory limit 1073741824 bytes "
            "(memory.limit_in_bytes at " + At("memory/y") + ") -> --max-memory 536870912 (half)");
}

// systemd mounts the cpu controller with cpuacct, as "cpu,cpuacct" (with a "cpu" symlink that
// a container may not have).
TEST_F(FakeCgroups, V1CpuControllerMountedWithCpuacct) {
  Write("cpu,cpuacct/system.slice/sudokud.service/cpu.cfs_quota_us", "200000\n");
  Write("cpu,cpuacct/system.slice/sudokud.service/cpu.cfs_period_us", "100000\n");
  const CgroupLimits limits =
      Read(V1("/system.slice/sudokud.service", "/", "cpu,cpuacct"));
  ASSERT_TRUE(limits.cpu);
  EXPECT_EQ(limits.cpu->cores(), 2);
  EXPECT_EQ(limits.cpu->group.string(), At("cpu,cpuacct/system.slice/sudokud.service"));
  EXPECT_FALSE(limits.memory);
  EXPECT_EQ(DefaultThreads(8, limits), 2);
  EXPECT_EQ(DefaultThreads(1, limits), 1);
  EXPECT_EQ(CgroupLimitsText(limits, {.threads = 2}),
            "cgroup v1: CPU quota 2 cores (cpu.cfs_quota_us 200000 / cpu.cfs_period_us 100000 at " +
                At("cpu,cpuacct/system.slice/sudokud.service") + ") -> 2 solver threads");
  // Fewer CPUs allowed than the quota's cores: the CPUs decide, and the line says so.
  EXPECT_EQ(CgroupLimitsText(limits, {.threads = 1}),
            "cgroup v1: CPU quota 2 cores (cpu.cfs_quota_us 200000 / cpu.cfs_period_us 100000 at " +
                At("cpu,cpuacct/system.slice/sudokud.service") +
                ") -> 1 solver thread (the CPUs this process may use)");
}

TEST_F(FakeCgroups, V2CpuMaxAndMemoryMaxWithTheParentTighterForMemory) {
  Write("cgroup.controllers", "cpuset cpu io memory pids\n");
  Write("a/memory.max", "2147483648\n");
  Write("a/cpu.max", "max 100000\n");
  Write("a/b/cpu.max", "250000 100000\n");
  Write("a/b/memory.max", "max\n");
  const CgroupLimits limits = Read("0::/a/b\n");
  ASSERT_TRUE(limits.cpu);
  EXPECT_EQ(limits.cpu->version, 2);
  EXPECT_EQ(limits.cpu->cores(), 2.5);
  EXPECT_EQ(limits.cpu->group.string(), At("a/b"));
  ASSERT_TRUE(limits.memory);
  EXPECT_EQ(limits.memory->version, 2);
  EXPECT_EQ(limits.memory->bytes, 2 * kGiB);
  EXPECT_EQ(limits.memory->group.string(), At("a"));
  EXPECT_THAT(limits.ignored, IsEmpty());
  EXPECT_EQ(DefaultThreads(4, limits), 2);
  EXPECT_EQ(DefaultMaxMemory(limits, kLeast), kGiB);
  EXPECT_EQ(CgroupLimitsText(limits, {.threads = 2, .max_memory = kGiB}),
            "cgroup v2: CPU quota 2.5 cores (cpu.max 250000 100000 at " + At("a/b") +
                ") -> 2 solver threads; memory limit 2147483648 bytes (memory.max at " + At("a") +
                ") -> --max-memory 1073741824 (half)");
}

// A parent's limits bound its children: the tightest along the path counts, wherever it is.
TEST_F(FakeCgroups, NestedGroupsTakeTheTightestLimitOnThePath) {
  Write("cpu/cpu.cfs_quota_us", "-1\n");
  Write("cpu/cpu.cfs_period_us", "100000\n");
  Write("cpu/p/cpu.cfs_quota_us", "50000\n");
  Write("cpu/p/cpu.cfs_period_us", "100000\n");
  Write("cpu/p/c/cpu.cfs_quota_us", "400000\n");
  Write("cpu/p/c/cpu.cfs_period_us", "100000\n");
  Write("memory/memory.limit_in_bytes", kV1NoLimit);
  Write("memory/p/memory.limit_in_bytes", "536870912\n");
  Write("memory/p/c/memory.limit_in_bytes", "1073741824\n");
  const CgroupLimits limits = Read(V1("/p/c", "/p/c"));
  ASSERT_TRUE(limits.cpu);
  EXPECT_EQ(limits.cpu->cores(), 0.5);
  EXPECT_EQ(limits.cpu->group.string(), At("cpu/p"));
  ASSERT_TRUE(limits.memory);
  EXPECT_EQ(limits.memory->bytes, 512 * kMiB);
  EXPECT_EQ(limits.memory->group.string(), At("memory/p"));
  // Half a core still runs one thread.
  EXPECT_EQ(DefaultThreads(2, limits), 1);
  EXPECT_EQ(DefaultMaxMemory(limits, kLeast), 256 * kMiB);
  EXPECT_EQ(CgroupLimitsText(limits, {.threads = 1, .max_memory = 256 * kMiB}),
            "cgroup v1: CPU quota 0.5 cores (cpu.cfs_quota_us 50000 / cpu.cfs_period_us 100000 "
            "at " + At("cpu/p") + ") -> 1 solver thread; memory limit 536870912 bytes "
            "(memory.limit_in_bytes at " + At("memory/p") + ") -> --max-memory 268435456 (half)");
}

// In a container, /proc/self/cgroup may name the group as the host sees it while the mount's
// root is the container's own group: the walk passes over what does not exist and reads the
// root.
TEST_F(FakeCgroups, AContainersGroupMountedAtTheRootIsRead) {
  Write("cpu/cpu.cfs_quota_us", "100000\n");
  Write("cpu/cpu.cfs_period_us", "100000\n");
  Write("memory/memory.limit_in_bytes", "268435456\n");
  const CgroupLimits v1 = Read(V1("/kubepods/burstable/pod1/abc", "/kubepods/burstable/pod1/abc"));
  ASSERT_TRUE(v1.cpu);
  EXPECT_EQ(v1.cpu->cores(), 1);
  EXPECT_EQ(v1.cpu->group.string(), At("cpu"));
  ASSERT_TRUE(v1.memory);
  EXPECT_EQ(v1.memory->bytes, 256 * kMiB);
  EXPECT_EQ(CgroupLimitsText(v1, {.threads = 1, .max_memory = 128 * kMiB}),
            "cgroup v1: CPU quota 1 core (cpu.cfs_quota_us 100000 / cpu.cfs_period_us 100000 at " +
                At("cpu") + ") -> 1 solver thread; memory limit 268435456 bytes "
                "(memory.limit_in_bytes at " + At("memory") + ") -> --max-memory 134217728 (half)");

  fs::remove_all(root_ / "cpu");
  fs::remove_all(root_ / "memory");
  Write("cgroup.controllers", "cpu memory\n");
  Write("cpu.max", "300000 100000\n");
  Write("memory.max", "4294967296\n");
  const CgroupLimits v2 = Read("0::/kubepods.slice/kubepods-pod1.slice/cri-containerd-abc.scope\n");
  ASSERT_TRUE(v2.cpu);
  EXPECT_EQ(v2.cpu->cores(), 3);
  EXPECT_EQ(v2.cpu->group.string(), root_.string());
  ASSERT_TRUE(v2.memory);
  EXPECT_EQ(v2.memory->bytes, 4 * kGiB);
  EXPECT_EQ(v2.memory->group.string(), root_.string());
}

// On a hybrid system the controllers v1 holds are read there, not in the unified hierarchy.
TEST_F(FakeCgroups, HybridReadsV1ControllersAndV2ForTheRest) {
  Write("unified/cgroup.controllers", "\n");
  Write("unified/x/cpu.max", "100000 100000\n");
  Write("unified/x/memory.max", "1048576\n");
  Write("cpu/x/cpu.cfs_quota_us", "300000\n");
  Write("cpu/x/cpu.cfs_period_us", "100000\n");
  Write("memory/x/memory.limit_in_bytes", kV1NoLimit);
  const CgroupLimits limits = Read(V1("/x", "/x") + "0::/x\n");
  ASSERT_TRUE(limits.cpu);
  EXPECT_EQ(limits.cpu->version, 1);
  EXPECT_EQ(limits.cpu->cores(), 3);
  EXPECT_FALSE(limits.memory);
  // Without a v1 memory hierarchy, memory is v2's.
  const CgroupLimits mixed = Read("1:cpu:/x\n0::/x\n");
  ASSERT_TRUE(mixed.cpu);
  EXPECT_EQ(mixed.cpu->version, 1);
  ASSERT_TRUE(mixed.memory);
  EXPECT_EQ(mixed.memory->version, 2);
  EXPECT_EQ(mixed.memory->bytes, kMiB);
  EXPECT_EQ(mixed.memory->group.string(), At("unified/x"));
  EXPECT_EQ(CgroupLimitsText(mixed, {.threads = 3, .max_memory = kLeast}),
            "cgroup v1: CPU quota 3 cores (cpu.cfs_quota_us 300000 / cpu.cfs_period_us 100000 at " +
                At("cpu/x") + ") -> 3 solver threads; cgroup v2: memory limit 1048576 bytes "
                "(memory.max at " + At("unified/x") +
                ") -> --max-memory 33554432 (twice --max-frame-bytes, the least it may be)");
}

TEST_F(FakeCgroups, NoLimitWrittenEitherWayIsNoLimit) {
  Write("cpu/x/cpu.cfs_quota_us", "-1\n");
  Write("cpu/x/cpu.cfs_period_us", "100000\n");
  Write("memory/x/memory.limit_in_bytes", kV1NoLimit);
  // 64 KiB pages make v1's figure for no limit a little lower.
  Write("memory/memory.limit_in_bytes", "9223372036854710272\n");
  const CgroupLimits v1 = Read(V1("/x", "/x"));
  EXPECT_FALSE(v1.cpu);
  EXPECT_FALSE(v1.memory);
  EXPECT_THAT(v1.ignored, IsEmpty());

  Write("v2/cgroup.controllers", "cpu memory\n");
  Write("v2/y/cpu.max", "max 100000\n");
  Write("v2/y/memory.max", "max\n");
  const CgroupLimits v2 = ReadCgroupLimits("0::/y\n", root_ / "v2");
  EXPECT_FALSE(v2.cpu);
  EXPECT_FALSE(v2.memory);
  EXPECT_THAT(v2.ignored, IsEmpty());

  EXPECT_EQ(DefaultThreads(6, v2), 6);
  EXPECT_EQ(DefaultMaxMemory(v2, kLeast), kMaxMemoryCap);
  EXPECT_EQ(CgroupLimitsText(v2, {.threads = 6, .max_memory = kMaxMemoryCap}), "");
}

TEST_F(FakeCgroups, NothingToReadIsNoLimit) {
  // No /proc/self/cgroup text, lines that are not "ID:CONTROLLERS:PATH", hierarchies not
  // mounted, groups without limit files.
  for (const std::string& text : {std::string(), std::string("garbage\n::\n"), V1("/x", "/x"),
                                  std::string("0::/x\n")}) {
    const CgroupLimits limits = Read(text);
    EXPECT_FALSE(limits.cpu) << text;
    EXPECT_FALSE(limits.memory) << text;
    EXPECT_THAT(limits.ignored, IsEmpty()) << text;
  }
  MakeGroup("cpu/x");
  MakeGroup("memory/x");
  Write("cgroup.controllers", "");
  MakeGroup("x");
  for (const std::string& text : {V1("/x", "/x"), std::string("0::/x\n")}) {
    const CgroupLimits limits = Read(text);
    EXPECT_FALSE(limits.cpu) << text;
    EXPECT_FALSE(limits.memory) << text;
    EXPECT_THAT(limits.ignored, IsEmpty()) << text;
  }
}

// A limit file holding something else is passed over with the reason; a parent's good limit
// still counts.
TEST_F(FakeCgroups, GarbageIsIgnoredWithAReason) {
  Write("cpu/cpu.cfs_quota_us", "300000\n");
  Write("cpu/cpu.cfs_period_us", "100000\n");
  Write("cpu/a/cpu.cfs_quota_us", "lots\n");
  Write("cpu/a/cpu.cfs_period_us", "100000\n");
  Write("cpu/a/b/cpu.cfs_quota_us", "50000\n");
  Write("cpu/a/b/cpu.cfs_period_us", "0\n");
  Write("cpu/a/b/c/cpu.cfs_quota_us", "0\n");
  Write("memory/memory.limit_in_bytes", "1073741824\n");
  Write("memory/a/memory.limit_in_bytes", "");
  Write("memory/a/b/memory.limit_in_bytes", "-5\n");
  Write("memory/a/b/c/memory.limit_in_bytes", std::string(100, '7') + "\n");
  const CgroupLimits v1 = Read(V1("/a/b/c", "/a/b/c"));
  ASSERT_TRUE(v1.cpu);
  EXPECT_EQ(v1.cpu->cores(), 3);
  EXPECT_EQ(v1.cpu->group.string(), At("cpu"));
  ASSERT_TRUE(v1.memory);
  EXPECT_EQ(v1.memory->bytes, kGiB);
  EXPECT_THAT(
      v1.ignored,
      ElementsAre(
          At("cpu/a/b/c/cpu.cfs_quota_us") + ": '0' is not a quota in microseconds (or -1, none)",
          At("cpu/a/b/cpu.cfs_quota_us") +
              ": a quota of 50000 without a period (cpu.cfs_period_us '0')",
          At("cpu/a/cpu.cfs_quota_us") + ": 'lots' is not a quota in microseconds (or -1, none)",
          At("memory/a/b/c/memory.limit_in_bytes") + ": '" + std::string(40, '7') +
              "...' is not a number of bytes",
          At("memory/a/b/memory.limit_in_bytes") + ": '-5' is not a number of bytes",
          At("memory/a/memory.limit_in_bytes") + ": '' is not a number of bytes"));

  Write("v2/cgroup.controllers", "cpu memory\n");
  Write("v2/x/cpu.max", "150000\n");
  Write("v2/x/memory.max", "12x\n");
  Write("v2/x/y/cpu.max", "-1 100000\n");
  Write("v2/x/y/memory.max", "max max\n");
  // A directory where the file should be: it opens, and does not read.
  fs::create_directories(root_ / "v2/x/y/z/cpu.max");
  const CgroupLimits v2 = ReadCgroupLimits("0::/x/y/z\n", root_ / "v2");
  EXPECT_FALSE(v2.cpu);
  EXPECT_FALSE(v2.memory);
  EXPECT_THAT(
      v2.ignored,
      ElementsAre(At("v2/x/y/z/cpu.max") + ": cannot be read (Is a directory)",
                  At("v2/x/y/cpu.max") +
                      ": '-1 100000' is not 'QUOTA PERIOD' or 'max PERIOD' (microseconds)",
                  At("v2/x/cpu.max") +
                      ": '150000' is not 'QUOTA PERIOD' or 'max PERIOD' (microseconds)",
                  At("v2/x/y/memory.max") + ": 'max max' is not a number of bytes (or max, none)",
                  At("v2/x/memory.max") + ": '12x' is not a number of bytes (or max, none)"));
}

TEST(CgroupDefaults, MaxMemoryIsHalfTheLimitWithinTheCapAndTheLeast) {
  const auto under = [](uint64_t bytes) {
    return CgroupLimits{.memory = MemoryLimit{.version = 2, .bytes = bytes, .group = "/g"}};
  };
  EXPECT_EQ(DefaultMaxMemory(CgroupLimits{}, kLeast), 4 * kGiB);
  EXPECT_EQ(DefaultMaxMemory(under(kGiB), kLeast), 512 * kMiB);
  EXPECT_EQ(DefaultMaxMemory(under(8 * kGiB), kLeast), 4 * kGiB);
  EXPECT_EQ(DefaultMaxMemory(under(16 * kGiB), kLeast), 4 * kGiB);
  EXPECT_EQ(DefaultMaxMemory(under(64 * kMiB), kLeast), 32 * kMiB);
  EXPECT_EQ(DefaultMaxMemory(under(20 * kMiB), kLeast), kLeast);
  EXPECT_EQ(DefaultMaxMemory(under(20 * kMiB), 2048), 10 * kMiB);
  EXPECT_EQ(CgroupLimitsText(under(16 * kGiB), {.threads = 2, .max_memory = 4 * kGiB}),
            "cgroup v2: memory limit 17179869184 bytes (memory.max at /g) -> --max-memory "
            "4294967296 (4 GiB, the most it defaults to)");
  EXPECT_EQ(CgroupLimitsText(under(20 * kMiB), {.threads = 2, .max_memory = kLeast}),
            "cgroup v2: memory limit 20971520 bytes (memory.max at /g) -> --max-memory 33554432 "
            "(twice --max-frame-bytes, the least it may be)");
}

TEST(CgroupDefaults, ThreadsAreTheWholeCoresOfTheQuotaWithinTheCpusAllowed) {
  const auto under = [](int64_t quota_us, int64_t period_us) {
    return CgroupLimits{.cpu = CpuQuota{
                            .version = 2, .quota_us = quota_us, .period_us = period_us, .group = "/g"}};
  };
  EXPECT_EQ(DefaultThreads(2, CgroupLimits{}), 2);
  EXPECT_EQ(DefaultThreads(0, CgroupLimits{}), 1);
  EXPECT_EQ(DefaultThreads(8, under(150000, 100000)), 1);
  EXPECT_EQ(DefaultThreads(8, under(10000, 100000)), 1);
  EXPECT_EQ(DefaultThreads(8, under(399999, 100000)), 3);
  EXPECT_EQ(DefaultThreads(8, under(50000, 10000)), 5);
  EXPECT_EQ(DefaultThreads(4, under(50000, 10000)), 4);
  EXPECT_EQ(CgroupLimitsText(under(133333, 100000), {.threads = 1}),
            "cgroup v2: CPU quota 1.33 cores (cpu.max 133333 100000 at /g) -> 1 solver thread");
}

// Flags given win over the limits, and the line says so.
TEST(CgroupDefaults, TheLineSaysWhenTheFlagsWereGiven) {
  const CgroupLimits limits{
      .cpu = CpuQuota{.version = 1, .quota_us = 150000, .period_us = 100000, .group = "/c"},
      .memory = MemoryLimit{.version = 1, .bytes = kGiB, .group = "/m"}};
  EXPECT_EQ(CgroupLimitsText(limits, {.threads = 4,
                                      .threads_given = true,
                                      .max_memory = 2 * kGiB,
                                      .max_memory_given = true}),
            "cgroup v1: CPU quota 1.5 cores (cpu.cfs_quota_us 150000 / cpu.cfs_period_us 100000 "
            "at /c) -> --threads 4 as given; memory limit 1073741824 bytes (memory.limit_in_bytes "
            "at /m) -> --max-memory 2147483648 as given");
}

}  // namespace
}  // namespace sudoku::daemon
