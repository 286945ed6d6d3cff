#!/usr/bin/env bash
# Usage (on the GPU machine): tools/gpu/event-fault-race.sh WORK
#
# Whether a kernel fault reaches the co_await that waits for the kernel,
# under CPU load (test/gpu/coawait's fault child found its fault only at
# exit in 1 to 3 runs of 4 when the suite ran 4 programs at once). WORK holds
# what the pack of the request has: bin/event_fault_race
# (tools/gpu/event-fault/EventFaultRace.cpp), test/gpu/coawait and
# lib/libmstage_rt.so. While every core runs a busy loop:
#  1. the driver alone: TRIALS runs of event_fault_race for each call made
#     after cuEventQuery first says something other than NOT_READY; a line
#     per call: in how many runs the query said CUDA_SUCCESS (0) although
#     the kernel faulted, and in how many of those the call then reported
#     the fault (700);
#  2. mstage: RUNS runs of `coawait --child fault` in each setting (plain,
#     MSTAGE_CHECK=streams, MSTAGE_JIT=sync, MSTAGE_GRAPHS=auto); PASS when
#     every run printed "THROWN at co_await" naming BadKernel and a
#     CUDA_ERROR_, and none found the fault at exit or said "cannot make a
#     stream".
# Ends with "N passed, M failed". About 60 s.
#
# Settings: TRIALS (default 16), RUNS (default 20), JOBS runs at once
# (default 8), LOAD busy loops (default: one per core).
set -uo pipefail

work=${1:?usage: event-fault-race.sh WORK}
TRIALS=${TRIALS:-16}
RUNS=${RUNS:-20}
JOBS=${JOBS:-8}
LOAD=${LOAD:-$(nproc)}
export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MSTAGE_CACHE_DIR=${MSTAGE_CACHE_DIR:-$work/cache}
unset MSTAGE_CHECK
logs=$(mktemp -d /tmp/event-fault-race.XXXXXX)
passed=0
failed=0

load=()
for ((i = 0; i < LOAD; ++i)); do
  (while :; do :; done) >/dev/null 2>&1 </dev/null &
  load+=($!)
done
stop_load() {
  local p
  for p in "${load[@]}"; do kill "$p" 2>/dev/null; done
  load=()
}
# A timeout's TERM ends the loops too (they would hold the caller's output).
trap 'stop_load; rm -rf "$logs"' EXIT
trap 'exit 1' TERM INT

# Runs "$@" COUNT times, JOBS at once, each run's output in $logs/NAME.I.
runs() { # NAME COUNT command...
  local name=$1 count=$2 i
  shift 2
  for ((i = 0; i < count; ++i)); do
    while (($(jobs -rp | wc -l) >= JOBS + ${#load[@]})); do wait -n; done
    timeout -k 5 30 "$@" >"$logs/$name.$i" 2>&1 &
  done
  while (($(jobs -rp | wc -l) > ${#load[@]})); do wait -n; done
}

echo "event_fault_race: $TRIALS runs per call, $LOAD busy loops"
for call in esync query squery ssync csync; do
  runs "race-$call" "$TRIALS" "$work/bin/event_fault_race" "$call"
  cat "$logs"/race-"$call".* | awk -v call="$call" '
    /^first=/ {
      n++; split($0, f, /[ =]/)
      if (f[2] == 0) { early++; if (f[4] != 0) caught++ }
      if (f[2] != 0) erred++
      if (f[6] == 0) lost++
    }
    /setup-failed/ { bad++ }
    END {
      printf "  %-6s %d runs: query said done %d (then %s reported the fault in %d), said the fault %d; fault never seen %d; setup failed %d\n",
        call, n, early, call, caught, erred, lost, bad
    }'
done

for setting in plain MSTAGE_CHECK=streams MSTAGE_JIT=sync MSTAGE_GRAPHS=auto; do
  envs=()
  [[ $setting != plain ]] && envs=("$setting")
  name=child-${setting//[=\/]/-}
  runs "$name" "$RUNS" env "${envs[@]}" "$work/test/gpu/coawait" --child fault
  thrown=0 atexit=0 stream=0 other=0
  for f in "$logs/$name".*; do
    if grep "THROWN at co_await: " "$f" | grep "BadKernel" | grep -q "CUDA_ERROR_"; then
      thrown=$((thrown + 1))
    else
      other=$((other + 1))
      [[ $other == 1 ]] && first_bad=$f
    fi
    grep -q "found at exit" "$f" && atexit=$((atexit + 1))
    grep -q "cannot make a stream" "$f" && stream=$((stream + 1))
  done
  line="coawait fault child, $setting: thrown at the co_await in $thrown of $RUNS runs, found at exit in $atexit, 'cannot make a stream' in $stream"
  if ((thrown == RUNS && atexit == 0 && stream == 0)); then
    echo "PASS $line"
    passed=$((passed + 1))
  else
    echo "FAIL $line"
    [[ $other -gt 0 ]] && cut -c1-300 "$first_bad" | head -n 6 | sed 's/^/    | /'
    failed=$((failed + 1))
  fi
done
stop_load
echo "$passed passed, $failed failed"
((failed == 0))
