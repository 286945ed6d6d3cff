//===- KernelTraits.cpp - What a kernel's device code asks of its launch --===//
#include "core/KernelTraits.h"
#include "core/KernelRegistry.h"
#include "support/KeptStatics.h"

#include "transforms/DeviceBuiltins.h"
#include "transforms/DeviceGlobals.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include <mutex>
#include <unordered_map>

namespace mstage::rt {

// Only the declarations and global variables are read, not the bodies.
static KernelTraits scanKernelTraits(const KernelBlob &Blob) {
  KernelTraits T;
  llvm::LLVMContext Ctx;
  auto M = llvm::getLazyBitcodeModule(
      llvm::MemoryBufferRef(Blob.Bitcode, Blob.Name), Ctx);
  if (!M) {
    llvm::consumeError(M.takeError());
    return T; // unreadable: fibers are always right; the GPU's load fails
  }
  static const char *const Synchronizing[] = {
      "llvm.nvvm.barrier", "llvm.nvvm.bar.",       "llvm.nvvm.vote.",
      "llvm.nvvm.shfl.",   "llvm.nvvm.activemask", "llvm.nvvm.match.",
      "llvm.nvvm.wmma.",   "__mstage_redux_"};
  T.Synchronizes = false;
  for (const llvm::Function &F : **M)
    for (const char *Prefix : Synchronizing)
      if (F.getName().starts_with(Prefix))
        T.Synchronizes = true;
  T.SyncsGrid = (*M)->getNamedGlobal(GridBarrierName) != nullptr;
  static const char *const Heap[] = {"malloc",
                                     "free",
                                     "_Znwm",
                                     "_Znam",
                                     "_ZnwmRKSt9nothrow_t",
                                     "_ZnamRKSt9nothrow_t"};
  T.UsesDeviceState =
      llvm::any_of((*M)->globals(),
                   [](const llvm::GlobalVariable &GV) {
                     return isDeviceGlobal(GV) ||
                            GV.getName().starts_with("__mstage_global_");
                   }) ||
      llvm::any_of(Heap, [&](const char *Name) {
        return (*M)->getFunction(Name) != nullptr;
      });
  return T;
}

const KernelTraits &kernelTraits(const RegisteredKernel &K) {
  thread_local const RegisteredKernel *Last = nullptr;
  thread_local const KernelTraits *LastTraits = nullptr;
  if (&K == Last)
    return *LastTraits;
  // Never destroyed: static destructors launch too. The map's nodes stay
  // where they are, so the references it gives out stay valid.
  static std::mutex &Lock = *new std::mutex;
  static auto &Known =
      *new std::unordered_map<const RegisteredKernel *, KernelTraits>;
  std::lock_guard<std::mutex> G(Lock);
  auto [It, New] = Known.try_emplace(&K);
  if (New) {
    LlvmStaticsKept Kept;
    It->second = scanKernelTraits(K.Blob);
  }
  Last = &K;
  LastTraits = &It->second;
  return It->second;
}

} // namespace mstage::rt
