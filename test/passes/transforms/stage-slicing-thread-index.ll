; stage() of a value that only the device knows (the thread index) cannot
; be staged: the slicer reports what the value depends on.
;
; RUN: not %opt -load-pass-plugin=%mstage_passes -passes=mstage-stage-slicing -S %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: error: {{.*}}mstage: the value passed to stage() depends on the thread index (Thread::get())

@.kernel = private unnamed_addr constant [14 x i8] c"mstage.kernel\00", section "llvm.metadata"
@.info = private unnamed_addr constant [52 x i8] c"mstage.kernel.info=k_tidx\1Fmain::lambda\1Ftidx.cpp:3:5\00", section "llvm.metadata"
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

declare i32 @__mstage_tid_x()

; [](int *out) { *out = stage(Thread::get().x); }
define void @entry(ptr %lambda, ptr %outp) {
entry:
  %fn = alloca i8
  %arg = alloca i32
  %res = alloca i32
  %t = call i32 @__mstage_tid_x()
  store i32 %t, ptr %arg
  call void @stage_eval(ptr %res, ptr %fn, ptr %arg)
  %s = load i32, ptr %res
  %out = load ptr, ptr %outp
  store i32 %s, ptr %out
  ret void
}
