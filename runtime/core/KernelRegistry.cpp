//===- KernelRegistry.cpp - Kernels registered by the program's objects ---===//
#include "core/KernelRegistry.h"
#include "core/Backend.h"
#include "core/DeviceGlobals.h"
#include "cuda/CudaDriver.h"
#include "jit/CompilePool.h"
#include "jit/DeviceLibrary.h"
#include "support/Export.h"
#include "support/KeptStatics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mstage::rt {
namespace {

struct Registry {
  std::mutex Lock;
  // The modules registered and not yet unregistered, in registration order.
  std::vector<const mstage_module_record *> Modules;
  std::unordered_map<const void *, std::unique_ptr<RegisteredKernel>> Kernels;
  // Kernels of unloaded modules: kept, so that a pointer that findKernel
  // gave out (or a cache keyed by it) never names another kernel.
  std::vector<std::unique_ptr<RegisteredKernel>> Retired;
  // Changes whenever a kernel is unregistered: the threads' one-entry
  // lookup caches check it.
  std::atomic<uint64_t> Generation{0};
  // Kernel data that could not be read, reported when a launch finds no
  // kernel (it may be why), by the module it came from.
  std::vector<std::pair<const mstage_module_record *, std::string>> Problems;
  // The generic code of each registered module; like kernels, never freed.
  std::unordered_map<const mstage_module_record *, GenericCode *> Generic;
  std::vector<std::unique_ptr<GenericCode>> AllGeneric;
};

// Never destroyed: static constructors register before, and launches from
// static destructors and the unregistration come after, the destruction of
// ordinary statics.
Registry &registry() {
  static Registry *R = new Registry;
  return *R;
}

// Set at exit: the process is going, so code is not unloaded one by one.
std::atomic<bool> Exiting{false};

bool owns(const mstage_module_record &M, const mstage_kernel_record *Rec) {
  return Rec >= M.kernels && Rec < M.kernels + M.num_kernels;
}

// Adds the kernel of Rec, of module M, unless one with its host entry is
// there (the same inline kernel can come from several objects: the first
// wins). R is locked.
void addKernel(Registry &R, const mstage_module_record &M,
               const mstage_kernel_record &Rec) {
  if (R.Kernels.count(Rec.host_entry))
    return;
  auto Blob = mstage::readKernelBlob(static_cast<const uint8_t *>(Rec.blob),
                                     Rec.blob_size);
  if (!Blob) {
    R.Problems.emplace_back(&M, llvm::toString(Blob.takeError()));
    return;
  }
  if (Blob->StageSites.size() != Rec.num_evaluators) {
    R.Problems.emplace_back(
        &M, "kernel '" + Blob->PrettyName + "' has " +
                std::to_string(Blob->StageSites.size()) + " stage sites but " +
                std::to_string(Rec.num_evaluators) + " evaluators");
    return;
  }
  GenericCode *&Generic = R.Generic[&M];
  if (!Generic)
    Generic = R.AllGeneric.emplace_back(std::make_unique<GenericCode>(M)).get();
  R.Kernels[Rec.host_entry] = std::make_unique<RegisteredKernel>(
      RegisteredKernel{&Rec, std::move(*Blob),
                       std::make_unique<SpecializationTable>(), &M, Generic});
}

// Drops the compiled code of a kernel that is unregistered. Not at exit:
// the process takes it all, and a compile still under way on another thread
// must not hold the exit up.
void dropCode(RegisteredKernel &K) {
  if (Exiting.load())
    return;
  std::vector<CompiledKernel> Code = K.Specializations->takeAll();
  if (Code.empty())
    return;
  // Only where code is loaded is there a module (the GPU).
  const Backend &B = backend();
  for (const CompiledKernel &C : Code)
    if (C.Module)
      llvm::consumeError(B.unloadModule(B.defaultDevice(), C.Module));
}

} // namespace

const RegisteredKernel *findKernel(const void *HostEntry, std::string &Why) {
  // The thread's kernels by their entry's address, so that a loop of
  // several kernels (heat's three) finds each without the lock; all valid
  // for one generation. Small: a thread-local of every launching thread.
  struct Found {
    const void *Entry;
    const RegisteredKernel *K;
  };
  constexpr size_t Ways = 8;
  thread_local Found Recent[Ways] = {};
  thread_local uint64_t RecentGeneration = 0;
  Found &Slot = Recent[(reinterpret_cast<uintptr_t>(HostEntry) >> 4) % Ways];
  Registry &R = registry();
  uint64_t Generation = R.Generation.load(std::memory_order_acquire);
  if (Generation != RecentGeneration) {
    for (Found &F : Recent)
      F = {};
    RecentGeneration = Generation;
  }
  if (HostEntry && HostEntry == Slot.Entry)
    return Slot.K;
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = R.Kernels.find(HostEntry);
  if (It != R.Kernels.end()) {
    RegisteredKernel &K = *It->second;
    if (!K.ImportsResolved) {
      // Every unit has registered by now (or a later lookup tries again).
      LlvmStaticsKept Kept;
      llvm::Expected<uint64_t> Linked =
          resolveImports(K.Module, K.Blob.Name, K.Blob.PrettyName);
      if (!Linked) {
        Why = llvm::toString(Linked.takeError());
        return nullptr;
      }
      if (std::string Undefined = undefinedDeviceGlobal(*K.Module);
          !Undefined.empty()) {
        Why = "kernel '" + K.Blob.PrettyName + "' " + Undefined;
        return nullptr;
      }
      K.Specializations->setLinkedHash(*Linked);
      K.ImportsResolved = true;
    }
    // Kept only when no kernel went meanwhile (else the next lookup
    // clears the thread's kernels).
    if (R.Generation.load(std::memory_order_relaxed) == Generation)
      Slot = {HostEntry, It->second.get()};
    return It->second.get();
  }
  Why = "no device code was registered for this kernel; compile every "
        "source file that launches kernels with mstage++";
  if (!R.Problems.empty()) {
    Why += " (unreadable kernel data: ";
    for (size_t I = 0; I < R.Problems.size(); ++I)
      Why += (I ? "; " : "") + R.Problems[I].second;
    Why += ")";
  }
  return nullptr;
}

