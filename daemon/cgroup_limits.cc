#include "daemon/cgroup_limits.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <exception>
#include <system_error>

#include <fmt/format.h>

namespace sudoku::daemon {
namespace {

namespace fs = std::filesystem;

// v1 has no word for "no limit": memory.limit_in_bytes then holds the largest page multiple
// below 2^63 (9223372036854771712 with 4 KiB pages, less with larger pages). Any figure from
// 2^62 bytes (4 EiB) up is taken for that: no machine has such memory.
constexpr uint64_t kNoMemoryLimit = uint64_t{1} << 62;

// Where one controller's groups are: the hierarchy's mount and the process's group in it.
struct Hierarchy {
  int version = 0;
  fs::path mount;
  std::string group;  // "/a/b", as /proc/self/cgroup names it
};

// What /proc/self/cgroup says of `controller`: its v1 hierarchy when one holds it (the
// directory named as the line lists the controllers, "cpu,cpuacct", or after the controller
// alone), else the v2 hierarchy (ROOT itself, or ROOT/unified beside v1's).
std::optional<Hierarchy> Locate(std::string_view proc_self_cgroup, const fs::path& root,
                                std::string_view controller) {
  std::optional<std::string> v2_group;
  size_t start = 0;
  while (start < proc_self_cgroup.size()) {
    size_t end = proc_self_cgroup.find('\n', start);
    if (end == std::string_view::npos) end = proc_self_cgroup.size();
    const std::string_view line = proc_self_cgroup.substr(start, end - start);
    start = end + 1;
    const size_t first = line.find(':');
    const size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    const std::string_view controllers = line.substr(first + 1, second - first - 1);
    const std::string group(line.substr(second + 1));
    if (controllers.empty()) {
      v2_group = group;
      continue;
    }
    bool listed = false;
    for (size_t from = 0; from <= controllers.size();) {
      size_t comma = controllers.find(',', from);
      if (comma == std::string_view::npos) comma = controllers.size();
      listed = listed || controllers.substr(from, comma - from) == controller;
      from = comma + 1;
    }
    if (!listed) continue;
    for (const fs::path& mount : {root / std::string(controllers), root / std::string(controller)}) {
      std::error_code error;
      if (fs::is_directory(mount, error)) return Hierarchy{1, mount, group};
    }
  }
  if (!v2_group) return std::nullopt;
  for (const fs::path& mount : {root, root / "unified"}) {
    std::error_code error;
    if (fs::exists(mount / "cgroup.controllers", error)) return Hierarchy{2, mount, *v2_group};
  }
  return std::nullopt;
}

// The groups from the process's own up to the hierarchy's root, as directories that exist.
std::vector<fs::path> GroupsUpward(const Hierarchy& hierarchy) {
  std::vector<std::string> parts;
  for (size_t from = 0; from < hierarchy.group.size();) {
    size_t slash = hierarchy.group.find('/', from);
    if (slash == std::string::npos) slash = hierarchy.group.size();
    const std::string part = hierarchy.group.substr(from, slash - from);
    // Never leave the mount, whatever the text says.
    if (!part.empty() && part != "." && part != "..") parts.push_back(part);
    from = slash + 1;
  }
  std::vector<fs::path> groups;
  for (size_t depth = parts.size() + 1; depth-- > 0;) {
    fs::path group = hierarchy.mount;
    for (size_t i = 0; i < depth; ++i) group /= parts[i];
    std::error_code error;
    if (fs::is_directory(group, error)) groups.push_back(group);
  }
  return groups;
}

// The file's text, trailing white space removed; nullopt when it does not exist, or (said in
// `ignored`) cannot be read.
std::optional<std::string> ReadLimitFile(const fs::path& path, std::vector<std::string>* ignored) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) {
      ignored->push_back(path.string() + ": cannot be read (" + std::strerror(errno) + ")");
    }
    return std::nullopt;
  }
  std::string text;
  char chunk[256];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ignored->push_back(path.string() + ": cannot be read (" + std::strerror(errno) + ")");
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0 || text.size() > 4096) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  ::close(fd);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) {
    text.pop_back();
  }
  return text;
}

