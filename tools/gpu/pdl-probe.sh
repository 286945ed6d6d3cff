#!/usr/bin/env bash
# Issue 36's Programmatic Dependent Launch probe (MSTAGE_PDL=1), in one GPU
# call of at most 90 s, from a pack holding lib/, bench/{async_baselines,
# replay_baseline,mstage_async,mstage_replay} and test/gpu/{programmatic_launch,
# graph_replay} ($PACK; small files to $OUT):
#  1. correctness: programmatic_launch (a 32-kernel mirrored chain over 4M
#     words and a ping-pong, PDL off / on / on with MSTAGE_GRAPHS=auto, each
#     against the CPU) and graph_replay (heat, replay and PDL on and off);
#     memcheck and racecheck of the chain and the ping-pong with PDL on;
#  2. cold, traced: how often a kernel's tier-1 code came mid-replay and was
#     taken by the held period, and how many holds other code ended;
#  3. heat 256^2..8192^2, us a step: nvcc <<<>>>, mstage off, auto, off+PDL,
#     auto+PDL (rounds interleaved while time is left; medians), with the
#     heat checksums of every variant (bit-identical fields);
#  4. tiny launches that never repeat, 5 rounds: nvcc, off, auto, off+PDL,
#     auto+PDL (medians and each round, for the spread).
# Ends with PASS/FAIL lines for the correctness part and "END pdl-probe".
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
probe_unpack "$PACK" pdl
B=$work/bench T=$work/test/gpu
for p in $B/async_baselines $B/replay_baseline $B/mstage_async $B/mstage_replay \
  $T/programmatic_launch $T/graph_replay; do
  [[ -x $p ]] || { echo "FAIL no $p in the pack"; exit 1; }
done
t0=$SECONDS
left() { (( SECONDS - t0 < $1 )); }
log=$work/log.txt
: >"$log"

# 1. Correctness.
timeout 40 "$T/programmatic_launch" 2>&1 | grep -E "^(PASS|FAIL|SKIP)" | cut -c1-160
MSTAGE_SUITE_QUICK=1 timeout 30 "$T/graph_replay" 2>&1 | grep -E "^(PASS|FAIL|SKIP)" | cut -c1-160
echo "suite done at $((SECONDS - t0)) s"

rows=$work/rows.txt sums=$work/sums.txt
: >"$rows"
: >"$sums"
# run LABEL CMD...: appends "LABEL,<csv row>" per row, "LABEL,<checksum line>".
run() {
  local label=$1
  shift
  if ! timeout 40 "$@" >"$work/out.csv" 2>"$work/err.txt"; then
    echo "FAIL $label: $(grep -v '^#' "$work/err.txt" | tail -2 | tr '\n' ' ' | cut -c1-200)"
    cat "$work/err.txt" >>"$log"
    return
  fi
  grep -E '^(heat|tiny-distinct),' "$work/out.csv" | sed "s/^/$label,/" >>"$rows"
  grep -E '^checksum,heat' "$work/err.txt" | sed "s/^/$label,/" >>"$sums"
}
# Cold, the heat loop's kernels go generic -> tier 0 -> tier 1 while
# replayed: count the new codes taken mid-replay and the holds that other
# code ended (heat-host, 256^2 and 1024^2, a check every 100 steps).
for pdl in 0 1; do
  MSTAGE_TRACE=1 MSTAGE_PDL=$pdl MSTAGE_GRAPHS=auto timeout 20 "$B/mstage_replay" --only heat-host --reps 1 --steps 400 >/dev/null 2>"$work/warm.txt"
  echo "cold heat-host pdl=$pdl rc=$?: $(grep -c 'new code of' "$work/warm.txt") new codes taken mid-replay, $(grep -c 'ended: other staged values' "$work/warm.txt") holds ended by other staged values, $(grep -c 'graph of .* made' "$work/warm.txt") graphs made, $(grep -c 'cache tier0:' "$work/warm.txt") tier-0 launches"
  grep -v '^mstage: trace:' "$work/warm.txt" | tail -3 >>"$log"
done
# Warm the JIT's disk cache with both codes (not timed).
for pdl in 0 1; do
  MSTAGE_PDL=$pdl MSTAGE_GRAPHS=auto timeout 20 "$B/mstage_replay" --reps 1 --launches 100 --steps 200 >/dev/null 2>>"$log"
