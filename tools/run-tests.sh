#!/usr/bin/env bash
# Builds mstage (and its fuzzers, in build-fuzz) if needed, runs the unit
# tests (unittests/, googletest), installs mstage into a temporary prefix
# and runs the whole test suite (lit) against that install, with the build
# tree's bin/ hidden, so that the suite shows what a user of the install gets
# (test/install also builds a find_package project there). The suite runs
# each fuzzer briefly. Tests that need a GPU are reported as unsupported on a
# machine without one. The last line is "N passed, M failed", lit's tests
# and the unit tests together; the line before it gives each.
set -uo pipefail
cd "$(dirname "$0")/.."
tools/build.sh || { echo "0 passed, 1 failed (build)"; exit 1; }
# test/fuzz runs each fuzzer briefly; they need clang++-22's libFuzzer.
fuzzlib=$(/usr/lib/llvm-22/bin/clang++ -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a
if [[ -e $fuzzlib ]]; then
  fuzzlog=$(mktemp)
  tools/fuzz.sh --build >"$fuzzlog" 2>&1 ||
    { cat "$fuzzlog"; echo "0 passed, 1 failed (fuzzer build)"; exit 1; }
  rm -f "$fuzzlog"
else
  echo "run-tests: no libFuzzer (install libclang-rt-22-dev): the fuzzers do not run"
fi

# The unit tests: googletest's summary gives their counts; a run that
# crashes before it counts as one failure.
unit=build/unittests/mstage-unittests
unit_passed=0 unit_failed=0 unit_status=0
if [[ -x $unit ]]; then
  unitlog=$(mktemp)
  "$unit" --gtest_brief=1 2>&1 | tee "$unitlog"
  unit_status=${PIPESTATUS[0]}
  unit_passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\..*/\1/p' "$unitlog")
  unit_failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\?, listed below.*/\1/p' "$unitlog")
  rm -f "$unitlog"
  unit_passed=${unit_passed:-0} unit_failed=${unit_failed:-0}
  ((unit_status != 0 && unit_failed == 0)) && unit_failed=1
  echo "run-tests: unit tests: ${unit_passed} passed, ${unit_failed} failed"
else
  echo "run-tests: no googletest (install libgtest-dev): the unit tests do not run"
fi

prefix=$(mktemp -d /tmp/mstage-install.XXXXXX)
chmod 755 "$prefix" # as an install is: test/cache runs a program as another user
log=$(mktemp)
cleanup() {
  [[ -d build/bin.hidden ]] && mv build/bin.hidden build/bin
  rm -rf "$prefix" "$log"
}
trap cleanup EXIT
cmake --install build --prefix "$prefix" >"$log" 2>&1 ||
  { cat "$log"; echo "0 passed, 1 failed (install)"; exit 1; }
echo "run-tests: testing the install in $prefix (build/bin hidden)"
mv build/bin build/bin.hidden
/usr/lib/llvm-22/bin/lit -sv --param MSTAGE_INSTALL_PREFIX="$prefix" build/test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# lit pads the names to one width when several kinds are counted
# ("  Passed     : 235 (99.58%)").
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | tail -n 1; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
passed=${passed:-0} failed=${failed:-0}
[[ -n $unsupported ]] && echo "${unsupported} unsupported here (they need a GPU, or ptxas)"
echo "lit: ${passed} passed, ${failed} failed; unit tests: ${unit_passed} passed, ${unit_failed} failed"
echo "$((passed + unit_passed)) passed, $((failed + unit_failed)) failed"
((status == 0)) && status=$unit_status
exit "$status"
