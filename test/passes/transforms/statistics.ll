; The device lowering counts what it does: each pass's STATISTICs, printed
; by -stats. STATISTIC counts only in code built without NDEBUG
; (-DMSTAGE_ENABLE_ASSERTIONS=ON) and -stats prints only in an LLVM built
; with assertions or LLVM_FORCE_ENABLE_STATS; Debian's LLVM 22 has neither,
; so there this test is UNSUPPORTED.
;
; REQUIRES: llvm-stats
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-lower-for-device -stats -disable-output %s 2>&1 | FileCheck %s

; CHECK-DAG: 1 mstage-device-atomics {{.*}} Atomics and fences given device scope
; CHECK-DAG: 1 mstage-device-atomics {{.*}} Ordered atomic read-modify-writes given fences
; CHECK-DAG: 1 mstage-lower-builtins {{.*}} Calls to mstage builtins lowered
; CHECK-DAG: 1 mstage-lower-printf {{.*}} printf calls lowered to vprintf
; CHECK-DAG: 3 mstage-retarget {{.*}} Functions retargeted to nvptx64

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

define void @kernel(ptr %p) {
  %tid = call i32 @__mstage_tid_x()
  %old = atomicrmw add ptr %p, i32 %tid seq_cst
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i32 %old)
  ret void
}

declare i32 @__mstage_tid_x()
declare i32 @printf(ptr, ...)
