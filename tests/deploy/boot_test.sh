#!/usr/bin/env bash
# The Debian package under a booted systemd: a minimal Debian 12 tree (debootstrap, cached under
# the build directory) booted with systemd-nspawn, the .deb installed in it and used as the README
# says, each check asserting exact unit states and journal lines. Run alone with `ctest -L boot`.
#
# usage: boot_test.sh BUILD_DIR SOURCE_DIR DEB_DIR
#   DEB_DIR holds the package (the deploy_deb test builds it there).
# Exits 77 with "SKIP: reason" where the container cannot boot (not root, no systemd-nspawn or
# debootstrap, no cgroup access, no Debian mirror). Each check prints "ok: what it saw".
# Facts it rests on (../shared/STACK.md): nspawn needs --keep-unit --register=no (no systemd or
# D-Bus on the host) and --private-network (else the container's 9810 is the host's); commands
# run inside through nsenter; the watchdog restart comes 28-31 s after a SIGSTOP.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

require_root "booting a container with systemd-nspawn needs root" \
  systemd-nspawn debootstrap nsenter dpkg-deb python3
[[ -n $deb ]] || { echo "FAIL: no package in $deb_dir (the deploy_deb test builds it)"; exit 1; }

# The cgroup the container's payload goes under: the caller's own (--keep-unit).
if [[ -d /sys/fs/cgroup/systemd ]]; then
  cgroup_root=/sys/fs/cgroup/systemd
  own=$(sed -n 's/^[0-9]*:name=systemd://p' /proc/self/cgroup)
else
  cgroup_root=/sys/fs/cgroup
  own=$(sed -n 's/^0:://p' /proc/self/cgroup)
fi
probe=$cgroup_root${own%/}/sudokud-boot-probe-$$
mkdir "$probe" 2>/dev/null && rmdir "$probe" ||
  skip "cannot create a control group under $cgroup_root${own%/} (systemd-nspawn needs one)"

mirror=$(debian_mirror)
[[ -n $mirror ]] || skip "cannot find a Debian mirror in /etc/apt/sources.list.d/debian.sources"

# ---- the tree: systemd, D-Bus and the package's dependencies (the container has no network)
depends=$(dpkg-deb -f "$deb" Depends)
IFS=, read -ra alternatives <<<"$depends"
packages=$(for alternative in systemd systemd-sysv dbus "${alternatives[@]}"; do
  sed 's/|.*//; s/(.*//; s/ //g' <<<"$alternative"
done | sort -u | paste -sd,)
cache=$build/deploy/test-cache
key=$(printf '%s %s' "$packages" "$mirror" | sha256sum | cut -c1-12)
tree=$cache/bookworm-systemd-$key
mkdir -p "$cache"
if [[ ! -d $tree ]]; then
  rm -rf "$cache"/bookworm-systemd-*  # trees for other dependencies
  echo "debootstrap: bookworm with $packages from $mirror (60-100 s)"
  if ! debootstrap --variant=minbase --include="$packages" bookworm "$tree.tmp" "$mirror" \
    >"$cache/debootstrap.log" 2>&1; then
    tail -5 "$cache/debootstrap.log"
    rm -rf "$tree.tmp"
    skip "cannot make the tree: debootstrap from $mirror failed ($cache/debootstrap.log)"
  fi
  mv "$tree.tmp" "$tree"
  ok "tree made in $tree"
else
  ok "cached tree $tree"
fi

# ---- boot it: read-only tree, changes in a tmpfs overlay (the cache stays as debootstrap left it)
work=$(mktemp -d /tmp/sudokud-boot-test.XXXXXX)
nspawn_log=$work/nspawn.log
systemd-nspawn -D "$tree" -b --register=no --keep-unit --private-network --volatile=overlay \
  -M "sudokud-boot-$$" </dev/null >"$nspawn_log" 2>&1 &
