; mstage-specialize folds the dynamic shared memory size only when it is
; given (shared=), as the JIT does at a launch; given only the extents, the
; kernel goes on reading %dynamic_smem_size (mstage-ptx without --shared).
;
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<block=32;shared=256>' -S %s | FileCheck %s --check-prefix=SHARED
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<shared=256>' -S %s | FileCheck %s --check-prefix=SHARED
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<block=32>' -S %s | FileCheck %s --check-prefix=UNKNOWN

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; SHARED-LABEL: define ptx_kernel void @k(
; SHARED-NOT: dynamic_smem_size
; SHARED: store i32 256, ptr %out

; UNKNOWN-LABEL: define ptx_kernel void @k(
; UNKNOWN: [[N:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
; UNKNOWN: store i32 [[N]], ptr %out
define ptx_kernel void @k(ptr byval([8 x i8]) align 8 %outp) {
  %n = call i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
  %out = load ptr, ptr %outp
  store i32 %n, ptr %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
