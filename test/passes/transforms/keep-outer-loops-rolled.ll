; Under the JIT's raised partial-unroll threshold (600), LLVM unrolls a small
; loop around a loop of unknown trip count 8 times (the xs benchmark's loop
; over a material's nuclides, around a binary search): its iterations cannot
; overlap across the inner loop, and a warp whose threads have different
; trip counts then runs its slowest leftover count plus its slowest unrolled
; count (xs: 36.8 iterations a warp against 32). mstage-keep-large-loops
; marks such a loop llvm.loop.unroll.disable and leaves its inner loop
; alone; a loop around a loop of known trip count (which the full unroller
; removes) and a small loop of known trip count around one (unrolled fully)
; are not marked. Without the raised threshold nothing is marked. Then the
; unroller keeps the outer loop rolled and unrolls the inner one; without
; the pass it unrolls the outer loop too.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -unroll-partial-threshold=600 -passes=mstage-keep-large-loops -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-keep-large-loops -S %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt -load-pass-plugin=%mstage_passes -unroll-partial-threshold=600 -passes='mstage-keep-large-loops,loop-unroll<O3>' -S %s | FileCheck %s --check-prefix=UNROLL
; RUN: %opt -load-pass-plugin=%mstage_passes -unroll-partial-threshold=600 -passes='loop-unroll<O3>' -S %s | FileCheck %s --check-prefix=RAISED

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @around_runtime_loop(
; CHECK: br i1 %k.done, label %outer.latch, label %inner{{$}}
; CHECK: br i1 %done, label %exit, label %outer, !llvm.loop [[OUTER:![0-9]+]]
; CHECK-LABEL: define void @around_constant_loop(
; CHECK: br i1 %k.done, label %outer.latch, label %inner{{$}}
; CHECK: br i1 %done, label %exit, label %outer{{$}}
; CHECK-LABEL: define void @twice_around_runtime_loop(
; CHECK: br i1 %done, label %exit, label %outer{{$}}
; CHECK-DAG: [[OUTER]] = distinct !{{.*}}[[DISABLE:![0-9]+]]
; CHECK-DAG: [[DISABLE]] = !{!"llvm.loop.unroll.disable"}

; DEFAULT-NOT: llvm.loop.unroll.disable

; UNROLL-LABEL: define void @around_runtime_loop(
; UNROLL-NOT: %t.1 =
; UNROLL: %s.next.7 = fmul
; UNROLL-NOT: %t.1 =
; UNROLL-LABEL: define void @around_constant_loop(

; RAISED-LABEL: define void @around_runtime_loop(
; RAISED: %t.1 = fadd

define void @around_runtime_loop(ptr %p, ptr %q, i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  %a = getelementptr inbounds float, ptr %p, i32 %j
  %x = load float, ptr %a, align 4
  br label %inner
inner:
  %k = phi i32 [ 0, %outer ], [ %k.next, %inner ]
  %s = phi float [ %x, %outer ], [ %s.next, %inner ]
  %b = getelementptr inbounds float, ptr %q, i32 %k
  %y = load float, ptr %b, align 4
  %s.next = fmul float %s, %y
  %k.next = add nuw nsw i32 %k, 1
  %k.done = icmp sge i32 %k.next, %m
  br i1 %k.done, label %outer.latch, label %inner
outer.latch:
  %t = fadd float %s.next, %x
  store float %t, ptr %a, align 4
  %j.next = add nuw nsw i32 %j, 1
  %done = icmp eq i32 %j.next, %n
  br i1 %done, label %exit, label %outer
exit:
  ret void
}

define void @around_constant_loop(ptr %p, ptr %q, i32 %n) {
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  %a = getelementptr inbounds float, ptr %p, i32 %j
  %x = load float, ptr %a, align 4
  br label %inner
inner:
  %k = phi i32 [ 0, %outer ], [ %k.next, %inner ]
  %s = phi float [ %x, %outer ], [ %s.next, %inner ]
  %b = getelementptr inbounds float, ptr %q, i32 %k
  %y = load float, ptr %b, align 4
  %s.next = fmul float %s, %y
  %k.next = add nuw nsw i32 %k, 1
  %k.done = icmp eq i32 %k.next, 4
  br i1 %k.done, label %outer.latch, label %inner
outer.latch:
  %t = fadd float %s.next, %x
  store float %t, ptr %a, align 4
  %j.next = add nuw nsw i32 %j, 1
  %done = icmp eq i32 %j.next, %n
  br i1 %done, label %exit, label %outer
exit:
  ret void
}

define void @twice_around_runtime_loop(ptr %p, ptr %q, i32 %m) {
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  %a = getelementptr inbounds float, ptr %p, i32 %j
  %x = load float, ptr %a, align 4
  br label %inner
inner:
  %k = phi i32 [ 0, %outer ], [ %k.next, %inner ]
  %s = phi float [ %x, %outer ], [ %s.next, %inner ]
  %b = getelementptr inbounds float, ptr %q, i32 %k
  %y = load float, ptr %b, align 4
  %s.next = fmul float %s, %y
  %k.next = add nuw nsw i32 %k, 1
  %k.done = icmp sge i32 %k.next, %m
  br i1 %k.done, label %outer.latch, label %inner
outer.latch:
  %t = fadd float %s.next, %x
  store float %t, ptr %a, align 4
  %j.next = add nuw nsw i32 %j, 1
  %done = icmp eq i32 %j.next, 2
  br i1 %done, label %exit, label %outer
exit:
  ret void
}
