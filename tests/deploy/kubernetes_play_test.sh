#!/usr/bin/env bash
# deploy/kubernetes.yaml run as shipped with `podman kube play`: both replicas ready through the
# manifest's readiness probe, its security context and limits in force, its liveness probe
# healthy, 200,000 puzzles spread over both pods with one pod killed mid-run and every answer
# checked, the other pod stopped during a run and draining within terminationGracePeriodSeconds,
# then `podman kube down`. Run alone with `ctest -L container`.
#
# usage: kubernetes_play_test.sh BUILD_DIR SOURCE_DIR DEB_DIR
#   DEB_DIR holds the package (the deploy_deb test builds it there).
# The image is built from the package (podman_lib.sh, as container_test.sh does) under the name
# the manifest's `image:` gives, so the file runs unchanged. The pods join a network of their
# own, made for the run (`kube play --network`) and removed after it; the host reaches them at
# their addresses on it.
#
# What podman 4.3 does not run of Kubernetes, and what the test does instead (deploy/README.md):
# - The Service: no virtual address, no DNS, no load balancing. The test plays the cluster's DNS
#   for a headless Service: in the client's own mount namespace, a hosts file gives the Service's
#   name the address of every pod its selector matches, and the client, given NAME:targetPort,
#   spreads its connections over them (sudoku-client(1), --resolve-every).
# - The readiness probe: podman ignores it (there are no endpoints to gate). The test performs it
#   as the kubelet would: GET path on port at the pod's address, as the manifest declares them,
#   first at once then every periodSeconds, status 200-399 within timeoutSeconds.
# - The liveness probe becomes the container's health check (the exec command as a shell line),
#   restarting the container on failure; podman schedules checks with systemd timers, and there is
#   no systemd here, so the test runs one with `podman healthcheck run`.
# - terminationGracePeriodSeconds: podman 4.3 stops containers after its stop_timeout (10 s)
#   whatever the manifest says. The test sets stop_timeout in its containers.conf to the
#   manifest's grace period and checks that the containers got it.
# - A pod's termination: `podman kube down` stops with a timeout of 0 (SIGKILL at once, exit 137,
#   no drain; checked below), and `podman pod stop` takes the pod's network down with its infra
#   container while the daemon drains. The drain is `podman stop` of the daemon's container,
#   which gets the stop timeout; `podman kube down` then removes what is left.
# - The Deployment makes its pods once: a killed pod is not replaced. runAsNonRoot is not checked
#   by podman (runAsUser, runAsGroup, the capabilities, readOnlyRootFilesystem and
#   allowPrivilegeEscalation are applied, and checked here).
# Exits 77 with "SKIP: reason" where it cannot run (not root; no podman, runc, catatonit,
# debootstrap or python3-yaml; no Debian mirror).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

require_root "the test runs podman as root (rootless podman is not set up here)" \
  podman runc catatonit debootstrap python3 unshare mount
python3 -c 'import yaml' 2>/dev/null || skip "no python3-yaml (deploy/bootstrap.sh installs it)"
[[ -n $deb ]] || { echo "FAIL: no package in $deb_dir (the deploy_deb test builds it)"; exit 1; }
client=$build/client/sudoku-client
manifest=$source_dir/deploy/kubernetes.yaml

# ---- what the manifest says, read with PyYAML
settings=$(python3 - "$manifest" <<'PY'
import re, shlex, sys, yaml
UNITS = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "K": 10**3, "M": 10**6, "G": 10**9, "": 1}
def quantity(text):
    number, unit = re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(text)).groups()
    return float(number) / 1000 if unit == "m" else float(number) * UNITS[unit]
with open(sys.argv[1]) as f:
    kinds = {d["kind"]: d for d in yaml.safe_load_all(f) if d}
