#!/usr/bin/env bash
# End-to-end puzzles/s over TLS against plaintext, on one build, alternated so that the machine's
# drift falls on both alike. Two daemons (--threads 2, loopback): one plaintext, one with a
# throwaway certificate made here (ECDSA P-256, TLS 1.3); each round sudoku-client solves FILE
# through the plaintext one, then through the TLS one (--tls, --tls-ca). Prints each pair, the
# means and the medians with their TLS/plaintext ratios, and whether both wrote the same output.
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

source "$(dirname "$0")/e2e_lib.sh"
tmp=$bench_tmp
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=bench CA" \
  -keyout "$tmp/ca.key" -out "$tmp/ca.crt" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
  -keyout "$tmp/server.key" -out "$tmp/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' >"$tmp/san.ext"
openssl x509 -req -in "$tmp/server.csr" -CA "$tmp/ca.crt" -CAkey "$tmp/ca.key" -CAcreateserial \
  -days 1 -extfile "$tmp/san.ext" -out "$tmp/server.crt" 2>/dev/null

start_daemon plaintext "$build/daemon/sudokud"
plain=$address
start_daemon TLS "$build/daemon/sudokud" --tls-cert "$tmp/server.crt" --tls-key "$tmp/server.key"
tls=$address

sum_plain=0
sum_tls=0
all_plain=()
all_tls=()
client=$build/client/sudoku-client
for round in $(seq "$rounds"); do
  p=$(solve_rate "$tmp/plain.out" "$client" --connect "$plain" "$file")
  t=$(solve_rate "$tmp/tls.out" "$client" --connect "$tls" --tls --tls-ca "$tmp/ca.crt" "$file")
  echo "round $round: plaintext $p  TLS $t puzzles/s"
  sum_plain=$((sum_plain + p))
  sum_tls=$((sum_tls + t))
  all_plain+=("$p")
  all_tls+=("$t")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
awk -v p=$((sum_plain / rounds)) -v t=$((sum_tls / rounds)) \
  'BEGIN { printf "mean: plaintext %d  TLS %d puzzles/s  (TLS/plaintext %.3f)\n", p, t, t / p }'
awk -v p="$(median "${all_plain[@]}")" -v t="$(median "${all_tls[@]}")" \
  'BEGIN { printf "median: plaintext %d  TLS %d puzzles/s  (TLS/plaintext %.3f)\n", p, t, t / p }'
if cmp -s "$tmp/plain.out" "$tmp/tls.out"; then
  echo "outputs: identical"
else
  echo "outputs: DIFFER"
fi
