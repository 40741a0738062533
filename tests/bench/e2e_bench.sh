#!/usr/bin/env bash
# End-to-end figures of sudokud and sudoku-client on this machine, each beside the in-process
# figure it is held to (issue: network path costs next to nothing beside the solving):
#   1. per set: sudoku-bench --threads 2 (in-process) vs `sudoku-client solve FILE > out` through a
#      daemon with --threads 2 on loopback; the ratio; peak RSS of client and daemon;
#   2. a long run (10 million easy puzzles by default): puzzles/s and the client's peak RSS;
#   3. 64 connections pushing flat out (sudoku-client bench --verify): the daemon's peak RSS with
#      its default limits, and that every batch came back right;
#   4. latency of a lone one-puzzle batch on an idle daemon vs a bare TCP echo
#      (tests/bench/tcp_echo) of the same bytes, in the same run.
# Speed is never asserted (ctest does not run this); figures on a shared machine are provisional.
#
# Usage: tests/bench/e2e_bench.sh [BUILD_DIR]        (default: build)
# Environment: DATA_DIR (the puzzle sets; default ../shared/data beside the checkout),
#   SETS (file names in DATA_DIR), EASY_COUNT (1000000; 0 leaves the generated easy set out),
#   BIG_COUNT (10000000; 0 skips part 2),
#   MIN_PUZZLES (puzzles per end-to-end run: a small set is given several times; 1000000),
#   SECONDS_EACH (2), ROUNDS (5: in-process and end-to-end runs per set, alternated; the table
#   gives the medians), TMPDIR (/tmp: the generated files and the outputs go there, not the repo),
#   OUTPUT (where part 1's results go: a file in TMPDIR by default; /dev/null leaves out the
#   filesystem's share, writing some 80 MB a run and truncating it the next), NEW_OUTPUT (1:
#   remove that file before each run, untimed, so that every run writes a new file; by default
#   `>` truncates the last run's, and ext4 then writes the new one out when it is closed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
data=${DATA_DIR:-$root/../shared/data}
default_sets="puzzles_17_clue.txt magictour_top1465.txt"
default_sets+=" sudokuexchange_diabolical.txt qqwing_expert.txt"
sets=${SETS:-$default_sets}
easy_count=${EASY_COUNT:-1000000}
big_count=${BIG_COUNT:-10000000}
min_puzzles=${MIN_PUZZLES:-1000000}
seconds=${SECONDS_EACH:-2}
rounds=${ROUNDS:-5}
output_name=${OUTPUT:-a file}
# Whether each run writes a new file (there is nothing to remove for /dev/null).
fresh_output=0
[[ ${NEW_OUTPUT:-0} == 1 && $output_name != /dev/null ]] && fresh_output=1
(( fresh_output )) && output_name="$output_name (new each run)"
tmp_root=${TMPDIR:-/tmp}

sudokud=$build/daemon/sudokud
client=$build/client/sudoku-client
bench=$build/client/sudoku-bench
echo_server=$build/tests/tcp_echo
for binary in "$sudokud" "$client" "$bench" "$echo_server"; do
  [[ -x $binary ]] || { echo "e2e_bench.sh: no $binary (build first)" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "e2e_bench.sh: needs /usr/bin/time (package time)" >&2; exit 2; }

work=$(mktemp -d "$tmp_root/sudoku_e2e.XXXXXX")
output=${OUTPUT:-$work/out.txt}
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# start_server NAME COMMAND...: runs it, waits for its "listening on HOST:PORT" line; sets $pid
# and $address.
start_server() {
  local name=$1; shift
  : > "$work/$name.log"
  "$@" 2>>"$work/$name.log" &
  pid=$!
  pids+=("$pid")
  address=
  for _ in $(seq 200); do
    address=$(sed -n 's/.*listening on \([0-9.]*:[0-9]*\).*/\1/p' "$work/$name.log" | head -1)
    [[ -n $address ]] && return 0
    sleep 0.05
  done
  echo "e2e_bench.sh: $name did not start: $(cat "$work/$name.log")" >&2
  exit 2
}

# Peak RSS of a running process in MiB, then stop it.
stop_server() {
  local hwm
  hwm=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status")
  kill "$1"
  wait "$1" 2>/dev/null || true
  echo "$hwm"
}

