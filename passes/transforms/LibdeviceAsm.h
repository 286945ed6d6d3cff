//===- LibdeviceAsm.h - libdevice's asm as NVVM intrinsics ------*- C++ -*-===//
//
// libdevice's powf and logf take a reciprocal with inline asm
// ("rcp.approx.ftz.f32"), which LLVM may not move: the logarithm of a
// loop-invariant base stays in the loop that holds it (issue 34's Adam
// step: log(beta) computed per element, its partial results held in
// registers through the element loop). The same instruction as the
// intrinsic llvm.nvvm.rcp.approx.ftz.f, declared speculatable (it cannot
// trap), is hoisted with the rest of the logarithm.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_LIBDEVICEASM_H
#define MSTAGE_PASSES_TRANSFORMS_LIBDEVICEASM_H

namespace llvm {
class Module;
} // namespace llvm

namespace mstage {

// Replaces M's inline asm "rcp.approx.ftz.f32" by the NVVM intrinsic.
// Returns how many calls it replaced.
unsigned useRcpIntrinsic(llvm::Module &M);

} // namespace mstage

#endif
