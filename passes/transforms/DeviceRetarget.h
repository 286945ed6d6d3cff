//===- DeviceRetarget.h - Turn host IR into nvptx64 device IR -------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICERETARGET_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICERETARGET_H

#include "llvm/ADT/SetVector.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <memory>

namespace llvm {
class GlobalValue;
class Module;
} // namespace llvm

namespace mstage {

inline constexpr const char *NVPTXTriple = "nvptx64-nvidia-cuda";
inline constexpr const char *NVPTXDataLayout =
    "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64";

// Sets the nvptx64 triple and data layout, strips host-only attributes
// (optnone, noinline, target-cpu, target-features, uwtable, stack
// protectors), turns invokes into calls (a kernel cannot throw), and drops
// comdats and host module flags; debug information becomes line directives
// (DeviceDebugInfo.h).
void retargetToNVPTX(llvm::Module &M);

// A copy of the part of host module M that device code reaches (Reached),
// without the host's lists of annotations, used globals and constructors.
std::unique_ptr<llvm::Module>
cloneReached(const llvm::Module &M,
             const llvm::SetVector<llvm::GlobalValue *> &Reached,
             llvm::ValueToValueMapTy &VMap);

} // namespace mstage

#endif