json_field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }
max_rss_mib() { awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$1"; }

easy=
if ((easy_count > 0)); then
  easy=$tmp_root/sudoku_easy_$easy_count.txt
  if [[ ! -s $easy ]]; then
    echo "generating $easy_count easy puzzles into $easy" >&2
    python3 "$root/../shared/tools/gen_easy.py" "$easy_count" > "$easy.part" &&
      mv "$easy.part" "$easy"
  fi
fi

files=()
for set in $sets; do
  if [[ -f $data/$set ]]; then
    files+=("$data/$set")
  else
    echo "skipping $set: not in $data" >&2
  fi
done
[[ -z $easy ]] || files+=("$easy")
((${#files[@]} > 0)) || { echo "e2e_bench.sh: no puzzle sets (SETS in $data, EASY_COUNT)" >&2; exit 2; }

echo "## End to end: sudoku-client solve FILE... > $output_name, daemon --threads 2, loopback" \
  "(median of $rounds; wall clock, client start included)"
echo
echo "| set | puzzles | in-process puzzles/s | end-to-end puzzles/s | ratio | client peak RSS |" \
  "daemon peak RSS |"
echo "|---|---:|---:|---:|---:|---:|---:|"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for file in "${files[@]}"; do
  count=$(grep -c . "$file" || true)
  if ((count == 0)); then
    echo "skipping $file: no puzzles in it" >&2
    continue
  fi
  # A small set is given several times, so that the run is long enough to measure.
  repeat=$(( (min_puzzles + count - 1) / count ))
  args=()
  for _ in $(seq "$repeat"); do args+=("$file"); done
  start_server sudokud "$sudokud" --listen 127.0.0.1:0 --threads 2
  daemon=$pid
  # Alternated, so that both see the same machine; the medians are compared.
  : > "$work/inproc.txt"
  : > "$work/e2e.txt"
  for _ in $(seq "$rounds"); do
    "$bench" --threads 2 --json --min-seconds "$seconds" "$file" | json_field puzzles_per_sec \
      >> "$work/inproc.txt"
    (( fresh_output )) && rm -f "$output"
    # Timed from outside, client start, reading and writing included.
    started=$(date +%s%N)
    /usr/bin/time -v -o "$work/time.txt" "$client" solve --no-progress --connect "$address" \
      "${args[@]}" > "$output" 2> "$work/summary.txt" || true
    ended=$(date +%s%N)
    echo $(( count * repeat * 1000000000 / (ended - started) )) >> "$work/e2e.txt"
  done
  inproc=$(median < "$work/inproc.txt")
  e2e=$(median < "$work/e2e.txt")
  daemon_rss=$(stop_server "$daemon")
  ratio=$(awk -v a="$e2e" -v b="$inproc" 'BEGIN { printf "%.2f", a / b }')
  printf '| %s | %d | %.0f | %d | %s | %s MiB | %s MiB |\n' "$(basename "$file")" \
    $((count * repeat)) "$inproc" "$e2e" "$ratio" "$(max_rss_mib "$work/time.txt")" "$daemon_rss"
done
rm -f "$work/out.txt"

if (( big_count > 0 )); then
  big=$tmp_root/sudoku_easy_$big_count.txt
  if [[ ! -s $big ]]; then
    echo "generating $big_count easy puzzles into $big" >&2
    python3 "$root/../shared/tools/gen_easy.py" "$big_count" > "$big.part" && mv "$big.part" "$big"
  fi
  start_server sudokud "$sudokud" --listen 127.0.0.1:0 --threads 2
  daemon=$pid
  /usr/bin/time -v -o "$work/time.txt" "$client" solve --no-progress --connect "$address" "$big" \
    > "$work/out.txt" 2> "$work/summary.txt" || true
  daemon_rss=$(stop_server "$daemon")
  lines=$(wc -l < "$work/out.txt")
  rm -f "$work/out.txt"
  echo
  echo "## $big_count easy puzzles end to end"
  echo
  echo "$(tail -1 "$work/summary.txt"); output lines $lines;" \
    "client peak RSS $(max_rss_mib "$work/time.txt") MiB (limit 64);" \
    "daemon peak RSS $daemon_rss MiB"
fi

echo
echo "## 64 connections flat out (bench --batch 1000 --in-flight 4 --verify, daemon defaults)"
start_server sudokud "$sudokud" --listen 127.0.0.1:0
daemon=$pid
echo
echo '```'
"$client" bench --connect "$address" --connections 64 --in-flight 4 --batch 1000 \
  --duration "$((seconds * 3))" --verify "${easy:-${files[0]}}" || true
echo '```'
echo
echo "daemon peak RSS $(stop_server "$daemon") MiB (limit 128)"

echo
echo "## Latency: one-puzzle batches, one at a time, idle daemon vs TCP echo of the same bytes"
start_server sudokud "$sudokud" --listen 127.0.0.1:0 --threads 2
daemon=$pid daemon_address=$address
start_server tcp_echo "$echo_server" 127.0.0.1:0
echo_pid=$pid echo_address=$address
latency_file=${files[0]}
run_latency() {
  "$client" bench --connect "$1" --batch 1 --duration "$seconds" --json ${2:-} "$latency_file"
}
# Alternated, twice each, so that both see the same machine.
for round in 1 2; do
  run_latency "$echo_address" --echo > "$work/echo$round.json"
  run_latency "$daemon_address" > "$work/daemon$round.json"
done
stop_server "$daemon" > /dev/null
stop_server "$echo_pid" > /dev/null
echo
echo "| round | echo p50 | sudokud p50 | ratio (<= 1.3) | echo p99 | sudokud p99 | ratio (<= 2) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for round in 1 2; do
  e50=$(json_field p50 < "$work/echo$round.json"); d50=$(json_field p50 < "$work/daemon$round.json")
  e99=$(json_field p99 < "$work/echo$round.json"); d99=$(json_field p99 < "$work/daemon$round.json")
  awk -v r="$round" -v e50="$e50" -v d50="$d50" -v e99="$e99" -v d99="$d99" 'BEGIN {
    printf "| %d | %.1f us | %.1f us | %.2f | %.1f us | %.1f us | %.2f |\n",
      r, e50, d50, d50 / e50, e99, d99, d99 / e99 }'
done
echo
echo "(latency set: $(basename "$latency_file"); load average: $(cut -d' ' -f1-3 /proc/loadavg))"
