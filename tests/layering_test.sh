#!/bin/sh
# Usage: layering_test.sh SOURCE_DIR
#
# Each folder of the product includes only the layers below it:
#   solver/  the standard library and the compiler's intrinsics, nothing else (no Asio, oneTBB,
#            protobuf, ..., nor proto/, daemon/ or client/): it is linked into every binary and
#            the benchmarks, each bringing its own threads.
#   proto/   what both ends share: the solver and itself, never client/ or daemon/.
#   client/  never daemon/.
#   daemon/  never client/.
# A forbidden include is reported as FILE:LINE: the include line, and why it is forbidden.
# Link dependencies are kept by CMake; this scan is what stops an include from creeping in
# through the shared include path (every target sees the whole source tree).
set -u
src=${1:?usage: layering_test.sh SOURCE_DIR}
cd "$src" || exit 2

found=0

# check FOLDER ERE RULE: reports every include in FOLDER's sources whose path matches ERE.
check() {
  folder=$1 forbidden=$2 rule=$3
  files=$(find "$folder" -type f \( -name '*.h' -o -name '*.cc' -o -name '*.inc' \) | sort)
  [ -n "$files" ] || return 0
  # shellcheck disable=SC2086  # the file names have no spaces
  hits=$(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($forbidden)" $files)
  [ -n "$hits" ] || return 0
  found=1
  printf '%s\n' "$hits" | while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    text=$(printf '%s' "${rest#*:}" | sed 's/^[[:space:]]*//')
    echo "$file:$line: $text: $rule"
  done
}

libraries='boost/|tbb/|oneapi/|google/|nlohmann/|fmt/|openssl/|systemd/|sanitizer/'
check solver "$libraries|proto/|daemon/|client/|tests/" \
  'solver/ includes only the standard library (see solver/CMakeLists.txt)'
check proto 'client/|daemon/|tests/' \
  'proto/ includes no client/ or daemon/ header (see proto/CMakeLists.txt)'
check client 'daemon/|tests/' 'client/ includes no daemon/ header (see client/CMakeLists.txt)'
check daemon 'client/|tests/' 'daemon/ includes no client/ header (see daemon/CMakeLists.txt)'

if [ "$found" -ne 0 ]; then
  echo "layering: the includes above cross the layering of the source folders"
  exit 1
fi
echo "layering: solver/, proto/, client/ and daemon/ include only what is below them"
