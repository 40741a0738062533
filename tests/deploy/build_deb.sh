#!/usr/bin/env bash
# Builds the Debian package of BUILD_DIR into OUT_DIR (cpack -G DEB), for the tests that install
# it under a booted systemd (boot_test.sh) and in a container image (container_test.sh): built
# once, as ctest's fixture "deb".
#
# usage: build_deb.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=$1
out=$2
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null ||
    { echo "SKIP: no $tool (deploy/bootstrap.sh installs dpkg-dev)"; exit 77; }
done
rm -rf "$out"
mkdir -p "$out"
cd "$build"
cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1 || { cat "$out/cpack.log"; exit 1; }
rm -rf "$out/_CPack_Packages"
ls "$out"/sudokud_*.deb
