#!/usr/bin/env bash
# Usage (on the GPU machine, from the repository root):
#   OUT=/some/folder bash tools/gpu/run-suite.sh
#
# Unpacks .gpu-pack/mstage-gpu.tar.xz (made by tools/gpu/pack.sh) into a
# temporary folder and runs every program found there, under test/gpu and
# examples:
#   plain       the program alone
#   memcheck    under compute-sanitizer --tool memcheck
#   racecheck   under compute-sanitizer --tool racecheck, for the programs
#               of RACECHECK_PROGRAMS below
#   cpucheck    with MSTAGE_CHECK=cpu,stage (each launch also runs on the CPU
#               back end and the outputs are compared; there, every stage()
#               is compared with the value folded for the launch)
# all with CUDA_CACHE_DISABLE=1. A run passes when the program exits 0 and
# says PASS: a test program prints a line "PASS <name>..."; an example prints
# the word PASS and not the word FAIL. A sanitizer run must also end with a
# clean summary: "ERROR SUMMARY: 0 errors" (memcheck), "RACECHECK SUMMARY: 0
# hazards displayed (0 errors, 0 warnings)" (racecheck).
#
# Writes the full output of every run to $OUT/gpu-suite.log and one line per
# run to $OUT/gpu-suite.csv (program,mode,result,seconds). Stdout ends with a
# table and the line "N passed, M failed". Exits 1 if any run failed.
#
# Settings (environment):
#   OUT              where the log and the CSV go (default .gpu-pack/out)
#   ARCHIVE          the archive (default .gpu-pack/mstage-gpu.tar.xz)
#   RUN_TIMEOUT      seconds one run may take (default 300)
#   SUITE_BUDGET     seconds for the whole suite (default 540); runs that
#                    would start later are not run and count as failed
#   SANITIZER_QUICK  1: sanitizer runs get MSTAGE_SUITE_QUICK=1,
#                    with which large programs use smaller sizes; 0 (default): full sizes
set -uo pipefail

# The programs that use shared memory, by file name, for racecheck. Not
# atomics: its release/acquire handoff through shared memory (st.release and
# ld.acquire, ordered by the memory model, not by a barrier) is reported as a
# hazard, since racecheck orders shared accesses by barriers and atom.* only
# (measured: 1 hazard, the flag store against its spinning loads).
RACECHECK_PROGRAMS=(shared_barrier shared_views reduce_listing2 reduce reduce_staged nbody cooperative_groups)
# Programs that fault on purpose (to test error reports): no memcheck run.
NO_MEMCHECK_PROGRAMS=(launch_error device_assert bounds_check)

RUN_TIMEOUT=${RUN_TIMEOUT:-300}
SUITE_BUDGET=${SUITE_BUDGET:-540}
SANITIZER_QUICK=${SANITIZER_QUICK:-0}
ARCHIVE=${ARCHIVE:-.gpu-pack/mstage-gpu.tar.xz}
OUT=${OUT:-.gpu-pack/out}

suite_start=$SECONDS
mkdir -p "$OUT"
log=$OUT/gpu-suite.log
csv=$OUT/gpu-suite.csv
: >"$log"
echo "program,mode,result,seconds" >"$csv"

say() { echo "$*" | tee -a "$log"; }

# Summary rows: "program mode result seconds".
rows=()
passed=0
failed=0

record() { # program mode result seconds
  rows+=("$1|$2|$3|$4")
  echo "$1,$2,$3,$4" >>"$csv"
  if [[ $3 == PASS ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
}

finish() {
  echo
  printf '%-28s %-10s %-30s %8s\n' program mode result seconds
  local row program mode result seconds
  for row in "${rows[@]}"; do
    IFS='|' read -r program mode result seconds <<<"$row"
    printf '%-28s %-10s %-30s %8s\n' "$program" "$mode" "$result" "$seconds"
  done
  echo "$passed passed, $failed failed"
  {
    echo
    echo "== summary"
    echo "$passed passed, $failed failed"
  } >>"$log"
  if ((failed > 0 || passed == 0)); then
    exit 1
  fi
  exit 0
}

# --- Unpack -----------------------------------------------------------------
if [[ ! -f $ARCHIVE ]]; then
  say "run-suite: no archive at $ARCHIVE; run tools/gpu/pack.sh and carry .gpu-pack"
  record archive unpack "FAIL(missing)" 0
  finish
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/mstage-gpu.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! tar -xJf "$ARCHIVE" -C "$work" >>"$log" 2>&1; then
  say "run-suite: cannot unpack $ARCHIVE"
  record archive unpack "FAIL(unpack)" 0
  finish
fi
mkdir -p "$work/run"

export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CUDA_CACHE_DISABLE=1

# --- The machine ------------------------------------------------------------
say "== machine"
[[ -f $work/MANIFEST ]] && say "$(sed 's/^/pack /' "$work/MANIFEST")"
if command -v nvidia-smi >/dev/null; then
  say "$(nvidia-smi -L 2>&1)"
  say "driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1 |
    head -n 1)"
else
  say "nvidia-smi: not found"
fi

sanitizer=$(command -v compute-sanitizer || true)
if [[ -z $sanitizer ]]; then
  for candidate in /usr/local/cuda/bin/compute-sanitizer \
    /usr/local/cuda/compute-sanitizer/compute-sanitizer \
    /usr/local/cuda-*/bin/compute-sanitizer; do
    if [[ -x $candidate ]]; then
      sanitizer=$candidate
      break
    fi
  done
fi
if [[ -n $sanitizer ]]; then
  say "compute-sanitizer: $sanitizer, $("$sanitizer" --version 2>&1 |
    grep -i version | head -n 1)"
