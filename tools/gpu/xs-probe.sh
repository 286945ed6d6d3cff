#!/usr/bin/env bash
# Usage (on the GPU machine, from the repository root):
#   OUT=/some/folder bash tools/gpu/xs-probe.sh
#
# Why issue 34's xs lookups (bench/mstage_xs against bench/cuda/xs_baseline)
# ran 1.13x nvcc's time although their SASS has nvcc's shape (the same
# LDG.E.CONSTANT loads, search loop and registers; docs/performance.md).
# The hypothesis: until issue 34's fix the runtime raised the dynamic shared
# memory limit of every kernel with a shared_array to all that the device
# allows, when the module was loaded, and the driver then gives such a kernel
# a large shared-memory carveout and so a small L1 cache, which a
# binary-search lookup reads again and again. Three parts, from the pack
# that tools/gpu/pack.sh makes (nothing is built here):
#   1. timing, three rounds, interleaved: xs_baseline as it is, xs_baseline
#      with XS_MAX_DYNAMIC_SHARED=1 (nvcc's kernel with the limit raised as
#      mstage raised it), mstage_xs (this tree: limit raised only where a
#      launch needs it) on ptxas's cubins from a warm disk cache, and
#      mstage_xs with MSTAGE_PTXAS=off and MSTAGE_CACHE=memory (the
#      driver's JIT code of the same PTX);
#   2. ncu --set full on one launch of each kernel (reports kept in OUT),
#      and the figures that tell: the shared memory configuration size, L1
#      and L2 hit rates, achieved occupancy, instructions executed, DRAM
#      bytes, long-scoreboard stalls;
#   3. PASS/FAIL lines:
#      - carveout-cost: nvcc's kernel with the raised limit is >= 1.05x
#        slower. PASS confirms the hypothesis; FAIL says the limit costs
#        nothing here and the cause lies elsewhere (then compare part 2's
#        instructions executed: a difference there points at the code the
#        driver's JIT made from the PTX, not ptxas's; equal instructions and
#        lower hit rates point at the cache or the data layout);
#      - carveout-config: mstage's kernels get the same shared memory
#        configuration as nvcc's plain one;
#      - driver-jit: mstage's unstaged kernel runs as fast (within 2%) from
#        the driver's JIT as from ptxas's cubin; FAIL: the driver's code of
#        the same PTX differs, a cause of its own;
#      - xs-unstaged, xs-staged: the targets, unstaged <= 1.02x, staged
#        <= 1.0x nvcc's median.
# The output ends with "N passed, M failed" (exit status 1 if any failed).
#
# Settings (environment):
#   OUT          where the output goes (default .gpu-pack/out/xs-probe)
#   ARCHIVE      the archive (default .gpu-pack/mstage-gpu.tar.xz)
#   NCU          ncu (default: on PATH, else /usr/local/cuda/bin/ncu)
#   RUN_TIMEOUT  seconds one run may take (default 300)
set -uo pipefail

ARCHIVE=${ARCHIVE:-.gpu-pack/mstage-gpu.tar.xz}
OUT=${OUT:-.gpu-pack/out/xs-probe}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
mkdir -p "$OUT"
log=$OUT/xs-probe.log
: >"$log"

