; __mstage_nanosleep, the pause of a look-back that sleeps before it polls
; (include/mstage/algorithm/detail/scan_lookback.hpp), is nanosleep.u32 on
; the device, its duration kept.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-lower-builtins -S %s | FileCheck %s --implicit-check-not=__mstage_

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @__mstage_nanosleep(i32)

; CHECK-LABEL: define void @pause(
; CHECK: call void @llvm.nvvm.nanosleep(i32 1245)
; CHECK: call void @llvm.nvvm.nanosleep(i32 %ns)
define void @pause(i32 %ns) {
  call void @__mstage_nanosleep(i32 1245)
  call void @__mstage_nanosleep(i32 %ns)
  ret void
}
