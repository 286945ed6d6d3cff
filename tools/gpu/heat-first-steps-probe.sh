#!/usr/bin/env bash
# Usage: PACK=.gpu-pack/mstage-gpu.tar.xz [PAIRS=5] \
#        bash tools/gpu/heat-first-steps-probe.sh [SETTING...]
#
# Issue 33's heat target (first 100 steps of heat 1024^2, cold, <= 1.5x
# nvcc), by setting: each SETTING is a space-separated list of VAR=value
# (default: the default policy, MSTAGE_JIT=generic, MSTAGE_JIT_THREADS=1,
# MSTAGE_JIT_THREADS=4, MSTAGE_JIT_TIERS=off, MSTAGE_OCCUPANCY=off). Each
# round runs nvcc's heat_cold and then jit_cold heat 1024 100 under every
# setting, each a fresh process on an empty cache with CUDA_CACHE_DISABLE=1,
# so that a noisy machine slows all alike; PAIRS rounds. Prints one line per
# setting: its times, the median, and the median's ratio to nvcc's median.
# Nothing is written outside a temporary folder.
set -uo pipefail
pack=${PACK:-.gpu-pack/mstage-gpu.tar.xz}
pairs=${PAIRS:-5}
(($# > 0)) || set -- "" "MSTAGE_JIT=generic" "MSTAGE_JIT_THREADS=1" \
  "MSTAGE_JIT_THREADS=4" "MSTAGE_JIT_TIERS=off" "MSTAGE_OCCUPANCY=off"
. "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
probe_unpack "$pack" heat-probe
bench=$work/bench
for p in jit_cold heat_cold; do
  [[ -x $bench/$p ]] || { echo "FAIL heat-first-steps: no bench/$p in $pack"; exit 1; }
done

# The first-100-steps time (ms) of one cold run of "$@".
once() {
  local cache
  cache=$(mktemp -d -p "$work")
  env CUDA_CACHE_DISABLE=1 MSTAGE_CACHE_DIR="$cache" "$@" 2>/dev/null |
    awk -F, '/first-100-steps/ { print $NF }'
  rm -rf "$cache"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

declare -A times
for ((r = 0; r < pairs; r++)); do
  times[nvcc]+="$(once "$bench/heat_cold" 1024 100) "
  n=0
  for s in "$@"; do
    # shellcheck disable=SC2086 # a setting is a list of words
    times[$n]+="$(once env $s "$bench/jit_cold" heat 1024 100) "
    n=$((n + 1))
  done
done
nvcc=$(tr ' ' '\n' <<<"${times[nvcc]}" | grep . | median)
[[ -n $nvcc ]] || { echo "FAIL heat-first-steps: nvcc's heat_cold printed no time (no GPU?)"; exit 1; }
echo "nvcc: ${times[nvcc]}-> median $nvcc ms"
n=0
for s in "$@"; do
  m=$(tr ' ' '\n' <<<"${times[$n]}" | grep . | median)
  ratio=$(awk -v a="$m" -v b="$nvcc" 'BEGIN { if (a && b) printf "%.2f", a / b; else print "?" }')
  echo "${s:-default}: ${times[$n]}-> median ${m:-?} ms, ${ratio}x nvcc"
  n=$((n + 1))
done
