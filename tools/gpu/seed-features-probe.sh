#!/usr/bin/env bash
# Usage (on the GPU machine): PACK=/abs/mstage-gpu.tar.xz OUT=/some/folder \
#   bash seed-features-probe.sh
#
# Issue 37, items 1, 10, 2, 3 (device_global/constant, on_device and
# device_arch, new/delete and malloc/free in kernels, std::variant): the GPU
# suite's device_globals, device_heap and variant from the pack that
# tools/gpu/pack.sh makes, plainly and device_globals under memcheck; then
# the PTX of device_globals' kernels (.const and .global module variables).
# Ends with one PASS/FAIL line per check and "N passed, M failed". About 40 s.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
probe_unpack "$PACK" mstage-seed-features
for p in device_globals device_heap variant; do
  out=$(timeout 30 "$work/test/gpu/$p" 2>&1)
  echo "$out" | tail -n 6
  if grep -q "^PASS $p" <<<"$out"; then verdict PASS "$p"; else verdict FAIL "$p"; fi
done
out=$(timeout 40 "$CS" --tool memcheck "$work/test/gpu/device_globals" 2>&1)
echo "$out" | grep -E "PASS|FAIL|ERROR SUMMARY" | head -n 3
if grep -q "ERROR SUMMARY: 0 errors" <<<"$out" && grep -q "^PASS" <<<"$out"; then
  verdict PASS memcheck-device_globals
else
  verdict FAIL memcheck-device_globals
fi
MSTAGE_JIT=sync MSTAGE_CACHE=memory MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=$work/dump \
  timeout 30 "$work/test/gpu/device_globals" >/dev/null 2>&1
consts=$(cat "$work"/dump/*.ptx 2>/dev/null | grep -c "\.const .*__mstage_global_")
globals=$(cat "$work"/dump/*.ptx 2>/dev/null | grep -c "\.global .*\.u64 __mstage_global_")
echo "PTX: $consts .const and $globals .global module variables"
if ((consts > 0 && globals > 0)); then verdict PASS ptx-module-variables; else verdict FAIL ptx-module-variables; fi
echo "$passed passed, $failed failed"
((failed == 0))