deployment, service = kinds["Deployment"], kinds["Service"]
template = deployment["spec"]["template"]
pod = template["spec"]
(container,) = pod["containers"]
ready = container["readinessProbe"]
resources = container["resources"]
(port,) = service["spec"]["ports"]
values = {
    "deployment": deployment["metadata"]["name"],
    "service_name": service["metadata"]["name"],
    "replicas": deployment["spec"].get("replicas", 1),
    "container": container["name"],
    "kube_image": container["image"],
    "ready_path": ready["httpGet"].get("path", "/"),
    "ready_port": ready["httpGet"]["port"],
    "ready_period": ready.get("periodSeconds", 10),
    "ready_timeout": ready.get("timeoutSeconds", 1),
    "grace": pod.get("terminationGracePeriodSeconds", 30),
    "run_as": f'{pod["securityContext"]["runAsUser"]} {pod["securityContext"]["runAsGroup"]}',
    "selector": ",".join(f"{k}={v}" for k, v in service["spec"]["selector"].items()),
    "solve_port": port["targetPort"],
    "metrics_port": template["metadata"]["annotations"]["prometheus.io/port"],
    # As podman sets them: the CPU limit as a quota per 100 ms period, the memory request as a
    # reservation.
    "limits": f'{quantity(resources["limits"]["cpu"]) * 100000:.0f}/100000 '
              f'{quantity(resources["limits"]["memory"]):.0f} '
              f'{quantity(resources["requests"]["memory"]):.0f}',
}
for name, value in values.items():
    print(f"{name}={shlex.quote(str(value))}")
PY
) || { echo "FAIL: cannot read $manifest"; exit 1; }
eval "$settings"
[[ $replicas == 2 && $ready_port =~ ^[0-9]+$ && $solve_port =~ ^[0-9]+$ ]] ||
  { echo "FAIL: expected 2 replicas and numeric ports in $manifest"; exit 1; }
ok "the manifest: $replicas replicas of $kube_image, readiness GET $ready_path on $ready_port" \
  "every $ready_period s, grace period $grace s, the Service on targetPort $solve_port"

