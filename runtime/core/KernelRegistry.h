//===- KernelRegistry.h - Kernels registered by the program's objects -----===//
#ifndef MSTAGE_RUNTIME_CORE_KERNELREGISTRY_H
#define MSTAGE_RUNTIME_CORE_KERNELREGISTRY_H

#include "cache/MemoryCache.h"
#include "core/GenericCode.h"
#include "formats/KernelBlob.h"
#include "mstage/abi.h"
#include "support/RuntimeFailure.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace mstage::rt {

struct RegisteredKernel {
  const mstage_kernel_record *Record = nullptr;
  KernelBlob Blob; // Bitcode points into the program's image
  std::unique_ptr<SpecializationTable> Specializations;
  const mstage_module_record *Module = nullptr; // the module it came from
  GenericCode *Generic = nullptr; // its module's ahead-of-time code
  // Set when the functions it calls in other units were found (at the first
  // lookup that succeeds: DeviceLibrary.h).
  bool ImportsResolved = false;
};

// The kernel whose host entry is HostEntry, or null when the program holds no
// device code for it, or when a function it calls in another unit has no
// device definition or a mismatched one (then Why says what to do). A kernel
// whose library is unloaded is found no more, but its RegisteredKernel is never
// freed, so the result stays valid (and no later kernel gets its address); a
// thread's repeated lookup takes no lock.
const RegisteredKernel *findKernel(const void *HostEntry, std::string &Why);

// E, naming K (support/RuntimeFailure.h).
inline llvm::Error withKernel(llvm::Error E, const RegisteredKernel &K) {
  return withKernel(std::move(E), K.Blob.PrettyName);
}

// "file.cpp:12:5": where stage site I of a kernel is.
std::string siteLocation(const KernelBlob &Blob, uint32_t I);

// The error of a launch of K whose evaluator of site I gave up (abi.h).
llvm::Error evaluatorGaveUp(const RegisteredKernel &K, uint32_t I);

// Loads the generic code of every registered module on the compile pool:
// the module load (measured: most of a cold first launch) overlaps the
// program's start instead of delaying its first launch.
void preloadGenericCode();

} // namespace mstage::rt

#endif