// `text` as a whole number, nothing before or after it.
template <typename Integer>
std::optional<Integer> WholeNumber(std::string_view text) {
  Integer value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

// How a file's text shows in a reason: quoted, and cut short when long.
std::string Quoted(std::string_view text) {
  if (text.size() > 40) return fmt::format("'{}...'", text.substr(0, 40));
  return fmt::format("'{}'", text);
}

// The group's CPU quota, if it sets one.
std::optional<CpuQuota> ReadCpuQuota(int version, const fs::path& group,
                                     std::vector<std::string>* ignored) {
  if (version == 2) {
    const fs::path path = group / "cpu.max";
    const std::optional<std::string> text = ReadLimitFile(path, ignored);
    if (!text) return std::nullopt;
    const size_t space = text->find(' ');
    const std::string_view quota = std::string_view(*text).substr(0, space);
    const std::string_view period =
        space == std::string::npos ? std::string_view() : std::string_view(*text).substr(space + 1);
    const auto quota_us = WholeNumber<int64_t>(quota);
    const auto period_us = WholeNumber<int64_t>(period);
    if (period_us && *period_us > 0) {
      if (quota == "max") return std::nullopt;
      if (quota_us && *quota_us > 0) {
        return CpuQuota{
            .version = 2, .quota_us = *quota_us, .period_us = *period_us, .group = group};
      }
    }
    ignored->push_back(path.string() + ": " + Quoted(*text) +
                       " is not 'QUOTA PERIOD' or 'max PERIOD' (microseconds)");
    return std::nullopt;
  }
  const fs::path quota_path = group / "cpu.cfs_quota_us";
  const std::optional<std::string> quota = ReadLimitFile(quota_path, ignored);
  if (!quota) return std::nullopt;
  const auto quota_us = WholeNumber<int64_t>(*quota);
  if (quota_us && *quota_us == -1) return std::nullopt;
  if (!quota_us || *quota_us <= 0) {
    ignored->push_back(quota_path.string() + ": " + Quoted(*quota) +
                       " is not a quota in microseconds (or -1, none)");
    return std::nullopt;
  }
  const fs::path period_path = group / "cpu.cfs_period_us";
  const std::optional<std::string> period = ReadLimitFile(period_path, ignored);
  const auto period_us = period ? WholeNumber<int64_t>(*period) : std::nullopt;
  if (!period_us || *period_us <= 0) {
    ignored->push_back(quota_path.string() + ": a quota of " + *quota + " without a period (" +
                       period_path.filename().string() + " " +
                       (period ? Quoted(*period) : std::string("absent")) + ")");
    return std::nullopt;
  }
  return CpuQuota{.version = 1, .quota_us = *quota_us, .period_us = *period_us, .group = group};
}

// The group's memory limit, if it sets one.
std::optional<MemoryLimit> ReadMemoryLimit(int version, const fs::path& group,
                                           std::vector<std::string>* ignored) {
  const fs::path path = group / (version == 2 ? "memory.max" : "memory.limit_in_bytes");
  const std::optional<std::string> text = ReadLimitFile(path, ignored);
  if (!text) return std::nullopt;
  if (version == 2 && *text == "max") return std::nullopt;
  const auto bytes = WholeNumber<uint64_t>(*text);
  if (!bytes) {
    ignored->push_back(path.string() + ": " + Quoted(*text) + " is not a number of bytes" +
                       (version == 2 ? " (or max, none)" : ""));
    return std::nullopt;
  }
  if (*bytes >= kNoMemoryLimit) return std::nullopt;
  return MemoryLimit{.version = version, .bytes = *bytes, .group = group};
}

// "1.5", "2", "0.33": the cores a quota gives, to two decimals.
std::string CoresText(double cores) {
  std::string text = fmt::format("{:.2f}", cores);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

CgroupLimits ReadCgroupLimits(std::string_view proc_self_cgroup, const fs::path& root) {
  CgroupLimits limits;
  try {
    if (const auto cpu = Locate(proc_self_cgroup, root, "cpu")) {
      for (const fs::path& group : GroupsUpward(*cpu)) {
        const auto quota = ReadCpuQuota(cpu->version, group, &limits.ignored);
        if (quota && (!limits.cpu || quota->cores() < limits.cpu->cores())) limits.cpu = quota;
      }
    }
    if (const auto memory = Locate(proc_self_cgroup, root, "memory")) {
      for (const fs::path& group : GroupsUpward(*memory)) {
        const auto limit = ReadMemoryLimit(memory->version, group, &limits.ignored);
        if (limit && (!limits.memory || limit->bytes < limits.memory->bytes)) {
          limits.memory = limit;
        }
      }
    }
  } catch (const std::exception& e) {
    // Only memory running out could get here: the defaults then are the machine's.
    limits.ignored.push_back(root.string() + ": not read (" + e.what() + ")");
  }
  return limits;
}

CgroupLimits ReadCgroupLimits() {
  std::vector<std::string> ignored;
  const std::optional<std::string> text = ReadLimitFile("/proc/self/cgroup", &ignored);
  CgroupLimits limits = ReadCgroupLimits(text.value_or(""), "/sys/fs/cgroup");
  limits.ignored.insert(limits.ignored.begin(), ignored.begin(), ignored.end());
  return limits;
}

int DefaultThreads(int allowed_cpus, const CgroupLimits& limits) {
  int threads = allowed_cpus;
  if (limits.cpu) {
    const int64_t whole = limits.cpu->quota_us / limits.cpu->period_us;
    threads = static_cast<int>(std::min<int64_t>(threads, whole));
  }
  return std::max(threads, 1);
}

uint64_t DefaultMaxMemory(const CgroupLimits& limits, uint64_t least) {
  uint64_t budget = kMaxMemoryCap;
  if (limits.memory) budget = std::min(budget, limits.memory->bytes / 2);
  return std::max(budget, least);
}

std::string CgroupLimitsText(const CgroupLimits& limits, const ChosenLimits& chosen) {
  std::string text;
  int version = 0;
  const auto begin_part = [&](int part_version) {
    if (!text.empty()) text += "; ";
    if (part_version != version) text += fmt::format("cgroup v{}: ", part_version);
    version = part_version;
  };
  if (const auto& cpu = limits.cpu) {
    begin_part(cpu->version);
    const std::string cores = CoresText(cpu->cores());
    text += fmt::format("CPU quota {} core{} (", cores, cores == "1" ? "" : "s");
    text += cpu->version == 2 ? fmt::format("cpu.max {} {}", cpu->quota_us, cpu->period_us)
                              : fmt::format("cpu.cfs_quota_us {} / cpu.cfs_period_us {}",
                                            cpu->quota_us, cpu->period_us);
    text += fmt::format(" at {}) -> ", cpu->group.string());
    if (chosen.threads_given) {
      text += fmt::format("--threads {} as given", chosen.threads);
    } else {
      text += fmt::format("{} solver thread{}", chosen.threads, chosen.threads == 1 ? "" : "s");
      const int64_t whole = std::max<int64_t>(cpu->quota_us / cpu->period_us, 1);
      if (chosen.threads < whole) text += " (the CPUs this process may use)";
    }
  }
  if (const auto& memory = limits.memory) {
    begin_part(memory->version);
    text += fmt::format("memory limit {} bytes ({} at {}) -> --max-memory {}", memory->bytes,
                        memory->version == 2 ? "memory.max" : "memory.limit_in_bytes",
                        memory->group.string(), chosen.max_memory);
    if (chosen.max_memory_given) {
      text += " as given";
    } else if (chosen.max_memory == memory->bytes / 2) {
      text += " (half)";
    } else if (chosen.max_memory == kMaxMemoryCap && memory->bytes / 2 > kMaxMemoryCap) {
      text += " (4 GiB, the most it defaults to)";
    } else {
      text += " (twice --max-frame-bytes, the least it may be)";
    }
  }
  return text;
}

}  // namespace sudoku::daemon
