# Sourced by the end-to-end benchmark scripts (compare_builds.sh, tls_vs_plain.sh): daemons on
# free loopback ports, stopped and cleaned up on exit, and the client's puzzles/s.
#
#   start_daemon NAME SUDOKUD [FLAG...]   starts SUDOKUD --listen 127.0.0.1:0 --threads T FLAG...
#                                         (T: $daemon_threads, 2 unless the script sets it),
#                                         logging to $bench_tmp/NAME.log; sets $address to the
#                                         HOST:PORT its log names, or exits 1
#   solve_rate OUT CLIENT [FLAG...]       runs CLIENT solve --no-progress FLAG..., output to OUT;
#                                         prints the puzzles/s of its summary line
#   $bench_tmp                            a directory removed on exit

bench_tmp=$(mktemp -d)
bench_pids=()
bench_cleanup() {
  ((${#bench_pids[@]} == 0)) || kill "${bench_pids[@]}" 2>/dev/null || true
  rm -rf "$bench_tmp"
}
trap bench_cleanup EXIT

start_daemon() {
  local name=$1 log=$bench_tmp/$1.log
  shift
  "$@" --listen 127.0.0.1:0 --threads "${daemon_threads:-2}" >/dev/null 2>"$log" &
  bench_pids+=($!)
  for _ in $(seq 100); do
    grep -q 'listening on' "$log" 2>/dev/null && break
    sleep 0.05
  done
  address=$(sed -n 's/.*listening on \([0-9.]*:[0-9]*\).*/\1/p' "$log" | head -1)
  [[ -n $address ]] || { echo "$0: the $name daemon did not start: $(cat "$log")" >&2; exit 1; }
}

solve_rate() {
  local out=$1 client=$2
  shift 2
  "$client" solve --no-progress "$@" 2>&1 >"$out" | sed -n 's/.* s, \([0-9]*\) puzzles\/s$/\1/p'
}
