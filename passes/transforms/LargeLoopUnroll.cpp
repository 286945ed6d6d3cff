//===- LargeLoopUnroll.cpp - Keep a large loop body rolled ----------------===//
#include "transforms/LargeLoopUnroll.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CodeMetrics.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-keep-large-loops"

STATISTIC(NumKeptRolled, "Large loops kept from partial unrolling");

namespace mstage {

bool keepLargeLoopsRolled(Function &F, FunctionAnalysisManager &AM,
                          int OptLevel) {
  auto &LI = AM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return false;
  auto &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  auto &TTI = AM.getResult<TargetIRAnalysis>(F);
  auto &AC = AM.getResult<AssumptionAnalysis>(F);
  OptimizationRemarkEmitter ORE(&F);
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (hasUnrollTransformation(L) != TM_Unspecified)
      continue; // a pragma, or already unrolled
    // The preferences the unroller will use (the JIT's raised threshold
    // included), and the target's own, before the command line's options.
    TargetTransformInfo::UnrollingPreferences UP = gatherUnrollingPreferences(
        L, SE, TTI, nullptr, nullptr, ORE, OptLevel, std::nullopt, std::nullopt,
        std::nullopt, std::nullopt, std::nullopt, std::nullopt);
    TargetTransformInfo::UnrollingPreferences Own = UP;
    TTI.getUnrollingPreferences(L, SE, Own, &ORE);
    if (UP.PartialThreshold <= Own.PartialThreshold)
      continue; // nothing raised
    SmallPtrSet<const Value *, 32> EphValues;
    CodeMetrics::collectEphemeralValues(L, &AC, EphValues);
    UnrollCostEstimator UCE(L, TTI, EphValues, UP.BEInsns);
    const uint64_t Size = UCE.getRolledLoopSize();
    if (Size <= Own.PartialThreshold)
      continue;
    // A few iterations of a known count may still be unrolled fully.
    const unsigned Trips = SE.getSmallConstantTripCount(L);
    if (Trips && uint64_t(Trips) * Size <= UP.Threshold)
      continue;
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << F.getName() << ": loop at "
                      << L->getHeader()->getName() << " of size " << Size
                      << " over " << Own.PartialThreshold << " kept rolled\n");
    L->setLoopAlreadyUnrolled();
    ++NumKeptRolled;
    Changed = true;
  }
  return Changed;
}

PreservedAnalyses KeepLargeLoopsRolledPass::run(Function &F,
                                                FunctionAnalysisManager &AM) {
  // Loop metadata only: no analysis changes.
  keepLargeLoopsRolled(F, AM, OptLevel);
  return PreservedAnalyses::all();
}

} // namespace mstage
