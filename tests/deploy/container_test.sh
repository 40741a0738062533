#!/usr/bin/env bash
# The container image (deploy/Containerfile) built with podman and run as an operator would:
# published on loopback, a file solved through the port with every answer checked, the health
# check, a non-root user, `podman stop` draining, and a container given --cpus 1.5 --memory 1g
# sizing itself by them (1 solver thread, --max-memory half the limit). Run alone with
# `ctest -L container`.
#
# usage: container_test.sh BUILD_DIR SOURCE_DIR DEB_DIR
#   DEB_DIR holds the package (the deploy_deb test builds it there).
# The podman set-up, the base image (debootstrapped, no registry is reachable here) and the build
# are podman_lib.sh's. `podman healthcheck run` by hand: scheduled checks need systemd on the host
# (../shared/STACK.md). Exits 77 with "SKIP: reason" where podman cannot run (not root, no
# podman, runc or debootstrap, no Debian mirror).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

require_root "the test runs podman as root (rootless podman is not set up here)" \
  podman runc debootstrap python3
[[ -n $deb ]] || { echo "FAIL: no package in $deb_dir (the deploy_deb test builds it)"; exit 1; }
client=$build/client/sudoku-client

work=$(mktemp -d /tmp/sudokud-container-test.XXXXXX)
source "$(dirname "$0")/podman_lib.sh"
name=sudokud-test-$$
image=localhost/sudokud-test:$$
cleanup() {
  pm rm -f -t 0 "$name" "$name-limited" >/dev/null 2>&1
  pm rmi -f "$image" >/dev/null 2>&1
  pm image prune -f >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

podman_base_image
podman_build_image "$image"
size=$image_size
config=$(pm image inspect \
  --format '{{.Config.User}} {{.Config.StopSignal}} {{.Config.ExposedPorts}}' "$image")
expect_eq "the image's user, stop signal, ports" \
  "10001:10001 SIGTERM map[9810/tcp:{} 9910/tcp:{}]" "$config"
healthcheck=$(pm image inspect --format '{{join .HealthCheck.Test " "}}' "$image")
expect_eq "the image's HEALTHCHECK (kept by --format docker)" "CMD sudokud-probe 9910 /readyz" \
  "$healthcheck"

# ---- run, published on a free loopback port (the metrics port stays inside)
port=$(python3 -c \
  'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pm run -d --name "$name" -p "127.0.0.1:$port:9810" --stop-timeout 45 "$image" >/dev/null ||
  { echo "FAIL: podman run failed"; exit 1; }
logs() { pm logs "$name" 2>&1; }
listening() {
  logs | grep -E '^sudokud: listening on 0\.0\.0\.0:9810 \(threads [0-9]+, kernel [a-z0-9.]+\)$' \
    >/dev/null
}
wait_for 20 listening || { logs; echo "FAIL: no 'listening on 0.0.0.0:9810' line"; exit 1; }
ok "$(logs | grep -m1 '^sudokud: listening on ')"

grep -E '^[0-9.]{81}$' "$source_dir/tests/data/very_hard.txt" \
  "$source_dir/tests/data/bench_puzzles.txt" | cut -d: -f2 >"$work/some.txt"
"$client" solve --no-progress --connect "127.0.0.1:$port" "$work/some.txt" \
  >"$work/some.out" 2>"$work/some.err" ||
  fail "solve through 127.0.0.1:$port: $(cat "$work/some.err")"
first_answer=$((SECONDS - build_started))
checked=$(python3 "$source_dir/tests/deploy/check_answers.py" "$work/some.txt" "$work/some.out") &&
  ok "the first solve through the published port: $checked," \
    "$first_answer s after podman build began" ||
  fail "answers through the port: $checked"
awk '{ line[NR] = $0 } END { for (i = 0; i < 3000; ++i) for (j = 1; j <= NR; ++j) print line[j] }' \
  "$work/some.txt" >"$work/many.txt"
"$client" solve --no-progress --connect "127.0.0.1:$port" "$work/many.txt" \
  >"$work/many.out" 2>"$work/many.err" ||
  fail "solve of $(wc -l <"$work/many.txt") puzzles: $(cat "$work/many.err")"
checked=$(python3 "$source_dir/tests/deploy/check_answers.py" "$work/many.txt" "$work/many.out") &&
  ok "solve of a file through the port: $checked" || fail "answers through the port: $checked"

expect_eq "the daemon's user" "10001 10001" \
  "$(pm exec "$name" sh -c 'id -u; id -g' | tr '\n' ' ' | sed 's/ $//')"
pm healthcheck run "$name" >"$work/health.out" 2>&1
health=$?
health_status=$(pm inspect --format '{{.State.Health.Status}}' "$name" 2>/dev/null ||
  cat "$work/health.out")
expect_eq "podman healthcheck run" "0 healthy" "$health $health_status"
expect_eq "GET /metrics inside" "sudokud_ready 1" \
  "$(pm exec "$name" bash -c 'exec 3<>/dev/tcp/127.0.0.1/9910 &&
       printf "GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n" >&3 && cat <&3' |
     grep -m1 '^sudokud_ready ')"

# ---- sized by its limits: the daemon reads its container's cgroup (v1 here, v2 elsewhere)
pm run -d --name "$name-limited" --cpus 1.5 --memory 1g "$image" >/dev/null ||
  fail "podman run --cpus 1.5 --memory 1g failed"
limited_logs() { pm logs "$name-limited" 2>&1; }
limited_listening() { limited_logs | grep -q '^sudokud: listening on '; }
if wait_for 20 limited_listening; then
  cgroup_line=$(limited_logs | grep '^sudokud: cgroup')
  cgroup_re='^sudokud: cgroup v[12]: CPU quota 1\.5 cores \((cpu\.max 150000 100000|cpu\.cfs_quota_us'
  cgroup_re+=' 150000 / cpu\.cfs_period_us 100000) at /sys/fs/cgroup[^)]*\) -> 1 solver thread; '
  cgroup_re+='memory limit 1073741824 bytes \((memory\.max|memory\.limit_in_bytes) at '
  cgroup_re+='/sys/fs/cgroup[^)]*\) -> --max-memory 536870912 \(half\)$'
  [[ $cgroup_line =~ $cgroup_re ]] && ok "--cpus 1.5 --memory 1g: $cgroup_line" ||
    fail "--cpus 1.5 --memory 1g: the start-up line: '$cgroup_line'"
  expect_eq "--cpus 1.5 --memory 1g: threads" "threads 1," \
    "$(limited_logs | grep -o 'listening on .* (threads [0-9]*,' | grep -o 'threads [0-9]*,')"
  figures="sudokud_cgroup_cpu_quota_cores 1.5 sudokud_cgroup_memory_limit_bytes 1073741824"
  figures+=" sudokud_max_memory_bytes 536870912 sudokud_solver_threads 1"
  expect_eq "--cpus 1.5 --memory 1g: GET /metrics inside" "$figures" \
    "$(pm exec "$name-limited" bash -c 'exec 3<>/dev/tcp/127.0.0.1/9910 &&
         printf "GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n" >&3 && cat <&3' |
       grep -E '^sudokud_(cgroup_[a-z_]+|max_memory_bytes|solver_threads) ' | sort | tr '\n' ' ' |
       sed 's/ $//')"
