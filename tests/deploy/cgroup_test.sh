#!/usr/bin/env bash
# sudokud's defaults under real cgroups. In a group with a CPU quota of 1.5 cores and a memory
# limit of 1 GiB, --threads defaults to 1 and --max-memory to 536870912 (half the limit): the
# start-up line says what was read and where, the "listening on" line shows the threads, and
# /metrics exports the limits and what they made (promtool finds nothing to say). Then the
# same limits seen from a group below, with none of its own (the parent's apply); from the group
# as a container sees it, bind-mounted at the hierarchy's root while /proc/self/cgroup still
# names the host's path; with --threads and --max-memory given (they win, and the line says so);
# and the group without limits (no line, the machine's defaults, no cgroup gauges).
#
# cgroup v1 where the cpu and memory controllers are v1's (the hybrid machines here), v2 where
# the unified hierarchy offers them; each part that cannot run says why.
#
# usage: cgroup_test.sh BUILD_DIR SOURCE_DIR
# Exits 77 with "SKIP: reason" when not root, or when neither version can be tried.
set -uo pipefail
source "$(dirname "$0")/lib.sh" "$1" "$2"

require_root "the test makes cgroups and moves the daemon into them" curl unshare promtool
sudokud=$build/daemon/sudokud
[[ -x $sudokud ]] || { echo "FAIL: no $sudokud (build the sudokud target)"; exit 1; }
name=sudokud-cgroup-test-$$
work=$(mktemp -d /tmp/sudokud-cgroup-test.XXXXXX)
made=()  # the groups made, parents first
daemon_pid=
cleanup() {
  if [[ -n $daemon_pid ]]; then
    kill -KILL "$daemon_pid" 2>/dev/null
    wait "$daemon_pid" 2>/dev/null
  fi
  local i
  for ((i = ${#made[@]} - 1; i >= 0; i--)); do
    # An emptied group may stay busy for a moment after its last process is reaped.
    wait_for 5 rmdir "${made[i]}" 2>/dev/null || echo "warning: cannot remove ${made[i]}"
  done
  rm -rf "$work"
}
trap cleanup EXIT

# start LOG GROUPS BINDS ARG...: sudokud on free loopback ports with ARGs, moved first into each
# group of GROUPS (directories, space-separated), and with each "FROM:TO" of BINDS bind-mounted
# in a mount namespace of its own; its stderr in LOG. Sets daemon_pid and metrics_port; false
# when it does not start.
start() {
  local log=$1 groups=$2 binds=$3
  shift 3
  # shellcheck disable=SC2016,SC2086
  unshare -m --propagation private sh -c '
    for group in $1; do echo $$ >"$group/cgroup.procs" || exit 90; done
    for bind in $2; do mount --bind "${bind%%:*}" "${bind#*:}" || exit 91; done
    shift 2
    exec "$@"' sh "$groups" "$binds" "$sudokud" --listen 127.0.0.1:0 --metrics 127.0.0.1:0 \
    "$@" 2>"$log" &
  daemon_pid=$!
  if ! wait_for 30 grep -qs '^sudokud: serving metrics on ' "$log"; then
    fail "sudokud did not start in $groups; its log:"
    cat "$log"
    kill -KILL "$daemon_pid" 2>/dev/null
    wait "$daemon_pid" 2>/dev/null
    daemon_pid=
    return 1
  fi
  metrics_port=$(sed -n 's|^sudokud: serving metrics on http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' \
    "$log")
}

# stop WHAT: SIGTERM, and exit status 0 expected.
stop() {
  kill -TERM "$daemon_pid" 2>/dev/null
  wait "$daemon_pid"
  local status=$?
  daemon_pid=
  expect_eq "$1: exit status after SIGTERM" 0 "$status"
}

# sample NAME FILE: the value of the sample NAME in the exposition FILE.
sample() { awk -v name="$1" '$1 == name { print $2 }' "$2"; }

# The checks of one cgroup version. try VERSION CPU_MOUNT MEMORY_MOUNT: the hierarchies holding
# the cpu and memory controllers (one and the same for v2).
try() {
  local version=$1 cpu_mount=$2 memory_mount=$3
  local cpu_group=$cpu_mount/$name memory_group=$memory_mount/$name
  local groups="$cpu_group $memory_group" log
  [[ $version == 2 ]] && groups=$cpu_group
  mkdir "$cpu_group" || return 1
  made+=("$cpu_group")
  if [[ $memory_group != "$cpu_group" ]]; then
    mkdir "$memory_group" || return 1
    made+=("$memory_group")
  fi
  # expected_line CPU_AT MEMORY_AT: the line for a quota of 1.5 cores and a 1 GiB limit.
  expected_line() {
    if [[ $version == 1 ]]; then
      echo "sudokud: cgroup v1: CPU quota 1.5 cores (cpu.cfs_quota_us 150000 / cpu.cfs_period_us" \
        "100000 at $1) -> 1 solver thread; memory limit 1073741824 bytes" \
        "(memory.limit_in_bytes at $2) -> --max-memory 536870912 (half)"
    else
      echo "sudokud: cgroup v2: CPU quota 1.5 cores (cpu.max 150000 100000 at $1) -> 1 solver" \
        "thread; memory limit 1073741824 bytes (memory.max at $2) -> --max-memory 536870912 (half)"
    fi
  }
  if [[ $version == 1 ]]; then
    echo 100000 >"$cpu_group/cpu.cfs_period_us" && echo 150000 >"$cpu_group/cpu.cfs_quota_us" &&
      echo 1073741824 >"$memory_group/memory.limit_in_bytes" || return 1
  else
    echo "150000 100000" >"$cpu_group/cpu.max" && echo 1073741824 >"$memory_group/memory.max" ||
      return 1
  fi
  ok "v$version: $cpu_group: a quota of 1.5 CPUs; $memory_group: a limit of 1 GiB"

  # ---- in the group itself
  log=$work/v$version-group.log
  start "$log" "$groups" "" || return 0
  expect_eq "v$version: the start-up line" "$(expected_line "$cpu_group" "$memory_group")" \
    "$(grep '^sudokud: cgroup' "$log")"
  local listening_re='^sudokud: listening on 127\.0\.0\.1:[0-9]+ \(threads 1, kernel [a-z0-9.]+\)$'
  grep -Eq "$listening_re" "$log" && ok "v$version: $(grep '^sudokud: listening on' "$log")" ||
    fail "v$version: not listening with 1 thread: $(grep '^sudokud: listening on' "$log")"
  local metrics=$work/v$version-metrics.txt
  curl -sf "http://127.0.0.1:$metrics_port/metrics" >"$metrics" || fail "v$version: GET /metrics"
  local figure
  for figure in sudokud_cgroup_cpu_quota_cores=1.5 sudokud_cgroup_memory_limit_bytes=1073741824 \
    sudokud_solver_threads=1 sudokud_max_memory_bytes=536870912; do
    expect_eq "v$version: /metrics: ${figure%%=*}" "${figure#*=}" \
      "$(sample "${figure%%=*}" "$metrics")"
  done
  expect_eq "v$version: promtool check metrics" "" "$(promtool check metrics <"$metrics" 2>&1)"
  stop "v$version: in the group"

  # ---- in a group below it, with no limits of its own: the parent's apply
  local inner_groups="$cpu_group/inner"
  mkdir "$cpu_group/inner" && made+=("$cpu_group/inner") || return 1
  if [[ $version == 1 ]]; then
    mkdir "$memory_group/inner" && made+=("$memory_group/inner") || return 1
    inner_groups="$cpu_group/inner $memory_group/inner"
  fi
  log=$work/v$version-inner.log
  if start "$log" "$inner_groups" ""; then
    expect_eq "v$version: the start-up line in $cpu_group/inner" \
      "$(expected_line "$cpu_group" "$memory_group")" "$(grep '^sudokud: cgroup' "$log")"
    stop "v$version: below the group"
  fi

  # ---- as a container sees it: its own group at the hierarchy's root, /proc/self/cgroup
  # naming the path the host sees (which does not exist under the mount)
  local binds="$cpu_group:$cpu_mount"
  [[ $version == 1 ]] && binds="$binds $memory_group:$memory_mount"
  log=$work/v$version-container.log
  if start "$log" "$groups" "$binds"; then
    expect_eq "v$version: the start-up line with the group mounted at the root" \
      "$(expected_line "$cpu_mount" "$memory_mount")" "$(grep '^sudokud: cgroup' "$log")"
    stop "v$version: as a container"
  fi

  # ---- the flags given win
  log=$work/v$version-given.log
  if start "$log" "$groups" "" --threads 2 --max-memory 268435456; then
    expect_eq "v$version: the start-up line with --threads 2 --max-memory 268435456" \
      "$(expected_line "$cpu_group" "$memory_group" |
        sed 's/1 solver thread/--threads 2 as given/; s/536870912 (half)/268435456 as given/')" \
      "$(grep '^sudokud: cgroup' "$log")"
    grep -q '^sudokud: listening on .* (threads 2, ' "$log" && ok "v$version: threads 2 as given" ||
      fail "v$version: not 2 threads: $(grep '^sudokud: listening on' "$log")"
    stop "v$version: with the flags given"
  fi

  # ---- no limits: no line, the machine's defaults, no cgroup gauges
  if [[ $version == 1 ]]; then
    echo -1 >"$cpu_group/cpu.cfs_quota_us" && echo -1 >"$memory_group/memory.limit_in_bytes"
  else
    echo "max 100000" >"$cpu_group/cpu.max" && echo max >"$memory_group/memory.max"
  fi
  log=$work/v$version-unlimited.log
  if start "$log" "$groups" ""; then
    expect_eq "v$version: no cgroup line without limits" "" "$(grep 'cgroup' "$log")"
    grep -q "^sudokud: listening on .* (threads $(nproc), " "$log" &&
      ok "v$version: threads $(nproc), every CPU allowed" ||
      fail "v$version: not $(nproc) threads: $(grep '^sudokud: listening on' "$log")"
    curl -sf "http://127.0.0.1:$metrics_port/metrics" >"$metrics" || fail "v$version: GET /metrics"
    expect_eq "v$version: /metrics: sudokud_max_memory_bytes" 4294967296 \
      "$(sample sudokud_max_memory_bytes "$metrics")"
    expect_eq "v$version: /metrics: no cgroup gauges" "" "$(grep '^sudokud_cgroup' "$metrics")"
    stop "v$version: without limits"
  fi
  return 0
}

# The v1 hierarchy holding CONTROLLER, where the daemon looks for it (/sys/fs/cgroup/NAME).
v1_mount() {
  awk -v controller="$1" '$3 == "cgroup" {
      n = split($4, options, ",")
      for (i = 1; i <= n; i++) if (options[i] == controller) { print $2; exit }
    }' /proc/self/mounts
}

tried=0
skipped=()
cpu_mount=$(v1_mount cpu)
memory_mount=$(v1_mount memory)
if [[ -z $cpu_mount || -z $memory_mount ]]; then
  skipped+=("v1: no v1 hierarchy holds the cpu and memory controllers")
elif [[ ${cpu_mount%/*} != /sys/fs/cgroup || ${memory_mount%/*} != /sys/fs/cgroup ]]; then
  skipped+=("v1: the cpu and memory hierarchies are not under /sys/fs/cgroup")
elif try 1 "$cpu_mount" "$memory_mount"; then
  tried=1
else
  skipped+=("v1: cannot make a group with limits under $cpu_mount and $memory_mount")
fi

v2=
for mount in /sys/fs/cgroup /sys/fs/cgroup/unified; do
  [[ -f $mount/cgroup.controllers ]] && { v2=$mount; break; }
done
if [[ -z $v2 ]]; then
  skipped+=("v2: no unified hierarchy")
elif ! grep -qw cpu "$v2/cgroup.controllers" || ! grep -qw memory "$v2/cgroup.controllers"; then
  skipped+=("v2: $v2 offers no cpu and memory controllers ('$(cat "$v2/cgroup.controllers")')")
elif ! { grep -qw cpu "$v2/cgroup.subtree_control" && grep -qw memory "$v2/cgroup.subtree_control"; } &&
  ! echo "+cpu +memory" >"$v2/cgroup.subtree_control"; then
  skipped+=("v2: cannot enable the cpu and memory controllers under $v2")
elif try 2 "$v2" "$v2"; then
  tried=1
else
  skipped+=("v2: cannot make a group with limits under $v2")
fi

for reason in "${skipped[@]}"; do echo "skipped: $reason"; done
((tried)) || skip "${skipped[*]}"
if ((failed)); then
  echo "FAIL: cgroup test, after $((SECONDS - started)) s"
  exit 1
fi
echo "cgroup test: every check passed in $((SECONDS - started)) s"
