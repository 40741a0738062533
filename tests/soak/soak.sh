#!/usr/bin/env bash
# Soak: a real sudokud under minutes of mixed valid, invalid and hostile traffic from many
# connections at once (tests/soak/soak_client.cc), sampling the daemon's RSS, open descriptors
# and threads all along. Passes when every valid puzzle was answered correctly exactly once, each
# hostile input got its fault, the daemon stops cleanly (SIGTERM, exit 0, no sanitizer report),
# and RSS, descriptors and threads stay flat: after the warm-up, the second half's peak RSS is
# within 10% (+8 MiB) of the first half's, descriptors end where they started, and the thread
# count never exceeds the one the solver pool settles at.
# Not run in CI (it takes minutes).
#
#   tests/soak/soak.sh [BUILD_DIR]     (default build/; needs sudokud and soak_client built)
#
# Environment: SOAK_SECONDS (default 180), SOAK_CONNECTIONS (default 64), SOAK_SAMPLE_SECONDS
# (default 5). Samples go to BUILD_DIR/soak-samples.csv, the daemon's log to BUILD_DIR/soak.log.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${1:-$top/build}
seconds=${SOAK_SECONDS:-180}
connections=${SOAK_CONNECTIONS:-64}
every=${SOAK_SAMPLE_SECONDS:-5}
samples=$build_dir/soak-samples.csv
log=$build_dir/soak.log

# Fewer connection slots than clients, so that refusals at the limit are part of the mix; a
# short idle timeout, so that idle clients are closed within the run.
"$build_dir/daemon/sudokud" --listen 127.0.0.1:0 --threads 2 \
  --max-connections $((connections - 4)) --idle-timeout 3 --drain-timeout 60 2>"$log" &
daemon=$!
trap 'kill $daemon 2>/dev/null || true' EXIT
port=
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$log")
  [[ -n $port ]] && break
  sleep 0.1
done
[[ -n $port ]] || { echo "soak: the daemon did not start" >&2; cat "$log" >&2; exit 1; }

sample() {
  local rss threads fds
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$daemon/status")
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$daemon/status")
  fds=$(ls "/proc/$daemon/fd" | wc -l)
  echo "$1,$rss,$fds,$threads" >>"$samples"
}
echo "seconds,rss_kib,fds,threads" >"$samples"
sample 0
start=$SECONDS
"$build_dir/tests/soak/soak_client" "$port" "$seconds" "$connections" \
  >"$build_dir/soak-client.txt" &
client=$!
while kill -0 $client 2>/dev/null; do
  sleep "$every"
  sample $((SECONDS - start))
done
client_status=0
wait $client || client_status=$?
sleep 4  # longer than the idle timeout and the 2 s linger: every connection is gone
sample $((SECONDS - start))
kill -TERM $daemon
daemon_status=0
wait $daemon || daemon_status=$?
trap - EXIT

cat "$build_dir/soak-client.txt"
tail -1 "$log"
# Flatness, skipping the first fifth (warm-up: pools and buffers reach their working size).
verdict=$(awk -F, -v OFS=, 'NR > 1 { t[NR] = $1; r[NR] = $2; f[NR] = $3; th[NR] = $4; n = NR }
  END {
    # Row 2 is before any load, row n after the clients have gone.
    first = 3; last = n - 1
    skip = int((last - first + 1) / 5); lo = first + skip; mid = int((lo + last) / 2)
    for (i = lo; i <= mid; ++i) if (r[i] > peak1) peak1 = r[i]
    for (i = mid + 1; i <= last; ++i) if (r[i] > peak2) peak2 = r[i]
    for (i = first; i <= last; ++i) {
      if (f[i] > maxf) maxf = f[i]
      if (th[i] > maxth) maxth = th[i]
    }
    # Threads: the solver threads start with the first batch; from then on the count must not move.
    ok = peak2 <= peak1 * 1.10 + 8192 && f[n] == f[2] && th[n] == maxth
    printf "rss %d KiB at start, peak %d KiB (first half) / %d KiB (second half), ", r[2], peak1,
      peak2
    printf "%d KiB at the end; fds %d at start, at most %d, %d at the end; ", r[n], f[2], maxf, f[n]
    printf "threads %d at start, at most %d, %d at the end; %d samples: %s\n", th[2], maxth, th[n],
      n - 1, ok ? "flat" : "NOT FLAT"
  }' "$samples")
echo "soak: $verdict"
failed=0
[[ $client_status == 0 ]] || { echo "soak: the client saw wrong or missing answers" >&2; failed=1; }
[[ $daemon_status == 0 ]] || { echo "soak: the daemon exited $daemon_status" >&2; failed=1; }
if grep -qE 'Sanitizer|runtime error:' "$log"; then
  echo "soak: sanitizer report in $log" >&2
  failed=1
fi
[[ $verdict == *": flat" ]] || failed=1
if ((failed)); then echo "soak: FAILED after $seconds s"; exit 1; fi
echo "soak: passed after $seconds s with $connections connections"