nspawn=$!
container=
# Powers the container off (nspawn turns SIGTERM into a poweroff request), then ends whatever of
# it is left: nspawn, and the processes in the payload group it made.
cleanup() {
  if [[ -n $container ]] && kill -0 "$nspawn" 2>/dev/null; then
    nsenter -t "$container" -a systemctl poweroff >/dev/null 2>&1
    for _ in $(seq 100); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.1; done
  fi
  if kill -0 "$nspawn" 2>/dev/null; then
    kill -TERM "$nspawn" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$nspawn" 2>/dev/null
  fi
  wait "$nspawn" 2>/dev/null
  local root group pids
  for root in /sys/fs/cgroup/systemd /sys/fs/cgroup/unified /sys/fs/cgroup; do
    [[ -d $root${own%/}/payload ]] || continue
    pids=$(find "$root${own%/}/payload" -name cgroup.procs -exec cat {} + 2>/dev/null)
    [[ -n $pids ]] && kill -KILL $pids 2>/dev/null
  done
  sleep 0.2
  # nspawn --keep-unit leaves empty payload/ and supervisor/ groups behind: depth first.
  for root in /sys/fs/cgroup/systemd /sys/fs/cgroup/unified /sys/fs/cgroup; do
    for group in payload supervisor; do
      [[ -d $root${own%/}/$group ]] &&
        find "$root${own%/}/$group" -depth -type d -exec rmdir {} + 2>/dev/null
    done
  done
  rm -rf "$work"
}
trap cleanup EXIT

# Stops the test at a failure that leaves nothing further to check.
fatal() {
  echo "FAIL: $*"
  echo "--- nspawn log:"; tail -20 "$nspawn_log"
  if [[ -n $container ]]; then
    echo "--- journal:"; in_ct journalctl -b --no-pager -n 60 -o short-monotonic
  fi
  exit 1
}
in_ct() {
  nsenter -t "$container" -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"
}
journal() { in_ct journalctl -b --no-pager -o cat "$@"; }
# expect_journal UNIT LINE: an exact line of the unit's journal (systemd's or the daemon's)
journal_has() { journal -u "$1" | grep -Fx -- "$2" >/dev/null; }
expect_journal() {
  if journal_has "$1" "$2"; then
    ok "journal of $1: $2"
  else
    fail "journal of $1 lacks the line: $2"
    journal -u "$1" | tail -15
  fi
}
show() { in_ct systemctl show -P "$2" "$1"; }
# http_get PORT PATH: "STATUS BODY" of an HTTP GET inside the container (bash's /dev/tcp: the
# tree has no curl).
http_get() {
  in_ct timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1 &&
    printf 'GET $2 HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3 && cat <&3" 2>/dev/null |
    tr -d '\r' | awk 'NR == 1 {code = $2} body {print code, $0; exit} /^$/ {body = 1}'
}

# The container's PID 1: nspawn's child once it runs systemd (an intermediate child comes first).
for _ in $(seq 300); do
  for child in $(cat "/proc/$nspawn/task/$nspawn/children" 2>/dev/null); do
    [[ $(cat "/proc/$child/comm" 2>/dev/null) == systemd ]] && container=$child
  done
  [[ -n $container ]] && break
  kill -0 "$nspawn" 2>/dev/null || break
  sleep 0.1
done
[[ -n $container ]] || { container=; fatal "systemd-nspawn did not start the container"; }
running() {
  local state
  state=$(in_ct systemctl is-system-running 2>/dev/null)
  [[ $state == running || $state == degraded ]]
}
wait_for 60 running ||
  fatal "the container's systemd is not running: $(in_ct systemctl is-system-running)"
systemd_version=$(in_ct systemctl --version | awk 'NR == 1 {print $2}')
ok "booted: systemd $systemd_version, $(in_ct systemctl is-system-running)"

# What belongs to nobody before the package comes: found again after purge, it is not ours.
baseline() {
  in_ct find /etc /usr /var/lib/systemd -xtype l 2>/dev/null | sort
}
baseline >"$work/links-before"

# ---- install: enabled and started
in_ct sh -c 'cat > /root/sudokud.deb' <"$deb"
installed=$(in_ct env DEBIAN_FRONTEND=noninteractive dpkg -i /root/sudokud.deb 2>&1) ||
  fatal "dpkg -i failed: $installed"
active() { [[ $(show "$1" ActiveState) == "$2" ]]; }
wait_for 10 active sudokud.service active || fail "sudokud.service not active after install"
enabled=$(in_ct systemctl is-enabled sudokud.service)
expect_eq "after install, sudokud.service is" "enabled active running" \
  "$enabled $(show sudokud.service ActiveState) $(show sudokud.service SubState)"
expect_eq "after install, sudokud.socket is" "disabled inactive" \
  "$(in_ct systemctl is-enabled sudokud.socket) $(show sudokud.socket ActiveState)"
