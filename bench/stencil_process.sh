#!/usr/bin/env bash
# Issue 33's stencil process rows: the whole process of the large generated
# stencil benchmark, JIT included, timed from outside: mstage_stencil --mode
# run on an empty cache (async-cold), again on the cache it left
# (async-warm), the same warm run with MSTAGE_JIT=sync (sync-warm: every
# first launch loads its cached specialization before it runs, which the
# default now does too, so the two should agree), and nvcc's
# stencil_baseline --mode run; SAMPLES rounds (default 3), alternating.
# bench/run.sh runs it in its jit part. Run from the folder
# tools/gpu/pack.sh made, on a GPU.
#
#   OUT=<folder> [SAMPLES=3] [CSV=file] bench/stencil_process.sh
#
# Appends jit-cold,VARIANT,stencil-process,MS rows (and each run's own
# jit-cold,MODE,stencil-run-...,MS line: from its first launch to its end)
# to $CSV (default $OUT/stencil-process.csv); prints the medians, and
# mstage / nvcc against the targets (cold <= 1.2x, warm <= 1.0x) as PASS or
# MISS lines. The warm runs follow their cold run at once: a first launch
# whose specialization the cold process's exit handed to ptxas waits for
# that run (docs/compiling.md), as a user's next run would. One more cold
# run writes $OUT/stencil-cold-trace.json (MSTAGE_TRACE=chrome:) and
# $OUT/stencil-cold-stats.txt (MSTAGE_STATS=1), one more warm run
# $OUT/stencil-warm-trace.json; bench/stencil_phases.py prints where each
# one's time went (phases,... lines) and draws
# $OUT/stencil-cold-phases.svg. Two "diagnostic: dlopen" lines time the
# driver's PTX JIT library and the runtime library's loads.
# Exits 1 if a run failed.
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

for _ in $(seq "$samples"); do
  d=$(mktemp -d /tmp/mstage-stencil-XXXXXX)
  timed async-cold "$d/cache" "$here/mstage_stencil" --mode run
  timed async-warm "$d/cache" "$here/mstage_stencil" --mode run
  timed sync-warm "$d/cache" MSTAGE_JIT=sync "$here/mstage_stencil" --mode run
  rm -rf "$d"
  timed nvcc "$d/none" "$here/stencil_baseline" --mode run
done

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
    if (!("nvcc" in m) || m["nvcc"] <= 0) exit
    split("async-cold 1.2 async-warm 1.0 sync-warm -", g, " ")
    for (i = 1; i < 6; i += 2) {
      v = g[i]
      if (!(v in m)) continue
      r = m[v] / m["nvcc"]
      if (g[i + 1] == "-")
        printf "stencil process %s / nvcc: %.2fx (no target)\n", v, r
      else
        printf "stencil process %s / nvcc: %.2fx (target <= %sx) %s\n", v, r,
               g[i + 1], r <= g[i + 1] + 0 ? "PASS" : "MISS"
    }
  }' "$rows" | sort | tee -a "$OUT/stencil-process-report.txt"
rm -f "$rows"
exit $status
