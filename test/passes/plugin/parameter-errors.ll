; A pass parameter that does not parse is one error naming the pass and the
; parameter, and nothing runs.
;
; RUN: not %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<grid=4x1x1;stage=0:i33:1>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDTH
; RUN: not %opt -load-pass-plugin=%mstage_passes '-passes=mstage-specialize<stage=1:i32:1>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=GAP
; RUN: not %opt -load-pass-plugin=%mstage_passes '-passes=mstage-launch-facts<facts=A16>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FACTS
; RUN: not %opt -load-pass-plugin=%mstage_passes '-passes=mstage-capture-in-memory<size=3>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEY

; WIDTH: error: mstage: mstage-specialize: 'stage=0:i33:1': the type must be i8, i16, i32, i64, f32, f64 or x
; GAP: error: mstage: mstage-specialize: no value for stage site 0; give every site from 0 (stage=0:TYPE:VALUE)
; FACTS: error: mstage: mstage-launch-facts: 'A16' gives 1 views; the kernel has 2 pointer slots
; KEY: error: mstage: mstage-capture-in-memory: unknown parameter 'size' (kernel, arch, staged-bytes, params, mask)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr byval([8 x i8]) align 8 noalias %lambda, ptr byval([8 x i8]) align 8 noalias %outp) {
  %in = load ptr, ptr %lambda
  %out = load ptr, ptr %outp
  %v = load float, ptr %in, align 4
  store float %v, ptr %out, align 4
  ret void
}
