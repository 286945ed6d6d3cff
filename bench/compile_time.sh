#!/usr/bin/env bash
# Compile time of mstage++ -O2 against clang++-22 -O2 on the examples and on
# issue 33's large generated stencil kernels (bench/mstage_stencil.cpp) (no
# GPU needed): the median of REPS (default 11) compiles of each, to an object
# file, with the same flags. Prints CSV (benchmark,variant,file,median_ms)
# and the ratios.
#
#   [REPS=R] bench/compile_time.sh [BUILD_DIR [SOURCE...]]
#                      (default: build; the examples and mstage_stencil.cpp)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
shift $(($# > 0 ? 1 : 0))
reps=${REPS:-11}
sources=("$@")
((${#sources[@]})) || sources=("$repo"/examples/*.cpp "$repo/bench/mstage_stencil.cpp")
mstagexx=$build/bin/mstage++
clangxx=${CLANGXX:-clang++-22}
[[ -x $mstagexx ]] || { echo "compile_time.sh: no $mstagexx; build first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ms() { # command...: milliseconds one run takes
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

echo "benchmark,variant,file,median_ms"
for src in "${sources[@]}"; do
  name=${src##*/}
  flags=(-O2 -std=c++17 -I"$repo/include" -I"$repo/examples" -I"$repo/bench"
    -c "$src")
  m=() c=()
  # Alternating, so that a busy machine slows both alike.
  for ((i = 0; i < reps; i++)); do
    m+=("$(ms "$mstagexx" "${flags[@]}" -o "$tmp/m.o")")
    c+=("$(ms "$clangxx" "${flags[@]}" -o "$tmp/c.o")")
  done
  mm=$(median "${m[@]}")
  cm=$(median "${c[@]}")
  echo "compile,mstage++,$name,$mm"
  echo "compile,clang++,$name,$cm"
  echo "# $name: mstage++ $mm ms, clang++ $cm ms:" \
    "$(awk -v m="$mm" -v c="$cm" 'BEGIN { printf "%.3f", m / c }')x" >&2
done
