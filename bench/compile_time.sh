#!/usr/bin/env bash
# Compile time of mstage++ -O2 against clang++-22 -O2 on the examples and on
# issue 33's large generated stencil kernels (bench/mstage_stencil.cpp) (no
# GPU needed): the median of REPS (default 11) compiles of each, to an object
# file, with the same flags; wall time and CPU time (user + system, ptxas's
# included), as the ahead-of-time code runs on threads of its own and shows
# in the wall time only where the cores are busy. Prints CSV
# (benchmark,variant,file,median_ms,median_cpu_ms), the ratios and the load
# average before and after, as a loaded machine inflates wall time.
#
#   [REPS=R] [MSTAGEXX_FLAGS=...] bench/compile_time.sh [BUILD_DIR [SOURCE...]]
#                      (default: build; the examples and mstage_stencil.cpp;
#                       MSTAGEXX_FLAGS=-mstage-arch=none measures without the
#                       ahead-of-time code; MSTAGEXX_FLAGS='-Xclang
#                       -plugin-arg-mstage -Xclang aot-threads=1' with its
#                       kernels' LLVM work on one thread, as before the pool;
#                       MSTAGEXX_FLAGS=-fno-mstage-aot-overlap with the host
#                       waiting for the generic code, as before the overlap;
#                       COMMON_FLAGS=... go to both compilers, such as the
#                       --sysroot of tools/gpu/pack-compiler.sh's headers)
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

# Prints "wall_ms cpu_ms" of one run of a command, or "failed" after its
# errors (a failed compile is no time).
measure() {
  local TIMEFORMAT='%R %U %S' t
  if ! t=$({ time "$@" >/dev/null 2>"$tmp/err"; } 2>&1); then
    echo "compile_time.sh: failed: $*" >&2
    head -20 "$tmp/err" >&2
    echo failed
    return
  fi
  awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' <<<"$t"
}
# Runs measure and appends to the arrays named $1 (wall) and $2 (CPU).
sample() {
  local -n walls=$1 cpus=$2
  local w c
  shift 2
  read -r w c < <(measure "$@")
  [[ $w != failed ]] || exit 1
  walls+=("$w") cpus+=("$c")
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
ratio() { awk -v m="$1" -v c="$2" 'BEGIN { printf "%.3f", m / c }'; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

read -r -a extra <<<"${MSTAGEXX_FLAGS:-}"
read -r -a common <<<"${COMMON_FLAGS:-}"
echo "# load average before: $(load); $(nproc) cores" >&2
echo "benchmark,variant,file,median_ms,median_cpu_ms"
for src in "${sources[@]}"; do
  name=${src##*/}
  std=c++17
  # As examples/CMakeLists.txt builds them.
  case $name in coroutines.cpp | xyzw_frequency.cpp) std=c++20 ;; esac
  flags=(-O2 -std=$std -I"$repo/include" -I"$repo/examples" -I"$repo/bench"
    "${common[@]}" -c "$src")
  mw=() mc=() cw=() cc=()
  # Alternating, so that a busy machine slows both alike.
  for ((i = 0; i < reps; i++)); do
    sample mw mc "$mstagexx" "${flags[@]}" "${extra[@]}" -o "$tmp/m.o"
    sample cw cc "$clangxx" "${flags[@]}" -o "$tmp/c.o"
  done
  m=$(median "${mw[@]}") mcpu=$(median "${mc[@]}")
  c=$(median "${cw[@]}") ccpu=$(median "${cc[@]}")
  echo "compile,mstage++${extra[*]:+ ${extra[*]}},$name,$m,$mcpu"
  echo "compile,clang++,$name,$c,$ccpu"
  echo "# $name: mstage++ $m ms wall, $mcpu ms CPU; clang++ $c ms wall," \
    "$ccpu ms CPU: $(ratio "$m" "$c")x wall, $(ratio "$mcpu" "$ccpu")x CPU" >&2
done
echo "# load average after: $(load)" >&2
