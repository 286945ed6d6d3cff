; A stage() site in a loop whose value is the same in every iteration (here
; a capture) is staged: its evaluator computes it from the launch's
; parameters, without the loop, and the body reads the placeholder that the
; JIT folds, in every iteration.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-stage-slicing -S %s | FileCheck %s

; CHECK: @__mstage_stage.0 = external constant [4 x i8], align 4

; The body reads the placeholder in every iteration.
; CHECK-LABEL: define internal void @__mstage_body.k_loop(
; CHECK: loop:
; CHECK-NOT: @stage_eval
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %res, ptr align 4 @__mstage_stage.0, i64 4, i1 false)
; CHECK: br i1 %more, label %loop, label %done

; The evaluator computes the value from the capture, without the loop.
; CHECK-LABEL: define internal void @__mstage_eval.k_loop.0.impl(ptr %0, ptr %1, ptr %2, ptr %3, ptr %4)
; CHECK-NEXT: entry:
; CHECK-NOT: br
; CHECK: %n = load i32, ptr %0
; CHECK-NEXT: store i32 %n, ptr %arg
; CHECK-NEXT: call void @stage_eval(ptr nonnull %res, ptr nonnull %fn, ptr nonnull %arg)
; CHECK-NEXT: [[V:%.*]] = load i32, ptr %res
; CHECK-NEXT: store i32 [[V]], ptr %3
; CHECK-NEXT: ret void

; It takes the launch's parameters (the lambda first), the launch
; configuration and the result.
; CHECK-LABEL: define internal i32 @__mstage_eval.k_loop.0(ptr %0, ptr %1, ptr %2)
; CHECK: [[LAMBDA:%.*]] = load ptr, ptr
; CHECK: call void @__mstage_eval.k_loop.0.impl(ptr [[LAMBDA]], ptr {{%.*}}, ptr %1, ptr %2, ptr

@.kernel = private unnamed_addr constant [14 x i8] c"mstage.kernel\00", section "llvm.metadata"
@.info = private unnamed_addr constant [52 x i8] c"mstage.kernel.info=k_loop\1Fmain::lambda\1Floop.cpp:3:5\00", section "llvm.metadata"
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

; [n](int *out) { int acc = 0; for (int i = 0; i < n; ++i) acc += stage(n); *out = acc; }
define void @entry(ptr %lambda, ptr %outp) !dbg !3 {
entry:
  %fn = alloca i8
  %arg = alloca i32
  %res = alloca i32
  %n = load i32, ptr %lambda, !dbg !5
  br label %loop, !dbg !5

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ], !dbg !5
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ], !dbg !5
  store i32 %n, ptr %arg, !dbg !6
  call void @stage_eval(ptr %res, ptr %fn, ptr %arg), !dbg !6
  %s = load i32, ptr %res, !dbg !6
  %acc.next = add i32 %acc, %s, !dbg !6
  %i.next = add i32 %i, 1, !dbg !5
  %more = icmp slt i32 %i.next, %n, !dbg !5
  br i1 %more, label %loop, label %done, !dbg !5

done:
  %out = load ptr, ptr %outp, !dbg !7
  store i32 %acc.next, ptr %out, !dbg !7
  ret void, !dbg !7
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "loop.cpp", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "entry", scope: !1, file: !1, line: 3, type: !4, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !{})
!5 = !DILocation(line: 5, column: 3, scope: !3)
!6 = !DILocation(line: 6, column: 12, scope: !3)
!7 = !DILocation(line: 7, column: 3, scope: !3)
