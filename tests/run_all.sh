#!/usr/bin/env bash
# The README's second command, and what CI runs (.ci/run): install what is missing, build, run
# the whole suite; then the same suite built with AddressSanitizer+UndefinedBehaviorSanitizer and
# with ThreadSanitizer (the daemon's end-to-end tests included), and each libFuzzer target for a
# bounded time from its committed corpus. Each build has its own directory. The last line says
# what passed; the exit status is non-zero when anything failed.
#
# Environment:
#   SUDOKU_BUILD_DIR      the plain build (default build/); the others sit beside it:
#                         <dir>-asan, <dir>-tsan, <dir>-fuzz
#   SUDOKU_CMAKE_ARGS     more cmake arguments for every build (e.g. a compiler launcher)
#   SUDOKU_SANITIZERS     0 skips the sanitizer builds (default 1)
#   SUDOKU_FUZZ_SECONDS   seconds per fuzz target (default 35; 0 skips fuzzing)
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${SUDOKU_BUILD_DIR:-$top/build}
sanitizers=${SUDOKU_SANITIZERS:-1}
fuzz_seconds=${SUDOKU_FUZZ_SECONDS:-35}
jobs=$(nproc)
started=$SECONDS

# Headless Chromium and Selenium for the page's browser test (tests/web/page_test.py); clang and
# its libFuzzer runtime, for the fuzz build.
extra_packages="${SUDOKU_EXTRA_PACKAGES:-} chromium chromium-driver python3-selenium"
if ((fuzz_seconds > 0)); then extra_packages+=" clang libclang-rt-14-dev"; fi

results=()
failed=0
# record NAME STATUS DETAIL: DETAIL is short ("613 tests, 2 skipped"); what needs more words (each
# skipped test and why) has its own lines before it.
record() {
  local verdict=ok
  if (($2 != 0)); then verdict=FAILED; failed=1; fi
  results+=("$1 $verdict${3:+ ($3)}")
  echo "run_all: $1: $verdict${3:+ ($3)} after $((SECONDS - started)) s" >&2
}

# ctest_summary DIR LOG: "N tests" or "F of N tests failed" from ctest's output.
ctest_summary() {
  local counts='^[0-9]*% tests passed, \([0-9]*\) tests failed out of \([0-9]*\)$'
  sed -n "s/$counts/\\1 of \\2 tests failed/p" "$1" |
    sed 's/^0 of \([0-9]*\) tests failed$/\1 tests/'
}

# Tools that deploy/bootstrap.sh (or this script, for the browser) installs: a test skipped for
# want of one of them means the bootstrap is incomplete, and fails the run.
bootstrapped_tools="systemd-analyze systemd-socket-activate haproxy lintian promtool man col
  readelf cpack dpkg-deb dpkg-shlibdeps ip file chromium chromedriver selenium systemd-nspawn
  debootstrap nsenter unshare podman runc catatonit python3-yaml"

# skipped_tests DIR LOG: one "NAME: REASON" line per test that ctest reports as skipped, the
# reason being the GTEST_SKIP() message in the test's output (Testing/Temporary/LastTest.log).
skipped_tests() {
  python3 - "$1/Testing/Temporary/LastTest.log" "$2" <<'PY'
import re, sys
log = open(sys.argv[1], errors="replace").read()
ctest = open(sys.argv[2], errors="replace").read()
# A value-parameterized test's ctest name ends in "  # GetParam() = ...": logged whole, shown bare.
for name, param in re.findall(r"^\s*\d+ - (\S+)((?:\s+#.*)?) \(Skipped\)$", ctest, re.M):
    reason = "no reason given"
    at = log.find("Test: " + name + param + "\n")
    if at >= 0:
        end = log.find("\nTest: ", at + 1)
        # GTEST_SKIP()'s message, or the "SKIP: why" line of a script that exits 77.
        found = re.search(r": Skipped\n(.+)|^SKIP: (.+)", log[at:end if end >= 0 else len(log)],
                          re.M)
        if found:
            reason = (found.group(1) or found.group(2)).strip()
    print(f"{name}: {reason}")
PY
}

# build NAME DIR CMAKE_ARGS: installs what is missing, configures and builds DIR; when that
# fails, NAME is recorded as failed and the status is non-zero.
build() {
  if ! SUDOKU_BUILD_DIR=$2 SUDOKU_CMAKE_ARGS=$3 SUDOKU_EXTRA_PACKAGES=$extra_packages \
    "$top/deploy/bootstrap.sh"; then
    record "$1" 1 "build failed"
    return 1
  fi
}

