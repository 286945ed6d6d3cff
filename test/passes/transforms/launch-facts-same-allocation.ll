; Launch facts for two views of one allocation (A8 A8): the accesses may
; alias, so they get no alias scopes, and a load from an allocation that the
; kernel writes is not a read-only load. The alignment still holds.
;
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-launch-facts<facts=A8 A8>' -S %s | FileCheck %s --implicit-check-not=!alias.scope --implicit-check-not=!noalias --implicit-check-not=!invariant.load

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: [[IN:%.*]] = load ptr, ptr %lambda
; CHECK-NEXT: call void @llvm.assume(i1 true) [ "align"(ptr [[IN]], i64 8) ]
; CHECK: load float, ptr [[IN]], align 4
define ptx_kernel void @k(ptr byval([8 x i8]) align 8 noalias %lambda, ptr byval([8 x i8]) align 8 noalias %outp) {
  %in = load ptr, ptr %lambda
  %out = load ptr, ptr %outp
  %v = load float, ptr %in, align 4
  %w = fmul float %v, 2.0
  store float %w, ptr %out, align 4
  ret void
}
