//===- MemoryCache.h - A kernel's compiled specializations in memory ------===//
//
// Each registered kernel has one table. A launch looks its specialization up
// by the bytes of its launch configuration and staged values, without
// allocating: first in the entry that the kernel's last lookup found (no lock,
// no hash: a loop launches one specialization over and over), then in the
// table under a shared lock. The first launch of a specialization inserts
// an entry; its code is made while the entry's own lock is held, by a launch
// that waits for it or by a background compile, so that threads launching
// the same specialization at once compile it once and other specializations
// are not held up.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CACHE_MEMORYCACHE_H
#define MSTAGE_RUNTIME_CACHE_MEMORYCACHE_H

#include "cuda/CudaDriver.h"
#include "support/RuntimeFailure.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mstage::rt {

// With several devices, the code of a specialization is compiled once and
// loaded on each device that launches it: the compile keeps it here.
struct OtherDevices {
  std::string PTX, Cubin; // as compiled (Cubin may be empty)
  std::mutex Loading;     // held while it is loaded on a device
  std::atomic<CUfunction> Function[MaxDevices] = {}; // null: not loaded
  CUmodule Module[MaxDevices] = {};
};

struct CompiledKernel {
  bool FromCubin = false; // else from PTX
  // It begins with griddepcontrol.wait: launched programmatically.
  bool EntryWaits = false;
  CUmodule Module = nullptr;
  CUfunction Function = nullptr;
  unsigned Device = 0;                  // where Module is loaded
  std::shared_ptr<OtherDevices> Others; // with several devices
};

enum class EntryState : uint8_t {
  Empty,  // no code, none being made in the background
  Queued, // its compile is queued or running in the background
  Ready,  // Code is complete and never changes again
  Failed, // the background compile failed: Failure says why
};

struct CacheEntry {
  std::string Key;      // what the table's key views
  std::mutex Compiling; // held while the code is made
  std::atomic<EntryState> State{EntryState::Empty};
  CompiledKernel Code;
  // Tier 0 (MSTAGE_JIT_TIERS): quick code that launches run until Code is
  // ready, written once before QuickReady becomes true. It stays loaded
  // (launches may still run it) until the kernel is unregistered.
  CompiledKernel Quick;
  std::atomic<bool> QuickReady{false};
  // Written before State becomes Failed; each launch that finds it fails
  // with it.
  std::optional<RuntimeFailure> Failure;
  bool ready() const {
    return State.load(std::memory_order_acquire) == EntryState::Ready;
  }
};

class SpecializationTable {
public:
  // The entry for Key (its code may not be ready), or null.
  CacheEntry *find(std::string_view Key) {
    CacheEntry *E = Recent.load(std::memory_order_acquire);
    return E && E->Key == Key ? E : findLocked(Key);
  }
  // The entry for Key, inserted when absent (its code may not be ready).
  CacheEntry &findOrInsert(std::string_view Key);

  // Empties the table (its kernel is unregistered) and gives back the code
  // of its ready entries, for the caller to unload.
  std::vector<CompiledKernel> takeAll();

  // The 128-bit hash of the kernel's bitcode, computed on first use, and of
  // the other units' code it links (setLinkedHash).
  const std::array<uint64_t, 2> &bitcodeHash(std::string_view Bitcode);
  // The hash of the exports the kernel links (DeviceLibrary.h); set before
  // the first bitcodeHash.
  void setLinkedHash(uint64_t H) { LinkedHash = H; }

private:
  CacheEntry *findLocked(std::string_view Key);
  // Makes E the entry find() tries first; stored only when it changes, so
  // that threads launching one specialization do not bounce its cache line.
  void noteRecent(CacheEntry &E) {
    if (Recent.load(std::memory_order_relaxed) != &E)
      Recent.store(&E, std::memory_order_release);
  }

  // An entry of Entries (null when empty): its Key never changes, and it
  // lives until takeAll(), which unregisters the kernel that launches use.
  std::atomic<CacheEntry *> Recent{nullptr};
  std::shared_mutex Lock;
  std::unordered_map<std::string_view, std::unique_ptr<CacheEntry>> Entries;
  std::once_flag Hashed;
  std::array<uint64_t, 2> Hash{};
  uint64_t LinkedHash = 0;
};

} // namespace mstage::rt

#endif
