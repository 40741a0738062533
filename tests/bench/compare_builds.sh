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

tmp=$(mktemp -d)
pids=()
cleanup() {
  ((${#pids[@]} == 0)) || kill "${pids[@]}" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# Each daemon on a free port (port 0), read back from its log.
"$build_a/daemon/sudokud" --listen 127.0.0.1:0 --threads 2 >/dev/null 2>"$tmp/a.log" &
pids+=($!)
"$build_b/daemon/sudokud" --listen 127.0.0.1:0 --threads 2 >/dev/null 2>"$tmp/b.log" &
pids+=($!)
address_of() {
  for _ in $(seq 100); do
    grep -q 'listening on' "$1" 2>/dev/null && break
    sleep 0.05
  done
  sed -n 's/.*listening on \([0-9.]*:[0-9]*\).*/\1/p' "$1" | head -1
}
address_a=$(address_of "$tmp/a.log")
address_b=$(address_of "$tmp/b.log")
[[ -n $address_a && -n $address_b ]] || { echo "compare_builds.sh: a daemon did not start" >&2; exit 1; }

# Puzzles/s from the client's summary line.
rate() {
  local build=$1 address=$2 out=$3
  "$build/client/sudoku-client" solve --no-progress --connect "$address" "$file" 2>&1 >"$out" |
    sed -n 's/.* s, \([0-9]*\) puzzles\/s$/\1/p'
}

sum_a=0
sum_b=0
for round in $(seq "$rounds"); do
  a=$(rate "$build_a" "$address_a" "$tmp/a.out")
  b=$(rate "$build_b" "$address_b" "$tmp/b.out")
  echo "round $round: A $a  B $b puzzles/s"
  sum_a=$((sum_a + a))
  sum_b=$((sum_b + b))
done
awk -v a=$((sum_a / rounds)) -v b=$((sum_b / rounds)) \
  'BEGIN { printf "mean: A %d  B %d puzzles/s  (B/A %.3f)\n", a, b, b / a }'
if cmp -s "$tmp/a.out" "$tmp/b.out"; then echo "outputs: identical"; else echo "outputs: DIFFER"; fi
