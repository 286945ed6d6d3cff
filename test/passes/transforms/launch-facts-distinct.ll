; Launch facts for views of two different allocations (A16 B16): their
; accesses get disjoint alias scopes, the pointers their alignment, and the
; load from the allocation that the kernel never writes is a read-only load
; (!invariant.load, ld.global.nc). Each scope list holds the group's scope
; itself: with two groups or more, the lists were once made from each other
; (a list in a list, which the verifier rejects).
;
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-launch-facts<facts=A16 B16>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: @k(
; CHECK: [[IN:%.*]] = load ptr, ptr %lambda
; CHECK-NEXT: call void @llvm.assume(i1 true) [ "align"(ptr [[IN]], i64 16) ]
; CHECK: [[OUT:%.*]] = load ptr, ptr %outp
; CHECK-NEXT: call void @llvm.assume(i1 true) [ "align"(ptr [[OUT]], i64 16) ]
; CHECK: load float, ptr [[IN]], align 4, !invariant.load !{{[0-9]+}}, !alias.scope [[A:![0-9]+]], !noalias [[B:![0-9]+]]
; CHECK: store float {{.*}}, ptr [[OUT]], align 4, !alias.scope [[B]], !noalias [[A]]
; CHECK-NOT: !invariant.load
; CHECK: [[A]] = !{[[SA:![0-9]+]]}
; CHECK: [[SA]] = distinct !{[[SA]], [[D:![0-9]+]], !"mstage.group.0"}
; CHECK: [[D]] = distinct !{[[D]], !"mstage.launch"}
; CHECK: [[B]] = !{[[SB:![0-9]+]]}
; CHECK: [[SB]] = distinct !{[[SB]], [[D]], !"mstage.group.1"}
define ptx_kernel void @k(ptr byval([8 x i8]) align 8 noalias %lambda, ptr byval([8 x i8]) align 8 noalias %outp) {
  %in = load ptr, ptr %lambda
  %out = load ptr, ptr %outp
  %v = load float, ptr %in, align 4
  %w = fmul float %v, 2.0
  store float %w, ptr %out, align 4
  ret void
}
