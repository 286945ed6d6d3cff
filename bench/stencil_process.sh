#!/usr/bin/env bash
# Issue 33's stencil process rows: the whole process of the large generated
# stencil benchmark, JIT included, timed from outside, against nvcc's
# stencil_baseline --mode run.
#
#   OUT=<folder> [SAMPLES=3] [WARM_SAMPLES=5] [CSV=file] bench/stencil_process.sh
#
# Cold: SAMPLES rounds of mstage_stencil --mode run on an empty cache
# (async-cold) and one nvcc run. A cold process's exit hands the ptxas runs
# still in flight over (docs/compiling.md): they go on after it, so each
# round waits for them (settle below: the cache's KEY.ptxas-run files, which
# each run's shell removes as it ends) before the next process is timed,
# and says how long ("settle,..." rows).
# Warm: one cache filled by a cold run (one more async-cold row) and settled, then one run that adopts
# the handed-over cubins as cache entries (warm-adopt: what a user's second
# run pays once; no target), then WARM_SAMPLES rounds of nvcc-warm and
# async-warm (the default policy), in turned order each round, and sync-warm
# (MSTAGE_JIT=sync). The warm target is the median of the rounds'
# async-warm / nvcc-warm ratios (a pair shares the machine's state); the
# cold one is against the cold rounds' nvcc runs.
# bench/run.sh runs it in its jit part. Run from the folder tools/gpu/pack.sh
# made, on a GPU.
#
# Appends jit-cold,VARIANT,stencil-process,MS rows (and each run's own
# jit-cold,MODE,stencil-run-...,MS line: from its first launch to its end)
# to $CSV (default $OUT/stencil-process.csv); prints the medians, and
# mstage / nvcc against the targets (cold <= 1.2x, warm <= 1.0x) as PASS or
# MISS lines. One more cold run writes $OUT/stencil-cold-trace.json
# (MSTAGE_TRACE=chrome:) and $OUT/stencil-cold-stats.txt (MSTAGE_STATS=1),
# and, settled and adopted, one more warm run $OUT/stencil-warm-trace.json;
# bench/stencil_phases.py prints where each one's time went (phases,...
# lines) and draws $OUT/stencil-cold-phases.svg. Two "diagnostic: dlopen"
# lines time the driver's PTX JIT library and the runtime library's loads.
# Exits 1 if a run failed or a hand-over did not finish in SETTLE_S seconds
# (default 120).
set -uo pipefail
source "$(dirname "$0")/common.sh"
CSV=${CSV:-$OUT/stencil-process.csv}
samples=${SAMPLES:-3}
status=0
rows=$(mktemp /tmp/mstage-stencil-rows-XXXXXX)

timed() { # VARIANT CACHE_DIR [VAR=value...] program args...: one process
  local variant=$1 cache=$2 s e
  shift 2
  echo "== stencil process: $variant" >&2
  s=$(date +%s%N)
  if ! env CUDA_CACHE_DISABLE=1 MSTAGE_CACHE_DIR="$cache" "$@" >>"$CSV" \
    2>>"$OUT/stencil-process-stderr.log"; then
    status=1
    echo "FAILED: $*" >&2
  fi
  e=$(date +%s%N)
  awk -v v="$variant" -v ns=$((e - s)) \
    'BEGIN { printf "jit-cold,%s,stencil-process,%.3f\n", v, ns / 1e6 }' |
    tee -a "$CSV" >>"$rows"
}

