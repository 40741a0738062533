#!/usr/bin/env bash
# How often sudokud's difficulty level equals QQWing's, on the QQWing-labelled sets
# (qqwing_{simple,easy,intermediate,expert}.txt in the shared data directory): starts a daemon on
# a free loopback port, rates each set with `sudoku-client solve --rate`, and prints a confusion
# matrix (rows: QQWing's label, columns: our level) and the hardest techniques per label.
# Run by hand, from any directory:
#   tests/rate_qqwing.sh [DATA_DIR]      the four labelled sets
#   tests/rate_qqwing.sh --fresh N       N puzzles generated now by `qqwing --generate N --csv`
#                                        (any difficulty; needs the qqwing package)
# Environment: SUDOKU_BUILD_DIR (default build/ at the top of the checkout).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${SUDOKU_BUILD_DIR:-$top/build}
levels=(simple easy intermediate expert)
work=$(mktemp -d)
daemon_pid=
cleanup() {
  if [[ -n $daemon_pid ]]; then
    kill "$daemon_pid" 2>/dev/null || true
    wait "$daemon_pid" || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# labels: one "LABEL PUZZLE" line per puzzle.
if [[ ${1:-} == --fresh ]]; then
  qqwing --generate "${2:?--fresh needs a count}" --csv --stats |
    awk -F, 'NR > 1 && length($1) == 81 { print tolower($11), $1 }' >"$work/labels"
else
  data_dir=${1:-${SUDOKU_SHARED_DATA_DIR:-$top/../shared/data}}
  for level in "${levels[@]}"; do
    if [[ ! -r $data_dir/qqwing_$level.txt ]]; then
      echo "rate_qqwing: no $data_dir/qqwing_$level.txt (give the data directory as argument)" >&2
      exit 2
    fi
    awk -v label="$level" '{ print label, $0 }' "$data_dir/qqwing_$level.txt"
  done >"$work/labels"
fi
cut -d' ' -f2 "$work/labels" >"$work/puzzles"

"$build_dir/daemon/sudokud" --listen 127.0.0.1:0 2>"$work/daemon.log" &
daemon_pid=$!
for _ in $(seq 100); do
  grep -q "listening on" "$work/daemon.log" && break
  sleep 0.1
done
address=$(sed -n 's/.*listening on \([0-9.]*:[0-9]*\).*/\1/p' "$work/daemon.log")
if [[ -z $address ]]; then
  echo "rate_qqwing: sudokud did not start:" >&2
  cat "$work/daemon.log" >&2
  exit 2
fi

# Output lines: SOLUTION LEVEL HARDEST STEPS GUESSES (client/result_format.h).
"$build_dir/client/sudoku-client" solve --connect "$address" --unique --rate "$work/puzzles" \
  2>/dev/null >"$work/rated" || true
paste -d' ' <(cut -d' ' -f1 "$work/labels") <(cut -d' ' -f2,3 "$work/rated") >"$work/ratings"

awk '
  BEGIN { n = split("simple easy intermediate expert", names, " ") }
  { count[$1, $2]++; total[$1]++; if ($1 == $2) agree++; all++; technique[$1, $3]++; seen[$3] = 1 }
  END {
    printf "%-14s", "qqwing \\ ours"
    for (j = 1; j <= n; j++) printf "%14s", names[j]
    printf "%10s\n", "agree"
    for (i = 1; i <= n; i++) {
      printf "%-14s", names[i]
      for (j = 1; j <= n; j++) printf "%14d", count[names[i], names[j]]
      printf "%9.1f%%\n", total[names[i]] ? 100 * count[names[i], names[i]] / total[names[i]] : 0
    }
    printf "overall: %d of %d puzzles (%.2f%%) get QQWing'"'"'s level\n\n", agree, all,
           100 * agree / all
    print "hardest technique per QQWing label:"
    for (i = 1; i <= n; i++) {
      line = sprintf("  %-13s", names[i])
      for (t in seen) {
        if (technique[names[i], t]) line = line sprintf(" %s %d,", t, technique[names[i], t])
      }
      sub(/,$/, "", line)
      print line
    }
  }' "$work/ratings"
