; The JIT raises LLVM's partial-unroll threshold (600) so that small loop
; bodies unroll 8-16 times; mstage-keep-large-loops marks a loop whose body
; is over NVPTX's own partial threshold (75 at O3) not to be unrolled, so
; that the raised threshold does not unroll it 2-4 times: the large loop
; gets llvm.loop.unroll.disable; the small loop, a loop with an unroll
; pragma and a large loop of two iterations (fully unrolled) do not. Without
; the raised threshold nothing is marked. Then the unroller keeps the large
; loop rolled and still unrolls the small one; without the pass it unrolls
; the large one too.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -unroll-partial-threshold=600 -passes=mstage-keep-large-loops -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-keep-large-loops -S %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt -load-pass-plugin=%mstage_passes -unroll-partial-threshold=600 -passes='mstage-keep-large-loops,loop-unroll<O3>' -S %s | FileCheck %s --check-prefix=UNROLL
; RUN: %opt -load-pass-plugin=%mstage_passes -unroll-partial-threshold=600 -passes='loop-unroll<O3>' -S %s | FileCheck %s --check-prefix=RAISED

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @large(
; CHECK: br i1 %done, label %exit, label %loop, !llvm.loop [[LARGE:![0-9]+]]
; CHECK-LABEL: define void @small(
; CHECK: br i1 %done, label %exit, label %loop{{$}}
; CHECK-LABEL: define void @pragma(
; CHECK: br i1 %done, label %exit, label %loop, !llvm.loop [[PRAGMA:![0-9]+]]
; CHECK-LABEL: define void @twice(
; CHECK: br i1 %done, label %exit, label %loop{{$}}
; CHECK-DAG: [[LARGE]] = distinct !{{.*}}[[DISABLE:![0-9]+]]
; CHECK-DAG: [[DISABLE]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: [[PRAGMA]] = distinct !{[[PRAGMA]], [[COUNT:![0-9]+]]}
; CHECK-DAG: [[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}

; DEFAULT-NOT: llvm.loop.unroll.disable

; UNROLL-LABEL: define void @large(
; UNROLL-NOT: %v99.1 =
; UNROLL-LABEL: define void @small(
; UNROLL: %s.1 = fadd

; RAISED-LABEL: define void @large(
; RAISED: %v99.1 = fmul

define void @large(ptr %p, float %c, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds float, ptr %p, i32 %i
  %x = load float, ptr %a, align 4
  %v0 = fadd float %x, %c
  %v1 = fmul float %v0, %c
  %v2 = fadd float %v1, %c
  %v3 = fmul float %v2, %c
  %v4 = fadd float %v3, %c
  %v5 = fmul float %v4, %c
  %v6 = fadd float %v5, %c
  %v7 = fmul float %v6, %c
  %v8 = fadd float %v7, %c
  %v9 = fmul float %v8, %c
  %v10 = fadd float %v9, %c
  %v11 = fmul float %v10, %c
  %v12 = fadd float %v11, %c
  %v13 = fmul float %v12, %c
  %v14 = fadd float %v13, %c
  %v15 = fmul float %v14, %c
  %v16 = fadd float %v15, %c
  %v17 = fmul float %v16, %c
  %v18 = fadd float %v17, %c
  %v19 = fmul float %v18, %c
  %v20 = fadd float %v19, %c
  %v21 = fmul float %v20, %c
  %v22 = fadd float %v21, %c
  %v23 = fmul float %v22, %c
  %v24 = fadd float %v23, %c
  %v25 = fmul float %v24, %c
  %v26 = fadd float %v25, %c
  %v27 = fmul float %v26, %c
  %v28 = fadd float %v27, %c
  %v29 = fmul float %v28, %c
  %v30 = fadd float %v29, %c
  %v31 = fmul float %v30, %c
  %v32 = fadd float %v31, %c
  %v33 = fmul float %v32, %c
  %v34 = fadd float %v33, %c
  %v35 = fmul float %v34, %c
  %v36 = fadd float %v35, %c
  %v37 = fmul float %v36, %c
  %v38 = fadd float %v37, %c
  %v39 = fmul float %v38, %c
  %v40 = fadd float %v39, %c
  %v41 = fmul float %v40, %c
  %v42 = fadd float %v41, %c
  %v43 = fmul float %v42, %c
  %v44 = fadd float %v43, %c
  %v45 = fmul float %v44, %c
  %v46 = fadd float %v45, %c
  %v47 = fmul float %v46, %c
  %v48 = fadd float %v47, %c
  %v49 = fmul float %v48, %c
  %v50 = fadd float %v49, %c
  %v51 = fmul float %v50, %c
  %v52 = fadd float %v51, %c
  %v53 = fmul float %v52, %c
  %v54 = fadd float %v53, %c
  %v55 = fmul float %v54, %c
  %v56 = fadd float %v55, %c
  %v57 = fmul float %v56, %c
  %v58 = fadd float %v57, %c
  %v59 = fmul float %v58, %c
  %v60 = fadd float %v59, %c
  %v61 = fmul float %v60, %c
  %v62 = fadd float %v61, %c
  %v63 = fmul float %v62, %c
  %v64 = fadd float %v63, %c
  %v65 = fmul float %v64, %c
  %v66 = fadd float %v65, %c
  %v67 = fmul float %v66, %c
  %v68 = fadd float %v67, %c
  %v69 = fmul float %v68, %c
  %v70 = fadd float %v69, %c
  %v71 = fmul float %v70, %c
  %v72 = fadd float %v71, %c
  %v73 = fmul float %v72, %c
  %v74 = fadd float %v73, %c
  %v75 = fmul float %v74, %c
  %v76 = fadd float %v75, %c
  %v77 = fmul float %v76, %c
  %v78 = fadd float %v77, %c
  %v79 = fmul float %v78, %c
  %v80 = fadd float %v79, %c
  %v81 = fmul float %v80, %c
  %v82 = fadd float %v81, %c
  %v83 = fmul float %v82, %c
  %v84 = fadd float %v83, %c
  %v85 = fmul float %v84, %c
  %v86 = fadd float %v85, %c
  %v87 = fmul float %v86, %c
  %v88 = fadd float %v87, %c
  %v89 = fmul float %v88, %c
  %v90 = fadd float %v89, %c
  %v91 = fmul float %v90, %c
  %v92 = fadd float %v91, %c
  %v93 = fmul float %v92, %c
  %v94 = fadd float %v93, %c
  %v95 = fmul float %v94, %c
  %v96 = fadd float %v95, %c
  %v97 = fmul float %v96, %c
  %v98 = fadd float %v97, %c
  %v99 = fmul float %v98, %c
  store float %v99, ptr %a, align 4
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @small(ptr %p, float %c, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds float, ptr %p, i32 %i
  %x = load float, ptr %a, align 4
  %s = fadd float %x, %c
  store float %s, ptr %a, align 4
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @pragma(ptr %p, float %c, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds float, ptr %p, i32 %i
  %x = load float, ptr %a, align 4
  %v0 = fadd float %x, %c
  %v1 = fmul float %v0, %c
  %v2 = fadd float %v1, %c
  %v3 = fmul float %v2, %c
  %v4 = fadd float %v3, %c
  %v5 = fmul float %v4, %c
  %v6 = fadd float %v5, %c
  %v7 = fmul float %v6, %c
  %v8 = fadd float %v7, %c
  %v9 = fmul float %v8, %c
  %v10 = fadd float %v9, %c
  %v11 = fmul float %v10, %c
  %v12 = fadd float %v11, %c
  %v13 = fmul float %v12, %c
  %v14 = fadd float %v13, %c
  %v15 = fmul float %v14, %c
  %v16 = fadd float %v15, %c
  %v17 = fmul float %v16, %c
  %v18 = fadd float %v17, %c
  %v19 = fmul float %v18, %c
  %v20 = fadd float %v19, %c
  %v21 = fmul float %v20, %c
  %v22 = fadd float %v21, %c
  %v23 = fmul float %v22, %c
  %v24 = fadd float %v23, %c
  %v25 = fmul float %v24, %c
  %v26 = fadd float %v25, %c
  %v27 = fmul float %v26, %c
  %v28 = fadd float %v27, %c
  %v29 = fmul float %v28, %c
  %v30 = fadd float %v29, %c
  %v31 = fmul float %v30, %c
  %v32 = fadd float %v31, %c
  %v33 = fmul float %v32, %c
  %v34 = fadd float %v33, %c
  %v35 = fmul float %v34, %c
  %v36 = fadd float %v35, %c
  %v37 = fmul float %v36, %c
  %v38 = fadd float %v37, %c
  %v39 = fmul float %v38, %c
  %v40 = fadd float %v39, %c
  %v41 = fmul float %v40, %c
  %v42 = fadd float %v41, %c
  %v43 = fmul float %v42, %c
  %v44 = fadd float %v43, %c
  %v45 = fmul float %v44, %c
  %v46 = fadd float %v45, %c
  %v47 = fmul float %v46, %c
  %v48 = fadd float %v47, %c
  %v49 = fmul float %v48, %c
  %v50 = fadd float %v49, %c
  %v51 = fmul float %v50, %c
  %v52 = fadd float %v51, %c
  %v53 = fmul float %v52, %c
  %v54 = fadd float %v53, %c
  %v55 = fmul float %v54, %c
  %v56 = fadd float %v55, %c
  %v57 = fmul float %v56, %c
  %v58 = fadd float %v57, %c
  %v59 = fmul float %v58, %c
  %v60 = fadd float %v59, %c
  %v61 = fmul float %v60, %c
  %v62 = fadd float %v61, %c
  %v63 = fmul float %v62, %c
  %v64 = fadd float %v63, %c
  %v65 = fmul float %v64, %c
  %v66 = fadd float %v65, %c
  %v67 = fmul float %v66, %c
  %v68 = fadd float %v67, %c
  %v69 = fmul float %v68, %c
  %v70 = fadd float %v69, %c
  %v71 = fmul float %v70, %c
  %v72 = fadd float %v71, %c
  %v73 = fmul float %v72, %c
  %v74 = fadd float %v73, %c
  %v75 = fmul float %v74, %c
  %v76 = fadd float %v75, %c
  %v77 = fmul float %v76, %c
  %v78 = fadd float %v77, %c
  %v79 = fmul float %v78, %c
  %v80 = fadd float %v79, %c
  %v81 = fmul float %v80, %c
  %v82 = fadd float %v81, %c
  %v83 = fmul float %v82, %c
  %v84 = fadd float %v83, %c
  %v85 = fmul float %v84, %c
  %v86 = fadd float %v85, %c
  %v87 = fmul float %v86, %c
  %v88 = fadd float %v87, %c
  %v89 = fmul float %v88, %c
  %v90 = fadd float %v89, %c
  %v91 = fmul float %v90, %c
  %v92 = fadd float %v91, %c
  %v93 = fmul float %v92, %c
  %v94 = fadd float %v93, %c
  %v95 = fmul float %v94, %c
  %v96 = fadd float %v95, %c
  %v97 = fmul float %v96, %c
  %v98 = fadd float %v97, %c
  %v99 = fmul float %v98, %c
  store float %v99, ptr %a, align 4
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !0
exit:
  ret void
}

define void @twice(ptr %p, float %c) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds float, ptr %p, i32 %i
  %x = load float, ptr %a, align 4
  %v0 = fadd float %x, %c
  %v1 = fmul float %v0, %c
  %v2 = fadd float %v1, %c
  %v3 = fmul float %v2, %c
  %v4 = fadd float %v3, %c
  %v5 = fmul float %v4, %c
  %v6 = fadd float %v5, %c
  %v7 = fmul float %v6, %c
  %v8 = fadd float %v7, %c
  %v9 = fmul float %v8, %c
  %v10 = fadd float %v9, %c
  %v11 = fmul float %v10, %c
  %v12 = fadd float %v11, %c
  %v13 = fmul float %v12, %c
  %v14 = fadd float %v13, %c
  %v15 = fmul float %v14, %c
  %v16 = fadd float %v15, %c
  %v17 = fmul float %v16, %c
  %v18 = fadd float %v17, %c
  %v19 = fmul float %v18, %c
  %v20 = fadd float %v19, %c
  %v21 = fmul float %v20, %c
  %v22 = fadd float %v21, %c
  %v23 = fmul float %v22, %c
  %v24 = fadd float %v23, %c
  %v25 = fmul float %v24, %c
  %v26 = fadd float %v25, %c
  %v27 = fmul float %v26, %c
  %v28 = fadd float %v27, %c
  %v29 = fmul float %v28, %c
  %v30 = fadd float %v29, %c
  %v31 = fmul float %v30, %c
  %v32 = fadd float %v31, %c
  %v33 = fmul float %v32, %c
  %v34 = fadd float %v33, %c
  %v35 = fmul float %v34, %c
  %v36 = fadd float %v35, %c
  %v37 = fmul float %v36, %c
  %v38 = fadd float %v37, %c
  %v39 = fmul float %v38, %c
  %v40 = fadd float %v39, %c
  %v41 = fmul float %v40, %c
  %v42 = fadd float %v41, %c
  %v43 = fmul float %v42, %c
  %v44 = fadd float %v43, %c
  %v45 = fmul float %v44, %c
  %v46 = fadd float %v45, %c
  %v47 = fmul float %v46, %c
  %v48 = fadd float %v47, %c
  %v49 = fmul float %v48, %c
  %v50 = fadd float %v49, %c
  %v51 = fmul float %v50, %c
  %v52 = fadd float %v51, %c
  %v53 = fmul float %v52, %c
  %v54 = fadd float %v53, %c
  %v55 = fmul float %v54, %c
  %v56 = fadd float %v55, %c
  %v57 = fmul float %v56, %c
  %v58 = fadd float %v57, %c
  %v59 = fmul float %v58, %c
  %v60 = fadd float %v59, %c
  %v61 = fmul float %v60, %c
  %v62 = fadd float %v61, %c
  %v63 = fmul float %v62, %c
  %v64 = fadd float %v63, %c
  %v65 = fmul float %v64, %c
  %v66 = fadd float %v65, %c
  %v67 = fmul float %v66, %c
  %v68 = fadd float %v67, %c
  %v69 = fmul float %v68, %c
  %v70 = fadd float %v69, %c
  %v71 = fmul float %v70, %c
  %v72 = fadd float %v71, %c
  %v73 = fmul float %v72, %c
  %v74 = fadd float %v73, %c
  %v75 = fmul float %v74, %c
  %v76 = fadd float %v75, %c
  %v77 = fmul float %v76, %c
  %v78 = fadd float %v77, %c
  %v79 = fmul float %v78, %c
  %v80 = fadd float %v79, %c
  %v81 = fmul float %v80, %c
  %v82 = fadd float %v81, %c
  %v83 = fmul float %v82, %c
  %v84 = fadd float %v83, %c
  %v85 = fmul float %v84, %c
  %v86 = fadd float %v85, %c
  %v87 = fmul float %v86, %c
  %v88 = fadd float %v87, %c
  %v89 = fmul float %v88, %c
  %v90 = fadd float %v89, %c
  %v91 = fmul float %v90, %c
  %v92 = fadd float %v91, %c
  %v93 = fmul float %v92, %c
  %v94 = fadd float %v93, %c
  %v95 = fmul float %v94, %c
  %v96 = fadd float %v95, %c
  %v97 = fmul float %v96, %c
  %v98 = fadd float %v97, %c
  %v99 = fmul float %v98, %c
  store float %v99, ptr %a, align 4
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 2
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.count", i32 4}