done
heat_round() {
  run nvcc "$B/async_baselines" --only heat --heat-reps 2
  run off env MSTAGE_GRAPHS=off MSTAGE_PDL=0 "$B/mstage_async" --only heat --heat-reps 2
  run auto env MSTAGE_GRAPHS=auto MSTAGE_PDL=0 "$B/mstage_async" --only heat --heat-reps 2
  run off+pdl env MSTAGE_GRAPHS=off MSTAGE_PDL=1 "$B/mstage_async" --only heat --heat-reps 2
  run auto+pdl env MSTAGE_GRAPHS=auto MSTAGE_PDL=1 "$B/mstage_async" --only heat --heat-reps 2
}
heat_round
echo "heat round 1 done at $((SECONDS - t0)) s"
for round in 1 2 3 4 5; do
  run nvcc "$B/replay_baseline" --launches 10000
  for v in off auto; do
    run $v env MSTAGE_GRAPHS=$v MSTAGE_PDL=0 "$B/mstage_replay" --only distinct --launches 10000
    run $v+pdl env MSTAGE_GRAPHS=$v MSTAGE_PDL=1 "$B/mstage_replay" --only distinct --launches 10000
  done
done
echo "never-repeat done at $((SECONDS - t0)) s"
# Sanitizers on single children (PDL on), while time is left.
if command -v compute-sanitizer >/dev/null || [[ -x /usr/local/cuda/bin/compute-sanitizer ]]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    for part in chain pingpong; do
      left 70 || { echo "SKIP $tool $part: out of time"; continue; }
      out=$(MSTAGE_PDL=1 MSTAGE_JIT=sync MSTAGE_SUITE_QUICK=1 timeout 25 "$cs" --tool $tool --error-exitcode 9 \
        "$T/programmatic_launch" --child $part 2>&1)
      rc=$?
      summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" <<<"$out" | head -1)
      if [[ $rc == 0 ]] && grep -q CHECKSUM <<<"$out"; then
        echo "PASS $tool $part (PDL on): $summary $(grep -o 'CHECKSUM [0-9a-f]*' <<<"$out")"
      else
        echo "FAIL $tool $part (PDL on): rc $rc: $(tail -3 <<<"$out" | tr '\n' ' ' | cut -c1-200)"
      fi
    done
  done
fi
left 78 && heat_round && echo "heat round 2 done at $((SECONDS - t0)) s"
echo "all done at $((SECONDS - t0)) s"
# Bit-identical heat fields: one checksum per size over every variant.
python3 - "$sums" <<'PY'
import sys
from collections import defaultdict
s = defaultdict(set)
for line in open(sys.argv[1]):
    f = line.strip().split(",")
    s[f[4]].add(f[6])
for n in sorted(s, key=int):
    print(f"{'PASS' if len(s[n]) == 1 else 'FAIL'} heat {n}: {len(s[n])} distinct field checksum(s) over every variant")
PY
python3 - "$rows" <<'PY'
import sys, statistics
from collections import defaultdict
v = defaultdict(list)
for line in open(sys.argv[1]):
    f = line.strip().split(",")
    label, bench, variant, n, med = f[0], f[1], f[2], int(f[3]), float(f[6])
    key = variant if label == "nvcc" else f"m-{label}"
    v[(bench, n, key)].append(med * 1000.0)
med = {k: statistics.median(x) for k, x in v.items()}
for k in sorted(med):
    print(f"{k[0]} {k[1]} {k[2]}: {med[k]:.3f} us ({' '.join(f'{x:.3f}' for x in v[k])})")
r = lambda a, b: f"{a / b:.3f}" if a and b else "-"
for n in sorted({k[1] for k in med if k[0] == "heat"}):
    g = lambda key: med.get(("heat", n, key))
    print(f"heat {n} / nvcc: off {r(g('m-off'), g('cuda'))} off+pdl {r(g('m-off+pdl'), g('cuda'))} "
          f"auto {r(g('m-auto'), g('cuda'))} auto+pdl {r(g('m-auto+pdl'), g('cuda'))} "
          f"nvcc-graph {r(g('cuda-graph'), g('cuda'))}")
g = lambda key: med.get(("tiny-distinct", 256, key))
print(f"distinct / nvcc: off {r(g('m-off'), g('cuda'))} off+pdl {r(g('m-off+pdl'), g('cuda'))} "
      f"auto {r(g('m-auto'), g('cuda'))} auto+pdl {r(g('m-auto+pdl'), g('cuda'))}; "
      f"auto/off {r(g('m-auto'), g('m-off'))} pdl/off {r(g('m-off+pdl'), g('m-off'))}")
PY
cp "$rows" "$OUT/rows.csv" 2>/dev/null
cp "$sums" "$OUT/sums.csv" 2>/dev/null
tail -c 3000 "$log" >"$OUT/log-tail.txt" 2>/dev/null
echo "END pdl-probe"
