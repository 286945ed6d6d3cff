//===- ScanKernelTraits.cpp - Finds a kernel's traits in its device module ===//
#include "transforms/ScanKernelTraits.h"
#include "transforms/DeviceBuiltins.h"
#include "transforms/DeviceGlobals.h"
#include "transforms/DeviceSharedArrays.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"

namespace mstage {

KernelTraits scanKernelTraits(const llvm::Module &M) {
  static const char *const Synchronizing[] = {
      "llvm.nvvm.barrier", "llvm.nvvm.bar.",       "llvm.nvvm.vote.",
      "llvm.nvvm.shfl.",   "llvm.nvvm.activemask", "llvm.nvvm.match.",
      "llvm.nvvm.wmma.",   "__mstage_redux_"};
  static const char *const Heap[] = {"malloc",
                                     "free",
                                     "_Znwm",
                                     "_Znam",
                                     "_ZnwmRKSt9nothrow_t",
                                     "_ZnamRKSt9nothrow_t"};
  KernelTraits T;
  T.Synchronizes = llvm::any_of(M, [](const llvm::Function &F) {
    return llvm::any_of(Synchronizing, [&](const char *Prefix) {
      return F.getName().starts_with(Prefix);
    });
  });
  T.SyncsGrid = M.getNamedGlobal(GridBarrierName) != nullptr;
  T.UsesDeviceState =
      llvm::any_of(M.globals(),
                   [](const llvm::GlobalVariable &GV) {
                     // A unit's device globals are in each of its kernels'
                     // modules; only those the kernel uses count.
                     return (isDeviceGlobal(GV) ||
                             GV.getName().starts_with("__mstage_global_")) &&
                            !GV.use_empty();
                   }) ||
      llvm::any_of(Heap, [&](const char *Name) {
        return M.getFunction(Name) != nullptr;
      });
  T.StaticSharedBytes = staticSharedBytes(M);
  return T;
}

} // namespace mstage
