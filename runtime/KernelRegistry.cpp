//===- KernelRegistry.cpp - Kernels registered by the program's objects ---===//
#include "KernelRegistry.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace mstage::rt {
namespace {

struct Registry {
  std::mutex Lock;
  // Node-based: findKernel hands out pointers that a later registration
  // (a library loaded with dlopen) must not move.
  std::unordered_map<const void *, RegisteredKernel> Kernels;
  std::string Problems; // blobs that could not be read, reported at launch
};

Registry &registry() {
  static Registry R; // constructed on first use: registration runs in ctors
  return R;
}

} // namespace

const RegisteredKernel *findKernel(const void *HostEntry, std::string &Why) {
  thread_local const void *LastEntry = nullptr;
  thread_local const RegisteredKernel *Last = nullptr;
  if (HostEntry == LastEntry)
    return Last;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = R.Kernels.find(HostEntry);
  if (It != R.Kernels.end()) {
    LastEntry = HostEntry;
    return Last = &It->second;
  }
  Why = "no device code was registered for this kernel; compile every "
        "source file that launches kernels with mstage++";
  if (!R.Problems.empty())
    Why += " (" + R.Problems + ")";
  return nullptr;
}

} // namespace mstage::rt

using namespace mstage::rt;

extern "C" __attribute__((visibility("default"))) void
__mstage_register_module(const mstage_module_record *Module) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  if (Module->abi_version != MSTAGE_ABI_VERSION) {
    R.Problems += "an object was built for mstage ABI " +
                  std::to_string(Module->abi_version) + ", this runtime is " +
                  std::to_string(MSTAGE_ABI_VERSION) + "; rebuild it. ";
    return;
  }
  for (uint32_t I = 0; I < Module->num_kernels; ++I) {
    const mstage_kernel_record &Rec = Module->kernels[I];
    // The same inline kernel can come from several objects; the first wins.
    if (R.Kernels.count(Rec.host_entry))
      continue;
    auto Blob = mstage::readKernelBlob(static_cast<const uint8_t *>(Rec.blob),
                                       SIZE_MAX);
    if (!Blob) {
      R.Problems += llvm::toString(Blob.takeError()) + ". ";
      continue;
    }
    if (Blob->StageSites.size() != Rec.num_evaluators) {
      R.Problems += "kernel '" + Blob->PrettyName + "' has " +
                    std::to_string(Blob->StageSites.size()) +
                    " stage sites but " + std::to_string(Rec.num_evaluators) +
                    " evaluators. ";
      continue;
    }
    R.Kernels[Rec.host_entry] = RegisteredKernel{
        &Rec, std::move(*Blob), std::make_unique<SpecializationTable>()};
  }
}
