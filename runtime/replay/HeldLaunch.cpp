//===- HeldLaunch.cpp - One launch as automatic graph replay records it ---===//
#include "replay/HeldLaunch.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

namespace mstage::rt {

static bool sameConfig(const mstage_launch_config &A,
                       const mstage_launch_config &B) {
  return std::memcmp(&A, &B, sizeof(A)) == 0;
}

void HeldLaunch::assign(const LaunchView &L) {
  Function = L.Function;
  Config = *L.Config;
  Kernel = L.Kernel;
  Name = L.Name;
  Bytes.clear();
  Starts.clear();
  Ends.clear();
  for (size_t I = 0; I < L.Sizes.size(); ++I) {
    const char *P = static_cast<const char *>(L.Params[I]);
    Bytes.resize((Bytes.size() + 7) / 8 * 8);
    Starts.push_back(uint32_t(Bytes.size()));
    Bytes.append(P, P + L.Sizes[I]);
    Ends.push_back(uint32_t(Bytes.size()));
  }
  uint64_t Data = llvm::xxh3_64bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size()));
  uint64_t Shape = llvm::xxh3_64bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(&Config), sizeof(Config)));
  Hash = llvm::hash_combine(Data, Shape, Function, Ends.size());
}

bool HeldLaunch::matches(const LaunchView &L) const {
  if (L.Function != Function || L.Sizes.size() != Ends.size() ||
      !sameConfig(*L.Config, Config))
    return false;
  for (size_t I = 0; I < Ends.size(); ++I)
    if (L.Sizes[I] != Ends[I] - Starts[I] ||
        std::memcmp(L.Params[I], Bytes.data() + Starts[I], L.Sizes[I]) != 0)
      return false;
  return true;
}

bool HeldLaunch::operator==(const HeldLaunch &O) const {
  return Hash == O.Hash && Function == O.Function &&
         sameConfig(Config, O.Config) && Ends == O.Ends && Bytes == O.Bytes;
}

std::string HeldLaunch::difference(const LaunchView &L) const {
  std::string Of = " of " + *L.Name;
  if (L.Kernel != Kernel)
    return "another kernel (" + *L.Name + ")";
  // Before the function: a configuration is folded into the code too.
  if (!sameConfig(*L.Config, Config))
    return "another launch configuration" + Of;
  if (L.Function != Function)
    return "other staged values" + Of;
  return "other arguments" + Of;
}

void HeldLaunch::params(llvm::SmallVectorImpl<void *> &Out) const {
  Out.clear();
  for (uint32_t Start : Starts)
    Out.push_back(const_cast<char *>(Bytes.data()) + Start);
}

} // namespace mstage::rt