expect_journal sudokud.service "Started sudokud.service - sudokud bulk Sudoku solver."
threads=$(in_ct nproc)
kernel_line=$(journal -u sudokud.service | grep -m1 '^listening on 127.0.0.1:9810 (threads ')
kernel_re='^listening on 127\.0\.0\.1:9810 \(threads '$threads', kernel [a-z0-9.]+\)$'
[[ $kernel_line =~ $kernel_re ]] &&
  ok "journal of sudokud.service: $kernel_line" ||
  fail "no 'listening on 127.0.0.1:9810 (threads $threads, kernel ...)' line: $kernel_line"
# LimitNOFILE=524288, as far as the container's own hard limit allows (systemd cannot raise it).
ceiling=$(in_ct awk '/^Max open files/ {print $5}' /proc/1/limits)
((ceiling > 524288)) && ceiling=524288
expect_eq \
  "the daemon's descriptor limits (LimitNOFILE=524288, the container's hard limit $ceiling)" \
  "$ceiling $ceiling" \
  "$(in_ct awk '/^Max open files/ {print $4, $5}' "/proc/$(show sudokud.service MainPID)/limits")"

# ---- puzzles: 7 very hard ones; the reference answers checked independently
grep -E '^[0-9.]{81}$' "$source_dir/tests/data/very_hard.txt" >"$work/seven.txt"
in_ct sh -c 'cat > /root/seven.txt' <"$work/seven.txt"
in_ct sudoku-client solve --no-progress /root/seven.txt >"$work/seven.out" 2>"$work/seven.err" ||
  fatal "sudoku-client solve failed: $(cat "$work/seven.err")"
python3 "$source_dir/tests/deploy/check_answers.py" "$work/seven.txt" "$work/seven.out" ||
  fail "the reference answers are wrong"
# A long run: 30,000 copies of them, and the answers they must get, in order.
repeat() {
  awk -v times="$1" '{ line[NR] = $0 }
    END { for (i = 0; i < times; ++i) for (j = 1; j <= NR; ++j) print line[j] }' "$2"
}
repeat 30000 "$work/seven.txt" >"$work/long.txt"
repeat 30000 "$work/seven.out" >"$work/long.expected"
in_ct sh -c 'cat > /root/long.txt' <"$work/long.txt"
lines=$(wc -l <"$work/long.txt")

# ---- STATUS=: refreshed every 10 s (half WatchdogSec, at most 10 s)
status_ok() {
  local re='^[0-9]+ connections, [0-9]+ batches \([0-9]+ puzzles\) in flight; '
  re+='[1-9][0-9]* batches, 7 puzzles answered; 0 protocol faults$'
  [[ $(show sudokud.service StatusText) =~ $re ]]
}
wait_for 12 status_ok && ok "StatusText after 7 puzzles: $(show sudokud.service StatusText)" ||
  fail "StatusText did not count the 7 puzzles within 12 s: $(show sudokud.service StatusText)"

# ---- kill -9: restarted (Restart=on-failure, RestartSec=1)
pid=$(show sudokud.service MainPID)
in_ct sh -c "kill -KILL $pid"
t0=$SECONDS
new_pid() {
  local now
  now=$(show sudokud.service MainPID)
  [[ $now != 0 && $now != "$1" ]] && active sudokud.service active
}
wait_for 15 new_pid "$pid" &&
  ok "kill -9 of $pid: restarted as $(show sudokud.service MainPID)" \
    "within $((SECONDS - t0 + 1)) s" ||
  fail "kill -9: not restarted within 15 s"
expect_journal sudokud.service "sudokud.service: Main process exited, code=killed, status=9/KILL"
expect_journal sudokud.service "sudokud.service: Failed with result 'signal'."
expect_journal sudokud.service "sudokud.service: Scheduled restart job, restart counter is at 1."
expect_eq "NRestarts" 1 "$(show sudokud.service NRestarts)"

# long_run NAME: starts the long run in the background ($client), output in $work/NAME.out.
long_run() {
  in_ct sudoku-client solve --no-progress /root/long.txt >"$work/$1.out" 2>"$work/$1.err" &
  client=$!
  # Under way: answers are being written.
  wait_for 30 lines_at_least "$work/$1.out" 20000 ||
    fail "$1: the client wrote no 20000 answers within 30 s"
}
# long_run_done NAME: the run ended well, every answer identical to the reference.
long_run_done() {
  local status
  wait "$client"
  status=$?
  if [[ $status == 0 ]] && cmp -s "$work/$1.out" "$work/long.expected"; then
    ok "$1: the client exited 0, its $lines answers identical to the reference"
  else
    local answered
    answered=$(wc -l <"$work/$1.out")
    fail "$1: the client exited $status, $answered of $lines answers; $(tail -3 "$work/$1.err")"
    cmp "$work/$1.out" "$work/long.expected" | head -3
  fi
}

