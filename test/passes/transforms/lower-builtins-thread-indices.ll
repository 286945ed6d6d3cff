; The thread and block indices and the launch extents that
; include/mstage/builtins.h declares are NVVM special-register reads on the
; device; nothing of the __mstage_ builtins is left.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-lower-builtins -S %s | FileCheck %s --implicit-check-not=__mstage_

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @__mstage_tid_x()
declare i32 @__mstage_tid_y()
declare i32 @__mstage_ctaid_z()
declare i32 @__mstage_ntid_x()
declare i32 @__mstage_nctaid_y()

; CHECK-LABEL: define i32 @global_index(
; CHECK: [[TID:%.*]] = call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: [[TIDY:%.*]] = call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.tid.y()
; CHECK: [[CTA:%.*]] = call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
; CHECK: [[NTID:%.*]] = call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: [[NCTA:%.*]] = call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
; CHECK: mul i32 [[CTA]], [[NTID]]
; CHECK: add i32 {{%.*}}, [[TID]]
define i32 @global_index() {
  %t = call i32 @__mstage_tid_x()
  %ty = call i32 @__mstage_tid_y()
  %b = call i32 @__mstage_ctaid_z()
  %n = call i32 @__mstage_ntid_x()
  %g = call i32 @__mstage_nctaid_y()
  %base = mul i32 %b, %n
  %i = add i32 %base, %t
  %j = add i32 %i, %ty
  %k = add i32 %j, %g
  ret i32 %k
}
