; stage() of the launch configuration: the evaluator reads blockDim.y,
; gridDim.z and the dynamic shared memory size from the mstage_launch_config
; it is given (its second parameter, the impl's after the kernel's), at the
; offsets of the C struct's fields (passes/formats/LaunchConfig.h).
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-stage-slicing -S %s | FileCheck %s

; CHECK-LABEL: define internal void @__mstage_eval.k_conf.0.impl(ptr %0, ptr %1, ptr %2, ptr %3, ptr %4)
; mstage_launch_config::block[1]:
; CHECK: [[BYP:%.*]] = getelementptr i8, ptr %2, i64 16
; CHECK-NEXT: [[BY:%.*]] = load i32, ptr [[BYP]]
; mstage_launch_config::grid[2]:
; CHECK-NEXT: [[GZP:%.*]] = getelementptr i8, ptr %2, i64 8
; CHECK-NEXT: [[GZ:%.*]] = load i32, ptr [[GZP]]
; mstage_launch_config::shared_bytes:
; CHECK-NEXT: [[SHP:%.*]] = getelementptr i8, ptr %2, i64 24
; CHECK-NEXT: [[SH:%.*]] = load i32, ptr [[SHP]]
; CHECK-NEXT: %m = mul i32 [[BY]], [[GZ]]
; CHECK-NEXT: %a = add i32 %m, [[SH]]

; The impl's config is the evaluator's second parameter.
; CHECK-LABEL: define internal i32 @__mstage_eval.k_conf.0(ptr %0, ptr %1, ptr %2)
; CHECK: call void @__mstage_eval.k_conf.0.impl(ptr %{{[0-9]+}}, ptr %{{[0-9]+}}, ptr %1, ptr %2, ptr %{{[0-9]+}})

@.kernel = private unnamed_addr constant [14 x i8] c"mstage.kernel\00", section "llvm.metadata"
@.info = private unnamed_addr constant [52 x i8] c"mstage.kernel.info=k_conf\1Fmain::lambda\1Fconf.cpp:3:5\00", section "llvm.metadata"
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

declare i32 @__mstage_ntid_y()
declare i32 @__mstage_nctaid_z()
declare i32 @__mstage_dynamic_shared_size()

; [](int *out) {
;   *out = stage(blockDim.y * gridDim.z + dynamic_shared_size());
; }
define void @entry(ptr %lambda, ptr %outp) {
entry:
  %fn = alloca i8
  %arg = alloca i32
  %res = alloca i32
  %by = call i32 @__mstage_ntid_y()
  %gz = call i32 @__mstage_nctaid_z()
  %sh = call i32 @__mstage_dynamic_shared_size()
  %m = mul i32 %by, %gz
  %a = add i32 %m, %sh
  store i32 %a, ptr %arg
  call void @stage_eval(ptr %res, ptr %fn, ptr %arg)
  %s = load i32, ptr %res
  %out = load ptr, ptr %outp
  store i32 %s, ptr %out
  ret void
}
