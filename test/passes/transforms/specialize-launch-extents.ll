; mstage-specialize folds the launch configuration as the JIT does at a
; launch: the block and grid sizes become constants, the thread and block
; indices get their ranges, and the kernel its required block size.
;
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<grid=4x3x1;block=64x1x1>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<kernel=k;grid=4x3;block=64>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-SAME: #[[ATTRS:[0-9]+]]
; CHECK: [[TID:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range [[BLOCK:![0-9]+]]
; CHECK: [[CTA:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !range [[GRID:![0-9]+]]
; CHECK: [[BASE:%.*]] = mul i32 [[CTA]], 64
; CHECK: [[I:%.*]] = add i32 [[BASE]], [[TID]]
; CHECK: mul i32 [[I]], 3
; CHECK: attributes #[[ATTRS]] = {{.*}}"nvvm.reqntid"="64,1,1"
; CHECK-DAG: [[BLOCK]] = !{i32 0, i32 64}
; CHECK-DAG: [[GRID]] = !{i32 0, i32 3}
define ptx_kernel void @k(ptr byval([8 x i8]) align 8 %outp) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %g = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  %base = mul i32 %b, %n
  %i = add i32 %base, %t
  %v = mul i32 %i, %g
  %out = load ptr, ptr %outp
  store i32 %v, ptr %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
