#!/usr/bin/env bash
# What the network path costs the solver when each side has a core of its own: sudokud with one
# solving thread pinned to CPU 1 (--solver-cpus 1, which puts the event loop on CPU 0) and
# sudoku-client on CPU 0, against sudoku-bench --threads 1 pinned to CPU 1, alternated round by
# round. Prints each pair, the medians and the ratio end to end / in-process. With --whole-daemon
# first, the whole daemon runs on CPU 1 (taskset), its event loop sharing the solver's core.
#
# Usage: tests/bench/pinned_ratio.sh [--whole-daemon] BUILD FILE [ROUNDS]      (ROUNDS: 5)
# e.g.   for i in $(seq 20); do cat ../shared/data/puzzles_17_clue.txt; done > /tmp/17x20.txt
#        tests/bench/pinned_ratio.sh build /tmp/17x20.txt
# Needs two CPUs. Speed is never asserted; this is a tool for measuring by hand, not part of ctest.
set -euo pipefail

whole_daemon=false
if [[ ${1:-} == --whole-daemon ]]; then
  whole_daemon=true
  shift
fi
build=${1:?usage: pinned_ratio.sh BUILD FILE [ROUNDS]}
file=${2:?usage: pinned_ratio.sh BUILD FILE [ROUNDS]}
rounds=${3:-5}
for binary in daemon/sudokud client/sudoku-client client/sudoku-bench; do
  [[ -x $build/$binary ]] || { echo "pinned_ratio.sh: no $build/$binary" >&2; exit 2; }
done

source "$(dirname "$0")/e2e_lib.sh"
daemon_threads=1
if $whole_daemon; then
  start_daemon pinned taskset -c 1 "$build/daemon/sudokud"
else
  start_daemon pinned "$build/daemon/sudokud" --solver-cpus 1
fi
client_on_cpu0() { taskset -c 0 "$build/client/sudoku-client" "$@"; }
in_process=()
end_to_end=()
for round in $(seq "$rounds"); do
  bench=$(taskset -c 1 "$build/client/sudoku-bench" --threads 1 --min-seconds 0 "$file" |
    awk 'NR > 3 { print int($3) }')
  e2e=$(solve_rate "$bench_tmp/out.txt" client_on_cpu0 --connect "$address" "$file")
  echo "round $round: in-process $bench  end to end $e2e puzzles/s"
  in_process+=("$bench")
  end_to_end+=("$e2e")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
a=$(median "${in_process[@]}")
b=$(median "${end_to_end[@]}")
echo "median: in-process $a  end to end $b puzzles/s  (end to end / in-process $(
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }'))"
