# Sourced by the tools/gpu probes: probe_unpack ARCHIVE NAME unpacks a pack
# that tools/gpu/pack.sh made into a temporary folder $work (removed at
# exit), or prints "FAIL unpack" with tar's message and exits 1; then it
# points the loader and the JIT cache there, finds compute-sanitizer ($CS)
# and prints the GPU and its driver. verdict PASS|FAIL REASON... prints a
# check's line and counts it in $passed and $failed.
probe_unpack() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/$2.XXXXXX") || exit 1
  trap 'rm -rf "$work"' EXIT
  if ! tar -xJf "$1" -C "$work" 2>"$work/untar.err"; then
    echo "FAIL unpack $1: $(head -c 300 "$work/untar.err")"
    exit 1
  fi
  export LD_LIBRARY_PATH="$work/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export MSTAGE_CACHE_DIR=$work/cache
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1
}

passed=0 failed=0
verdict() {
  echo "$*"
  if [[ $1 == PASS ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
