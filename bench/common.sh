# Sourced by the benchmark scripts, which run from the folder that
# tools/gpu/pack.sh made (bench/ beside lib/): sets here (bench/), root, OUT
# (created; default $root/out) and LD_LIBRARY_PATH (the packed runtime first,
# then the CUDA toolkit's libraries).
here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
root=$(dirname "$here")
OUT=${OUT:-$root/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$root/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
