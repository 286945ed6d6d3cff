//===- DeviceAsyncCopies.h - Asynchronous copies for the target -----------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEASYNCCOPIES_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEASYNCCOPIES_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mstage {

// Replaces the calls of the __mstage_cp_async_* builtins (include/mstage/
// builtins.h, for mstage/memcpy_async.hpp) with cp.async, cp.async.commit_
// group and cp.async.wait_group where TM's architecture has them (sm_80 and
// later), else with a load and a store per copy and nothing for the commit
// and the wait. The device lowering keeps these calls until the architecture
// is known, as it keeps the streaming loads.
void lowerAsyncCopies(llvm::Module &M, const llvm::TargetMachine &TM);

} // namespace mstage

#endif
