#!/bin/bash
# Our solver against a peer's benchmark harness, side by side on the same puzzle files, one core:
# for each FILE and each mode (counting to two solutions, then the first solution only), runs
# `sudoku-bench --threads 1` and the peer alternately, ROUNDS times each, and prints a Markdown
# table of the median usec/puzzle of both and the ratio peer/ours (above 1: we are faster), with
# the guesses per puzzle each reports. The "cpu" columns are the same from the CPU time the
# process was given instead of the wall clock (ours: the timed run's CPU time; the peer's: its
# wall-clock figure times its whole run's CPU time over wall time): close to the wall-clock ones
# on a quiet machine, and the steadier figure while other work shares the cores.
#
# The peer is tdoku's run_benchmark (github.com/t-dillon/tdoku), built outside the checkout,
# e.g. in /tmp: cmake -S tdoku -B tdoku/build -DCMAKE_CXX_COMPILER=g++-12 (its default flags are
# -O3 -march=native) && make -C tdoku/build run_benchmark. It is run on its own solver only
# (-s tdoku), on the file's puzzles as written (-r0: no random relabelling, which would change
# the puzzles' guess counts) and exactly once each per pass (-n: the file's size); -f is its
# first-solution mode. Both sides solve every puzzle of the file repeatedly for SECONDS.
#
# Timings on a busy machine are noisy: run it when the machine is quiet, or read the figures as
# provisional; alternating the two solvers spreads the drift over both.
#
#   tests/bench/compare_peer.sh [-b SUDOKU_BENCH] [-r ROUNDS] [-s SECONDS] [-m MODES]
#                               PEER_RUN_BENCHMARK [FILE...]
# MODES: "2 1" (default: count to two, then first solution), "2" or "1".
# FILE defaults to the sets of ../shared/data the README's table lists.
set -euo pipefail

usage() {
  echo "usage: $0 [-b SUDOKU_BENCH] [-r ROUNDS] [-s SECONDS] [-m MODES] PEER_RUN_BENCHMARK [FILE...]" >&2
  exit 2
}

bench=build/client/sudoku-bench
rounds=3
seconds=2
modes="2 1"
while getopts "b:r:s:m:" option; do
  case $option in
    b) bench=$OPTARG ;;
    r) rounds=$OPTARG ;;
    s) seconds=$OPTARG ;;
    m) modes=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage
peer=$1
shift
[ -x "$peer" ] || { echo "$0: peer '$peer' is not an executable" >&2; exit 2; }
[ -x "$bench" ] || { echo "$0: no sudoku-bench at '$bench' (-b)" >&2; exit 2; }
if [ $# -eq 0 ]; then
  data=$(dirname "$0")/../../../shared/data
  set -- "$data"/puzzles_17_clue.txt "$data"/magictour_top1465.txt "$data"/qqwing_mixed.txt \
    "$data"/sudokuexchange_diabolical.txt "$data"/forum_hardest_11plus_half.txt \
    "$data"/multi_solution/serg_multi_half.txt
fi
for file in "$@"; do
  [ -r "$file" ] || { echo "$0: cannot read '$file'" >&2; exit 2; }
done

# "usec cpu_usec guesses" from one run of ours.
ours() {
  local file=$1 mode=$2 flags=()
  [ "$mode" = 2 ] && flags+=(--unique)
  "$bench" --threads 1 --json --min-seconds "$seconds" "${flags[@]}" "$file" |
    sed -E 's/.*"usec_per_puzzle":([0-9.]+).*"guesses_per_puzzle":([0-9.]+).*"seconds":([0-9.]+).*"cpu_seconds":([0-9.]+).*/\1 \2 \3 \4/' |
    awk '{ printf "%s %f %s\n", $1, $1 * $4 / $3, $2 }'
}

# "usec cpu_usec guesses" from one run of the peer (its CSV line ends in
# puzzles/s,usec/puzzle,%no_guess,guesses/puzzle).
theirs() {
  local file=$1 mode=$2 flags=() puzzles times line
  [ "$mode" = 1 ] && flags+=(-f)
  puzzles=$(grep -c . "$file")
  times=$(mktemp)
  line=$( { TIMEFORMAT='%R %U %S'; time "$peer" -s tdoku -r0 -c1 -n "$puzzles" -w 1 \
    -t "$seconds" "${flags[@]}" "$file" | tail -1; } 2>"$times")
  echo "$(tail -1 "$times") ${line##*,tdoku,}" | awk '{ split($4, f, ",");
    printf "%s %f %s\n", f[2], f[2] * ($2 + $3) / $1, f[4] }'
  rm -f "$times"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| set | mode | ours us/puzzle | peer us/puzzle | peer / ours | cpu: ours | cpu: peer | cpu: peer / ours | ours guesses | peer guesses |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for file in "$@"; do
  for mode in $modes; do
    a=() b=()
    for _ in $(seq "$rounds"); do
      a+=("$(ours "$file" "$mode")")
      b+=("$(theirs "$file" "$mode")")
    done
    ours_us=$(printf '%s\n' "${a[@]}" | cut -d' ' -f1 | median)
    peer_us=$(printf '%s\n' "${b[@]}" | cut -d' ' -f1 | median)
    ours_cpu=$(printf '%s\n' "${a[@]}" | cut -d' ' -f2 | median)
    peer_cpu=$(printf '%s\n' "${b[@]}" | cut -d' ' -f2 | median)
    ours_guesses=$(printf '%s\n' "${a[0]}" | cut -d' ' -f3)
    peer_guesses=$(printf '%s\n' "${b[0]}" | cut -d' ' -f3)
    label=$([ "$mode" = 2 ] && echo "count to 2" || echo "first")
    awk -v f="$(basename "$file" .txt)" -v m="$label" -v o="$ours_us" -v p="$peer_us" \
      -v oc="$ours_cpu" -v pc="$peer_cpu" -v og="$ours_guesses" -v pg="$peer_guesses" \
      'BEGIN { printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
               f, m, o, p, p / o, oc, pc, pc / oc, og, pg }'
  done
done
