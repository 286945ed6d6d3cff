#!/usr/bin/env bash
# graph37 (issue 37 item 7, graphs built node by node): the GPU suite's
# test/gpu/graph_builder plainly, with MSTAGE_JIT=sync, MSTAGE_CHECK=cpu,stage
# and MSTAGE_CHECK=streams, and under memcheck and racecheck (quick sizes);
# then lit's graph-builder-errors program (careless uses: cycles, other
# graphs, update errors, a throwing host node, empty graphs) on the GPU,
# whose output must equal the CPU back end's (errors-cpu.txt, in the pack).
# Needs $PACK (lib/, test/gpu/graph_builder, graph-builder-errors,
# errors-cpu.txt) and $OUT. About 40 s. Ends with "N passed, M failed".
# The pack, from a build: lib/libmstage_rt.so and test/gpu/graph_builder
# stripped, build/test/async/Output/graph-builder-errors.cpp.tmp as
# graph-builder-errors, and its stdout under MSTAGE_BACKEND=cpu as
# errors-cpu.txt, in one tar.xz.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
probe_unpack "$PACK" graph37
unset MSTAGE_CHECK MSTAGE_BACKEND
program=$work/test/gpu/graph_builder
suite() { # mode, then the command's prefix
  local mode=$1
  shift
  local out
  out=$(timeout 40 "$@" "$program" 2>&1)
  local status=$?
  echo "$mode: $(grep -c "^PASS" <<<"$out") PASS lines"
  echo "$out" | grep -E "^(FAIL|SKIP)|ERROR SUMMARY|RACECHECK SUMMARY|rror" | cut -c1-220 | head -n 8
  if ((status == 0)) && grep -q "^PASS graph_builder" <<<"$out" &&
    ! grep -q "^FAIL" <<<"$out" &&
    { [[ $mode != memcheck && $mode != racecheck ]] ||
      grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" <<<"$out"; }; then
    verdict PASS "graph_builder $mode"
  else
    verdict FAIL "graph_builder $mode (exit $status)"
  fi
}
suite plain env
suite jitsync env MSTAGE_JIT=sync
suite cpucheck env MSTAGE_CHECK=cpu,stage MSTAGE_SUITE_QUICK=1
suite streamcheck env MSTAGE_CHECK=streams MSTAGE_SUITE_QUICK=1
suite memcheck env MSTAGE_SUITE_QUICK=1 "$CS" --tool memcheck --target-processes application-only --nvtx no
suite racecheck env MSTAGE_SUITE_QUICK=1 "$CS" --tool racecheck --racecheck-report hazard
got=$(timeout 30 "$work/graph-builder-errors" 2>"$work/errors-stderr")
if diff <(echo "$got") "$work/errors-cpu.txt" >"$work/diff" 2>&1; then
  verdict PASS "graph-builder-errors on the GPU = CPU back end"
else
  head -c 1500 "$work/diff"
  head -c 500 "$work/errors-stderr"
  verdict FAIL "graph-builder-errors on the GPU differs from the CPU back end"
fi
echo "$passed passed, $failed failed"
((failed == 0))
