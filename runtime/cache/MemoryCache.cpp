//===- MemoryCache.cpp - A kernel's compiled specializations in memory ----===//
#include "cache/MemoryCache.h"
#include "cache/CacheKey.h"

#include <cassert>

namespace mstage::rt {

CacheEntry *SpecializationTable::findLocked(std::string_view Key) {
  std::shared_lock<std::shared_mutex> G(Lock);
  auto It = Entries.find(Key);
  if (It == Entries.end())
    return nullptr;
  noteRecent(*It->second);
  return It->second.get();
}

CacheEntry &SpecializationTable::findOrInsert(std::string_view Key) {
  std::unique_lock<std::shared_mutex> G(Lock);
  auto It = Entries.find(Key);
  if (It != Entries.end()) {
    noteRecent(*It->second);
    return *It->second;
  }
  auto E = std::make_unique<CacheEntry>();
  E->Key.assign(Key);
  CacheEntry &Ref = *E;
  bool Inserted =
      Entries.emplace(std::string_view(Ref.Key), std::move(E)).second;
  assert(Inserted && "Key was absent under the same lock");
  (void)Inserted;
  noteRecent(Ref);
  return Ref;
}

std::vector<CompiledKernel> SpecializationTable::takeAll() {
  std::unique_lock<std::shared_mutex> G(Lock);
  std::vector<CompiledKernel> Code;
  for (auto &[Key, E] : Entries) {
    // A compile still under way finishes before its entry goes.
    std::lock_guard<std::mutex> C(E->Compiling);
    if (E->ready())
      Code.push_back(E->Code);
    if (E->QuickReady.load(std::memory_order_acquire))
      Code.push_back(E->Quick);
  }
  Recent.store(nullptr, std::memory_order_release);
  Entries.clear();
  return Code;
}

const std::array<uint64_t, 2> &
SpecializationTable::bitcodeHash(std::string_view Bitcode) {
  std::call_once(Hashed, [&] {
    Hash = hashKernelBitcode(llvm::StringRef(Bitcode.data(), Bitcode.size()));
    // A rebuilt file that the kernel calls into changes the key.
    if (LinkedHash) {
      uint64_t Mixed[3] = {Hash[0], Hash[1], LinkedHash};
      Hash = hashKernelBitcode(llvm::StringRef(
          reinterpret_cast<const char *>(Mixed), sizeof(Mixed)));
    }
  });
  return Hash;
}

} // namespace mstage::rt
