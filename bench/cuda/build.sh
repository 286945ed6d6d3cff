#!/usr/bin/env bash
# Builds the hand-written CUDA baselines with nvcc.
#   bench/cuda/build.sh [OUTPUT_DIR]      (default: build/bench)
# Environment: NVCC (default /usr/local/cuda/bin/nvcc, else nvcc on PATH),
#              NVCC_ARCH (default sm_90).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-build/bench}"
nvcc="${NVCC:-}"
if [[ -z "$nvcc" ]]; then
  if [[ -x /usr/local/cuda/bin/nvcc ]]; then
    nvcc=/usr/local/cuda/bin/nvcc
  else
    nvcc=nvcc
  fi
fi
arch="${NVCC_ARCH:-sm_90}"
flags=(-O3 "-arch=$arch" -std=c++17)

mkdir -p "$out"
# issue 16's ports: hotspot, transpose, scan, histogram; issue 18's scan
# and sort against CUB (scan_sort_baseline); issue 34's application ports:
# walk, xs, micro, adam; issue 33's large generated stencil kernels
# (stencil_baseline); issue 36's never-repeating launches (replay_baseline).
for prog in reduce_baselines nbody_baselines async_baselines heat_cold \
  hotspot_baseline transpose_baseline scan_baseline histogram_baseline \
  scan_sort_baseline walk_baseline xs_baseline micro_baseline adam_baseline \
  stencil_baseline replay_baseline; do
  echo "$nvcc ${flags[*]} $here/$prog.cu -o $out/$prog"
  "$nvcc" "${flags[@]}" "$here/$prog.cu" -o "$out/$prog"
done
# tools/gpu/xs-probe.sh's xs_baseline at mstage's 32 registers (nvcc's own
# kernel at 8 blocks of 256 a multiprocessor, where its 34 allow 6).
echo "$nvcc ${flags[*]} -maxrregcount=32 $here/xs_baseline.cu -o $out/xs_baseline_r32"
"$nvcc" "${flags[@]}" -maxrregcount=32 "$here/xs_baseline.cu" -o "$out/xs_baseline_r32"
# issue 18's algorithms (parallel_for, reductions, transform): CUB, Thrust.
echo "$nvcc ${flags[*]} $here/algorithms_baseline.cu -o $out/algorithms_baseline"
"$nvcc" "${flags[@]}" "$here/algorithms_baseline.cu" -o "$out/algorithms_baseline"
# issue 37's tensor-core GEMM against cuBLAS (bench/mstage_wmma_gemm.cpp).
echo "$nvcc ${flags[*]} $here/hgemm_baseline.cu -o $out/hgemm_baseline -lcublas"
"$nvcc" "${flags[@]}" "$here/hgemm_baseline.cu" -o "$out/hgemm_baseline" -lcublas
# NVRTC and the driver API; libcuda is the toolkit's stub at link time.
echo "$nvcc ${flags[*]} $here/nvrtc_latency.cpp -o $out/nvrtc_latency -lnvrtc -lcuda"
"$nvcc" "${flags[@]}" "$here/nvrtc_latency.cpp" -o "$out/nvrtc_latency" \
  -lnvrtc -lcuda
