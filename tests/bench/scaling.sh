#!/bin/bash
# How sudoku-bench scales from one thread to two: for each FILE and each mode (first solution,
# then --unique), runs one thread and then two threads back to back, ROUNDS times, and prints
# every pair and its ratio (two-thread puzzles/s over one-thread puzzles/s), then the median
# ratio. "cpu" is the same ratio computed from the process's CPU time instead of the wall clock:
# what the ratio would be if both threads had a core of their own all the time. "busy" is the
# two-thread run's CPU time over its wall-clock time: below 2.00, something else ran on the
# cores meanwhile, which costs the two-thread run and not the one-thread run (whose idle
# second core absorbs it), and the wall ratio is low by about as much.
#
# Measure scaling on a quiet machine. Linux gives each session a fair share of the CPUs whatever
# its number of threads (sched_autogroup), so while other sessions keep the cores busy the wall
# ratio stays near 1; the cpu ratio still shows contention between the threads.
#
#   tests/bench/scaling.sh [-b SUDOKU_BENCH] [-r ROUNDS] [-s SECONDS] FILE...
set -euo pipefail

usage() {
  echo "usage: $0 [-b SUDOKU_BENCH] [-r ROUNDS] [-s SECONDS] FILE..." >&2
  exit 2
}

bench=build/client/sudoku-bench
rounds=3
seconds=2
while getopts "b:r:s:" option; do
  case $option in
    b) bench=$OPTARG ;;
    r) rounds=$OPTARG ;;
    s) seconds=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage

# Prints "puzzles_per_sec puzzles_per_cpu_second cpu_over_wall" from a sudoku-bench --json line.
figures() {
  local fields='.*"puzzles_per_sec":([0-9.]+).*"seconds":([0-9.]+).*"cpu_seconds":([0-9.]+).*'
  sed -E "s/$fields/\\1 \\2 \\3/" |
    awk '{ printf "%.0f %.0f %.2f\n", $1, ($3 > 0 ? $1 * $2 / $3 : 0), ($2 > 0 ? $3 / $2 : 0) }'
}

# One sudoku-bench run of $file in $flag's mode on $1 threads.
run() {
  "$bench" --json --threads "$1" --min-seconds "$seconds" $flag "$file"
}

printf "%-40s %-6s %5s %12s %12s %7s %7s %5s\n" \
  file mode round "1 thread/s" "2 threads/s" ratio cpu busy
for file in "$@"; do
  for mode in first unique; do
    flag=""
    [ "$mode" = unique ] && flag=--unique
    ratios=()
    for round in $(seq "$rounds"); do
      read -r one one_cpu _ < <(run 1 | figures)
      read -r two two_cpu busy < <(run 2 | figures)
      ratio=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.3f", b / a }')
      cpu=$(awk -v a="$one_cpu" -v b="$two_cpu" 'BEGIN { printf "%.3f", (a > 0 ? 2 * b / a : 0) }')
      ratios+=("$ratio")
      printf "%-40s %-6s %5s %12s %12s %7s %7s %5s\n" \
        "$file" "$mode" "$round" "$one" "$two" "$ratio" "$cpu" "$busy"
    done
    median=$(printf "%s\n" "${ratios[@]}" | sort -n |
             awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    printf "%-40s %-6s %5s %12s %12s %7s\n" "$file" "$mode" median "" "" "$median"
  done
done
