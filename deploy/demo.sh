#!/usr/bin/env bash
# The README's first command: build if needed, start sudokud on a free loopback port, solve the
# bundled sample puzzles through sudoku-client, print the results, stop the daemon.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${SUDOKU_BUILD_DIR:-$top/build}
puzzles=${1:-$top/tests/data/samples.txt}

# Only what this script runs: the daemon and the client (and sudoku-bench, the third binary a
# user meets), not the tests, fuzzers and benchmarks; nor the tools only the tests use.
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
exit "$status"
