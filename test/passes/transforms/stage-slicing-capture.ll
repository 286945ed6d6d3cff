; stage() of a captured value: the evaluator reads the capture from the
; lambda object, the launch's first parameter, at the capture's offset, and
; the kernel's copy of the body reads the placeholder instead.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-stage-slicing -S %s | FileCheck %s

; CHECK-LABEL: define internal void @__mstage_body.k_capt(
; CHECK-NOT: @stage_eval
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %res, ptr align 4 @__mstage_stage.0, i64 4, i1 false)
; CHECK-NEXT: %s = load i32, ptr %res
; CHECK-NEXT: %v = mul i32 %s, %a

; Only the staged capture is read; the other capture and the output are not.
; CHECK-LABEL: define internal void @__mstage_eval.k_capt.0.impl(ptr %0, ptr %1, ptr %2, ptr %3, ptr %4)
; CHECK-NOT: load i32, ptr %0,
; CHECK: %bp = getelementptr inbounds nuw i8, ptr %0, i64 4
; CHECK-NEXT: %b = load i32, ptr %bp
; CHECK-NEXT: store i32 %b, ptr %arg
; CHECK-NEXT: call void @stage_eval(ptr nonnull %res, ptr nonnull %fn, ptr nonnull %arg)
; CHECK-NEXT: [[V:%.*]] = load i32, ptr %res
; CHECK-NEXT: store i32 [[V]], ptr %3
; CHECK-NEXT: ret void

@.kernel = private unnamed_addr constant [14 x i8] c"mstage.kernel\00", section "llvm.metadata"
@.info = private unnamed_addr constant [52 x i8] c"mstage.kernel.info=k_capt\1Fmain::lambda\1Fcapt.cpp:3:5\00", section "llvm.metadata"
@.stage = private unnamed_addr constant [13 x i8] c"mstage.stage\00", section "llvm.metadata"
@.int = private unnamed_addr constant [28 x i8] c"mstage.stage.info=int\1F1\1F4\1F4\00", section "llvm.metadata"
@llvm.global.annotations = appending global [4 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @entry, ptr @.kernel, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @entry, ptr @.info, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @stage_eval, ptr @.stage, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @stage_eval, ptr @.int, ptr null, i32 0, ptr null }], section "llvm.metadata"

; stage_eval(int *out, const identity *f, const int *arg)
define linkonce_odr void @stage_eval(ptr %out, ptr %f, ptr %arg) noinline {
  %v = load i32, ptr %arg
  store i32 %v, ptr %out
  ret void
}

; [a, b](int *out) { *out = stage(b) * a; }
define void @entry(ptr %lambda, ptr %outp) {
entry:
  %fn = alloca i8
  %arg = alloca i32
  %res = alloca i32
  %a = load i32, ptr %lambda
  %bp = getelementptr inbounds i8, ptr %lambda, i64 4
  %b = load i32, ptr %bp
  store i32 %b, ptr %arg
  call void @stage_eval(ptr %res, ptr %fn, ptr %arg)
  %s = load i32, ptr %res
  %v = mul i32 %s, %a
  %out = load ptr, ptr %outp
  store i32 %v, ptr %out
  ret void
}
