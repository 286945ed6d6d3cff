//===- FastMath.h - Fast math for one kernel, as nvcc's --use_fast_math ---===//
#ifndef MSTAGE_RUNTIME_JIT_FASTMATH_H
#define MSTAGE_RUNTIME_JIT_FASTMATH_H

namespace llvm {
class Module;
}

namespace mstage::rt {

// Marks the single-precision arithmetic of every function in M as NVPTX
// needs it for nvcc's fast math (-ftz=true -prec-div=false
// -prec-sqrt=false): denormals flushed ("denormal-fp-math-f32"), division,
// sqrt and the sin/cos/exp2/log2 intrinsics approximate (afn, arcp), and
// multiply-adds fused (contract). Double precision stays IEEE, as in nvcc.
// Calls to libdevice are chosen separately (__nv_fast_* functions).
void markFastMath(llvm::Module &M);

} // namespace mstage::rt

#endif
