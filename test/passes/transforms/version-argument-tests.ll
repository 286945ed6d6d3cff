; mstage-version-argument-tests gives a kernel whose loop branches on
; special-value tests of its arguments (here powf-like: b == 1, b != b, read
; from a by-value parameter) a second copy of its body, where each test takes
; its usual outcome (not 1, not NaN); a new entry computes the tests again
; and picks the copy only when both have those outcomes. After simplifycfg
; the copy's loop has no branch on them. Not versioned: a test of a thread
; index (not uniform), an integer test (no usual outcome), a test outside
; loops, a function that is not a kernel, a kernel already versioned, and
; everything with the switch off.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-version-argument-tests -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%mstage_passes -passes='mstage-version-argument-tests,simplifycfg' -S %s | FileCheck %s --check-prefix=FOLDED
; RUN: %opt -load-pass-plugin=%mstage_passes -passes='mstage-version-argument-tests,mstage-version-argument-tests' -S %s | FileCheck %s --check-prefix=ONCE
; RUN: %opt -load-pass-plugin=%mstage_passes -mstage-version-argument-tests=false -passes=mstage-version-argument-tests -S %s | FileCheck %s --check-prefix=OFF

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @powLoop(
; CHECK-NEXT: mstage.version:
; CHECK-NEXT: [[B:%.*]] = load float, ptr %params
; CHECK-NEXT: [[ONE:%.*]] = fcmp oeq float [[B]], 1.000000e+00
; CHECK-NEXT: [[NOTONE:%.*]] = xor i1 [[ONE]], true
; CHECK-NEXT: [[NAN:%.*]] = fcmp uno float [[B]], 0.000000e+00
; CHECK-NEXT: [[NOTNAN:%.*]] = xor i1 [[NAN]], true
; CHECK-NEXT: [[USUAL:%.*]] = and i1 [[NOTONE]], [[NOTNAN]]
; CHECK-NEXT: br i1 [[USUAL]], label %entry.usual, label %entry
; The original body keeps its tests.
; CHECK: loop:
; CHECK: br i1 %isone, label %special, label %check
; CHECK: br i1 %isnan, label %special, label %general
; The copy takes the usual outcomes.
; CHECK: loop.usual:
; CHECK: br i1 false, label %special.usual, label %check.usual
; CHECK: br i1 false, label %special.usual, label %general.usual

; FOLDED-LABEL: define ptx_kernel void @powLoop(
; FOLDED: %v = select i1 %brmerge, float 1.000000e+00, float %p
; FOLDED: loop.usual:
; FOLDED-NOT: %is
; FOLDED: %acc.next.usual = fadd float %acc.usual, %p.usual
; FOLDED-NEXT: %t.next.usual
; FOLDED: exit.usual:

; ONCE-COUNT-1: mstage.version:
; ONCE-NOT: mstage.version:

; OFF-NOT: mstage.version
define ptx_kernel void @powLoop(ptr noalias readonly byval([8 x i8]) align 4 %params, ptr %out, i32 %n) {
entry:
  %b = load float, ptr %params, align 4
  %isone = fcmp oeq float %b, 1.0
  %isnan = fcmp uno float %b, 0.0
  br label %loop

loop:
  %t = phi i32 [ 1, %entry ], [ %t.next, %latch ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %latch ]
  br i1 %isone, label %special, label %check

check:
  br i1 %isnan, label %special, label %general

special:
  br label %latch

general:
  %tf = sitofp i32 %t to float
  %p = fmul float %b, %tf
  br label %latch

latch:
  %v = phi float [ 1.0, %special ], [ %p, %general ]
  %acc.next = fadd float %acc, %v
  %t.next = add i32 %t, 1
  %done = icmp eq i32 %t.next, %n
  br i1 %done, label %exit, label %loop

exit:
  store float %acc, ptr %out, align 4
  ret void
}

; A thread's own value is not uniform: no copy.
; CHECK-LABEL: define ptx_kernel void @threadTest(
; CHECK-NOT: mstage.version
; CHECK: ret void
define ptx_kernel void @threadTest(ptr %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x = sitofp i32 %tid to float
  %isone = fcmp oeq float %x, 1.0
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  br i1 %isone, label %special, label %latch

special:
  store float 1.0, ptr %out, align 4
  br label %latch

latch:
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; An integer test of an argument (a mode) has no usual outcome; a float
; test outside any loop is left to the branch: no copy.
; CHECK-LABEL: define ptx_kernel void @modeAndOutside(
; CHECK-NOT: mstage.version
; CHECK: ret void
define ptx_kernel void @modeAndOutside(ptr %out, i32 %mode, float %b, i32 %n) {
entry:
  %iszero = fcmp oeq float %b, 0.0
  br i1 %iszero, label %skip, label %pre

pre:
  %m0 = icmp eq i32 %mode, 0
  br label %loop

loop:
  %i = phi i32 [ 0, %pre ], [ %i.next, %latch ]
  br i1 %m0, label %special, label %latch

special:
  store float 1.0, ptr %out, align 4
  br label %latch

latch:
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %skip, label %loop

skip:
  ret void
}

; Not a kernel: no copy (a device function is versioned, if at all, in the
; kernel it is inlined into).
; CHECK-LABEL: define void @notKernel(
; CHECK-NOT: mstage.version
; CHECK: ret void
define void @notKernel(ptr %out, float %b, i32 %n) {
entry:
  %isone = fcmp oeq float %b, 1.0
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  br i1 %isone, label %special, label %latch

special:
  store float 1.0, ptr %out, align 4
  br label %latch

latch:
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; The versioned kernel is marked, so that a later visit leaves it.
; CHECK: attributes #{{[0-9]+}} = { "mstage-versioned" }
