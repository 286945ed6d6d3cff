; Each shared_array declaration (its place in the source: file, line,
; column, and its site, the number mstage++ gives each constructor call) is
; one internal global in shared memory (address space 3) of its size and
; alignment; a constructor that passes its parameters on is inlined first,
; so that its call's operands are the declaration's constants. Two calls
; for one declaration get the same global; two declarations at one place
; (one macro expansion) but of different sites get two, named _2 onwards.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-shared-arrays -S %s | FileCheck %s --implicit-check-not=__mstage_shared_array( --implicit-check-not='addrspace(3) global'

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@file = private unnamed_addr constant [6 x i8] c"k.cpp\00"

; CHECK-DAG: @__mstage_shared_L7_C3 = internal addrspace(3) global [1024 x i8] undef, align 16
; CHECK-DAG: @__mstage_shared_L9_C5 = internal addrspace(3) global [12 x i8] undef, align 4
; CHECK-DAG: @__mstage_shared_L11_C3 = internal addrspace(3) global [64 x i8] undef, align 4
; CHECK-DAG: @__mstage_shared_L11_C3_2 = internal addrspace(3) global [64 x i8] undef, align 4

declare ptr @__mstage_shared_array(i64, i32, ptr, i32, i32, i32)

; The shared_array constructor: not constant until inlined.
define internal ptr @construct(i64 %bytes, i32 %align, ptr %file, i32 %line, i32 %col, i32 %site) {
  %p = call ptr @__mstage_shared_array(i64 %bytes, i32 %align, ptr %file, i32 %line, i32 %col, i32 %site)
  ret ptr %p
}

; CHECK-LABEL: define void @k(
; CHECK: store float 1.000000e+00, ptr addrspacecast (ptr addrspace(3) @__mstage_shared_L7_C3 to ptr)
; CHECK: store float 2.000000e+00, ptr addrspacecast (ptr addrspace(3) @__mstage_shared_L7_C3 to ptr)
; CHECK: store i32 3, ptr addrspacecast (ptr addrspace(3) @__mstage_shared_L9_C5 to ptr)
; CHECK: store i32 4, ptr addrspacecast (ptr addrspace(3) @__mstage_shared_L11_C3 to ptr)
; CHECK: store i32 5, ptr addrspacecast (ptr addrspace(3) @__mstage_shared_L11_C3_2 to ptr)
define void @k() {
  %a = call ptr @__mstage_shared_array(i64 1024, i32 16, ptr @file, i32 7, i32 3, i32 1)
  store float 1.0, ptr %a
  %b = call ptr @__mstage_shared_array(i64 1024, i32 16, ptr @file, i32 7, i32 3, i32 1)
  store float 2.0, ptr %b
  %c = call ptr @construct(i64 12, i32 4, ptr @file, i32 9, i32 5, i32 2)
  store i32 3, ptr %c
  %d = call ptr @construct(i64 64, i32 4, ptr @file, i32 11, i32 3, i32 3)
  store i32 4, ptr %d
  %e = call ptr @construct(i64 64, i32 4, ptr @file, i32 11, i32 3, i32 4)
  store i32 5, ptr %e
  ret void
}