# ---- systemctl stop during a long run: the accepted work answered, then start; nothing lost
long_run stop
pid=$(show sudokud.service MainPID)
in_ct systemctl stop sudokud.service
expect_eq "after systemctl stop, sudokud.service is" "inactive dead" \
  "$(show sudokud.service ActiveState) $(show sudokud.service SubState)"
drain=$(journal _PID="$pid" | grep -m1 '^SIGTERM: stopped accepting; draining ')
[[ -n $drain ]] && ok "journal of sudokud.service: $drain" || fail "no drain line from $pid"
summary=$(journal _PID="$pid" | grep -m1 '^stopped: ')
[[ $summary =~ ^stopped:\ [0-9]+\ connections,\ [0-9]+\ batches\ answered,\ 0\ cancelled, ]] &&
  ok "journal of sudokud.service: $summary" || fail "the stop cancelled work: $summary"
expect_journal sudokud.service "sudokud.service: Deactivated successfully."
in_ct systemctl start sudokud.service
long_run_done stop

# ---- the watchdog: a SIGSTOPped daemon is restarted after WatchdogSec=30 (the wait is used for
# the instances, reload and socket activation's set-up below)
pid=$(show sudokud.service MainPID)
in_ct sh -c "kill -STOP $pid"
stopped_at=$SECONDS

# ---- two instances of the template, each with its metrics and health on PORT+100
for port in 9811 9812; do
  echo "SUDOKUD_OPTS=--metrics 127.0.0.1:$((port + 100))" |
    in_ct sh -c "cat > /etc/default/sudokud@$port"
done
in_ct systemctl enable --now sudokud@9811 sudokud@9812 2>/dev/null
for port in 9811 9812; do
  unit=sudokud@$port.service
  expect_eq "$unit is" "enabled active running" \
    "$(in_ct systemctl is-enabled "$unit") $(show "$unit" ActiveState) $(show "$unit" SubState)"
  expect_journal "$unit" "serving metrics on http://127.0.0.1:$((port + 100))/metrics"
  ready() { [[ $(http_get "$1" /readyz) == "200 ready" ]]; }
  wait_for 10 ready $((port + 100)) || true
  expect_eq "GET /readyz on $((port + 100))" "200 ready" "$(http_get $((port + 100)) /readyz)"
  in_ct sudoku-client solve --no-progress --connect "127.0.0.1:$port" /root/seven.txt \
    >"$work/$port.out" 2>"$work/$port.err"
  cmp -s "$work/$port.out" "$work/seven.out" && ok "solve through $port: the 7 reference answers" ||
    fail "solve through $port: $(cat "$work/$port.err")"
done
# ---- reload: SIGHUP, the daemon stays (same MainPID)
pid9811=$(show sudokud@9811.service MainPID)
in_ct systemctl reload sudokud@9811
expect_eq "after reload, sudokud@9811's MainPID" "$pid9811 active" \
  "$(show sudokud@9811.service MainPID) $(show sudokud@9811.service ActiveState)"
description="sudokud bulk Sudoku solver (instance 9811)"
expect_journal sudokud@9811.service "Reloading sudokud@9811.service - $description..."
expect_journal sudokud@9811.service "Reloaded sudokud@9811.service - $description."
wait_for 5 journal_has sudokud@9811.service "SIGHUP: nothing to reload (no --tls-cert)"
expect_journal sudokud@9811.service "SIGHUP: nothing to reload (no --tls-cert)"

# ---- the watchdog's restart
wait_for 45 new_pid "$pid" &&
  ok "SIGSTOP of $pid: restarted by the watchdog as $(show sudokud.service MainPID)" \
    "$((SECONDS - stopped_at)) s after the stop" ||
  fail "SIGSTOP of $pid: no restart within 45 s"
expect_journal sudokud.service "sudokud.service: Watchdog timeout (limit 30s)!"
expect_journal sudokud.service "sudokud.service: Failed with result 'watchdog'."

# ---- socket activation on 9810: systemd holds the port, the first connection starts the daemon
in_ct systemctl stop sudokud.service
in_ct systemctl enable --now sudokud.socket 2>/dev/null
socket_state="$(in_ct systemctl is-enabled sudokud.socket) $(show sudokud.socket ActiveState)"
expect_eq "with the socket enabled" "enabled active listening inactive" \
  "$socket_state $(show sudokud.socket SubState) $(show sudokud.service ActiveState)"
