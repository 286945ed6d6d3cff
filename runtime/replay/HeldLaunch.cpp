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

// The hash of everything the record runs with.
static uint64_t hashOf(const HeldLaunch &R) {
  uint64_t Data = llvm::xxh3_64bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(R.Bytes.data()), R.Bytes.size()));
  uint64_t Shape = llvm::xxh3_64bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(&R.Config), sizeof(R.Config)));
  return llvm::hash_combine(Data, Shape, R.Function, R.Ends.size(),
                            uint8_t(R.What), R.Dst, R.Src, R.ElementBytes,
                            R.Count);
}

void HeldLaunch::assign(const LaunchView &L) {
  What = Kind::Kernel;
  Dst = Src = 0;
  ElementBytes = Count = 0;
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
  Hash = hashOf(*this);
}

// A fill or a copy: no function, configuration or parameters.
static void assignOperation(HeldLaunch &R, HeldLaunch::Kind What,
                            CUdeviceptr To, CUdeviceptr From, size_t Bytes,
                            size_t Count, const void *Pattern) {
  static const std::string Fill = "filling memory",
                           Copy = "copying on the device";
  R.What = What;
  R.Dst = To;
  R.Src = From;
  R.ElementBytes = Bytes;
  R.Count = Count;
  R.Function = nullptr;
  R.Config = {};
  R.Kernel = nullptr;
  R.Name = What == HeldLaunch::Kind::Fill ? &Fill : &Copy;
  R.Starts.clear();
  R.Ends.clear();
  R.Bytes.clear();
  if (Pattern)
    R.Bytes.append(static_cast<const char *>(Pattern),
                   static_cast<const char *>(Pattern) + Bytes);
  R.Hash = hashOf(R);
}

void HeldLaunch::assignFill(CUdeviceptr To, const void *Pattern,
                            size_t ElementBytes, size_t Count) {
  assignOperation(*this, Kind::Fill, To, 0, ElementBytes, Count, Pattern);
}

void HeldLaunch::assignCopy(CUdeviceptr To, CUdeviceptr From, size_t Bytes) {
  assignOperation(*this, Kind::Copy, To, From, Bytes, 1, nullptr);
}

bool HeldLaunch::matches(const LaunchView &L) const {
  if (What != Kind::Kernel || L.Function != Function ||
      L.Sizes.size() != Ends.size() || !sameConfig(*L.Config, Config))
    return false;
  for (size_t I = 0; I < Ends.size(); ++I)
    if (L.Sizes[I] != Ends[I] - Starts[I] ||
        std::memcmp(L.Params[I], Bytes.data() + Starts[I], L.Sizes[I]) != 0)
      return false;
  return true;
}

bool HeldLaunch::operator==(const HeldLaunch &O) const {
  return Hash == O.Hash && What == O.What && Function == O.Function &&
         Dst == O.Dst && Src == O.Src && ElementBytes == O.ElementBytes &&
         Count == O.Count && sameConfig(Config, O.Config) && Ends == O.Ends &&
         Bytes == O.Bytes;
}

const std::string &HeldLaunch::name() const { return *Name; }

std::string HeldLaunch::difference(const HeldLaunch &O) const {
  if (O.What != What)
    return "another operation (" + O.name() + ")";
  return O.What == Kind::Fill ? "another fill" : "another copy on the device";
}

std::string HeldLaunch::difference(const LaunchView &L) const {
  std::string Of = " of " + *L.Name;
  if (What != Kind::Kernel)
    return "another operation (a launch of " + *L.Name + ")";
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