work=$(mktemp -d /tmp/sudokud-kube-test.XXXXXX)
source "$(dirname "$0")/podman_lib.sh"
# podman 4.3 ignores terminationGracePeriodSeconds: the grace period as its stop timeout.
podman_engine_setting "stop_timeout = $grace"
network=sudokud-kube-test-$$
pods=("$deployment-pod-0" "$deployment-pod-1")
ctrs=("${pods[0]}-$container" "${pods[1]}-$container")
background=()
cleanup() {
  local pid
  for pid in "${background[@]}"; do kill "$pid" 2>/dev/null; done
  pm pod rm -f -t 0 "${pods[@]}" >/dev/null 2>&1
  pm network rm -f "$network" >/dev/null 2>&1
  pm rmi -f "$kube_image" >/dev/null 2>&1
  pm image prune -f >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

podman_base_image
podman_build_image "$kube_image"

# ---- podman kube play, as shipped
# What a run killed before its clean-up left (ctest's timeout): its pods and its network.
pm pod rm -f -t 0 "${pods[@]}" >/dev/null 2>&1
for stale in $(pm network ls --format '{{.Name}}' | grep '^sudokud-kube-test-[0-9]*$'); do
  kill -0 "${stale##*-}" 2>/dev/null || pm network rm -f "$stale" >/dev/null 2>&1
done
pm network create "$network" >/dev/null || { echo "FAIL: podman network create failed"; exit 1; }
play_started=$SECONDS
if ! pm kube play --network "$network" "$manifest" >"$work/play.log" 2>&1; then
  cat "$work/play.log"
  echo "FAIL: podman kube play $manifest"
  exit 1
fi
expect_eq "pods made by podman kube play (selected by the Service's $selector)" "${pods[*]}" \
  "$(pm pod ls --filter "label=$selector" --format '{{.Name}}' | sort | tr '\n' ' ' | sed 's/ $//')"
grep -q 'unable to get systemd connection to add healthchecks' "$work/play.log" &&
  ok "podman schedules no health checks here (no systemd on the host): run by hand below"
ips=()
for c in "${ctrs[@]}"; do
  ips+=("$(pm inspect --format "{{(index .NetworkSettings.Networks \"$network\").IPAddress}}" \
    "$c")")
done
[[ ${ips[0]} =~ ^[0-9.]+$ && ${ips[1]} =~ ^[0-9.]+$ ]] ||
  { echo "FAIL: no addresses on $network: ${ips[*]}"; exit 1; }
ok "${pods[0]} at ${ips[0]}, ${pods[1]} at ${ips[1]} (network $network)"

# ---- readiness: the manifest's probe, as the kubelet performs it (podman does not)
# probe URL TIMEOUT: exits 0 when GET URL answers 200-399 within TIMEOUT seconds.
probe() {
  python3 - "$1" "$2" <<'PY' 2>/dev/null
import sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=float(sys.argv[2])) as answer:
        sys.exit(0 if 200 <= answer.status < 400 else 1)
except Exception:
    sys.exit(1)
PY
}
# ready_by_probe IP: probes at once, then every periodSeconds, for up to 60 s.
ready_by_probe() {
  local deadline=$((SECONDS + 60)) tries=1
  until probe "http://$1:$ready_port$ready_path" "$ready_timeout"; do
    ((SECONDS < deadline)) || return 1
    sleep "$ready_period"
    ((++tries))
  done
  echo "$tries"
}
for i in 0 1; do
  if tries=$(ready_by_probe "${ips[i]}"); then
    ok "${pods[i]} ready: GET http://${ips[i]}:$ready_port$ready_path answered 200 at probe" \
      "$tries, $((SECONDS - play_started)) s after podman kube play"
  else
    pm logs "${ctrs[i]}" 2>&1 | tail -5
    echo "FAIL: ${pods[i]} not ready within 60 s"
    exit 1
  fi
done
ready_after=$((SECONDS - play_started))

# ---- the security context and the limits, as podman applied them and as the daemon runs
for i in 0 1; do
  c=${ctrs[i]}
  format='{{.Config.User}} {{.HostConfig.ReadonlyRootfs}} {{.HostConfig.SecurityOpt}}'
  format+=' {{.HostConfig.CapAdd}} {{.Config.StopTimeout}}'
  expect_eq "$c: user, read-only root, security options, capabilities added, stop timeout" \
    "${run_as/ /:} true [no-new-privileges] [] $grace" "$(pm inspect --format "$format" "$c")"
  expect_eq "$c: the daemon's uid and gid, capabilities, NoNewPrivs (/proc/1/status)" \
    "sudokud $run_as 0000000000000000 0000000000000000 0000000000000000 1" \
    "$(pm exec "$c" awk '/^Name:/ {n = $2} /^Uid:/ {u = $2} /^Gid:/ {g = $2}
        /^CapPrm:/ {p = $2} /^CapEff:/ {e = $2} /^CapBnd:/ {b = $2} /^NoNewPrivs:/ {s = $2}
        END {print n, u, g, p, e, b, s}' /proc/1/status)"
  expect_eq "$c: writing to / and /tmp" \
    "/probe: Read-only file system, /tmp/probe: Read-only file system" \
    "$(pm exec "$c" sh -c 'touch /probe; touch /tmp/probe' 2>&1 |
      sed "s/^touch: cannot touch '\(.*\)': /\1: /" | paste -sd, - | sed 's/,/, /')"
  format='{{.HostConfig.CpuQuota}}/{{.HostConfig.CpuPeriod}} {{.HostConfig.Memory}}'
  format+=' {{.HostConfig.MemoryReservation}}'
  expect_eq "$c: the limits (CPU quota/period in us, memory bytes) and the memory request" \
    "$limits" "$(pm inspect --format "$format" "$c")"
done

# ---- liveness: the probe as podman made it the containers' health check, run once by hand
for c in "${ctrs[@]}"; do
  pm healthcheck run "$c" >"$work/health.out" 2>&1
  health=$?
  format='{{join .Config.Healthcheck.Test " "}}, on failure: '
  format+='{{.Config.HealthcheckOnFailureAction}}'
  check=$(pm inspect --format "$format" "$c")
  expect_eq "$c: the liveness probe as podman's health check ($check), run by hand" \
    "0 healthy" "$health $(pm inspect --format '{{.State.Health.Status}}' "$c")"
done

# ---- 200,000 easy puzzles (36 givens): 2,000 grids shuffled from one solution, each relabelled
# 100 times; the same file every run.
python3 - "$work/puzzles.txt" <<'PY'
import random, sys
rng = random.Random(46)
base = [(r * 3 + r // 3 + c) % 9 for r in range(9) for c in range(9)]
def order():
    return [band * 3 + i for band in rng.sample(range(3), 3) for i in rng.sample(range(3), 3)]
grids = []
for _ in range(2000):
    rows, cols = order(), order()
    grid = ["123456789"[base[r * 9 + c]] for r in rows for c in cols]
    for i in rng.sample(range(81), 81 - 36):
        grid[i] = "."
    grids.append("".join(grid))
labels = [str.maketrans("123456789", "".join(rng.sample("123456789", 9))) for _ in range(100)]
with open(sys.argv[1], "w") as f:
    f.writelines(grids[i % 2000].translate(labels[i // 2000]) + "\n" for i in range(200000))
PY
total=$(wc -l <"$work/puzzles.txt")
# feed FILE: FILE's lines on standard output, 2000 every 100 ms (a client streaming for 10 s, not
# a file solved in half a second: the pod is stopped and killed mid-run on any machine; at 40 ms,
# 4 s in all, a machine busy compiling answered the whole file between the 50,000th answer and
# the pod's stop).
feed() {
  python3 -c '
import sys, time
lines = open(sys.argv[1]).readlines()
try:
    for i in range(0, len(lines), 2000):
        sys.stdout.writelines(lines[i:i + 2000])
        sys.stdout.flush()
        time.sleep(0.1)
except BrokenPipeError:
    pass' "$1" 2>/dev/null
}
# solved IP: the daemon's count of solved puzzles (its /metrics).
solved() {
  python3 - "http://$1:$metrics_port/metrics" <<'PY' 2>/dev/null
import sys, urllib.request
for line in urllib.request.urlopen(sys.argv[1], timeout=2).read().decode().splitlines():
    if line.startswith('sudokud_puzzles_total{verdict="solved"} '):
        print(line.split()[1])
PY
}
lines_of() { wc -l <"$1"; }
now_ms() { date +%s%3N; }
# since MS: the seconds since MS (from now_ms), with tenths.
since() { local ms=$(($(now_ms) - $1)); printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)); }
# stalled FILE: FILE has not grown for a second.
stalled() {
  local before
  before=$(lines_of "$1")
  sleep 1
  (($(lines_of "$1") == before))
}

# ---- the run: both pods, the second stopped then killed while it holds batches
victim=${pods[1]}
victim_pid=$(pm inspect --format '{{.State.Pid}}' "${ctrs[1]}")
run_started=$(now_ms)
# The Service's name as a headless Service's DNS gives it: every pod's address.
printf '%s %s\n' "${ips[0]}" "$service_name" "${ips[1]}" "$service_name" >"$work/hosts"
feed "$work/puzzles.txt" |
  unshare -m --propagation private sh -c 'mount --bind "$1" /etc/hosts && shift && exec "$@"' \
    sh "$work/hosts" "$client" solve --no-progress --connect "$service_name:$solve_port" - \
    >"$work/run.out" 2>"$work/run.err" &
client_pid=$!
background+=("$client_pid")
wait_for 30 lines_at_least "$work/run.out" 50000 ||
  { cat "$work/run.err"; echo "FAIL: the run wrote no 50000 answers within 30 s"; exit 1; }
before_stop=("$(solved "${ips[0]}")" "$(solved "${ips[1]}")")
# SIGSTOP first, so that the pod holds batches when it is killed (the client keeps sending it
# some; the output stops at the first), every run rather than by chance.
kill -STOP "$victim_pid"
stopped_at=$(lines_of "$work/run.out")
((before_stop[0] > 0 && before_stop[1] > 0)) &&
  ok "both pods answering through $service_name:$solve_port: ${pods[0]} ${before_stop[0]}, ${pods[1]} ${before_stop[1]} puzzles" \
    "solved (their /metrics); the client has written $stopped_at answers" ||
  fail "the client does not use both pods: ${before_stop[*]} puzzles solved"
wait_for 15 stalled "$work/run.out" ||
  fail "the output went on growing with $victim stopped"
held_at=$(lines_of "$work/run.out")
((held_at < total)) || fail "the run ended before $victim could be killed"
kill_started=$(now_ms)
pm pod kill "$victim" >/dev/null || fail "podman pod kill $victim"
ok "podman pod kill $victim (SIGKILL) in $(since "$kill_started") s, with the output held at" \
  "$held_at of $total answers"
wait "$client_pid"
client_status=$?
run_took=$(since "$run_started")
expect_eq "the client's exit status and summary" \
  "0 puzzles $total, solved $total, multiple 0, unsolvable 0, invalid 0" \
  "$client_status $(grep -o '^puzzles .*invalid 0' "$work/run.err")"
resent=$(grep -o '^sudoku-client: [0-9]* batches were sent again after their connection broke' \
  "$work/run.err")
[[ -n $resent ]] && ok "$resent (those $victim held)" ||
  fail "no batch was sent again: $(cat "$work/run.err")"
checked=$(python3 "$source_dir/tests/deploy/check_answers.py" "$work/puzzles.txt" \
  "$work/run.out") && ok "the output, complete and in input order: $checked" ||
  fail "the output: $checked"
after=$(solved "${ips[0]}")
ok "puzzles solved: ${pods[0]} $after, ${pods[1]} at least ${before_stop[1]} before it was" \
  "stopped (its last /metrics); the run took $run_took s"
expect_eq "$victim after the kill (no Deployment controller to replace it)" \
  "Exited 137" "$(pm pod ps --filter "name=^$victim\$" --format '{{.Status}}') $(pm inspect \
    --format '{{.State.ExitCode}}' "${ctrs[1]}")"

# ---- the drain: podman stop of the remaining pod's container during a run, within the grace
# period. Not podman kube down, which (4.3) kills at once (below), nor podman pod stop, which
# stops the infra container, and with it the pod's network, while the daemon drains: answers
# it has not sent within a few tenths of a second never leave (the drain ends cancelling them at
# --drain-timeout). Hard puzzles, from a file: the pod is busy, with batches in flight, when the
# stop comes.
grep -hE '^[0-9.]{81}$' "$source_dir/tests/data/very_hard.txt" \
  "$source_dir/tests/data/bench_puzzles.txt" >"$work/hard.txt"
awk '{ line[NR] = $0 } END { for (i = 0; i < 3000; ++i) for (j = 1; j <= NR; ++j) print line[j] }' \
  "$work/hard.txt" >"$work/drain.txt"
drain_started=$(now_ms)
"$client" solve --no-progress --retry-for 2s --connect "${ips[0]}:$solve_port" "$work/drain.txt" \
  >"$work/drain.out" 2>"$work/drain.err" &
client_pid=$!
background+=("$client_pid")
wait_for 30 lines_at_least "$work/drain.out" 10000 ||
  { cat "$work/drain.err"; echo "FAIL: the second run wrote no 10000 answers within 30 s"; exit 1; }
stop_started=$(now_ms)
pm stop "${ctrs[0]}" >/dev/null 2>"$work/stop.err" || fail "podman stop: $(cat "$work/stop.err")"
stop_took=$(since "$stop_started")
stop_ms=$(($(now_ms) - stop_started))
wait "$client_pid"
client_status=$?
client_took=$(since "$drain_started")
pm logs "${ctrs[0]}" >"$work/survivor.log" 2>&1
drain=$(grep -m1 '^sudokud: SIGTERM: stopped accepting; draining ' "$work/survivor.log")
[[ -n $drain ]] && ok "${ctrs[0]}: $drain" || fail "no drain line in ${ctrs[0]}'s log"
summary=$(grep -m1 '^sudokud: stopped: ' "$work/survivor.log")
summary_re='^sudokud: stopped: [0-9]+ connections, [0-9]+ batches answered, 0 cancelled,'
[[ $summary =~ $summary_re ]] && ok "${ctrs[0]}: $summary" ||
  fail "the drain cancelled work or did not end: '$summary'"
expect_eq "${ctrs[0]}: its exit status after podman stop" 0 \
  "$(pm inspect --format '{{.State.ExitCode}}' "${ctrs[0]}")"
((stop_ms < grace * 1000)) &&
  ok "podman stop took $stop_took s, within terminationGracePeriodSeconds $grace s" ||
  fail "podman stop took $stop_took s, not within $grace s"
answered=$(lines_of "$work/drain.out")
head -n "$answered" "$work/drain.txt" >"$work/drained.txt"
checked=$(python3 "$source_dir/tests/deploy/check_answers.py" "$work/drained.txt" \
  "$work/drain.out") &&
  ok "the run stopped by it: exit $client_status after $client_took s, $checked of" \
    "$(lines_of "$work/drain.txt") (all it wrote): $(tail -1 "$work/drain.err")" ||
  fail "the answers written before the drain: $checked"
what="puzzles ${ctrs[0]} answered in this run (its count at the end minus $after), as many as"
[[ $summary =~ \ ([0-9]+)\ puzzles\ \( ]] &&
  expect_eq "$what the client wrote" "$answered" "$((BASH_REMATCH[1] - after))"

# ---- podman kube down: removes the pods, and (4.3) kills what still runs with no grace period:
# stop timeout 0, SIGKILL at once. The killed pod, started again by hand, shows it.
pm pod start "$victim" >/dev/null 2>&1 || fail "podman pod start $victim"
victim_listening() {
  [[ $(pm logs "${ctrs[1]}" 2>&1 | grep -c '^sudokud: listening on ') -ge 2 ]]
}
wait_for 20 victim_listening && ok "$victim started again by hand (podman pod start)" ||
  fail "$victim did not start again"
victim_id=$(pm inspect --format '{{.Id}}' "${ctrs[1]}")
down_started=$(now_ms)
pm kube down "$manifest" >"$work/down.log" 2>&1 ||
  { cat "$work/down.log"; fail "podman kube down"; }
down_took=$(since "$down_started")
expect_eq "podman kube down ($down_took s): $victim's exit status (SIGKILL, no drain)" 137 \
  "$(pm events --stream=false --since 2m --filter "container=$victim_id" --filter event=died \
    --format '{{.ContainerExitCode}}' 2>/dev/null | tail -1)"
expect_eq "pods and containers left" "0 0" "$(pm pod ls -q | wc -l) $(pm ps -aq | wc -l)"

if ((failed)); then
  echo "FAIL: kubernetes play test, after $((SECONDS - started)) s"
  exit 1
fi
echo "kubernetes play test: every check passed in $((SECONDS - started)) s; both pods ready" \
  "$ready_after s after podman kube play; $total puzzles in $run_took s with $victim killed" \
  "mid-run, every answer right; podman stop drained in $stop_took s (grace period $grace s)"
