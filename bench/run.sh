#!/usr/bin/env bash
# Runs the benchmarks on a GPU machine, from the folder that
# tools/gpu/pack.sh made (bench/ beside lib/): the nvcc and CUB baselines and
# mstage_bench, the asynchronous-API benchmarks (async_baselines against
# mstage_async), issue 16's ports (hotspot, transpose, scan, histogram:
# *_baseline against mstage_*) and issue 18's scan and sort
# (scan_sort_baseline, CUB, against mstage_scan_sort) and issue 34's
# application ports (walk, xs, micro, adam: *_baseline against mstage_*), issue
# 37's pipelined copy (mstage_async_copy: memcpy_async against sync copies),
# and the
# launch-bound loops again with issue 36's MSTAGE_GRAPHS=auto ("+graphs"), in
# one run, then prints the table of ratios.
#
#   OUT=<folder> [BENCH_ONLY=kernels|jit|order|replay] bench/run.sh [reps]
#
# Writes $OUT/bench.csv, $OUT/jit.csv, $OUT/cold.csv (cold starts), $OUT/checksums.csv (the heat
# equation's final fields and issue 16's and 34's ports' results, nvcc and mstage),
# $OUT/bench-report.txt, $OUT/heat.svg (heat_plot.py) and, with
# matplotlib, $OUT/reduce.png, nbody.png, jit.png, async.png and ports.png.
set -uo pipefail
source "$(dirname "$0")/common.sh"
reps=${1:-100}
csv=$OUT/bench.csv
status=0

run() { # label command...
  echo "== $1" >&2
  shift
  local out
  if ! out=$("$@" 2>"$OUT/bench-stderr.tmp"); then
    status=1
    echo "FAILED: $*" >&2
    cat "$OUT/bench-stderr.tmp" >&2
  fi
  cat "$OUT/bench-stderr.tmp" >>"$OUT/bench-stderr.log"
  printf '%s\n' "$out" | grep -v '^benchmark,' >>"$csv"
}

