#!/usr/bin/env bash
# Runs every libFuzzer target of a -DSUDOKU_FUZZ=ON build for a bounded time, starting from the
# committed corpus (tests/fuzz/corpus/<target>/, never modified: new inputs go to a scratch
# copy), and prints one line per target with its executions and coverage.
#
#   tests/fuzz/run_fuzzers.sh BUILD_DIR [TARGET...]
#
# Environment: SUDOKU_FUZZ_SECONDS (default 60) per target; SUDOKU_FUZZ_JOBS (default: the
# number of cores) targets at once; SUDOKU_FUZZ_SEED (default 1) libFuzzer's seed, fixed so that
# a run that fails fails again the same way (pick another seed, or "random", to explore). Exits
# non-zero when any target finds a crash, a leak, a sanitizer report, a failed check or an input
# slower than 10 s (libFuzzer's -timeout); the input is kept under BUILD_DIR/fuzz-artifacts/ and
# the log under BUILD_DIR/fuzz-logs/.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${1:?usage: run_fuzzers.sh BUILD_DIR [TARGET...]}
shift
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(fuzz_framing fuzz_request fuzz_http fuzz_puzzle fuzz_puzzle_reader fuzz_compressed_input
           fuzz_kernels fuzz_response)
fi
seconds=${SUDOKU_FUZZ_SECONDS:-60}
jobs=${SUDOKU_FUZZ_JOBS:-$(nproc)}
seed=${SUDOKU_FUZZ_SEED:-1}
seed_flag=(-seed="$seed")
[[ $seed == random ]] && seed_flag=()

logs=$build_dir/fuzz-logs
artifacts=$build_dir/fuzz-artifacts
scratch=$build_dir/fuzz-corpus
mkdir -p "$logs" "$artifacts"

run_one() {
  local target=$1
  local binary=$build_dir/tests/fuzz/$target
  rm -rf "${scratch:?}/$target"
  mkdir -p "$scratch/$target"
  # The reader gets longer inputs, so that its line-length limit can be reached; the HTTP path,
  # so that its header, trailer and body limits can.
  local max_len=4096
  [[ $target == fuzz_puzzle_reader ]] && max_len=100000
  [[ $target == fuzz_http ]] && max_len=80000
  "$binary" "${seed_flag[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
    "$scratch/$target" "$top/tests/fuzz/corpus/$target" >"$logs/$target.log" 2>&1
}

# At most $jobs targets at a time.
declare -A pids=()
status=0
for target in "${targets[@]}"; do
  if [[ ! -x $build_dir/tests/fuzz/$target ]]; then
    echo "fuzz: $target: not built in $build_dir (configure with -DSUDOKU_FUZZ=ON)" >&2
    status=1
    continue
  fi
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
  run_one "$target" &
  pids[$target]=$!
done

for target in "${targets[@]}"; do
  [[ -n ${pids[$target]:-} ]] || continue
  wait "${pids[$target]}"
  rc=$?
  log=$logs/$target.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corpus=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
  if ((rc == 0)); then
    verdict=ok
  else
    verdict="FAILED (exit $rc; see $log)"
    status=1
    grep -E 'ERROR|SUMMARY|check failed|runtime error|Test unit written' "$log" | head -5 >&2
  fi
  printf 'fuzz: %-20s %s s, %s executions, coverage %s edges (%s features), corpus %s: %s\n' \
    "$target" "$seconds" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corpus:-?}" "$verdict"
done
exit $status
