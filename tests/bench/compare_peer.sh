#!/bin/bash
# Our solver against a peer's benchmark harness, side by side on the same puzzle files, one core:
# for each FILE and each mode (counting to two solutions, then the first solution only), runs
# `sudoku-bench --threads 1` and each of the peer's solvers alternately, ROUNDS times each, and
# prints a Markdown table of the median usec/puzzle of each and the ratio peer/ours (above 1: we
# are faster), with the guesses per puzzle each reports. The "cpu" columns are the same from the
# CPU time the process was given instead of the wall clock (ours: the timed run's CPU time; the
# peer's: its wall-clock figure times its whole run's CPU time over wall time): close to the
# wall-clock ones on a quiet machine, and the steadier figure while other work shares the cores.
#
# The peer is tdoku's run_benchmark (github.com/t-dillon/tdoku), built outside the checkout,
# e.g. in /tmp: cmake -S tdoku -B tdoku/build -DCMAKE_CXX_COMPILER=g++-12 (its default flags are
# -O3 -march=native) && make -C tdoku/build run_benchmark; with -DFSSS2=ON and fsss2's sources
# in tdoku/other/module_fsss2 (github.com/t-dillon/fsss2_bench) it runs fsss2 as well. SOLVERS
# (-p, default "tdoku") names the harness's solvers to compare with, one at a time
# (-s SOLVER), on the file's puzzles as written (-r0: no random relabelling, which would change
# the puzzles' guess counts) and exactly once each per pass (-n: the file's size); -f is its
# first-solution mode. Both sides solve every puzzle of the file repeatedly for SECONDS.
#
# Timings on a busy machine are noisy: run it when the machine is quiet, or read the figures as
# provisional; alternating the two solvers spreads the drift over both.
#
#   tests/bench/compare_peer.sh [-b SUDOKU_BENCH] [-r ROUNDS] [-s SECONDS] [-m MODES]
#                               [-p SOLVERS] PEER_RUN_BENCHMARK [FILE...]
# MODES: "2 1" (default: count to two, then first solution), "2" or "1".
# FILE defaults to the sets of ../shared/data the README's table lists.
set -euo pipefail

usage() {
  echo "usage: $0 [-b SUDOKU_BENCH] [-r ROUNDS] [-s SECONDS] [-m MODES] [-p SOLVERS]" \
    "PEER_RUN_BENCHMARK [FILE...]" >&2
  exit 2
}

bench=build/client/sudoku-bench
rounds=3
seconds=2
modes="2 1"
solvers="tdoku"
while getopts "b:r:s:m:p:" option; do
  case $option in
    b) bench=$OPTARG ;;
    r) rounds=$OPTARG ;;
    s) seconds=$OPTARG ;;
    m) modes=$OPTARG ;;
    p) solvers=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage
peer=$1
shift
# The peer's -t takes whole seconds (0 times nothing).
[[ $seconds =~ ^[1-9][0-9]*$ ]] ||
  { echo "$0: SECONDS must be a whole number of seconds, 1 or more" >&2; exit 2; }
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
  local fields='.*"usec_per_puzzle":([0-9.]+).*"guesses_per_puzzle":([0-9.]+)'
  fields+='.*"seconds":([0-9.]+).*"cpu_seconds":([0-9.]+).*'
  [ "$mode" = 2 ] && flags+=(--unique)
  "$bench" --threads 1 --json --min-seconds "$seconds" "${flags[@]}" "$file" |
    sed -E "s/$fields/\\1 \\2 \\3 \\4/" |
    awk '{ printf "%s %f %s\n", $1, $1 * $4 / $3, $2 }'
}

# "usec cpu_usec guesses" from one run of the peer's SOLVER (its CSV line ends in
# solver,puzzles/s,usec/puzzle,%no_guess,guesses/puzzle).
theirs() {
  local solver=$1 file=$2 mode=$3 flags=() puzzles times line
  [ "$mode" = 1 ] && flags+=(-f)
  puzzles=$(grep -c . "$file")
  times=$(mktemp)
  line=$( { TIMEFORMAT='%R %U %S'; time "$peer" -s "$solver" -r0 -c1 -n "$puzzles" -w 1 \
    -t "$seconds" "${flags[@]}" "$file" | tail -1; } 2>"$times")
  echo "$(tail -1 "$times") ${line##*,"$solver",}" | awk '{ split($4, f, ",");
    printf "%s %f %s\n", f[2], f[2] * ($2 + $3) / $1, f[4] }'
  rm -f "$times"
}

median() {
  sort -g | awk '{ v[NR] = $1 }
    END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# The median of field $1 of the lines on stdin.
median_of() { cut -d' ' -f"$1" | median; }

# The header: per solver, its usec/puzzle, its ratio to ours by wall clock and by CPU time, its
# guesses per puzzle.
header="| set | mode | ours us/puzzle | ours cpu | ours guesses |"
rule="|---|---|---:|---:|---:|"
for solver in $solvers; do
  header+=" $solver us/puzzle | $solver / ours | cpu: $solver / ours | $solver guesses |"
  rule+="---:|---:|---:|---:|"
done
echo "$header"
echo "$rule"
for file in "$@"; do
  for mode in $modes; do
    declare -A runs=()
    a=()
    for _ in $(seq "$rounds"); do
      a+=("$(ours "$file" "$mode")")
      for solver in $solvers; do runs[$solver]+="$(theirs "$solver" "$file" "$mode")"$'\n'; done
    done
    ours_us=$(printf '%s\n' "${a[@]}" | median_of 1)
    ours_cpu=$(printf '%s\n' "${a[@]}" | median_of 2)
    label=$([ "$mode" = 2 ] && echo "count to 2" || echo "first")
    row=$(awk -v f="$(basename "$file" .txt)" -v m="$label" -v o="$ours_us" -v oc="$ours_cpu" \
      -v og="$(printf '%s\n' "${a[0]}" | cut -d' ' -f3)" \
      'BEGIN { printf "| %s | %s | %.2f | %.2f | %.2f |", f, m, o, oc, og }')
    for solver in $solvers; do
      peer_us=$(printf '%s' "${runs[$solver]}" | median_of 1)
      peer_cpu=$(printf '%s' "${runs[$solver]}" | median_of 2)
      peer_guesses=$(printf '%s' "${runs[$solver]}" | head -1 | cut -d' ' -f3)
      row+=$(awk -v o="$ours_us" -v oc="$ours_cpu" -v p="$peer_us" -v pc="$peer_cpu" \
        -v pg="$peer_guesses" \
        'BEGIN { printf " %.2f | %.2f | %.2f | %.2f |", p, p / o, pc / oc, pg }')
    done
    echo "$row"
    unset runs
  done
done