# Waits until no ptxas run that a process handed over is in flight in the
# cache folder $1: each run's shell holds KEY.ptxas-run (its process id)
# until it ends (runtime/cuda/CudaTools.cpp); a file whose process is gone
# is a killed run's. Appends a settle row with the ms waited.
settle() {
  local s e f pid live deadline=$(($(date +%s) + ${SETTLE_S:-120}))
  s=$(date +%s%N)
  while :; do
    live=0
    for f in "$1"/*.ptxas-run; do
      [[ -e $f ]] || continue
      pid=$(cat "$f" 2>/dev/null)
      # Being written (no id yet) counts as live, as the runtime counts it;
      # an id counts only while it is a run's shell (the runtime's check).
      if [[ -z $pid ]] || grep -qs mstage-ptxas "/proc/$pid/cmdline"; then live=1; fi
    done
    ((live)) || break
    if (($(date +%s) >= deadline)); then
      echo "FAILED: handed-over ptxas runs in $1 still running after ${SETTLE_S:-120} s" >&2
      status=1
      break
    fi
    sleep 0.02
  done
  e=$(date +%s%N)
  awk -v ns=$((e - s)) \
    'BEGIN { printf "settle,handed-over,stencil-process,%.3f\n", ns / 1e6 }' |
    tee -a "$CSV" >>"$rows"
}

for _ in $(seq "$samples"); do
  d=$(mktemp -d /tmp/mstage-stencil-XXXXXX)
  timed async-cold "$d/cache" "$here/mstage_stencil" --mode run
  settle "$d/cache"
  rm -rf "$d"
  timed nvcc "$d/none" "$here/stencil_baseline" --mode run
done

d=$(mktemp -d /tmp/mstage-stencil-XXXXXX)
timed async-cold "$d/cache" "$here/mstage_stencil" --mode run
settle "$d/cache"
timed warm-adopt "$d/cache" "$here/mstage_stencil" --mode run
# Paired rounds, the order turned every round, so that the machine's drift
# falls on both sides: nvcc's rows here are nvcc-warm, and each round's
# async-warm / nvcc-warm is one ratio (their median is the warm target).
for r in $(seq "${WARM_SAMPLES:-5}"); do
  if ((r % 2)); then
    timed nvcc-warm "$d/none" "$here/stencil_baseline" --mode run
    timed async-warm "$d/cache" "$here/mstage_stencil" --mode run
  else
    timed async-warm "$d/cache" "$here/mstage_stencil" --mode run
    timed nvcc-warm "$d/none" "$here/stencil_baseline" --mode run
  fi
  timed sync-warm "$d/cache" MSTAGE_JIT=sync "$here/mstage_stencil" --mode run
done
rm -rf "$d"

# Where a cold process's time goes, for the next session: one more cold run
# (not in the medians) with a timeline of its launches, cache lookups,
# compiles (optimize, codegen, ptxas), module loads and kernels, and the
# stats table (sources of each kernel's launches, compile ms, generic
# against specialized run time).
d=$(mktemp -d /tmp/mstage-stencil-XXXXXX)
echo "== stencil process: cold, traced" >&2
if ! env CUDA_CACHE_DISABLE=1 MSTAGE_CACHE_DIR="$d/cache" \
  MSTAGE_TRACE="chrome:$OUT/stencil-cold-trace.json" MSTAGE_STATS=1 \
  "$here/mstage_stencil" --mode run >/dev/null \
  2>"$OUT/stencil-cold-stats.txt"; then
  status=1
  echo "FAILED: traced cold run" >&2
fi
settle "$d/cache"
env CUDA_CACHE_DISABLE=1 MSTAGE_CACHE_DIR="$d/cache" \
  "$here/mstage_stencil" --mode run >/dev/null \
  2>>"$OUT/stencil-process-stderr.log" || status=1
echo "== stencil process: warm, traced" >&2
if ! env CUDA_CACHE_DISABLE=1 MSTAGE_CACHE_DIR="$d/cache" \
  MSTAGE_TRACE="chrome:$OUT/stencil-warm-trace.json" \
  "$here/mstage_stencil" --mode run >/dev/null \
  2>>"$OUT/stencil-process-stderr.log"; then
  status=1
  echo "FAILED: traced warm run" >&2
fi
rm -rf "$d"
python3 "$here/stencil_phases.py" --svg "$OUT/stencil-cold-phases.svg" \
  "cold=$OUT/stencil-cold-trace.json" "warm=$OUT/stencil-warm-trace.json" |
  tee -a "$OUT/stencil-process-report.txt"
# Two costs of a process's start that the build machine cannot measure (no
# driver there): opening the driver's PTX JIT, which the runtime does at start
# on the main thread, and loading the runtime library itself.
python3 - "$root/lib/libmstage_rt.so" <<'PY' 2>&1 | tee -a "$OUT/stencil-process-report.txt"
import ctypes, sys, time
for lib in ("libnvidia-ptxjitcompiler.so.1", sys.argv[1]):
    t = time.perf_counter()
    try:
        ctypes.CDLL(lib, mode=2)  # RTLD_NOW, as the runtime opens it
        print("diagnostic: dlopen %s: %.1f ms" % (lib, (time.perf_counter() - t) * 1e3))
    except OSError as e:
        print("diagnostic: dlopen %s failed: %s" % (lib, e))
PY

awk -F, '
  { t[$2] = t[$2] " " $4 }
  $2 == "async-warm" { aw[++naw] = $4 }
  $2 == "nvcc-warm" { nw[++nnw] = $4 }
  function median(list,   a, n, i, j, x) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++)
      for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
        x = a[j]; a[j] = a[j - 1]; a[j - 1] = x
      }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    for (v in t) {
      m[v] = median(t[v])
      printf "stencil process %-10s median %9.1f ms (samples%s)\n", v, m[v], t[v]
    }
    # Cold against nvcc'"'"'s cold-phase runs; warm against nvcc-warm, by the
    # median of the paired rounds'"'"' ratios.
    if (m["nvcc"] > 0 && ("async-cold" in m)) {
      r = m["async-cold"] / m["nvcc"]
      printf "stencil process async-cold / nvcc: %.2fx (target <= 1.2x) %s\n",
             r, r <= 1.2 ? "PASS" : "MISS"
    }
    if (!(m["nvcc-warm"] > 0))
      exit
    for (i = 1; i <= naw && i <= nnw; i++)
      ratios = ratios " " aw[i] / nw[i]
    if (ratios != "") {
      r = median(ratios)
      printf "stencil process async-warm / nvcc-warm, median of %d paired rounds: %.3fx (target <= 1.0x) %s\n",
             (naw < nnw ? naw : nnw), r, r <= 1.0 ? "PASS" : "MISS"
    }
    split("async-warm sync-warm warm-adopt", g, " ")
    for (i = 1; i <= 3; i++)
      if (g[i] in m)
        printf "stencil process %s / nvcc-warm, medians: %.3fx (no target)\n",
               g[i], m[g[i]] / m["nvcc-warm"]
  }' "$rows" | sort | tee -a "$OUT/stencil-process-report.txt"
rm -f "$rows"
exit $status
