#!/usr/bin/env bash
# The README's second command, and what CI runs: install what is missing, build, run every test.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${SUDOKU_BUILD_DIR:-$top/build}

"$top/deploy/bootstrap.sh"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
