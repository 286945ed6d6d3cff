#!/usr/bin/env bash
# Builds mstage (and its fuzzers, in build-fuzz) if needed and runs the whole
# test suite (lit), which runs each fuzzer briefly. Tests that need a GPU are
# reported as unsupported on a machine without one. The last line is
# "N passed, M failed".
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

log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv build/test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { sed -n "s/^ *$1: *\([0-9]*\).*/\1/p" "$log" | tail -n 1; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
rm -f "$log"
[[ -n $unsupported ]] && echo "${unsupported} unsupported here (they need a GPU, or ptxas)"
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
