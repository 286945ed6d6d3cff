#!/usr/bin/env bash
# Usage: tools/gpu/pack.sh [BUILD_DIR]
#
# Bundles what the GPU machine needs to run the GPU suite into
# .gpu-pack/mstage-gpu.tar.xz (in the repository root):
#   lib/libmstage_rt.so   the runtime, stripped
#   test/gpu/<program>    every program of BUILD_DIR/test/gpu, stripped
#   test/gpu-tools/<program>
#                         the programs of BUILD_DIR/test/gpu-tools (for
#                         tools/gpu/check-tools.sh), stripped
#   examples/<program>    every program of BUILD_DIR/examples (and of
#                         examples/heat_mpi, built where MPI is), stripped
#   bench/<program>       every program of BUILD_DIR/bench (mstage_bench and
#                         the nvcc baselines of bench/cuda/build.sh), stripped
#   run-suite.sh          tools/gpu/run-suite.sh
#   check-tools.sh        tools/gpu/check-tools.sh
#   MANIFEST              where and from what the archive was made
# BUILD_DIR defaults to build in the repository root; a relative BUILD_DIR is
# taken from the current directory. Build the programs first (the build's
# default target does). On the GPU machine, from the repository root:
#   bash tools/gpu/run-suite.sh
set -euo pipefail

die() {
  echo "pack.sh: error: $*" >&2
  exit 1
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
[[ -d $build ]] || die "no build directory $build (usage: pack.sh [BUILD_DIR])"
build=$(cd "$build" && pwd)

pack=$repo/.gpu-pack
stage=$pack/stage
archive=$pack/mstage-gpu.tar.xz
limit_mib=60

runtime=$build/lib/libmstage_rt.so
[[ -f $runtime ]] || die "no runtime at $runtime; build mstage first"

is_elf() {
  [[ -f $1 && -x $1 ]] || return 1
  local magic
  magic=$(od -An -tx1 -N4 "$1" | tr -d ' \n')
  [[ $magic == 7f454c46 ]]
}

# Copies each ELF executable of $1 into $2, stripped; prints how many.
copy_programs() {
  local from=$1 to=$2 count=0 f
  if [[ -d $from ]]; then
    for f in "$from"/*; do
      is_elf "$f" || continue
      mkdir -p "$to"
      strip --strip-unneeded -o "$to/${f##*/}" "$f"
      chmod 755 "$to/${f##*/}"
      count=$((count + 1))
    done
  fi
  echo "$count"
}

rm -rf "$stage"
mkdir -p "$stage/lib" "$stage/bench"
trap 'rm -rf "$stage"' EXIT

strip --strip-unneeded -o "$stage/lib/libmstage_rt.so" "$runtime"
chmod 755 "$stage/lib/libmstage_rt.so"
tests=$(copy_programs "$build/test/gpu" "$stage/test/gpu")
tool_programs=$(copy_programs "$build/test/gpu-tools" "$stage/test/gpu-tools")
examples=$(copy_programs "$build/examples" "$stage/examples")
mpi_examples=$(copy_programs "$build/examples/heat_mpi" "$stage/examples")
examples=$((examples + mpi_examples))
benches=$(copy_programs "$build/bench" "$stage/bench")
[[ $tests -gt 0 ]] ||
  die "no programs in $build/test/gpu; build them first (ninja -C $build)"
install -m 755 "$repo/tools/gpu/run-suite.sh" "$stage/run-suite.sh"
install -m 755 "$repo/tools/gpu/check-tools.sh" "$stage/check-tools.sh"
install -m 755 "$repo/bench/run.sh" "$repo/bench/profile.sh" "$repo/bench/report.py" \
  "$repo/bench/plot.py" "$repo/bench/multi_gpu.sh" "$repo/bench/generic_ratio.sh" \
  "$repo/bench/stencil_process.sh" "$repo/bench/stencil_phases.py" "$repo/bench/common.sh" \
  "$repo/bench/heat_plot.py" \
  "$stage/bench/"

{
  echo "made: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
  echo "build: $build"
  commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null) || commit=unknown
  if [[ $commit != unknown ]] && ! git -C "$repo" diff --quiet HEAD; then
    commit+=" (tracked files differ from it)"
  fi
  echo "commit: $commit"
  (cd "$stage" && find . -type f ! -name MANIFEST | sort | sed 's|^\./|file: |')
} >"$stage/MANIFEST"

mkdir -p "$pack"
rm -f "$archive" "$archive.tmp"
tar -C "$stage" --owner=0 --group=0 --sort=name -cf - . |
  xz -6 -T0 >"$archive.tmp"
mv "$archive.tmp" "$archive"

bytes=$(stat -c %s "$archive")
mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "pack.sh: $archive: $mib MiB ($bytes bytes): runtime, $tests test" \
  "programs, $tool_programs tools programs, $examples examples," \
  "$benches benchmarks"
if ((bytes >= limit_mib * 1048576)); then
  die "the archive is $mib MiB, over the $limit_mib MiB limit"
fi