echo "benchmark,variant,n,block,grid,median_ms,min_ms,gbps" >"$csv"
: >"$OUT/bench-stderr.log"
# BENCH_ONLY=kernels runs the kernel and launch benchmarks, BENCH_ONLY=jit
# the JIT, cold-start and stencil ones (each half fits one 10-minute call on
# the GPU machines; report.py takes both halves' CSVs), BENCH_ONLY=order
# only the costs of MSTAGE_CHECK=streams and MSTAGE_STREAM_ORDER=auto (a
# part of kernels), BENCH_ONLY=replay only issue 36's figures (replay_costs,
# about two minutes); default: all.
part=${BENCH_ONLY:-all}
# Issue 34: what MSTAGE_CHECK=streams and MSTAGE_STREAM_ORDER=auto cost
# (variants suffixed "+streams" and "+order") against the same run without.
# A report from the checker fails the run: the benchmarks order their
# streams.
with_setting() { # suffix setting command...
  local suffix=$1 setting=$2 out
  shift 2
  out=$(env "$setting" "$@") || return 1
  if grep -q "^mstage: stream check:" "$OUT/bench-stderr.tmp"; then
    echo "stream check reported a hazard in $*" >&2
    return 1
  fi
  printf '%s\n' "$out" | sed -E "s/^([^,]*),([^,]*),/\1,\2$suffix,/"
}
# Tiny launches on one stream, and two streams in turn (stream-order:
# mstage-events ordered by the program, mstage-auto by auto), each plain,
# checked and ordered automatically, three times alternating.
# BENCH_ONLY=order runs only these (well under a minute).
stream_costs() {
  for _ in 1 2 3; do
    for only in tiny order; do
      run "mstage async $only" "$here/mstage_async" --only "$only"
      run "mstage async $only, streams checked" with_setting +streams \
        MSTAGE_CHECK=streams "$here/mstage_async" --only "$only"
      run "mstage async $only, ordered automatically" with_setting +order \
        MSTAGE_STREAM_ORDER=auto "$here/mstage_async" --only "$only"
    done
  done
}
# Issue 36's automatic graph replay: heat (nvcc <<<>>>, nvcc with a
# hand-written graph, that graph without the boundary kernel (the interior
# kernel's own cost a step) and with a step's kernels on parallel branches,
# mstage plain, "+graphs" and "+graphs+chain": its graphs as chains,
# MSTAGE_GRAPH_BRANCHES=0), tiny launches that never repeat (nvcc,
# mstage plain and "+graphs": replay's matching cost) and the
# heat loop's host time to enqueue a step; and each mstage variant with
# MSTAGE_PDL=0 ("+nopdl": what PDL, on by default for grids of one wave or
# less, gains or costs); five rounds, interleaved, and
# report.py takes the middle run of each. The first mstage run of each
# program also fills the JIT's disk cache.
replay_costs() {
  for _ in 1 2 3 4 5; do
    run "async baselines heat" "$here/async_baselines" --only heat
    run "async baselines heat floor" "$here/async_baselines" --only heat-floor
    run "mstage async heat" env MSTAGE_GRAPHS=off "$here/mstage_async" --only heat
    run "mstage async heat, graphs auto" with_setting +graphs \
      MSTAGE_GRAPHS=auto "$here/mstage_async" --only heat
    run "mstage async heat, graphs auto, chained" with_setting +graphs+chain \
      MSTAGE_GRAPH_BRANCHES=0 env MSTAGE_GRAPHS=auto "$here/mstage_async" \
      --only heat
    run "mstage async heat, no pdl" with_setting +nopdl MSTAGE_PDL=0 \
      env MSTAGE_GRAPHS=off "$here/mstage_async" --only heat
    run "mstage async heat, graphs auto, no pdl" with_setting +graphs+nopdl \
      MSTAGE_PDL=0 env MSTAGE_GRAPHS=auto "$here/mstage_async" --only heat
    run "replay baseline" "$here/replay_baseline"
    run "mstage replay" env MSTAGE_GRAPHS=off "$here/mstage_replay"
    run "mstage replay, graphs auto" with_setting +graphs MSTAGE_GRAPHS=auto \
      "$here/mstage_replay"
    run "mstage replay, no pdl" with_setting +nopdl MSTAGE_PDL=0 \
      env MSTAGE_GRAPHS=off "$here/mstage_replay"
  done
}
if [[ $part == order ]]; then
  stream_costs
elif [[ $part == replay ]]; then
  replay_costs
elif [[ $part != jit ]]; then
run "reduce baselines" "$here/reduce_baselines" --reps "$reps"
grid=$(awk -F, '$1 == "reduce" && $2 == "nvcc-template" { print $5; exit }' "$csv")
run "mstage reduce" "$here/mstage_bench" reduce --reps "$reps" --grid "${grid:-1056}"
run "nbody baselines" "$here/nbody_baselines" --reps 50
run "mstage nbody" "$here/mstage_bench" nbody --reps 50
run "mstage saxpy" "$here/mstage_bench" saxpy --reps "$reps"
# Issue 16's ports: each nvcc baseline, then its mstage port (staged and
# unstaged kernels, sides "mstage" and "unstaged"); their
# checksum lines go to checksums.csv with the heat equation's.
for port in hotspot transpose scan histogram; do
  run "$port baseline" "$here/${port}_baseline" --reps "$reps"
  run "mstage $port" "$here/mstage_$port" --reps "$reps"
done
# Issue 34's application ports: a random walk with atomics, cross-section
# lookups, microphysics, an Adam step; nvcc, then mstage staged and unstaged.
for app in walk xs micro adam; do
  run "$app baseline" "$here/${app}_baseline" --reps "$reps"
  run "mstage $app" "$here/mstage_$app" --reps "$reps"