# run_ctest DIR LOG [ctest args...]: ctest's output goes to LOG (and to stdout unless QUIET=1);
# its exit status is the function's.
run_ctest() {
  local dir=$1 log=$2
  shift 2
  if [[ ${QUIET:-0} == 1 ]]; then
    ctest --test-dir "$dir" --output-on-failure -j "$jobs" "$@" >"$log" 2>&1
  else
    ctest --test-dir "$dir" --output-on-failure -j "$jobs" "$@" 2>&1 | tee "$log"
    return "${PIPESTATUS[0]}"
  fi
}

# record_ctest NAME DIR LOG STATUS: records the ctest run of DIR that wrote LOG (the last one
# there: its skip reasons are read from DIR's LastTest.log) and exited with STATUS.
record_ctest() {
  local name=$1 dir=$2 log=$3 status=$4
  local detail skipped
  detail=$(ctest_summary "$log")
  skipped=$(skipped_tests "$dir" "$log")
  if [[ -n $skipped ]]; then
    detail+=", $(wc -l <<<"$skipped") skipped"
    local line reason tool
    while IFS= read -r line; do
      echo "run_all: $name: skipped $line" >&2
      reason=${line#*: }
      grep -qwE "no|missing" <<<"$reason" || continue
      for tool in $bootstrapped_tools; do
        if grep -qE "(^|[ (/,])$tool([ ),:;]|$)" <<<"$reason"; then
          echo "run_all: $name: $tool missing, which deploy/bootstrap.sh installs" >&2
          detail+=", $tool missing"
          status=1
        fi
      done
    done <<<"$skipped"
  fi
  record "$name" "$status" "$detail"
}

# build_and_test NAME DIR CMAKE_ARGS [ctest args...]
build_and_test() {
  local name=$1 dir=$2 args=$3
  shift 3
  build "$name" "$dir" "$args" || return
  local log=$dir/ctest-output.log status
  run_ctest "$dir" "$log" "$@"
  status=$?
  record_ctest "$name" "$dir" "$log" "$status"
}

# CI treats warnings as errors (SUDOKU_WERROR) in every build it makes; a package build does not.
# The package's runs for real (labels boot and container: a Debian tree booted under
# systemd-nspawn, a podman image) take minutes, most of them waiting on the Debian mirror, a
# booting systemd or podman, so they run beside the next stage's compilation (which they hardly
# slow and which no timing depends on) instead of alone at the end of the plain suite. They use
# the package the plain suite built (the fixture deb), and nothing of the other trees.
for_real=()
if build plain "$build_dir" "${SUDOKU_CMAKE_ARGS:-} -DSUDOKU_WERROR=ON"; then
  run_ctest "$build_dir" "$build_dir/ctest-output.log" -LE '^(boot|container)$'
  record_ctest plain "$build_dir" "$build_dir/ctest-output.log" $?
  QUIET=1 run_ctest "$build_dir" "$build_dir/ctest-for-real.log" -L '^(boot|container)$' -FS deb &
  for_real=($!)
fi
# for_real_done: waits for the runs for real, shows their output and records them.
for_real_done() {
  ((${#for_real[@]})) || return 0
  wait "${for_real[0]}"
  local status=$?
  for_real=()
  cat "$build_dir/ctest-for-real.log"
  record_ctest "plain boot+container" "$build_dir" "$build_dir/ctest-for-real.log" "$status"
}

if ((sanitizers)); then
  # Any report fails: ASan and TSan exit non-zero by default, UBSan only when told to. The
  # daemon's tests also fail on any report in the daemon's log.
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  # tests/tsan.supp says why oneTBB's task hand-offs are suppressed; the longer history lets TSan
  # restore the worker's side of a report, so that the suppression can match it.
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=7"
  TSAN_OPTIONS+=" suppressions=$top/tests/tsan.supp"
  # Every 40th puzzle of the shared sets: the sanitizers look for memory and threading errors
  # along the code's paths, and the plain run above has already checked every answer.
  export SUDOKU_TEST_PUBLIC_STRIDE=40
  # Benchmarks measure nothing under a sanitizer: not built, not run. Nor is the Debian package
  # built from a sanitized tree: the package is the plain build's (Package.*, run above).
  # Nor are the package's runs for real (the labels package, boot and container: the .deb, a
  # booted systemd, a container image), which take minutes and test the package, not the code.
  # Nor, under ASan, the deploy and page tests (labels deploy, web: HAProxy, the unit files, a
  # browser), which drive the daemon as its own suite does, through the same code (TSan runs
  # the same selection).
  # Each sanitizer build compiles only the test executables its run selects: the same label
  # lists go to cmake (SUDOKU_TEST_LABELS, SUDOKU_TEST_EXCLUDED_LABELS) and to ctest (-L, -LE).
  sanitized_args="-DSUDOKU_BUILD_BENCHMARKS=OFF -DSUDOKU_WERROR=ON"
  asan_excluded="package;boot;container;deploy;web"
  asan_dir=$build_dir-asan
  if build asan+ubsan "$asan_dir" "${SUDOKU_CMAKE_ARGS:-} -DSUDOKU_SANITIZE=address,undefined \
    -DSUDOKU_TEST_EXCLUDED_LABELS=$asan_excluded $sanitized_args"; then
    for_real_done
    run_ctest "$asan_dir" "$asan_dir/ctest-output.log" -E '^Package[.]' \
      -LE "^(${asan_excluded//;/|})$"
    record_ctest asan+ubsan "$asan_dir" "$asan_dir/ctest-output.log" $?
  fi
  for_real_done
  # TSan looks for data races, so it runs the suites of the code that has threads: the daemon's
  # (label daemon, its end-to-end tests included), the client's that start a real sudokud
  # (label e2e), and the solver's tests that call it from several threads (label threads). The
  # client's own tests do not: its code runs on one thread, its io_context's. The rest of the
  # solver's tests run one thread (and TSan cannot see into oneTBB's workers anyway:
  # tests/tsan.supp), and the deploy and page tests drive the same daemon as the daemon's suite.
  tsan_labels="daemon;e2e;threads"
  tsan_excluded="package;boot;container;deploy;web"
  build_and_test tsan "$build_dir-tsan" "${SUDOKU_CMAKE_ARGS:-} -DSUDOKU_SANITIZE=thread \
    -DSUDOKU_TEST_LABELS=$tsan_labels -DSUDOKU_TEST_EXCLUDED_LABELS=$tsan_excluded \
    $sanitized_args" -E '^Package[.]' -L "^(${tsan_labels//;/|})$" -LE "^(${tsan_excluded//;/|})$"
  unset UBSAN_OPTIONS ASAN_OPTIONS TSAN_OPTIONS SUDOKU_TEST_PUBLIC_STRIDE
fi
for_real_done

if ((fuzz_seconds > 0)); then
  fuzz_dir=$build_dir-fuzz
  # Only the fuzz targets: the daemon's coroutines need gcc. (bootstrap.sh installed clang.)
  if cmake -S "$top" -B "$fuzz_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSUDOKU_FUZZ=ON \
    -DCMAKE_CXX_COMPILER=clang++ -DSUDOKU_BUILD_BENCHMARKS=OFF -DSUDOKU_WERROR=ON \
    ${SUDOKU_CMAKE_ARGS:-} >/dev/null &&
    cmake --build "$fuzz_dir" -j "$jobs" --target fuzz_targets; then
    SUDOKU_FUZZ_SECONDS=$fuzz_seconds "$top/tests/fuzz/run_fuzzers.sh" "$fuzz_dir" |
      tee "$fuzz_dir/fuzz-summary.txt"
    status=${PIPESTATUS[0]}
    execs=$(awk '{for (i = 1; i < NF; ++i) if ($(i + 1) == "executions,") s += $i}
      END {print s + 0}' "$fuzz_dir/fuzz-summary.txt")
    targets=$(grep -c '^fuzz: ' "$fuzz_dir/fuzz-summary.txt")
    record fuzz "$status" "$targets targets x $fuzz_seconds s, $execs executions"
  else
    record fuzz 1 "build failed"
  fi
fi

elapsed=$((SECONDS - started))
summary=$(printf '%s; ' "${results[@]}")
summary=${summary%; }
if ((failed)); then
  echo "run_all: FAILED in $((elapsed / 60))m$((elapsed % 60))s: $summary"
  exit 1
fi
echo "run_all: all passed in $((elapsed / 60))m$((elapsed % 60))s: $summary"
