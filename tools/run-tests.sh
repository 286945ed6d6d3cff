#!/usr/bin/env bash
# Builds mstage if needed and runs the whole test suite (lit). Tests that need
# a GPU are reported as unsupported on a machine without one. The last line
# is "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
tools/build.sh || { echo "0 passed, 1 failed (build)"; exit 1; }

log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv build/test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { sed -n "s/^ *$1: *\([0-9]*\).*/\1/p" "$log" | tail -n 1; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
rm -f "$log"
[[ -n $unsupported ]] && echo "${unsupported} unsupported here (they need a GPU, or ptxas)"
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