done
# Issue 37's pipelined copy to shared memory: cg::memcpy_async against
# synchronous copies, both mstage.
run "mstage async copy" "$here/mstage_async_copy" --reps "$reps"
# Issue 37's co_await on launches: the await thread's resume latency against
# cuEventSynchronize ("# resume latency" lines in bench-stderr.log).
run "mstage coawait" "$here/mstage_coawait"
# Issue 37's tensor-core GEMM at 4096^3: cuBLAS, then mstage::wmma, then
# mstage::wgmma (sm_90 only; its four tilings, rows wgmma_gemm,mstage*).
run "hgemm baseline" "$here/hgemm_baseline" --reps 20
run "mstage wmma gemm" "$here/mstage_wmma_gemm" --reps 20
run "mstage wgmma gemm" "$here/mstage_wgmma_gemm" --reps 20
# Issue 18's algorithms (parallel_for, reductions, transform).
run "algorithms baseline" "$here/algorithms_baseline" --reps "$reps"
run "mstage algorithms" "$here/mstage_algorithms" --reps "$reps"
# Launch-bound figures swing by +-20% between two runs on these machines
# (measured: heat 256^2 0.85x to 1.25x within minutes): each side runs three
# times, alternating, and report.py takes the middle of the three.
for _ in 1 2 3; do
  for only in tiny heat transfer; do
    run "async baselines $only" "$here/async_baselines" --only "$only"
    run "mstage async $only" "$here/mstage_async" --only "$only"
  done
done
run "async baselines alloc" "$here/async_baselines" --only alloc
run "mstage async alloc" "$here/mstage_async" --only alloc
for only in heat; do
  run "mstage async $only, streams checked" with_setting +streams \
    MSTAGE_CHECK=streams "$here/mstage_async" --only "$only"
  run "mstage async $only, ordered automatically" with_setting +order \
    MSTAGE_STREAM_ORDER=auto "$here/mstage_async" --only "$only"
done
# Issue 36: automatic graph replay (MSTAGE_GRAPHS=auto, docs/graphs.md) on
# the launch-bound loops, variants suffixed "+graphs"; three times, as above.
for _ in 1 2 3; do
  for only in tiny heat; do
    run "mstage async $only, graphs auto" with_setting +graphs \
      MSTAGE_GRAPHS=auto "$here/mstage_async" --only "$only"
  done
done
stream_costs
# Issue 18's scan and sort: CUB, then mstage's algorithms.
run "scan/sort baseline (CUB)" "$here/scan_sort_baseline" --reps "$reps"
run "mstage scan/sort" "$here/mstage_scan_sort" --reps "$reps"
fi
echo "benchmark,variant,what,value" >"$OUT/cold.csv"
: >"$OUT/jit.csv"
if [[ $part != kernels && $part != order && $part != replay ]]; then
# JIT latency, cold: no driver cache and an empty mstage cache directory.
jitdir=$(mktemp -d /tmp/mstage-jit-XXXXXX)
echo "== jit latency" >&2
if ! CUDA_CACHE_DISABLE=1 MSTAGE_CACHE_DIR="$jitdir/cache" \
  "$here/jit_latency" >"$OUT/jit.csv" 2>>"$OUT/bench-stderr.log"; then
  status=1
  echo "FAILED: jit_latency" >&2
fi
rm -rf "$jitdir"
# Cold starts, each in a fresh process on an empty cache: the default policy
# (MSTAGE_JIT=auto) against MSTAGE_JIT=async, sync and nvcc.
cold() { # [VAR=value...] program args...
  local d
  d=$(mktemp -d /tmp/mstage-cold-XXXXXX)
  echo "== cold: $*" >&2
  if ! env CUDA_CACHE_DISABLE=1 MSTAGE_CACHE_DIR="$d/cache" "$@" \
    >>"$OUT/cold.csv" 2>>"$OUT/bench-stderr.log"; then
    status=1
    echo "FAILED: $*" >&2
  fi
  rm -rf "$d"
}
# A cold start is one sample of a noisy machine: five fresh processes each,
# report.py takes the median and prints every sample. The two sides of a
# target (heat: mstage and nvcc; the single launch: auto and sync) run in
# turned order each round, and report.py takes the median of the rounds'
# ratios: a process's module load moves by 30 ms from one to the next.
for round in 1 2 3 4 5; do
  cold "$here/jit_cold" listing4
  cold MSTAGE_JIT=sync "$here/jit_cold" listing4
  cold MSTAGE_JIT_TIERS=off "$here/jit_cold" listing4
  # Kernel time of the generic code, tier 0 and tier 1 (issue 33).
  cold "$here/jit_cold" tiers 16777216
  cold MSTAGE_JIT=sync "$here/jit_cold" heat 1024 100
  # A single-launch application (one long staged kernel, launched once):
  # its process time by default against waiting for the JIT.
  cold MSTAGE_JIT=async "$here/jit_cold" single 33554432
  if ((round % 2)); then
    cold "$here/jit_cold" heat 1024 100
    cold "$here/heat_cold" 1024 100
    cold "$here/jit_cold" single 33554432
    cold MSTAGE_JIT=sync "$here/jit_cold" single 33554432
  else
    cold "$here/heat_cold" 1024 100
    cold "$here/jit_cold" heat 1024 100
    cold MSTAGE_JIT=sync "$here/jit_cold" single 33554432
    cold "$here/jit_cold" single 33554432
  fi
