//===- DeviceWarpReductions.h - Warp reductions for the target ------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEWARPREDUCTIONS_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEWARPREDUCTIONS_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mstage {

// Replaces the calls of the __mstage_redux_* builtins (include/mstage/
// builtins.h) with redux.sync where TM's architecture has it (sm_80 and
// later), else with 32 shuffles from the lanes of the mask, each combined
// when its lane is in the mask. The device lowering keeps these calls until
// the architecture is known, as it keeps the streaming loads.
void lowerWarpReductions(llvm::Module &M, const llvm::TargetMachine &TM);

} // namespace mstage

#endif