# One verdict line (PASS or FAIL, then the reason); the counts at the end.
passed=0 failed=0
verdict() {
  echo "$*"
  if [[ $1 == PASS ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
summary() {
  echo "$passed passed, $failed failed"
  exit $((failed > 0))
}

work=$(mktemp -d "${TMPDIR:-/tmp}/mstage-xs-probe.XXXXXX") &&
  trap 'rm -rf "$work"' EXIT
tar -xJf "$ARCHIVE" -C "$work" 2>>"$log" || {
  verdict FAIL "unpack: cannot unpack $ARCHIVE (run tools/gpu/pack.sh where mstage is built)"
  summary
}
export LD_LIBRARY_PATH="$work/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MSTAGE_CACHE_DIR=$work/cache
nvcc_prog=$work/bench/xs_baseline
mstage_prog=$work/bench/mstage_xs
for p in "$nvcc_prog" "$mstage_prog"; do
  [[ -x $p ]] || {
    verdict FAIL "pack: no bench/${p##*/} in $ARCHIVE (bench/cuda/build.sh, then pack.sh)"
    summary
  }
done

# ---------------------------------------------------------------------------
# 1. Timing: median_ms (CSV column 6) of each side, three interleaved rounds.
# ---------------------------------------------------------------------------
# Appends "SIDE MEDIAN_MS" for each xs row of one run of the command, with
# the environment assignments "VAR=VALUE ..." (none if empty).
time_run() { # label assignments command...
  local label=$1 assignments
  read -ra assignments <<<"$2"
  shift 2
  if ! env "${assignments[@]}" timeout "$RUN_TIMEOUT" "$@" \
    >"$OUT/run.csv" 2>>"$log"; then
    echo "$label: failed (see $log)" >>"$log"
    return
  fi
  # mstage_xs's rows are its sides (mstage, unstaged), after the label's
  # prefix for runs other than the plain one.
  awk -F, -v l="$label" '$1 == "xs" {
    print (l == "mstage" ? $2 : l ~ /^jit/ ? "jit-" $2 : l), $6 }' \
    "$OUT/run.csv" >>"$OUT/times.txt"
}
: >"$OUT/times.txt"
# mstage's timed runs load ptxas's cubins from this warm disk cache; the
# "jit" runs (MSTAGE_PTXAS=off, no disk cache) the driver's JIT code.
MSTAGE_JIT=sync timeout "$RUN_TIMEOUT" "$mstage_prog" --reps 1 >/dev/null \
  2>>"$log"
for _ in 1 2 3; do
  time_run nvcc "" "$nvcc_prog"
  time_run nvcc-raised XS_MAX_DYNAMIC_SHARED=1 "$nvcc_prog"
  time_run mstage "" "$mstage_prog"
  time_run jit "MSTAGE_PTXAS=off MSTAGE_CACHE=memory" "$mstage_prog"
done
# The median of a side's rounds.
median_of() {
  awk -v s="$1" '$1 == s { print $2 }' "$OUT/times.txt" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
nvcc=$(median_of nvcc)
raised=$(median_of nvcc-raised)
unstaged=$(median_of unstaged)
staged=$(median_of mstage)
jit_unstaged=$(median_of jit-unstaged)
echo "median ms: nvcc ${nvcc:-?}, nvcc with the raised limit ${raised:-?}," \
  "mstage unstaged ${unstaged:-?}, mstage staged ${staged:-?}," \
  "mstage unstaged from the driver's JIT ${jit_unstaged:-?}"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
at_most() { awk -v r="$1" -v t="$2" 'BEGIN { exit !(r <= t) }'; }

# ---------------------------------------------------------------------------
# 2. ncu --set full on one timed launch of each kernel.
# ---------------------------------------------------------------------------
metrics=(gpu__time_duration.sum launch__shared_mem_config_size
  launch__registers_per_thread sm__warps_active.avg.pct_of_peak_sustained_active
  l1tex__t_sector_hit_rate.pct lts__t_sector_hit_rate.pct dram__bytes_read.sum
  smsp__inst_executed.sum
  smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
  smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct)
declare -A config
profile() { # name kernel-regex assignment command...
  local name=$1 kernel=$2 assignment=$3
  shift 3
  if [[ ! -x $NCU ]]; then
    echo "ncu not found at $NCU" >>"$log"
    return
  fi
  env ${assignment:+"$assignment"} MSTAGE_JIT=sync timeout "$RUN_TIMEOUT" "$NCU" --set full \
    --kernel-name-base mangled --kernel-name "regex:$kernel" \
    --launch-skip 2 --launch-count 1 \
    -f -o "$OUT/$name" "$@" --reps 5 >>"$log" 2>&1
  [[ -f $OUT/$name.ncu-rep ]] || {
    echo "$name: no report" >>"$log"
    return
  }
  "$NCU" -i "$OUT/$name.ncu-rep" --page raw --csv >"$OUT/$name.csv" 2>>"$log"
  # One "name: metric value unit" line per metric the report has.
  python3 - "$OUT/$name.csv" "$name" "${metrics[@]}" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) < 3:
    sys.exit(0)
head, units, vals = rows[0], rows[1], rows[2]
for m in sys.argv[3:]:
    if m in head:
        i = head.index(m)
        print(f"{sys.argv[2]}: {m} {vals[i]} {units[i]}")
EOF
}
{
  profile nvcc xsKernel "" "$nvcc_prog"
  profile nvcc-raised xsKernel XS_MAX_DYNAMIC_SHARED=1 "$nvcc_prog"
  profile mstage-unstaged "xsKernel.*Unstaged" "" "$mstage_prog"
  profile mstage-staged "xsKernel.*[_0-9]Staged" "" "$mstage_prog"
} | tee "$OUT/metrics.txt"
for name in nvcc nvcc-raised mstage-unstaged mstage-staged; do
  config[$name]=$(awk -v n="$name:" '$1 == n && $2 == "launch__shared_mem_config_size" { print $3 $4 }' \
    "$OUT/metrics.txt")
done

# ---------------------------------------------------------------------------
# 3. Verdicts.
# ---------------------------------------------------------------------------
if [[ -z $nvcc || -z $raised ]]; then
  verdict FAIL "carveout-cost: xs_baseline gave no time (see $log)"
elif at_most "$(ratio "$raised" "$nvcc")" 1.05; then
  verdict FAIL "carveout-cost: the raised limit costs nvcc's kernel only" \
    "$(ratio "$raised" "$nvcc")x: not the cause, see $OUT/metrics.txt"
else
  verdict PASS "carveout-cost: the raised limit makes nvcc's kernel" \
    "$(ratio "$raised" "$nvcc")x slower: the cause of xs's gap"
fi
if [[ -z ${config[nvcc]} || -z ${config[mstage-unstaged]} ]]; then
  verdict FAIL "carveout-config: ncu gave no shared memory configuration (see $log)"
elif [[ ${config[nvcc]} == "${config[mstage-unstaged]}" &&
  ${config[nvcc]} == "${config[mstage-staged]}" ]]; then
  verdict PASS "carveout-config: mstage's kernels get nvcc's configuration" \
    "${config[nvcc]} (nvcc with the raised limit: ${config[nvcc-raised]:-?})"
else
  verdict FAIL "carveout-config: nvcc ${config[nvcc]}, nvcc with the raised limit" \
    "${config[nvcc-raised]:-?}, mstage unstaged ${config[mstage-unstaged]}," \
    "staged ${config[mstage-staged]:-?}"
fi
if [[ -z $jit_unstaged || -z $unstaged ]]; then
  verdict FAIL "driver-jit: no time (see $log)"
elif at_most "$(ratio "$jit_unstaged" "$unstaged")" 1.02 &&
  at_most "$(ratio "$unstaged" "$jit_unstaged")" 1.02; then
  verdict PASS "driver-jit: the driver's JIT code runs as ptxas's cubin" \
    "($(ratio "$jit_unstaged" "$unstaged")x)"
else
  verdict FAIL "driver-jit: the driver's JIT code runs" \
    "$(ratio "$jit_unstaged" "$unstaged")x ptxas's cubin: the code the" \
    "driver makes from the PTX differs"
fi
for side in unstaged:1.02 staged:1.0; do
  name=${side%%:*} target=${side##*:}
  t=$unstaged
  [[ $name == staged ]] && t=$staged
  if [[ -z $t || -z $nvcc ]]; then
    verdict FAIL "xs-$name: no time (see $log)"
  elif at_most "$(ratio "$t" "$nvcc")" "$target"; then
    verdict PASS "xs-$name: $(ratio "$t" "$nvcc")x nvcc (target <= ${target}x)"
  else
    verdict FAIL "xs-$name: $(ratio "$t" "$nvcc")x nvcc (target <= ${target}x)"
  fi
done
summary