else
  limited_logs | tail -5
  fail "--cpus 1.5 --memory 1g: no 'listening on' line"
fi
pm rm -f -t 0 "$name-limited" >/dev/null 2>&1

# ---- podman stop during a run: SIGTERM, the accepted batches answered, exit 0
cat "$work/many.txt" "$work/many.txt" "$work/many.txt" >"$work/more.txt"
"$client" solve --no-progress --retry-for 2s --connect "127.0.0.1:$port" "$work/more.txt" \
  >"$work/stop.out" 2>"$work/stop.err" &
client_pid=$!
wait_for 30 lines_at_least "$work/stop.out" 1000 || fail "the run wrote no 1000 answers within 30 s"
stop_started=$SECONDS
pm stop "$name" >/dev/null
stop_took=$((SECONDS - stop_started))
wait "$client_pid"
client_status=$?
expect_eq "after podman stop: the daemon's exit code" 0 \
  "$(pm inspect --format '{{.State.ExitCode}}' "$name")"
drain=$(logs | grep -m1 '^sudokud: SIGTERM: stopped accepting; draining ')
[[ -n $drain ]] && ok "$drain" || fail "no drain line in the container's log"
summary=$(logs | grep -m1 '^sudokud: stopped: ')
summary_re='^sudokud: stopped: [0-9]+ connections, [0-9]+ batches answered, 0 cancelled,'
[[ $summary =~ $summary_re ]] &&
  ok "$summary (the stop took $stop_took s)" || fail "the stop cancelled work: $summary"
answered=$(wc -l <"$work/stop.out")
head -n "$answered" "$work/more.txt" >"$work/stop.txt"
checked=$(python3 "$source_dir/tests/deploy/check_answers.py" "$work/stop.txt" "$work/stop.out") &&
  ok "the run stopped by it: exit $client_status, $checked (all it wrote)" ||
  fail "the answers written before the stop: $checked"

if ((failed)); then
  logs | tail -20
  echo "FAIL: container test, after $((SECONDS - started)) s"
  exit 1
fi
echo "container test: every check passed in $((SECONDS - started)) s;" \
  "image $((size / 1000000)) MB; podman build to first answer $first_answer s"
