; Device printf is CUDA's vprintf(format, buffer): the (already promoted)
; arguments are stored into a buffer, each at its natural alignment.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-lower-printf -S %s | FileCheck %s --implicit-check-not=@printf

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@fmt = private unnamed_addr constant [10 x i8] c"%d %f %p\0A\00"

; CHECK-LABEL: define void @f(
; CHECK: [[BUF:%.*]] = alloca { i32, double, ptr }
; CHECK: store i32 %i, ptr {{%.*}}
; CHECK: [[D:%.*]] = getelementptr inbounds {{(nuw )?}}{ i32, double, ptr }, ptr [[BUF]], i32 0, i32 1
; CHECK: store double %d, ptr [[D]]
; CHECK: [[P:%.*]] = getelementptr inbounds {{(nuw )?}}{ i32, double, ptr }, ptr [[BUF]], i32 0, i32 2
; CHECK: store ptr %p, ptr [[P]]
; CHECK: call i32 @vprintf(ptr @fmt, ptr [[BUF]])
define void @f(i32 %i, double %d, ptr %p) {
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i32 %i, double %d, ptr %p)
  ret void
}

declare i32 @printf(ptr, ...)
