#!/usr/bin/env bash
# End-to-end puzzles/s of two builds on the same file, alternated so that the machine's drift
# falls on both alike: each build's sudoku-client solves FILE through that build's sudokud
# (--threads 2, loopback), output to a file, ROUNDS times. Prints each pair, the means, and
# whether the two builds wrote the same output.
#
# Usage: tests/bench/compare_builds.sh BUILD_A BUILD_B FILE [ROUNDS]      (ROUNDS: 6)
# e.g. a change against the commit before it:
#   git worktree add /tmp/before HEAD~1 && cmake -S /tmp/before -B /tmp/before/build -G Ninja \
#     -DCMAKE_BUILD_TYPE=Release && ninja -C /tmp/before/build sudokud sudoku-client
#   tests/bench/compare_builds.sh /tmp/before/build build puzzles.txt
# Speed is never asserted; this is a tool for measuring by hand, not part of ctest.
set -euo pipefail

build_a=${1:?usage: compare_builds.sh BUILD_A BUILD_B FILE [ROUNDS]}
build_b=${2:?usage: compare_builds.sh BUILD_A BUILD_B FILE [ROUNDS]}
file=${3:?usage: compare_builds.sh BUILD_A BUILD_B FILE [ROUNDS]}
rounds=${4:-6}
for build in "$build_a" "$build_b"; do
  for binary in daemon/sudokud client/sudoku-client; do
    [[ -x $build/$binary ]] || { echo "compare_builds.sh: no $build/$binary" >&2; exit 2; }
  done
done

source "$(dirname "$0")/e2e_lib.sh"
start_daemon A "$build_a/daemon/sudokud"
address_a=$address
start_daemon B "$build_b/daemon/sudokud"
address_b=$address

sum_a=0
sum_b=0
for round in $(seq "$rounds"); do
  a=$(solve_rate "$bench_tmp/a.out" "$build_a/client/sudoku-client" --connect "$address_a" "$file")
  b=$(solve_rate "$bench_tmp/b.out" "$build_b/client/sudoku-client" --connect "$address_b" "$file")
  echo "round $round: A $a  B $b puzzles/s"
  sum_a=$((sum_a + a))
  sum_b=$((sum_b + b))
done
awk -v a=$((sum_a / rounds)) -v b=$((sum_b / rounds)) \
  'BEGIN { printf "mean: A %d  B %d puzzles/s  (B/A %.3f)\n", a, b, b / a }'
if cmp -s "$bench_tmp/a.out" "$bench_tmp/b.out"; then
  echo "outputs: identical"
else
  echo "outputs: DIFFER"
fi
