; A small struct copy of a constant length becomes loads and then stores,
; as wide as both alignments allow (a float4: one 16-byte access; a 12-byte
; struct at 4: three, all loaded before any is stored, as a memmove needs),
; so that the launch facts can mark the loads. Volatile copies and copies
; over 64 bytes stay calls.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-small-copies -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: @float4(
; CHECK-NOT: memcpy
; CHECK: [[V:%.*]] = load <4 x i32>, ptr {{%.*}}, align 16
; CHECK: store <4 x i32> [[V]], ptr {{%.*}}, align 16
; CHECK-NEXT: ret void
define void @float4(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %d, ptr align 16 %s, i64 16, i1 false)
  ret void
}

; CHECK-LABEL: @struct12(
; CHECK-NOT: memmove
; CHECK: [[A:%.*]] = load i32, ptr {{%.*}}, align 8
; CHECK: [[P1:%.*]] = getelementptr inbounds i8, ptr %s, i64 4
; CHECK-NEXT: [[B:%.*]] = load i32, ptr [[P1]], align 4
; CHECK-NEXT: [[P2:%.*]] = getelementptr inbounds i8, ptr %s, i64 8
; CHECK-NEXT: [[C:%.*]] = load i32, ptr [[P2]], align 8
; CHECK: store i32 [[A]], ptr {{%.*}}, align 4
; CHECK: store i32 [[B]], ptr {{%.*}}, align 4
; CHECK: store i32 [[C]], ptr {{%.*}}, align 4
; CHECK-NEXT: ret void
define void @struct12(ptr %d, ptr %s) {
  call void @llvm.memmove.p0.p0.i64(ptr align 4 %d, ptr align 8 %s, i64 12, i1 false)
  ret void
}

; CHECK-LABEL: @large(
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %d, ptr align 16 %s, i64 65, i1 false)
define void @large(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %d, ptr align 16 %s, i64 65, i1 false)
  ret void
}

; CHECK-LABEL: @volatile(
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %d, ptr align 16 %s, i64 16, i1 true)
define void @volatile(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %d, ptr align 16 %s, i64 16, i1 true)
  ret void
}
