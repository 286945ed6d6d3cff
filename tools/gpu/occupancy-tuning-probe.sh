#!/usr/bin/env bash
# Usage (GPU machine): PACK=/abs/archive.tar.xz [OUT=/dir] bash occupancy-tuning-probe.sh
#
# Issue 34's xs lookups and Adam step against nvcc: the JIT's occupancy
# tuning (MSTAGE_OCCUPANCY, runtime/launch/OccupancyTuning.h) and the
# register cuts (transforms/ParameterRemat.h, transforms/LibdeviceAsm.h),
# about 70 s on an H100. The archive holds lib/libmstage_rt.so,
# bench/mstage_xs, bench/mstage_adam (bench/mstage_micro, optional) and
# nvcc's bench/xs_baseline and bench/adam_baseline (bench/cuda/build.sh).
# One traced run of each mstage program first fills the disk cache
# (ptxas's cubins) and prints the tuning's choices and the registers that
# MSTAGE_STATS reports; then three interleaved rounds of: nvcc; mstage as
# it comes (auto); mstage with MSTAGE_OCCUPANCY=off (main's launches); in
# the first, xs at MSTAGE_OCCUPANCY=6 too (nvcc's occupancy, stated); Adam
# also without the register cuts (adam-old, MSTAGE_LLVM_ARGS); micro with
# and without the cuts, time allowing. Prints "ROUND LABEL SIDE MEDIAN MIN"
# rows, the medians' ratios, and PASS/FAIL lines:
#   - xs-unstaged, xs-staged: auto <= 1.02x and <= 1.0x nvcc (the targets);
#   - adam-auto: the tuning costs Adam nothing (auto <= 1.01x off);
#   - adam-regs: the register cuts cost Adam no time (auto <= 1.01x old).
set -uo pipefail
: "${PACK:?the archive}"
start=$SECONDS
. "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
probe_unpack "$PACK" occ38
b=$work/bench
reps=${REPS:-30}

old_args="-mstage-remat-parameters=false -mstage-rcp-intrinsic=false"
# Fills the cache; the tuning's trace lines, kernel names shortened; the
# registers of the specializations.
for app in xs adam; do
  env MSTAGE_TRACE=1 MSTAGE_STATS=1 timeout 40 "$b/mstage_$app" --reps 10 2>&1 >/dev/null |
    grep -E 'trace: occupancy|%.*Kernel<' |
    sed -e "s/kernel '\([^@']*\)@[^']*'/'\1'/" -e 's/@[^ ]* key.*//' | cut -c1-200
done
env MSTAGE_STATS=1 MSTAGE_LLVM_ARGS="$old_args" timeout 40 "$b/mstage_adam" --reps 10 2>&1 >/dev/null |
  grep '%.*Kernel<' | sed -e 's/^/old: /' -e 's/@[^ ]* key.*//' | cut -c1-200
echo "warmed ($((SECONDS - start)) s)"

rows=$work/rows
: >"$rows"
# run ROUND LABEL ENV... PROGRAM: one row per side printed.
run() {
  local round=$1 label=$2
  shift 2
  ((SECONDS - start > 80)) && { echo "$round $label: skipped at $((SECONDS - start)) s"; return; }
  env "$@" --reps "$reps" 2>"$work/err" | awk -F, -v r="$round" -v l="$label" \
    'NR > 1 && NF >= 7 { print r, l, $2, $6, $7 }' | tee -a "$rows"
  [[ ${PIPESTATUS[0]} == 0 ]] || echo "$round $label: FAILED: $(tail -2 "$work/err" | tr '\n' ' ' | cut -c1-200)"
}
for r in 1 2 3; do
  run "$r" xs-nvcc "$b/xs_baseline"
  run "$r" xs-auto "$b/mstage_xs"
  run "$r" xs-off MSTAGE_OCCUPANCY=off "$b/mstage_xs"
  ((r == 1)) && run "$r" xs-6 MSTAGE_OCCUPANCY=6 "$b/mstage_xs"
  run "$r" adam-nvcc "$b/adam_baseline"
  run "$r" adam-auto "$b/mstage_adam"
  run "$r" adam-off MSTAGE_OCCUPANCY=off "$b/mstage_adam"
  run "$r" adam-old MSTAGE_LLVM_ARGS="$old_args" "$b/mstage_adam"
done
# micro: 42 registers unstaged with the cuts, 40 without (nvcc 43): time
# allowing, one round of each.
[[ -x $b/mstage_micro ]] && for r in 1 2; do
  run "$r" micro-auto "$b/mstage_micro"
  run "$r" micro-old MSTAGE_LLVM_ARGS="$old_args" "$b/mstage_micro"
done

# The median of the rounds' medians of LABEL SIDE.
med() {
  awk -v l="$1" -v s="$2" '$2 == l && $3 == s { print $4 }' "$rows" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "" }'
}
ratio() { [[ -n $1 && -n $2 ]] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
check() { # NAME RATIO LIMIT
  if [[ -z $2 ]]; then echo "FAIL $1: no figure"; return; fi
  if awk -v r="$2" -v l="$3" 'BEGIN { exit !(r <= l) }'; then
    echo "PASS $1: $2x <= $3x"
  else
    echo "FAIL $1: $2x > $3x"
  fi
}
xn=$(med xs-nvcc nvcc)
for cfg in auto off 6; do
  echo "xs $cfg / nvcc: staged $(ratio "$(med xs-$cfg mstage)" "$xn")," \
    "unstaged $(ratio "$(med xs-$cfg unstaged)" "$xn")"
done
an=$(med adam-nvcc nvcc)
for cfg in auto off old; do
  echo "adam $cfg / nvcc: staged $(ratio "$(med adam-$cfg mstage)" "$an")," \
    "unstaged $(ratio "$(med adam-$cfg unstaged)" "$an")"
done
check xs-unstaged "$(ratio "$(med xs-auto unstaged)" "$xn")" 1.02
check xs-staged "$(ratio "$(med xs-auto mstage)" "$xn")" 1.0
check adam-auto "$(ratio "$(med adam-auto unstaged)" "$(med adam-off unstaged)")" 1.01
check adam-regs "$(ratio "$(med adam-auto unstaged)" "$(med adam-old unstaged)")" 1.01
echo "micro auto / old: staged $(ratio "$(med micro-auto mstage)" "$(med micro-old mstage)")," \
  "unstaged $(ratio "$(med micro-auto unstaged)" "$(med micro-old unstaged)")"
echo "done ($((SECONDS - start)) s)"
