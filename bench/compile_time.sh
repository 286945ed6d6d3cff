#!/usr/bin/env bash
# Compile time of mstage++ -O2 against clang++-22 -O2 on the examples (no GPU
# needed): the median of 5 compiles of each, to an object file, with the same
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

median_ms() { # command...
  local times=() i s e
  for i in 1 2 3 4 5; do
    s=$(date +%s%N)
    "$@" >/dev/null
    e=$(date +%s%N)
    times+=($(((e - s) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p | awk '{ printf "%.1f", $1 / 1000 }'
}

echo "benchmark,variant,file,median_ms"
for src in "$repo"/examples/*.cpp; do
  name=${src##*/}
  flags=(-O2 -std=c++17 -I"$repo/include" -I"$repo/examples" -c "$src")
  m=$(median_ms "$mstagexx" "${flags[@]}" -o "$tmp/m.o")
  c=$(median_ms "$clangxx" "${flags[@]}" -o "$tmp/c.o")
  echo "compile,mstage++,$name,$m"
  echo "compile,clang++,$name,$c"
  echo "# $name: mstage++ $m ms, clang++ $c ms: $(awk -v m="$m" -v c="$c" 'BEGIN { printf "%.3f", m / c }')x" >&2
done
