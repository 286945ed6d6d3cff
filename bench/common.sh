# Sourced by the benchmark scripts (run.sh, generic_ratio.sh,
# stencil_process.sh) in the folder tools/gpu/pack.sh made: sets here (its
# bench/), root (the folder), OUT (default $root/out, made) and puts the
# runtime's and CUDA's libraries on LD_LIBRARY_PATH.
here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
root=$(dirname "$here")
OUT=${OUT:-$root/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$root/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
