#!/usr/bin/env bash
# Profiles the reduction and n-body kernels on a GPU machine, from the folder
# that tools/gpu/pack.sh made: SASS of each mstage kernel (from its dumped
# PTX) and of the nvcc baselines, and one Nsight Compute report per kernel
# at equal sizes, with per-instruction SASS counts.
#
#   OUT=<folder> bench/profile.sh [NBODY_N]
#
# Writes under $OUT/profile: *.sass, ncu-*.txt (details) and
# ncu-*-source.csv (per-instruction SASS metrics).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
n=${1:-32768}
out=${OUT:-$root/out}/profile
mkdir -p "$out/dump"
export LD_LIBRARY_PATH="$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin"
arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader |
  head -1 | tr -d .)

# SASS of what the runtime compiles, through the same PTX.
MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR="$out/dump" \
  "$here/mstage_bench" nbody --n "$n" --reps 1 >/dev/null
MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR="$out/dump" \
  "$here/mstage_bench" reduce --reps 1 --grid 2112 >/dev/null
for ptx in "$out"/dump/*.ptx; do
  base=${ptx%.ptx}
  ptxas -arch="$arch" -v "$ptx" -o "$base.cubin" 2>"$base.ptxas.txt"
  cuobjdump -sass "$base.cubin" >"$base.sass"
done
cuobjdump -sass "$here/nbody_baselines" >"$out/nbody_baselines.sass"
cuobjdump -sass "$here/reduce_baselines" >"$out/reduce_baselines.sass"

profile() { # name kernel-regex launches-to-skip command...
  local name=$1 kernel=$2 skip=$3
  shift 3
  ncu --set full --import-source no -k "regex:$kernel" --launch-skip "$skip" \
    --launch-count 1 -f -o "$out/ncu-$name" "$@" >"$out/ncu-$name.log" 2>&1
  ncu -i "$out/ncu-$name.ncu-rep" --page details >"$out/ncu-$name.txt"
  ncu -i "$out/ncu-$name.ncu-rep" --page source --print-source sass --csv \
    >"$out/ncu-$name-source.csv"
}
# mstage_bench launches each variant 1 + 5 + reps times, staged first; the
# odd reduction size comes after the power of two.
profile nbody-staged 'Staged' 3 "$here/mstage_bench" nbody --n "$n" --reps 3
profile nbody-template 'nbodyTemplate' 3 "$here/nbody_baselines" --n "$n" \
  --reps 50
profile reduce-staged-pow2 'Staged' 3 "$here/mstage_bench" reduce --reps 3 \
  --grid 2112
profile reduce-staged-odd 'Staged' 12 "$here/mstage_bench" reduce --reps 3 \
  --grid 2112
profile reduce-template 'reduceTemplate' 3 "$here/reduce_baselines" --reps 50
ls -la "$out"