void preloadGenericCode() {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  for (auto [Module, Generic] : R.Generic)
    queueCompile(Module, [Generic = Generic] {
      const Backend &B = backend();
      CudaDriver *D = B.driver(B.defaultDevice());
      assert(D && "ahead-of-time code is preloaded on a GPU only");
      if (succeeded(D->bindThread()))
        Generic->preload();
    });
}

std::string siteLocation(const KernelBlob &Blob, uint32_t I) {
  const mstage::StageSite &S = Blob.StageSites[I];
  llvm::StringRef File =
      llvm::StringRef(Blob.Location).rsplit(':').first.rsplit(':').first;
  return File.str() + ":" + std::to_string(S.Line) + ":" +
         std::to_string(S.Column);
}

llvm::Error evaluatorGaveUp(const RegisteredKernel &K, uint32_t I) {
  return withKernel(
      failure("the host evaluator of the stage() at " +
              siteLocation(K.Blob, I) +
              " gave up after 2^32 loop iterations without reaching the site, "
              "so its value for this launch is unknown; move the stage() out "
              "of the loops around it"),
      K);
}

} // namespace mstage::rt

using namespace mstage::rt;

extern "C" MSTAGE_EXPORT void
__mstage_register_module(const mstage_module_record *Module) {
  Registry &R = registry();
  static std::once_flag AtExit;
  std::call_once(AtExit, [] { std::atexit([] { Exiting.store(true); }); });
  std::lock_guard<std::mutex> G(R.Lock);
  if (Module->abi_version != MSTAGE_ABI_VERSION) {
    R.Problems.emplace_back(
        Module, "an object was built for mstage ABI " +
                    std::to_string(Module->abi_version) + ", this runtime is " +
                    std::to_string(MSTAGE_ABI_VERSION) + "; rebuild it");
    return;
  }
  R.Modules.push_back(Module);
  addDeviceGlobals(*Module);
  if (Module->device_link)
    if (llvm::Error E = addDeviceLink(
            Module, static_cast<const uint8_t *>(Module->device_link),
            Module->device_link_size))
      R.Problems.emplace_back(Module, llvm::toString(std::move(E)));
  for (uint32_t I = 0; I < Module->num_kernels; ++I)
    addKernel(R, *Module, Module->kernels[I]);
}

extern "C" MSTAGE_EXPORT void
__mstage_unregister_module(const mstage_module_record *Module) {
  Registry &R = registry();
  std::vector<RegisteredKernel *> Dropped;
  GenericCode *Generic = nullptr;
  {
    std::lock_guard<std::mutex> G(R.Lock);
    llvm::erase_if(R.Problems,
                   [&](const auto &P) { return P.first == Module; });
    // A module of another ABI version was never registered.
    auto M = llvm::find(R.Modules, Module);
    if (M == R.Modules.end())
      return;
    R.Modules.erase(M);
    removeDeviceLink(Module);
    removeDeviceGlobals(*Module);
    if (auto G = R.Generic.find(Module); G != R.Generic.end()) {
      Generic = G->second;
      R.Generic.erase(G);
    }
    std::vector<const void *> Entries;
    for (auto It = R.Kernels.begin(); It != R.Kernels.end();) {
      if (!owns(*Module, It->second->Record)) {
        ++It;
        continue;
      }
      Entries.push_back(It->first);
      Dropped.push_back(It->second.get());
      R.Retired.push_back(std::move(It->second));
      It = R.Kernels.erase(It);
    }
    // Another loaded object may hold the same inline kernel: it takes over.
    for (const void *Entry : Entries)
      for (const mstage_module_record *Other : R.Modules)
        for (uint32_t I = 0; I < Other->num_kernels; ++I)
          if (Other->kernels[I].host_entry == Entry)
            addKernel(R, *Other, Other->kernels[I]);
    R.Generation.fetch_add(1, std::memory_order_acq_rel);
  }
  // Background compiles read the module's bitcode: its queued ones are
  // dropped and its running ones finish before it goes.
  finishCompilesOf(Module);
  for (RegisteredKernel *K : Dropped)
    dropCode(*K);
  if (Generic && !Exiting.load())
    Generic->unload();
}
