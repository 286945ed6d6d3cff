#!/usr/bin/env bash
# Usage: bash tools/gpu/first-launch.sh [DIR]
#
# Where heat's first 100 steps go on the GPU (issue 33's target: heat 1024^2,
# first 100 steps <= 1.5x nvcc; issue 36's lean launch path). DIR holds
# bench/jit_cold and bench/heat_cold (an unpacked .gpu-pack archive, or a
# build tree; default: build), and lib/ when it is a pack. For each of
# MSTAGE_JIT=auto, generic and sync, on a cold cache, it runs jit_cold heat
# 1024 100 twice: once plain for the step times (JIT_COLD_STEPS=1: when each
# step returned), once with MSTAGE_TRACE=chrome for the phases of the first
# launches (tools/gpu/first_launch_phases.py prints them: host time before
# mstage_rt_launch, the launch, its evaluation and lookup, the rest); then
# nvcc's heat_cold 1024 100. Ends with a PASS or FAIL line per mode for the
# 1.5x target (the median of 3 plain runs against nvcc's median of 3).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:-build}
bench=$dir/bench
[[ -x $bench/jit_cold && -x $bench/heat_cold ]] ||
  { echo "FAIL first-launch: no $bench/jit_cold or $bench/heat_cold"; exit 1; }
[[ -d $dir/lib ]] && export LD_LIBRARY_PATH=$dir/lib:${LD_LIBRARY_PATH:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The total of the first 100 steps (the jit-cold CSV row), in ms.
total() { awk -F, '/heat-1024-first-100-steps/{print $4}' "$1"; }
median() { sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }

for i in 1 2 3; do
  CUDA_CACHE_DISABLE=1 JIT_COLD_STEPS=1 "$bench/heat_cold" 1024 100 \
    >"$tmp/nvcc-$i.csv" 2>"$tmp/nvcc-$i.err"
done
nvcc=$(for i in 1 2 3; do awk -F, '/first-100-steps/{print $NF}' \
  "$tmp/nvcc-$i.csv"; done | median)
python3 "$here/first_launch_phases.py" nvcc "$tmp/nvcc-1.err"
echo "nvcc: first 100 steps ${nvcc:-?} ms (median of 3)"

status=0
for mode in auto generic sync; do
  for i in 1 2 3; do
    cache=$(mktemp -d -p "$tmp")
    CUDA_CACHE_DISABLE=1 JIT_COLD_STEPS=1 MSTAGE_CACHE_DIR=$cache \
      MSTAGE_JIT=$mode "$bench/jit_cold" heat 1024 100 \
      >"$tmp/$mode-$i.csv" 2>"$tmp/$mode-$i.err"
  done
  cache=$(mktemp -d -p "$tmp")
  CUDA_CACHE_DISABLE=1 MSTAGE_CACHE_DIR=$cache MSTAGE_JIT=$mode \
    MSTAGE_TRACE=chrome:$tmp/$mode.json JIT_COLD_STEPS=1 \
    "$bench/jit_cold" heat 1024 100 >/dev/null 2>&1
  python3 "$here/first_launch_phases.py" "$mode" "$tmp/$mode-1.err" \
    "$tmp/$mode.json"
  ms=$(for i in 1 2 3; do total "$tmp/$mode-$i.csv"; done | median)
  if [[ -z $ms || -z $nvcc ]]; then
    echo "FAIL first-launch $mode: no time (see $mode-1.err)"
    status=1
    continue
  fi
  ratio=$(awk -v a="$ms" -v b="$nvcc" 'BEGIN{printf "%.2f", a / b}')
  verdict=$(awk -v r="$ratio" 'BEGIN{print (r <= 1.5) ? "PASS" : "FAIL"}')
  echo "$verdict first-launch $mode: heat 1024^2 first 100 steps $ms ms," \
    "${ratio}x nvcc's $nvcc ms (target <= 1.5x)"
  [[ $verdict == PASS ]] || status=1
done
exit $status
