; Retargeting turns host IR into nvptx64 IR: the triple and data layout, no
; host-only attributes (optnone, noinline, target-cpu, ...), no comdats, no
; exception handling (a kernel cannot throw: invokes become calls and their
; landing pads go), and of the module flags only wchar_size.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-retarget -S %s | FileCheck %s --implicit-check-not=target-cpu --implicit-check-not=uwtable --implicit-check-not=comdat --implicit-check-not=landingpad --implicit-check-not='personality ptr'

; CHECK: target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
; CHECK: target triple = "nvptx64-nvidia-cuda"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$body = comdat any

declare void @g()
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define linkonce_odr void @body()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @g()
; CHECK-NEXT: br label %ok
; CHECK: ok:
; CHECK-NEXT: ret void
define linkonce_odr void @body() #0 comdat personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret void
lp:
  %e = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %e
}

attributes #0 = { noinline optnone uwtable "target-cpu"="x86-64" "frame-pointer"="all" }

; CHECK: !llvm.module.flags = !{[[W:![0-9]+]]}
; CHECK: [[W]] = !{i32 1, !"wchar_size", i32 4}
!llvm.module.flags = !{!0, !1}
!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"uwtable", i32 2}
