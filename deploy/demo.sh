#!/usr/bin/env bash
# The README's first command: build if needed, start sudokud on a free loopback port, solve the
# bundled sample puzzles through sudoku-client, print the results, stop the daemon, then say
# where the binaries are and what to run next.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${SUDOKU_BUILD_DIR:-$top/build}
puzzles=${1:-$top/tests/data/samples.txt}

# Only what this script runs: the daemon and the client (and sudoku-bench, the third binary a
# user meets), not the tests, fuzzers and benchmarks; nor their libraries (GoogleTest, Google
# Benchmark) and the tools only the tests use (SUDOKU_TEST_TOOLS=0).
started=$SECONDS
SUDOKU_BUILD_TARGETS="sudokud sudoku-client sudoku-bench" SUDOKU_TEST_TOOLS=0 "$top/deploy/bootstrap.sh"
echo "demo: built in $((SECONDS - started)) s" >&2

log=$(mktemp)
"$build_dir/daemon/sudokud" --listen 127.0.0.1:0 2>"$log" &
daemon=$!
trap 'kill "$daemon" 2>/dev/null || true; rm -f "$log"' EXIT

# The daemon prints the address it bound once it listens.
address=""
for _ in $(seq 100); do
  address=$(sed -n 's/^sudokud: listening on \([^ ]*\).*/\1/p' "$log")
  [[ -n $address ]] && break
  kill -0 "$daemon" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.1
done
[[ -n $address ]] || { echo "demo: sudokud did not start listening" >&2; cat "$log" >&2; exit 1; }
cat "$log" >&2

echo "== sudoku-client solve --connect $address $puzzles" >&2
status=0
"$build_dir/client/sudoku-client" solve --connect "$address" "$puzzles" || status=$?

kill -TERM "$daemon"
wait "$daemon" || true
trap - EXIT
tail -n +2 "$log" >&2
rm -f "$log"

# Paths as the user can type them from where they ran this script.
here=$(pwd)
shown=$build_dir
if [[ $shown == "$here"/* ]]; then shown=${shown#"$here"/}; fi
cat >&2 <<EOF
demo: the binaries are $shown/daemon/sudokud, $shown/client/sudoku-client and
demo: $shown/client/sudoku-bench (not installed: run them by path, or install the Debian package).
demo: next, start a daemon and solve your own puzzles:
  $shown/daemon/sudokud --listen 127.0.0.1:9810 &
  $shown/client/sudoku-client solve FILE > solutions.txt
  $shown/client/sudoku-client --help     # explain, generate, bench
demo: to install them in /usr/bin with the systemd units, build the Debian package: README.md,
demo: "Install and run as a service".
EOF
exit "$status"
