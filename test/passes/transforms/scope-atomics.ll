; The host front end gives every atomic the system scope; on the GPU the
; default is the device (PTX .gpu), and an atomic whose pointer carries
; include/mstage/atomic.hpp's block-scope mark gets the block (.cta). The
; mark is removed, so that the optimizer sees the pointer again.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-scope-atomics -S %s | FileCheck %s --implicit-check-not='call i64 @llvm.annotation'

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.mark = private unnamed_addr constant [26 x i8] c"mstage.atomic.scope.block\00", section "llvm.metadata"
@.file = private unnamed_addr constant [11 x i8] c"atomic.hpp\00", section "llvm.metadata"

; CHECK-LABEL: define void @device(
; CHECK: atomicrmw add ptr %p, i32 1 syncscope("device") monotonic
; CHECK: fence syncscope("device") seq_cst
define void @device(ptr %p) {
  %old = atomicrmw add ptr %p, i32 1 monotonic
  fence seq_cst
  ret void
}

; CHECK-LABEL: define void @block(
; CHECK-NEXT: atomicrmw add ptr %p, i32 1 syncscope("block") monotonic
; CHECK-NEXT: ret void
define void @block(ptr %p) {
  %i = ptrtoint ptr %p to i64
  %m = call i64 @llvm.annotation.i64.p0(i64 %i, ptr @.mark, ptr @.file, i32 1)
  %q = inttoptr i64 %m to ptr
  %old = atomicrmw add ptr %q, i32 1 monotonic
  ret void
}
