; A lambda larger than the parameter space of the architecture (4352 bytes
; before sm_100) goes to device memory: its byval parameter becomes a global
; pointer, noalias, aligned and dereferenceable as the byval was, and
; readonly since the kernel does not write it. On sm_100 (32764 bytes) it
; stays a parameter.
;
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-capture-in-memory<arch=sm_90>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-capture-in-memory<mask=1>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-capture-in-memory<arch=sm_100>' -S %s | FileCheck %s --check-prefix=FITS

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-SAME: ptr addrspace(1) noalias noundef nonnull readonly align 8 dereferenceable(5000) %lambda.global, ptr byval([8 x i8]) align 8 %outp)
; CHECK: [[L:%.*]] = addrspacecast ptr addrspace(1) %lambda.global to ptr
; CHECK: getelementptr inbounds i8, ptr [[L]], i64 4096
; FITS: define ptx_kernel void @k(ptr byval([5000 x i8]) align 8 %lambda, ptr byval([8 x i8]) align 8 %outp)
define ptx_kernel void @k(ptr byval([5000 x i8]) align 8 %lambda, ptr byval([8 x i8]) align 8 %outp) {
  %p = getelementptr inbounds i8, ptr %lambda, i64 4096
  %v = load i32, ptr %p
  %out = load ptr, ptr %outp
  store i32 %v, ptr %out
  ret void
}
