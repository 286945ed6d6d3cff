#!/usr/bin/env bash
# Compile time of mstage++ -O2 against clang++-22 -O2 on the examples (no GPU
# needed): the median of 11 compiles of each, to an object file, with the same
# flags. Prints CSV (benchmark,variant,file,median_ms) and the ratios.
#
#   bench/compile_time.sh [BUILD_DIR]      (default: build)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
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
for src in "$repo"/examples/*.cpp; do
  name=${src##*/}
  flags=(-O2 -std=c++17 -I"$repo/include" -I"$repo/examples" -c "$src")
  m=() c=()
  # Alternating, so that a busy machine slows both alike.
  for i in 1 2 3 4 5 6 7 8 9 10 11; do
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
