//===- GenericCode.h - A module's ahead-of-time generic kernels -----------===//
//
// mstage++ embeds each unit's kernels compiled unfolded
// (passes/formats/AotImage.h): their staged values come in one trailing
// parameter, the launch's staged bytes. A launch whose specialization is still
// compiling runs that code. The images are read on first use: the one for this
// device is chosen (a cubin of its architecture, else PTX of an architecture
// not above it), checked against the module's kernels, and loaded once. The
// functions are looked up apart from the load: under the driver's lazy
// loading (CUDA's default) cuModuleGetFunction loads a function onto the
// GPU, so a first launch waits for the module and its own entry, not for
// every kernel of the unit. The compile pool looks them all up ahead
// (preload, where launches may run the generic code: not under
// MSTAGE_JIT=sync); a launch that comes first looks up its own. A
// corrupt image, or one made for other kernels, is reported once; the module's
// kernels then have no generic code, and their launches wait for the JIT.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_GENERICCODE_H
#define MSTAGE_RUNTIME_CORE_GENERICCODE_H

#include "cuda/CudaDriver.h"

#include "mstage/abi.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <mutex>
#include <string>

namespace mstage::rt {

class GenericCode;

struct GenericKernel {
  GenericCode *Owner = nullptr;
  std::string Name; // the kernel's symbol
  // The image has its entry for launches whose pointer slots each point into
  // an allocation of their own (disjointEntryName, AotImage.h).
  bool HasDisjoint = false;
  // The entries, once looked up (GenericCode::entry); null before.
  mutable std::atomic<CUfunction> Function{nullptr}, Disjoint{nullptr};
};

class GenericCode {
public:
  explicit GenericCode(const mstage_module_record &Module) : Module(Module) {}

  // The generic code of the kernel whose symbol is Name, for the back end
  // in use (a GPU, or PTX-only), or null when there is none. Thread-safe.
  const GenericKernel *find(llvm::StringRef Name);

  // The function that runs a launch of G on the GPU: its disjoint entry when
  // Apart (each pointer slot in an allocation of its own) and the image has
  // one, else its plain entry. Looked up at its first use. Thread-safe.
  llvm::Expected<CUfunction> entry(const GenericKernel &G, bool Apart);

  // Loads it now, as find() would, then looks up each entry no launch has
  // yet (the compile pool does at start, so that no launch waits for the
  // load). Thread-safe.
  void preload();

  // The module is unloaded: its generic code is dropped.
  void unload();

private:
  void load();

  const mstage_module_record &Module;
  std::once_flag Loaded;
  std::mutex Lock; // between unload and preload
  CUmodule Code = nullptr;
  llvm::StringMap<GenericKernel> Kernels; // set once, by load()
};

} // namespace mstage::rt

#endif