else
  say "compute-sanitizer: not found; its runs count as failed"
fi
say "CUDA_CACHE_DISABLE=$CUDA_CACHE_DISABLE SANITIZER_QUICK=$SANITIZER_QUICK" \
  "RUN_TIMEOUT=$RUN_TIMEOUT SUITE_BUDGET=$SUITE_BUDGET"

# --- The programs -----------------------------------------------------------
programs=()
for dir in test/gpu examples; do
  [[ -d $work/$dir ]] || continue
  for f in "$work/$dir"/*; do
    [[ -f $f && -x $f ]] && programs+=("$dir/${f##*/}")
  done
done
say "programs: ${programs[*]:-none}"
if ((${#programs[@]} == 0)); then
  record programs discover "FAIL(none)" 0
  finish
fi

listed() { # name list...
  local name=$1 item
  shift
  for item in "$@"; do
    [[ $name == "$item" ]] && return 0
  done
  return 1
}

# Decides one run's result from its exit status and output: PASS, TIMEOUT,
# or FAIL(reasons).
judge() { # program mode status output-file
  local program=$1 mode=$2 status=$3 output=$4 name=${1##*/}
  local reasons=()
  if ((status == 124 || status == 137)); then
    echo "TIMEOUT"
    return
  fi
  if [[ $program == test/gpu/* ]]; then
    if grep -Eq "^FAIL ${name}([: ]|\$)" "$output"; then
      reasons+=(checked)
    elif grep -Eq "^SKIP ${name}([: ]|\$)" "$output"; then
      reasons+=(skipped)
    elif ! grep -Eq "^PASS ${name}([: ]|\$)" "$output"; then
      reasons+=("no PASS line")
    fi
  elif grep -qw FAIL "$output"; then
    reasons+=(checked)
  elif ! grep -qw PASS "$output"; then
    reasons+=("no PASS")
  fi
  case $mode in
  memcheck)
    grep -q "ERROR SUMMARY: 0 errors" "$output" || reasons+=(memcheck)
    ;;
  racecheck)
    if grep -q "RACECHECK SUMMARY:" "$output"; then
      grep -q "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)" \
        "$output" || reasons+=(racecheck)
    else
      grep -q "ERROR SUMMARY: 0 errors" "$output" || reasons+=(racecheck)
    fi
    ;;
  esac
  ((status == 0)) || reasons+=("exit $status")
  if ((${#reasons[@]} == 0)); then
    echo "PASS"
  else
    local IFS=+
    echo "FAIL(${reasons[*]})"
  fi
}

run_one() { # program mode
  local program=$1 mode=$2 left limit status result start end seconds
  local output=$work/output.txt
  left=$((SUITE_BUDGET - (SECONDS - suite_start)))
  if ((left < 10)); then
    say "-- $program $mode: not run, the suite's budget of ${SUITE_BUDGET}s is spent"
    record "$program" "$mode" "FAIL(not run)" 0
    return
  fi
  limit=$((left < RUN_TIMEOUT ? left : RUN_TIMEOUT))

  local cmd=("$work/$program")
  local envs=()
  if [[ $mode == cpucheck ]]; then
    envs=(MSTAGE_CHECK=cpu,stage)
  elif [[ $mode != plain ]]; then
    if [[ -z $sanitizer ]]; then
      say "-- $program $mode: compute-sanitizer not found"
      record "$program" "$mode" "FAIL(no sanitizer)" 0
      return
    fi
    cmd=("$sanitizer" --tool "$mode" --error-exitcode 1 "${cmd[@]}")
    [[ $SANITIZER_QUICK == 1 ]] && envs=(MSTAGE_SUITE_QUICK=1)
  fi

  {
    echo
    echo "== $program $mode (timeout ${limit}s)"
    echo "\$ ${envs[*]} ${cmd[*]}"
  } >>"$log"
  start=$(date +%s%N)
  (cd "$work/run" && env "${envs[@]}" timeout -k 10 "$limit" "${cmd[@]}") \
    >"$output" 2>&1
  status=$?
  end=$(date +%s%N)
  seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
  cat "$output" >>"$log"
  result=$(judge "$program" "$mode" "$status" "$output")
  echo "-- exit $status, $result, ${seconds}s" >>"$log"
  printf '%-28s %-10s %-30s %8ss\n' "$program" "$mode" "$result" "$seconds"
  if [[ $result != PASS ]]; then
    # The end of the output, so that stdout alone shows why.
    grep -v '^\s*$' "$output" | tail -n 15 | sed 's/^/    | /'
  fi
  record "$program" "$mode" "$result" "$seconds"
}

say ""
say "== runs"
for program in "${programs[@]}"; do
  run_one "$program" plain
done
for program in "${programs[@]}"; do
  listed "${program##*/}" "${NO_MEMCHECK_PROGRAMS[@]}" ||
    run_one "$program" memcheck
done
for program in "${programs[@]}"; do
  if listed "${program##*/}" "${RACECHECK_PROGRAMS[@]}"; then
    run_one "$program" racecheck
  fi
done
for program in "${programs[@]}"; do
  run_one "$program" cpucheck
done

finish
