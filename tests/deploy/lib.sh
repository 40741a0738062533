# What the shell tests of tests/deploy share (boot_test.sh, container_test.sh, cgroup_test.sh):
# their arguments, their SKIP and ok lines, their preconditions and the Debian mirror they build
# from. Sourced by each with its own arguments: BUILD_DIR SOURCE_DIR [DEB_DIR] (DEB_DIR holds the
# package the deploy_deb test built, for the tests that run it). Sets build, source_dir, deb_dir,
# started, failed and deb (empty without DEB_DIR).

build=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
deb_dir=${3:-}
started=$SECONDS

# Exit 77, which ctest reports as skipped, with the reason on the line run_all.sh reads.
skip() {
  echo "SKIP: $*"
  exit 77
}
ok() { echo "ok: $* ($((SECONDS - started)) s)"; }
# A failed check: the test goes on and exits 1 at its end (`failed`).
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}
# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
  if [[ $2 == "$3" ]]; then ok "$1: $3"; else fail "$1: expected '$2', got '$3'"; fi
}
# wait_for SECONDS COMMAND...: polls every 0.2 s until COMMAND succeeds; false at the deadline.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}
# lines_at_least FILE N: FILE has N lines or more.
lines_at_least() { [[ -f $1 ]] && (($(wc -l <"$1") >= $2)); }

# require_root WHY TOOL...: skips unless running as root (WHY says what needs it) with every TOOL.
require_root() {
  local why=$1 tool
  shift
  [[ $(id -u) == 0 ]] || skip "not root: $why"
  for tool in "$@"; do
    command -v "$tool" >/dev/null || skip "no $tool (deploy/bootstrap.sh installs it)"
  done
}

# The host's Debian mirror (what debootstrap fetches from), or nothing.
debian_mirror() {
  local mirror
  mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null |
    grep -v security | head -1)
  [[ -n $mirror ]] || mirror=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' \
    /etc/apt/sources.list 2>/dev/null)
  echo "$mirror"
}

deb=
[[ -z $deb_dir ]] || deb=$(ls "$deb_dir"/sudokud_*.deb 2>/dev/null | head -1)
