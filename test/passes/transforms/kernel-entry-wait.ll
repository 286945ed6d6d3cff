; MSTAGE_PDL: the kernel's entry gets griddepcontrol.wait and then
; launch_dependents, after its allocas and before its first load; a kernel
; not named is left alone, and an unknown parameter is an error.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes='mstage-kernel-entry-wait<kernel=k>' -S %s | FileCheck %s
; RUN: not %opt -load-pass-plugin=%mstage_passes -passes='mstage-kernel-entry-wait<arch=sm_90>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %tmp = alloca i32
; CHECK-NEXT: call void @llvm.nvvm.griddepcontrol.wait()
; CHECK-NEXT: call void @llvm.nvvm.griddepcontrol.launch.dependents()
; CHECK-NEXT: %v = load float, ptr addrspace(1) %in
define ptx_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tmp = alloca i32
  %v = load float, ptr addrspace(1) %in
  store float %v, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @other(
; CHECK-NOT: griddepcontrol
; CHECK: ret void
define ptx_kernel void @other(ptr addrspace(1) %out) {
  store float 1.0, ptr addrspace(1) %out
  ret void
}

; BAD: mstage-kernel-entry-wait: unknown parameter 'arch' (kernel)
