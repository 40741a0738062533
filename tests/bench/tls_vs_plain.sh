#!/usr/bin/env bash
# End-to-end puzzles/s over TLS against plaintext, on one build, alternated so that the machine's
# drift falls on both alike. Two daemons (--threads 2, loopback): one plaintext, one with a
# throwaway certificate made here (ECDSA P-256, TLS 1.3); each round sudoku-client solves FILE
# through the plaintext one, then through the TLS one (--tls, --tls-ca). Prints each pair, the
# means, the TLS/plaintext ratio, and whether both wrote the same output.
#
# Usage: tests/bench/tls_vs_plain.sh BUILD FILE [ROUNDS]      (ROUNDS: 6)
# e.g.   tests/bench/tls_vs_plain.sh build ../shared/data/puzzles_17_clue.txt
#        python3 ../shared/tools/gen_easy.py 200000 > /tmp/easy.txt
#        tests/bench/tls_vs_plain.sh build /tmp/easy.txt
# Speed is never asserted; this is a tool for measuring by hand, not part of ctest.
set -euo pipefail

build=${1:?usage: tls_vs_plain.sh BUILD FILE [ROUNDS]}
file=${2:?usage: tls_vs_plain.sh BUILD FILE [ROUNDS]}
rounds=${3:-6}
for binary in daemon/sudokud client/sudoku-client; do
  [[ -x $build/$binary ]] || { echo "tls_vs_plain.sh: no $build/$binary" >&2; exit 2; }
done

tmp=$(mktemp -d)
pids=()
cleanup() {
  ((${#pids[@]} == 0)) || kill "${pids[@]}" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=bench CA" \
  -keyout "$tmp/ca.key" -out "$tmp/ca.crt" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
  -keyout "$tmp/server.key" -out "$tmp/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' >"$tmp/san.ext"
openssl x509 -req -in "$tmp/server.csr" -CA "$tmp/ca.crt" -CAkey "$tmp/ca.key" -CAcreateserial \
  -days 1 -extfile "$tmp/san.ext" -out "$tmp/server.crt" 2>/dev/null

# Each daemon on a free port (port 0), read back from its log.
"$build/daemon/sudokud" --listen 127.0.0.1:0 --threads 2 >/dev/null 2>"$tmp/plain.log" &
pids+=($!)
"$build/daemon/sudokud" --listen 127.0.0.1:0 --threads 2 --tls-cert "$tmp/server.crt" \
  --tls-key "$tmp/server.key" >/dev/null 2>"$tmp/tls.log" &
pids+=($!)
address_of() {
  for _ in $(seq 100); do
    grep -q 'listening on' "$1" 2>/dev/null && break
    sleep 0.05
  done
  sed -n 's/.*listening on \([0-9.]*:[0-9]*\).*/\1/p' "$1" | head -1
}
plain=$(address_of "$tmp/plain.log")
tls=$(address_of "$tmp/tls.log")
[[ -n $plain && -n $tls ]] || { echo "tls_vs_plain.sh: a daemon did not start" >&2; exit 1; }

# Puzzles/s from the client's summary line.
rate() {
  local out=$1
  shift
  "$build/client/sudoku-client" solve --no-progress "$@" "$file" 2>&1 >"$out" |
    sed -n 's/.* s, \([0-9]*\) puzzles\/s$/\1/p'
}

sum_plain=0
sum_tls=0
for round in $(seq "$rounds"); do
  p=$(rate "$tmp/plain.out" --connect "$plain")
  t=$(rate "$tmp/tls.out" --connect "$tls" --tls --tls-ca "$tmp/ca.crt")
  echo "round $round: plaintext $p  TLS $t puzzles/s"
  sum_plain=$((sum_plain + p))
  sum_tls=$((sum_tls + t))
done
awk -v p=$((sum_plain / rounds)) -v t=$((sum_tls / rounds)) \
  'BEGIN { printf "mean: plaintext %d  TLS %d puzzles/s  (TLS/plaintext %.3f)\n", p, t, t / p }'
if cmp -s "$tmp/plain.out" "$tmp/tls.out"; then echo "outputs: identical"; else echo "outputs: DIFFER"; fi
