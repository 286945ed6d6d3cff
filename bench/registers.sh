#!/usr/bin/env bash
# Registers of issue 34's application ports (walk, xs, micro, adam), mstage
# against nvcc, without a GPU: ptxas -v on the PTX of each side (sm_90
# unless NVCC_ARCH says).
#   bench/registers.sh [BUILD]        (default: build)
# mstage's PTX is the JIT's, from PTX-only mode at the benchmark's sizes
# (staged and unstaged specializations), and the generic (ahead-of-time)
# code that a cold first launch runs, from mstage-ptx --aot-ptx; nvcc's is
# nvcc -O3 -ptx of bench/cuda/*_baseline.cu. Prints one line per kernel:
#   APP nvcc N mstage-unstaged N mstage-staged N generic-unstaged N generic-staged N
# and ends with PASS when each unstaged JIT kernel is within 10% of nvcc's
# registers, FAIL (exit 1) when one is not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
arch=${NVCC_ARCH:-sm_90}
tmp=$(mktemp -d /tmp/mstage-registers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The registers ptxas reports for kernel $2 (a pattern) of PTX file $1.
regs() {
  "$cuda/bin/ptxas" -v "-arch=$arch" "$1" -o /dev/null 2>&1 |
    awk -v k="$2" '/Compiling entry function/ { hit = ($0 ~ k) }
      hit && /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++)
        if ($i == "Used") { print $(i + 1); exit } }'
}

status=0
for app in walk xs micro adam; do
  env MSTAGE_BACKEND=ptx "MSTAGE_ARCH=$arch" MSTAGE_CACHE=memory \
    MSTAGE_JIT=sync MSTAGE_DUMP=ptx "MSTAGE_DUMP_DIR=$tmp/$app" \
    "$build/bench/mstage_$app" >/dev/null 2>&1
  "$cuda/bin/nvcc" -O3 "-arch=$arch" -std=c++17 -ptx \
    "$here/cuda/${app}_baseline.cu" -o "$tmp/$app-nvcc.ptx"
  # The ahead-of-time PTX is made once, for the lowest target (issue 33);
  # ptxas assembles it for $arch below, as it makes that cubin.
  "$build/bin/mstage-ptx" "$build/bench/mstage_$app" --aot-ptx \
    >"$tmp/$app-aot.ptx"
  nv=$(regs "$tmp/$app-nvcc.ptx" Kernel)
  un=$(regs "$(ls "$tmp/$app"/*KernelI8UnstagedE*.ptx)" Kernel)
  st=$(regs "$(ls "$tmp/$app"/*KernelI6StagedE*.ptx)" Kernel)
  gu=$(regs "$tmp/$app-aot.ptx" KernelI8UnstagedE)
  gs=$(regs "$tmp/$app-aot.ptx" KernelI6StagedE)
  echo "$app nvcc $nv mstage-unstaged $un mstage-staged $st" \
    "generic-unstaged $gu generic-staged $gs"
  if ((un * 10 > nv * 11)); then
    echo "FAIL $app: unstaged $un registers, over 110% of nvcc's $nv"
    status=1
  fi
done
((status == 0)) && echo "PASS registers: each unstaged kernel within 10% of nvcc's"
exit "$status"
