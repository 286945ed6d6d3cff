//===- LargeLoopUnroll.h - Keep a large loop body rolled ---------*- C++
//-*-===//
//
// The JIT raises LLVM's partial-unroll threshold (runtime/jit/JitCompiler.cpp)
// so that a small loop body is unrolled 8-16 times. Under the raised
// threshold a large body is still unrolled 2-4 times, which NVPTX's own
// threshold would not do and nvcc does not do: a long per-level loop of a
// weather kernel unrolled twice had 48 registers and 3082 PTX instructions
// where nvcc's code has 43 and 1671. Such a body has independent work of
// its own; unrolling it doubles its code and the values live across it.
// Before LLVM's late loop unroller runs, this marks each loop whose body is
// over the target's own partial-unroll threshold as not to be unrolled,
// unless the unroller would unroll it fully or the source asks for
// unrolling (a pragma). It marks so, too, a loop of any size that holds a
// loop of unknown trip count (a search): the xs benchmark's loop over a
// material's nuclides, unrolled 8 times around its binary search, made a
// warp whose threads have different counts run 1.15 times the iterations.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_LARGELOOPUNROLL_H
#define MSTAGE_PASSES_TRANSFORMS_LARGELOOPUNROLL_H

#include "llvm/IR/PassManager.h"

namespace mstage {

// Marks F's large loops and its loops around a loop of unknown trip count
// llvm.loop.unroll.disable (see above), sizing them as LLVM's unroller does
// at optimization level OptLevel. Returns whether it marked any.
bool keepLargeLoopsRolled(llvm::Function &F, llvm::FunctionAnalysisManager &AM,
                          int OptLevel);

// keepLargeLoopsRolled as a pass: the device pipeline runs it where the
// vectorizer starts (before the late unroller), opt as
// mstage-keep-large-loops.
struct KeepLargeLoopsRolledPass
    : llvm::PassInfoMixin<KeepLargeLoopsRolledPass> {
  explicit KeepLargeLoopsRolledPass(int OptLevel = 3) : OptLevel(OptLevel) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
  int OptLevel;
};

} // namespace mstage

#endif
