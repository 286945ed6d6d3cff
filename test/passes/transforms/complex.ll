; std::complex * and / call C Annex G's __mulsc3, __muldc3, __divsc3 and
; __divdc3, which the GPU has no library for: the pass defines each one the
; module declares (in the host ABI's shapes: <2 x float> and a struct of two
; doubles) as an inlinable internal function. A declaration of another
; shape stays a declaration.
;
; RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-complex -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare <2 x float> @__mulsc3(float, float, float, float)
declare { double, double } @__divdc3(double, double, double, double)
declare float @__divsc3(float, float, float, float)

define <2 x float> @mul(float %a, float %b, float %c, float %d) {
  %r = call <2 x float> @__mulsc3(float %a, float %b, float %c, float %d)
  ret <2 x float> %r
}

define { double, double } @div(double %a, double %b, double %c, double %d) {
  %r = call { double, double } @__divdc3(double %a, double %b, double %c, double %d)
  ret { double, double } %r
}

define float @odd(float %a) {
  %r = call float @__divsc3(float %a, float %a, float %a, float %a)
  ret float %r
}

; CHECK-LABEL: define internal <2 x float> @__mulsc3(float %0, float %1, float %2, float %3)
; CHECK-SAME: #[[INLINE:[0-9]+]]
; CHECK: fmul float %0, %2
; CHECK: insertelement <2 x float>
; CHECK-LABEL: define internal { double, double } @__divdc3(double %0, double %1, double %2, double %3)
; CHECK-SAME: #[[INLINE]]
; CHECK: fdiv double
; CHECK: insertvalue { double, double }
; CHECK: declare float @__divsc3(float, float, float, float)
; CHECK: attributes #[[INLINE]] = { alwaysinline }
