#!/usr/bin/env bash
# Usage (on the GPU machine): PACK=/abs/mstage-gpu.tar.xz OUT=/some/folder \
#   bash extern-globals-probe.sh
#
# Issue 37 item 1's leftover: device globals declared extern in one file and
# defined in another (test/gpu/device_globals_extern, two sources), from a
# pack that holds lib/ and test/gpu/ as tools/gpu/pack.sh makes them:
# plainly, with MSTAGE_JIT=sync (the specializations, not the generic code),
# and under memcheck; device_globals plainly (one file, unchanged). Ends with
# one PASS/FAIL line per check and "N passed, M failed". About 40 s.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
probe_unpack "$PACK" mstage-extern-globals
# One run of program $2 (env settings before it), named $1.
check() {
  local name=$1 p=$2 out
  shift 2
  out=$(env "$@" timeout 30 "$work/test/gpu/$p" 2>&1)
  echo "$out" | tail -n 4
  if grep -q "^PASS $p" <<<"$out"; then verdict PASS "$name"; else verdict FAIL "$name"; fi
}
check device_globals_extern device_globals_extern
check jit-sync-device_globals_extern device_globals_extern MSTAGE_JIT=sync
check device_globals device_globals
out=$(timeout 45 "$CS" --tool memcheck "$work/test/gpu/device_globals_extern" 2>&1)
echo "$out" | grep -E "PASS|FAIL|ERROR SUMMARY" | head -n 3
if grep -q "ERROR SUMMARY: 0 errors" <<<"$out" && grep -q "^PASS" <<<"$out"; then
  verdict PASS memcheck-device_globals_extern
else
  verdict FAIL memcheck-device_globals_extern
fi
echo "$passed passed, $failed failed"
((failed == 0))
