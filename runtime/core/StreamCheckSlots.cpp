//===- StreamCheckSlots.cpp - The memory a launch's pointers use ----------===//
#include "core/StreamCheckSlots.h"

#include "formats/PointerSlots.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <vector>

namespace mstage::rt::streamcheck {
namespace {

// K's slots that the kernel may write through; all of them when its
// bitcode cannot be read (which a launch would have reported already).
std::vector<PointerSlot> writtenSlots(const RegisteredKernel &K) {
  llvm::LLVMContext Ctx;
  llvm::Expected<std::unique_ptr<llvm::Module>> M = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(K.Blob.Bitcode, K.Blob.Name), Ctx);
  if (!M) {
    llvm::consumeError(M.takeError());
    return K.Blob.PointerSlots;
  }
  const llvm::Function *F = (*M)->getFunction(K.Blob.Name);
  assert(F && "a kernel's bitcode defines the kernel");
  if (!F)
    return K.Blob.PointerSlots;
  return findWrittenPointerSlots(*F);
}

// Per kernel, whether each of its slots is written; kernels are never freed
// (KernelRegistry.h), so their addresses stay valid keys.
llvm::DenseMap<const RegisteredKernel *, std::vector<bool>> &writtenByKernel() {
  static auto *Known =
      new llvm::DenseMap<const RegisteredKernel *, std::vector<bool>>;
  return *Known;
}

const std::vector<bool> &slotWrites(const RegisteredKernel &K) {
  auto [It, New] = writtenByKernel().try_emplace(&K);
  if (New) {
    std::vector<PointerSlot> Written = writtenSlots(K);
    for (const PointerSlot &S : K.Blob.PointerSlots)
      It->second.push_back(
          std::binary_search(Written.begin(), Written.end(), S));
  }
  return It->second;
}

} // namespace

void slotPointers(const RegisteredKernel &K, void *const *Params,
                  const uint32_t *ParamSizes, uint32_t NumParams,
                  llvm::SmallVectorImpl<SlotPointer> &Out) {
  const std::vector<PointerSlot> &Slots = K.Blob.PointerSlots;
  if (Slots.empty())
    return;
  const std::vector<bool> &Writes = slotWrites(K);
  for (size_t I = 0; I < Slots.size(); ++I) {
    std::optional<uintptr_t> P =
        readPointerSlot(Slots[I], Params, ParamSizes, NumParams);
    if (P && *P)
      Out.push_back({*P, Writes[I], /*Argument=*/Slots[I].Param != 0});
  }
}

} // namespace mstage::rt::streamcheck
