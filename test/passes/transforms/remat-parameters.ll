; mstage-remat-parameters loads a kernel's by-value parameters again where
; they are used in a deeper loop (%scale, %steps in the step loop; %base in
; the element loop) and recomputes an element address (%addr) after the
; step loop from a fresh load of its pointer, so that no register holds
; them through the loops; the loads at the entry are gone. Not changed: a
; use in the same loop as the load, a function that is not a kernel, a
; parameter that the kernel writes (not read-only), and everything with the
; switch off.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-remat-parameters -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%mstage_passes -mstage-remat-parameters=false -passes=mstage-remat-parameters -S %s | FileCheck %s --check-prefix=OFF

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @nested(
; CHECK-NEXT: entry:
; CHECK-NEXT: br label %outer
; CHECK: outer:
; CHECK-NEXT: %j = phi
; CHECK-NEXT: [[BASE:%.*]] = load ptr, ptr %view
; CHECK-NEXT: %addr = getelementptr inbounds float, ptr [[BASE]], i64 %j
; CHECK: inner:
; CHECK: [[SCALE:%.*]] = load float, ptr %params
; CHECK-NEXT: %x.next = fmul float %x, [[SCALE]]
; CHECK: [[AT:%.*]] = getelementptr inbounds i8, ptr %params, i64 4
; CHECK-NEXT: [[STEPS:%.*]] = load i32, ptr [[AT]]
; CHECK-NEXT: %more = icmp slt i32 %t.next, [[STEPS]]
; CHECK: after:
; CHECK-NEXT: [[BASE2:%.*]] = load ptr, ptr %view
; CHECK-NEXT: [[ADDR2:%.*]] = getelementptr inbounds float, ptr [[BASE2]], i64 %j
; CHECK-NEXT: store float %x.next, ptr [[ADDR2]]

; OFF-LABEL: define ptx_kernel void @nested(
; OFF-NEXT: entry:
; OFF-NEXT: %scale = load float, ptr %params
; OFF: after:
; OFF-NEXT: store float %x.next, ptr %addr
define ptx_kernel void @nested(ptr noalias readonly byval([8 x i8]) align 4 %params, ptr noalias readonly byval([16 x i8]) align 8 %view, i64 %n) {
entry:
  %scale = load float, ptr %params, align 4
  %offp = getelementptr inbounds i8, ptr %params, i64 4
  %steps = load i32, ptr %offp, align 4
  %base = load ptr, ptr %view, align 8
  br label %outer

outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %outer.latch ]
  %addr = getelementptr inbounds float, ptr %base, i64 %j
  %x0 = load float, ptr %addr, align 4
  br label %inner

inner:
  %t = phi i32 [ 0, %outer ], [ %t.next, %inner ]
  %x = phi float [ %x0, %outer ], [ %x.next, %inner ]
  %x.next = fmul float %x, %scale
  %t.next = add i32 %t, 1
  %more = icmp slt i32 %t.next, %steps
  br i1 %more, label %inner, label %after

after:
  store float %x.next, ptr %addr, align 4
  br label %outer.latch

outer.latch:
  %j.next = add i64 %j, 1
  %again = icmp ult i64 %j.next, %n
  br i1 %again, label %outer, label %exit

exit:
  ret void
}

; A use in the loop that holds the load itself stays as it is.
; CHECK-LABEL: define ptx_kernel void @sameLoop(
; CHECK: loop:
; CHECK-NEXT: %i = phi
; CHECK-NEXT: %s = load float, ptr %params
; CHECK-NEXT: store float %s
; CHECK-NOT: load float, ptr %params
; CHECK: ret void
define ptx_kernel void @sameLoop(ptr noalias readonly byval([4 x i8]) align 4 %params, ptr %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = load float, ptr %params, align 4
  store float %s, ptr %out, align 4
  %i.next = add i64 %i, 1
  %again = icmp ult i64 %i.next, %n
  br i1 %again, label %loop, label %exit

exit:
  ret void
}

; Not a kernel (its by-value arguments are local memory), and a parameter
; the kernel writes: the loads stay at the entry.
; CHECK-LABEL: define void @device(
; CHECK-NEXT: entry:
; CHECK-NEXT: %scale = load float, ptr %params
; CHECK-LABEL: define ptx_kernel void @written(
; CHECK-NEXT: entry:
; CHECK-NEXT: %scale = load float, ptr %params
define void @device(ptr noalias readonly byval([4 x i8]) align 4 %params, ptr %out, i64 %n) {
entry:
  %scale = load float, ptr %params, align 4
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  store float %scale, ptr %out, align 4
  %i.next = add i64 %i, 1
  %again = icmp ult i64 %i.next, %n
  br i1 %again, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @written(ptr noalias byval([4 x i8]) align 4 %params, ptr %out, i64 %n) {
entry:
  %scale = load float, ptr %params, align 4
  store float 0.0, ptr %params, align 4
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  store float %scale, ptr %out, align 4
  %i.next = add i64 %i, 1
  %again = icmp ult i64 %i.next, %n
  br i1 %again, label %loop, label %exit

exit:
  ret void
}
