#!/usr/bin/env bash
# `cmake --install` from a build tree nobody may write: the tree is bind-mounted read-only over
# itself in a mount namespace of the test's own (root's `chmod a-w` would not stop root), then
# installed with --prefix and with DESTDIR. The one file left writable is install_manifest.txt,
# which CMake itself (3.25) writes at the top of the build tree at the end of every install;
# everything the project's install rules need is made when building.
#
# usage: install_readonly_test.sh BUILD_DIR SOURCE_DIR
# Exits 77 with "SKIP: reason" where no mount namespace can be made (unshare).
set -uo pipefail

build=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
work=$(mktemp -d /tmp/sudokud-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

command -v unshare >/dev/null || { echo "SKIP: no unshare (util-linux)"; exit 77; }
namespace=(unshare -m --propagation private)
[[ $(id -u) == 0 ]] || namespace=(unshare -rm --propagation private)
"${namespace[@]}" true 2>"$work/unshare.err" ||
  { echo "SKIP: cannot make a mount namespace: $(cat "$work/unshare.err")"; exit 77; }

# A manifest file to bind over CMake's own, which must exist to be bound over.
[[ -e $build/install_manifest.txt ]] || : >"$build/install_manifest.txt"
: >"$work/manifest"
install() {
  "${namespace[@]}" sh -c '
    build=$1; shift
    mount --bind "$build" "$build" && mount -o remount,bind,ro "$build" &&
      mount --bind "$0" "$build/install_manifest.txt" || exit 90
    touch "$build/deploy/probe" 2>/dev/null && { echo "the build tree is writable"; exit 91; }
    exec "$@"' "$work/manifest" "$build" "$@"
}

failed=0
check() {
  if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; failed=1; return 1; fi
}
prefix=$work/prefix
install cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1
status=$?
check "cmake --install --prefix from the read-only tree exits 0 (got $status)" '((status == 0))' ||
  tail -5 "$work/install.log"
for path in bin/sudokud bin/sudoku-client bin/sudoku-bench etc/default/sudokud \
  lib/systemd/system/sudokud.service lib/systemd/system/sudokud@.service \
  lib/systemd/system/sudokud.socket share/man/man8/sudokud.8.gz share/doc/sudokud/copyright \
  share/doc/sudokud/changelog.Debian.gz; do
  check "installed $path" "[[ -s '$prefix/$path' ]]"
done
check "the unit names the installed daemon" \
  "grep -Fx 'ExecStart=$prefix/bin/sudokud --listen \${SUDOKUD_LISTEN} \$SUDOKUD_OPTS' \
     '$prefix/lib/systemd/system/sudokud.service' >/dev/null"
check "the units are rw-r--r--" \
  "[[ \$(stat -c %A '$prefix/lib/systemd/system/sudokud.socket') == -rw-r--r-- ]]"
check "the manifest lists the units" \
  "grep -Fx '$prefix/lib/systemd/system/sudokud@.service' '$work/manifest' >/dev/null"

root=$work/root
install env DESTDIR="$root" cmake --install "$build" --prefix /usr >"$work/destdir.log" 2>&1
status=$?
check "DESTDIR=... cmake --install --prefix /usr from the read-only tree exits 0 (got $status)" \
  '((status == 0))' || tail -5 "$work/destdir.log"
check "the settings file in DESTDIR/etc/default" "[[ -s '$root/etc/default/sudokud' ]]"
check "the unit in DESTDIR names /usr/bin/sudokud" \
  "grep -Fx 'ExecStart=/usr/bin/sudokud --listen \${SUDOKUD_LISTEN} \$SUDOKUD_OPTS' \
     '$root/usr/lib/systemd/system/sudokud.service' >/dev/null"
exit $failed
