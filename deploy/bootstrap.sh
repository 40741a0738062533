#!/usr/bin/env bash
# Installs what the build needs (Debian 12 packages, only those missing), then configures and builds
# sudokud into $SUDOKU_BUILD_DIR (default: build/ at the top of the checkout).
#
# Used by the README's two commands (deploy/demo.sh and tests/run_all.sh); safe to run again.
# Environment: SUDOKU_BUILD_DIR, SUDOKU_BUILD_TYPE (default Release), SUDOKU_CMAKE_ARGS (extra
# arguments for cmake), SUDOKU_EXTRA_PACKAGES (more Debian packages to ensure),
# SUDOKU_BUILD_TARGETS (build only these, e.g. "sudokud sudoku-client"; default: everything),
# SUDOKU_TEST_TOOLS (0: build no tests nor benchmarks, and install neither their libraries nor
# the tools only the tests use; default 1).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${SUDOKU_BUILD_DIR:-$top/build}

# What building the three binaries needs.
packages=(
  cmake ninja-build g++ pkg-config python3
  libboost-dev libboost-program-options-dev libboost-iostreams-dev libzstd-dev zlib1g-dev libtbb-dev
  libprotobuf-dev protobuf-compiler nlohmann-json3-dev libfmt-dev
  libsystemd-dev libssl-dev
)
test_tools=(
  # The test and benchmark libraries, and dpkg-dev for the Debian package the tests build.
  libgtest-dev libgmock-dev libbenchmark-dev dpkg-dev
  # What the tests run, so that none is skipped on a fresh machine: file (dpkg-shlibdeps, for
  # CPack), systemd (systemd-analyze, systemd-socket-activate), lintian, man-db and
  # bsdextrautils (man -l, col), prometheus (promtool check metrics), iproute2 (ip), binutils
  # (readelf), git (the version names the revision), haproxy (the scale-out test), openssl (the
  # TLS tests make their certificates with it).
  haproxy file systemd lintian man-db bsdextrautils prometheus iproute2 binutils git openssl
  # The package under a booted systemd (tests/deploy/boot_test.sh: systemd-nspawn, debootstrap,
  # util-linux's nsenter and unshare) and in a container image (container_test.sh: podman with
  # runc, its network plugins and iptables; kubernetes_play_test.sh: catatonit, which podman
  # kube play builds its pods' infra image from); kubernetes_test.py parses YAML.
  systemd-container debootstrap util-linux podman runc containernetworking-plugins iptables
  catatonit python3-yaml
)
# Without the test tools, the tests and benchmarks are not configured (they need GoogleTest and
# Google Benchmark); with them, they are, even in a build directory the demo configured first.
if [[ ${SUDOKU_TEST_TOOLS:-1} != 0 ]]; then
  packages+=("${test_tools[@]}")
  test_args=(-DSUDOKU_BUILD_TESTS=ON -DSUDOKU_BUILD_BENCHMARKS=ON)
else
  test_args=(-DSUDOKU_BUILD_TESTS=OFF -DSUDOKU_BUILD_BENCHMARKS=OFF)
fi
# shellcheck disable=SC2206
packages+=(${SUDOKU_EXTRA_PACKAGES:-})

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo=()
  if [[ $(id -u) != 0 ]]; then sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# shellcheck disable=SC2206
extra_args=(${SUDOKU_CMAKE_ARGS:-})
cmake -S "$top" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE="${SUDOKU_BUILD_TYPE:-Release}" "${test_args[@]}" "${extra_args[@]}" >/dev/null
# shellcheck disable=SC2206
targets=(${SUDOKU_BUILD_TARGETS:-})
cmake --build "$build_dir" -j "$(nproc)" ${targets[@]:+--target "${targets[@]}"}