done
# Issue 33's large generated stencil kernels (mstage_stencil, nvcc's
# stencil_baseline): the process time, JIT included, on a cold cache and on
# the warm cache the cold run left, against nvcc's (bench/stencil_process.sh,
# 3 rounds); the cold JIT of all 8 specializations (prepare() then
# jit_wait(): side by side in the background pool, and one at a time with
# one worker); each kernel's time, staged, unstaged and nvcc's.
echo "== stencil process" >&2
if ! OUT="$OUT" CSV="$OUT/cold.csv" SAMPLES=3 "$here/stencil_process.sh" \
  >>"$OUT/bench-stderr.log"; then
  status=1
  echo "FAILED: stencil_process.sh" >&2
fi
for _ in 1 2 3; do
  cold "$here/mstage_stencil" --mode jit
  cold MSTAGE_JIT=sync "$here/mstage_stencil" --mode jit
  cold MSTAGE_JIT=sync MSTAGE_JIT_THREADS=1 "$here/mstage_stencil" --mode jit
done
run "stencil baseline" "$here/stencil_baseline" --mode kernels --reps "$reps"
# ptxas -O3 against --Ofast-compile=min (MSTAGE_PTXAS_FAST_COMPILE): the
# first run fills a disk cache with ptxas's cubins (a process's first
# compile loads the driver JIT's code), the second times them; its rows are
# mstage-kK and mstage-ofc-min-kK.
for ofc in off min; do
  d=$(mktemp -d /tmp/mstage-stencil-XXXXXX)
  MSTAGE_PTXAS_FAST_COMPILE=$ofc MSTAGE_CACHE_DIR="$d/cache" \
    "$here/mstage_stencil" --mode kernels --reps 1 >/dev/null 2>&1
  run "mstage stencil (ptxas fast compile $ofc)" env \
    MSTAGE_PTXAS_FAST_COMPILE=$ofc MSTAGE_CACHE_DIR="$d/cache" \
    "$here/mstage_stencil" --mode kernels --reps "$reps"
  rm -rf "$d"
done
cold MSTAGE_JIT=sync "$here/jit_cold" threads 1
cold MSTAGE_JIT=sync "$here/jit_cold" threads 16
cold "$here/jit_cold" procs 8
echo "== nvrtc latency" >&2
if ! CUDA_CACHE_DISABLE=1 "$here/nvrtc_latency" >>"$OUT/jit.csv" \
  2>>"$OUT/bench-stderr.log"; then
  status=1
  echo "FAILED: nvrtc_latency" >&2
fi
fi
rm -f "$OUT/bench-stderr.tmp"
grep '^checksum,' "$OUT/bench-stderr.log" >"$OUT/checksums.csv"

python3 "$here/report.py" "$csv" "$OUT/jit.csv" "$OUT/checksums.csv" "$OUT/cold.csv" |
  tee "$OUT/bench-report.txt"
# Issue 36's plot of heat (an SVG; no matplotlib needed).
if grep -q '^heat,' "$csv"; then
  python3 "$here/heat_plot.py" "$csv" "$OUT/heat.svg" || status=1
fi
if python3 -c "import matplotlib" 2>/dev/null; then
  python3 "$here/plot.py" "$csv" "$OUT/jit.csv" "$OUT" "$OUT/cold.csv" || status=1
else
  echo "bench/run.sh: no matplotlib: no plots" >&2
fi
exit "$status"
