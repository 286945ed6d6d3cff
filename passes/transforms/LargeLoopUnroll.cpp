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
STATISTIC(NumOuterKeptRolled,
          "Loops around a loop of unknown trip count kept rolled");

namespace mstage {

// Whether L holds a loop that the full unroller will not remove (its trip
// count is not a known constant): L's iterations then cannot overlap across
// it, so unrolling L gains no independent work, and when L's trip count
// differs between a warp's threads, the unrolled copies and the leftover
// iterations each run to their slowest thread's count.
static bool holdsRuntimeLoop(const Loop &L, ScalarEvolution &SE) {
  return any_of(L.getLoopsInPreorder(), [&](const Loop *Sub) {
    return Sub != &L && !SE.getSmallConstantTripCount(Sub);
  });
}

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
    const bool Outer = holdsRuntimeLoop(*L, SE);
    if (Size <= Own.PartialThreshold && !Outer)
      continue;
    // A few iterations of a known count may still be unrolled fully.
    const unsigned Trips = SE.getSmallConstantTripCount(L);
    if (Trips && uint64_t(Trips) * Size <= UP.Threshold)
      continue;
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << F.getName() << ": loop at "
                      << L->getHeader()->getName() << " of size " << Size
                      << (Outer
                              ? " around a loop"
                              : " over " + std::to_string(Own.PartialThreshold))
                      << " kept rolled\n");
    L->setLoopAlreadyUnrolled();
    ++(Outer ? NumOuterKeptRolled : NumKeptRolled);
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
