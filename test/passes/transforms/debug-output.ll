; With -debug-only=mstage-<pass>, a pass says what it decides: here which
; scope each atomic gets. LLVM_DEBUG prints only in code built without
; NDEBUG (-DMSTAGE_ENABLE_ASSERTIONS=ON) loaded into an LLVM built with
; assertions (whose opt has -debug-only); Debian's LLVM 22 is not, so there
; this test is UNSUPPORTED.
;
; REQUIRES: llvm-debug
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-scope-atomics -debug-only=mstage-device-atomics -disable-output %s 2>&1 | FileCheck %s

; CHECK: mstage-device-atomics: device scope for {{.*}}atomicrmw add ptr %p

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @device(ptr %p) {
  %old = atomicrmw add ptr %p, i32 1 monotonic
  ret void
}
