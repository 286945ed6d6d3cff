//===- FastMath.cpp - Fast math for one kernel, as nvcc's --use_fast_math -===//
#include "jit/FastMath.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace mstage::rt {

void markFastMath(Module &M) {
  FastMathFlags Fast;
  Fast.setApproxFunc();
  Fast.setAllowReciprocal();
  Fast.setAllowContract();
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    for (Instruction &I : instructions(F))
      if (isa<FPMathOperator>(I) && I.getType()->getScalarType()->isFloatTy())
        I.setFastMathFlags(I.getFastMathFlags() | Fast);
  }
}

} // namespace mstage::rt
