; mstage-specialize gives each stage site's placeholder the bytes its
; evaluator computed (here given as pass parameters), as the JIT does at a
; launch: the placeholders become internal constants that the optimizer
; folds. A value of the wrong size is an error, never a partial fold.
;
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<stage=0:i32:7;stage=1:f64:2.5;stage=2:x:0102>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<stage=0:i32:7;stage=1:f64:2.5;stage=2:x:0102>,instcombine' -S %s | FileCheck %s --check-prefix=FOLDED
; RUN: not %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<stage=0:i64:7>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIZE

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__mstage_stage.0 = internal constant [4 x i8] c"\07\00\00\00", align 4
; CHECK: @__mstage_stage.1 = internal constant [8 x i8] c"\00\00\00\00\00\00\04@", align 8
; CHECK: @__mstage_stage.2 = internal constant [2 x i8] c"\01\02", align 2
@__mstage_stage.0 = external constant [4 x i8], align 4
@__mstage_stage.1 = external constant [8 x i8], align 8
@__mstage_stage.2 = external constant [2 x i8], align 2

; FOLDED-LABEL: define ptx_kernel void @k(
; FOLDED: store i32 7, ptr
; FOLDED: store double 2.500000e+00, ptr
; FOLDED: store i16 513, ptr
define ptx_kernel void @k(ptr byval([8 x i8]) align 8 %outp) {
  %out = load ptr, ptr %outp
  %n = load i32, ptr @__mstage_stage.0
  store i32 %n, ptr %out
  %x = load double, ptr @__mstage_stage.1
  %o1 = getelementptr inbounds i8, ptr %out, i64 8
  store double %x, ptr %o1
  %h = load i16, ptr @__mstage_stage.2
  %o2 = getelementptr inbounds i8, ptr %out, i64 16
  store i16 %h, ptr %o2
  ret void
}

; SIZE: error: mstage: mstage-specialize: stage site 0 holds 4 bytes, the evaluator gave 8
