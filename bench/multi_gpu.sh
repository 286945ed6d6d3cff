#!/usr/bin/env bash
# Usage: OUT=DIR bash bench/multi_gpu.sh [EXAMPLES_DIR]
#
# Issue 19's checks and scaling figures on a machine with two or more GPUs,
# from the examples of a GPU pack (tools/gpu/pack.sh; default: the examples
# folder beside this script's bench folder):
#  - checks: nbody_multi_gpu's own check on all GPUs and with 4 slices (the GPU
#    suite runs it under the sanitizers); heat_mpi on 1 and 2 ranks, halos
#    through NCCL and through MPI, the same output as --plain;
#  - scaling: heat_mpi at 8192^2 cells per GPU (weak scaling, 1 -> 2 ranks)
#    and nbody_multi_gpu at 2^19 bodies (strong scaling, 1 -> 2 GPUs), each
#    against its --plain single-GPU program, REPS times alternating; the
#    median of each goes to $OUT/multi-gpu.csv (HEAT_N, HEAT_STEPS, NBODY_N
#    NBODY_STEPS and CHECK_N change the sizes, to try the script on the CPU back end).
# Prints PASS/FAIL lines and ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ex=${1:-$here/../examples}
out=${OUT:-/tmp/multi-gpu}
reps=${REPS:-3}
heat_n=${HEAT_N:-8192} heat_steps=${HEAT_STEPS:-1000}
nbody_n=${NBODY_N:-524288} nbody_steps=${NBODY_STEPS:-6}
check_n=${CHECK_N:-65536}
mkdir -p "$out"
# A pack's programs find its runtime here (ranks get the variable too).
[[ -d $ex/../lib ]] && export LD_LIBRARY_PATH=$(cd "$ex/../lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NCCL_NVLS_ENABLE=0 # no NVLink multicast on the lent machines
mpirun=(mpirun)
[[ $(id -u) == 0 ]] && mpirun+=(--allow-run-as-root)
mpirun+=(-x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE)
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
pass=0
fail=0

check() { # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then
    echo "PASS $name"
    pass=$((pass + 1))
  else
    echo "FAIL $name"
    fail=$((fail + 1))
  fi
}

# Runs a command with its stdout in $out/$1.out and stderr in $out/$1.err.
run() {
  local name=$1
  shift
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  local rc=$?
  ((rc == 0)) || { echo "# $name: exit $rc" && tail -5 "$out/$name.err"; } >&2
  return $rc
}

echo "# $gpus GPU(s); examples from $ex"
((gpus >= 2)) || echo "# fewer than 2 GPUs: the 2-GPU parts are not meaningful"

# n-body: the split against the paper's kernel on one device.
check "nbody_multi_gpu checked against --plain, all GPUs" \
  run nbody-check "$ex/nbody_multi_gpu" "$check_n" 4
check "nbody_multi_gpu checked against --plain, 4 slices over all GPUs" \
  run nbody-check4 "$ex/nbody_multi_gpu" $((check_n - 15536)) 4 --slices=4

# heat: 1 and 2 ranks, NCCL and MPI halos, against --plain.
heat=("$ex/heat_mpi" 1000 999 300 100)
run heat-plain "${mpirun[@]}" -np 1 "${heat[@]}" --plain
run heat-1 "${mpirun[@]}" -np 1 "${heat[@]}"
run heat-2 "${mpirun[@]}" -np 2 "${heat[@]}"
run heat-2mpi "${mpirun[@]}" -np 2 "${heat[@]}" --halo=mpi
for r in heat-1 heat-2 heat-2mpi; do
  check "heat_mpi $r prints what --plain prints" \
    cmp -s "$out/heat-plain.out" "$out/$r.out"
done
check "heat_mpi -np 2 exchanged its halos through NCCL" \
  grep -q "halos through NCCL" "$out/heat-2.err"

# Scaling. Each measure prints one number: seconds after the first step.
heat_time() { # heat_time NAME RANKS NY [--plain]
  local name=$1 ranks=$2 ny=$3
  shift 3
  run "$name" "${mpirun[@]}" -np "$ranks" "$ex/heat_mpi" "$heat_n" "$ny" \
    "$heat_steps" 100 \
    "$@" || return 1
  sed -n 's/.* steps in \([0-9.]*\) s after the first.*/\1/p' "$out/$name.err"
}
nbody_time() { # nbody_time NAME ARGS...
  local name=$1
  shift
  run "$name" "$ex/nbody_multi_gpu" "$nbody_n" "$nbody_steps" --no-check "$@" ||
    return 1
  sed -n 's/.* steps in \([0-9.]*\) s after the first.*/\1/p' "$out/$name.err"
}
declare -A times
for ((i = 0; i < reps; ++i)); do
  times[heat-plain]+=" $(heat_time heat-plain-$i 1 "$heat_n" --plain)"
  times[heat-1]+=" $(heat_time heat-1-$i 1 "$heat_n")"
  times[heat-2]+=" $(heat_time heat-2-$i 2 $((2 * heat_n)))"
  times[nbody-plain]+=" $(nbody_time nbody-plain-$i --plain)"
  times[nbody-1]+=" $(nbody_time nbody-1-$i --devices=1)"
  times[nbody-2]+=" $(nbody_time nbody-2-$i --devices=2)"
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }
csv=$out/multi-gpu.csv
echo "example,variant,gpus,cells_or_bodies_per_gpu,median_s,runs" >"$csv"
for k in heat-plain heat-1 heat-2 nbody-plain nbody-1 nbody-2; do
  m=$(median "${times[$k]}")
  g=${k##*-}
  [[ $g == plain ]] && g=1
  case $k in
  heat-*) per=$((heat_n * heat_n)) ;;
  nbody-*) per=$((nbody_n / g)) ;;
  esac
  echo "${k%%-*},${k#*-},$g,$per,$m,${times[$k]# }" >>"$csv"
done
cat "$csv"
python3 - "$csv" <<'EOF'
import csv, sys
rows = {(r["example"], r["variant"]): float(r["median_s"] or "nan")
        for r in csv.DictReader(open(sys.argv[1]))}
h1, h2, hp = rows["heat", "1"], rows["heat", "2"], rows["heat", "plain"]
n1, n2, np_ = rows["nbody", "1"], rows["nbody", "2"], rows["nbody", "plain"]
print(f"heat weak scaling 1->2 GPUs: efficiency {h1 / h2:.3f} (target >= 0.95)")
print(f"nbody strong scaling 1->2 GPUs: speedup {n1 / n2:.3f} (target >= 1.9)")
print(f"heat single GPU / plain: {h1 / hp:.3f} (target <= 1.02)")
print(f"nbody single GPU / plain: {n1 / np_:.3f} (target <= 1.02)")
EOF
echo "$pass passed, $fail failed"
