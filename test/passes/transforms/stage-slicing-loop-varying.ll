; A stage() site in a loop whose value is the loop's variable cannot be
; folded: it is evaluated once per launch, so folding it would give every
; iteration the first iteration's value (the miscompile of the loop bug). The
; slicer reports it, naming the loop, and builds no evaluator.
;
; RUN: not %opt -load-pass-plugin=%mstage_passes -passes=mstage-stage-slicing -S %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: error: loop.cpp:6:12: {{.*}}mstage: this stage() call is in the loop at loop.cpp:5 and its value can change from one iteration to the next
; CHECK-NOT: error:

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

; [n](int *out) { int acc = 0; for (int i = 0; i < n; ++i) acc += stage(i); *out = acc; }
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
  store i32 %i, ptr %arg, !dbg !6
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
