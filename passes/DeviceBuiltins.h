//===- DeviceBuiltins.h - Map mstage builtins onto NVVM intrinsics --------===//
#ifndef MSTAGE_PASSES_DEVICEBUILTINS_H
#define MSTAGE_PASSES_DEVICEBUILTINS_H

namespace llvm {
class Module;
}

namespace mstage {

// The symbol of the launch's dynamic shared memory in device modules.
inline constexpr const char *DynamicSharedName = "__mstage_dynamic_shared";

// Replaces calls to the __mstage_* builtins of include/mstage/builtins.h with
// NVVM special-register reads, barriers and the dynamic shared memory symbol
// (address space 3).
void lowerDeviceBuiltins(llvm::Module &M);

} // namespace mstage

#endif
