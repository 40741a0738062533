# What the tests that run the image with podman share (container_test.sh,
# kubernetes_play_test.sh): their own podman storage, the settings podman needs on these machines,
# the base image and the image built from the package. Sourced after lib.sh, once the test has
# made its scratch directory $work. Sets cache and CONTAINERS_CONF; defines pm,
# podman_base_image and podman_build_image.
#
# No registry is reachable here: the base image, debian:bookworm-slim, is made with debootstrap
# and imported (cached in the tests' own podman storage under the build directory). Facts it rests
# on (../shared/STACK.md): runc, not crun, with explicit ulimits, through CONTAINERS_CONF.

cache=$build/deploy/test-cache
mkdir -p "$cache"
# Its own storage (the image cache) and run directory, apart from any other podman use here.
podman_key=$(sha256sum <<<"$build" | cut -c1-12)
cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
log_driver = "k8s-file"
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
export CONTAINERS_CONF=$work/containers.conf
pm() { podman --root "$cache/podman" --runroot "/run/sudokud-test-podman-$podman_key" "$@"; }

# podman_base_image: imports debian:bookworm-slim into the storage unless it is there; skips
# without a Debian mirror or when debootstrap fails.
podman_base_image() {
  if pm image exists debian:bookworm-slim; then
    ok "cached base image debian:bookworm-slim"
    return
  fi
  local mirror rootfs=$cache/bookworm-minbase.tmp
  mirror=$(debian_mirror)
  [[ -n $mirror ]] || skip "cannot find a Debian mirror in /etc/apt/sources.list.d/debian.sources"
  rm -rf "$rootfs"
  echo "debootstrap: a minimal bookworm from $mirror, imported as debian:bookworm-slim"
  if ! debootstrap --variant=minbase bookworm "$rootfs" "$mirror" \
    >"$cache/debootstrap-base.log" 2>&1; then
    tail -5 "$cache/debootstrap-base.log"
    rm -rf "$rootfs"
    skip "cannot make the base image: debootstrap from $mirror failed ($cache/debootstrap-base.log)"
  fi
  tar -C "$rootfs" -c . | pm import - debian:bookworm-slim >/dev/null ||
    { echo "FAIL: podman import failed"; exit 1; }
  rm -rf "$rootfs"
  ok "base image debian:bookworm-slim imported"
}

# podman_build_image IMAGE: builds deploy/Containerfile with the package as the whole context,
# tagged IMAGE; sets image_size (bytes) and build_started (SECONDS when the build began). Exits 1
# when the build fails.
podman_build_image() {
  local image=$1
  mkdir -p "$work/context"
  cp "$deb" "$work/context/"
  build_started=$SECONDS
  if ! pm build -q --format docker -f "$source_dir/deploy/Containerfile" -t "$image" \
    "$work/context" >"$work/build.log" 2>&1; then
    tail -20 "$work/build.log"
    echo "FAIL: podman build failed"
    exit 1
  fi
  image_size=$(pm image inspect --format '{{.Size}}' "$image")
  ok "built $image in $((SECONDS - build_started)) s: $((image_size / 1000000)) MB"
}

# podman_engine_setting 'KEY = VALUE': one more setting in containers.conf's [engine] table (the
# file's last).
podman_engine_setting() { echo "$1" >>"$CONTAINERS_CONF"; }