in_ct sudoku-client solve --no-progress /root/seven.txt >"$work/socket.out" 2>"$work/socket.err"
cmp -s "$work/socket.out" "$work/seven.out" &&
  ok "solve through the socket: the 7 reference answers" ||
  fail "solve through the socket: $(cat "$work/socket.err")"
expect_eq "after the first connection, sudokud.service is" "active running" \
  "$(show sudokud.service ActiveState) $(show sudokud.service SubState)"
expect_eq "TriggeredBy" "sudokud.socket" "$(show sudokud.service TriggeredBy)"
pid=$(show sudokud.service MainPID)
socket_line=$(journal _PID="$pid" | grep -m1 '^listening on ')
socket_prefix="listening on 127.0.0.1:9810 (threads $threads, kernel "
[[ $socket_line == "$socket_prefix"*", socket from systemd)" ]] &&
  ok "journal of sudokud.service: $socket_line" || fail "not the socket's: $socket_line"

# ---- reinstall during a long run: the upgrade path restarts each daemon with a drain
long_run reinstall
pid=$(show sudokud.service MainPID)
reinstalled=$(in_ct env DEBIAN_FRONTEND=noninteractive dpkg -i /root/sudokud.deb 2>&1) ||
  fail "dpkg -i again failed: $reinstalled"
[[ $(show sudokud.service MainPID) != "$pid" ]] &&
  ok "reinstall restarted sudokud.service ($pid -> $(show sudokud.service MainPID))" ||
  fail "reinstall did not restart sudokud.service"
summary=$(journal _PID="$pid" | grep -m1 '^stopped: ')
[[ $summary =~ ^stopped:\ [0-9]+\ connections,\ [0-9]+\ batches\ answered,\ 0\ cancelled, ]] &&
  ok "journal of sudokud.service: $summary" ||
  fail "the reinstall's restart cancelled work: $summary"
long_run_done reinstall
socket_state="$(in_ct systemctl is-enabled sudokud.socket) $(show sudokud.socket ActiveState)"
instance_state="$(in_ct systemctl is-enabled sudokud@9811) $(show sudokud@9811.service ActiveState)"
others_state="$(show sudokud@9812.service ActiveState) $(show sudokud.service ActiveState)"
expect_eq "after reinstall" "enabled active enabled active active active" \
  "$socket_state $instance_state $others_state"

# ---- remove: nothing runs
removed=$(in_ct env DEBIAN_FRONTEND=noninteractive dpkg -r sudokud 2>&1) ||
  fail "dpkg -r failed: $removed"
daemons=$(in_ct sh -c 'for p in /proc/[0-9]*; do
  [ "$(cat $p/comm 2>/dev/null)" = sudokud ] && echo ${p#/proc/}; done')
expect_eq "sudokud processes after dpkg -r" "" "$daemons"
expect_eq "units loaded after dpkg -r" "" \
  "$(in_ct systemctl list-units --all --plain --no-legend 'sudokud*' |
       awk '$3 != "inactive" || $4 != "dead" {print $1, $3, $4}')"
ports=$(printf ':%04X$\\|' 9810 9811 9812 9911 9912)
listening=$(in_ct cat /proc/net/tcp | awk 'NR > 1 && $4 == "0A" {print $2}' |
  grep -c "${ports%\\|}")
expect_eq "sockets listening on 9810-9812, 9911-9912 after dpkg -r" 0 "$listening"

# ---- purge: nothing of the package left under /etc, /usr, /var/lib/systemd
purged=$(in_ct env DEBIAN_FRONTEND=noninteractive dpkg --purge sudokud 2>&1) ||
  fail "dpkg --purge failed: $purged"
left=$(in_ct find /etc /usr /var/lib/systemd -name '*sudokud*' 2>/dev/null)
expect_eq "paths named *sudokud* after purge" "" "$(tr '\n' ' ' <<<"$left" | sed 's/ $//')"
baseline >"$work/links-after"
expect_eq "dangling symlinks new since before install" "" \
  "$(comm -13 "$work/links-before" "$work/links-after" | tr '\n' ' ' | sed 's/ $//')"

in_ct systemctl poweroff >/dev/null 2>&1
for _ in $(seq 150); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.1; done
kill -0 "$nspawn" 2>/dev/null && fail "the container did not power off within 15 s"
container=

if ((failed)); then
  echo "FAIL: boot test, after $((SECONDS - started)) s"
  exit 1
fi
echo "boot test: every check passed in $((SECONDS - started)) s"
