#!/usr/bin/env bash
# Builds the libFuzzer fuzzers (fuzz/) in their own build directory with
# clang++-22 and runs each over its corpus.
#
#   tools/fuzz.sh [SECONDS]          build, then run every fuzzer SECONDS
#                                    (default 60) and report crashes
#   tools/fuzz.sh --build            only build
#   tools/fuzz.sh --run NAME SECONDS run the built fuzzer NAME (for CI)
#
# MSTAGE_FUZZ_BUILD names the build directory (default build-fuzz). New
# inputs go to a scratch directory, not to fuzz/corpus; a crash leaves its
# input in $MSTAGE_FUZZ_BUILD/crashes/NAME/ and makes the exit status 1.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${MSTAGE_FUZZ_BUILD:-$src/build-fuzz}

build_fuzzers() {
  local cc=/usr/lib/llvm-22/bin/clang cxx=/usr/lib/llvm-22/bin/clang++
  if [[ ! -d $build/CMakeFiles ]]; then
    cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
      -DMSTAGE_FUZZ=ON >"$build.configure.log" 2>&1 ||
      { cat "$build.configure.log" >&2; echo "fuzz: configuring failed" >&2; return 1; }
  fi
  cmake --build "$build" --target mstage_fuzzers ||
    { echo "fuzz: building the fuzzers failed (is libclang-rt-22-dev installed?)" >&2; return 1; }
}

# run NAME SECONDS: the fuzzer over its corpus; 0 when it found nothing.
run_fuzzer() {
  local name=$1 seconds=$2 exe=$build/bin/$1
  local corpus=$src/fuzz/corpus/$1 crashes=$build/crashes/$1
  if [[ ! -x $exe ]]; then
    echo "fuzz: $exe is not built; run tools/fuzz.sh --build" >&2
    return 2
  fi
  local scratch log
  scratch=$(mktemp -d) log=$(mktemp)
  mkdir -p "$crashes"
  # One process, one job: a finding stops the run and is reported.
  local dirs=("$scratch")
  [[ -d $corpus ]] && dirs+=("$corpus")
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$crashes/" \
    "${dirs[@]}" >"$log" 2>&1
  local status=$?
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  if ((status != 0)); then
    tail -n 60 "$log"
    echo "fuzz: $name: CRASH after ${runs:-?} inputs (exit $status); the input is in $crashes/"
  else
    echo "fuzz: $name: ${runs:-?} inputs in ${seconds} s, no crash"
  fi
  rm -rf "$scratch" "$log"
  return $((status != 0))
}

case ${1:-} in
--build)
  build_fuzzers
  ;;
--run)
  [[ $# -eq 3 ]] || { echo "usage: tools/fuzz.sh --run NAME SECONDS" >&2; exit 2; }
  run_fuzzer "$2" "$3"
  ;;
*)
  seconds=${1:-60}
  build_fuzzers || exit 1
  failed=0
  for f in "$src"/fuzz/*Fuzzer.cpp; do
    run_fuzzer "$(basename "$f" .cpp)" "$seconds" || failed=1
  done
  exit $failed
  ;;
esac
