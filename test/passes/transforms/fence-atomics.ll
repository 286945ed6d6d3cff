; NVPTX emits every atomicrmw as a relaxed atom; a stronger ordering becomes
; fences of the atomic's own scope around a monotonic one: seq_cst before and
; acquire after for seq_cst, release before for release, acquire after for
; acquire. Monotonic ones are left alone.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-fence-atomics -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @f(
; CHECK-NEXT: fence syncscope("device") seq_cst
; CHECK-NEXT: atomicrmw add ptr %p, i32 1 syncscope("device") monotonic
; CHECK-NEXT: fence syncscope("device") acquire
; CHECK-NEXT: fence syncscope("block") release
; CHECK-NEXT: atomicrmw xchg ptr %p, i32 2 syncscope("block") monotonic
; CHECK-NEXT: atomicrmw max ptr %p, i32 3 syncscope("device") monotonic
; CHECK-NEXT: fence syncscope("device") acquire
; CHECK-NEXT: atomicrmw or ptr %p, i32 4 syncscope("device") monotonic
; CHECK-NEXT: ret void
define void @f(ptr %p) {
  %a = atomicrmw add ptr %p, i32 1 syncscope("device") seq_cst
  %b = atomicrmw xchg ptr %p, i32 2 syncscope("block") release
  %c = atomicrmw max ptr %p, i32 3 syncscope("device") acquire
  %d = atomicrmw or ptr %p, i32 4 syncscope("device") monotonic
  ret void
}
