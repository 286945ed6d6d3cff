//===- HeldLaunch.cpp - One launch as automatic graph replay records it ---===//
#include "replay/HeldLaunch.h"

#include "llvm/Support/xxhash.h"

#include <cassert>
#include <cstring>

namespace mstage::rt {

static bool sameConfig(const mstage_launch_config &A,
                       const mstage_launch_config &B) {
  return std::memcmp(&A, &B, sizeof(A)) == 0;
}

// The hash of everything the record runs with: xxh3 of its bytes, mixed
// with its other fields (a multiply-xor per word: cheaper than a hash of
// each; the records are compared in full anyway).
static uint64_t hashOf(const HeldLaunch &R) {
  uint64_t H = llvm::xxh3_64bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(R.Bytes.data()), R.Bytes.size()));
  auto Mix = [&H](uint64_t Word) {
    H = (H ^ Word) * 0x9e3779b97f4a7c15ULL;
    H ^= H >> 29;
  };
  static_assert(sizeof(R.Config) % 8 == 0, "the configuration is words");
  uint64_t Words[sizeof(R.Config) / 8];
  std::memcpy(Words, &R.Config, sizeof(R.Config));
  for (uint64_t W : Words)
    Mix(W);
  Mix(reinterpret_cast<uintptr_t>(R.Function));
  Mix(R.Dst);
  Mix(R.Src);
  Mix(R.ElementBytes);
  Mix(R.Count);
  Mix(R.Ends.size() << 8 | uint64_t(R.What));
  return H;
}

void HeldLaunch::assign(const LaunchView &L) {
  What = Kind::Kernel;
  Dst = Src = 0;
  ElementBytes = Count = 0;
  Function = L.Function;
  How = L.How;
  Config = *L.Config;
  Kernel = L.Kernel;
  Name = L.Name;
  Specialization = L.Specialization;
  // Sized once, then filled: this runs at every launch under replay.
  size_t N = L.Sizes.size(), Size = 0;
  Starts.resize_for_overwrite(N);
  Ends.resize_for_overwrite(N);
  for (size_t I = 0; I < N; ++I) {
    Size = (Size + 7) / 8 * 8;
    Starts[I] = uint32_t(Size);
    Size += L.Sizes[I];
    Ends[I] = uint32_t(Size);
  }
  Bytes.resize_for_overwrite(Size);
  for (size_t I = 0; I < N; ++I) {
    uint32_t End = I + 1 < N ? Starts[I + 1] : uint32_t(Size);
    std::memcpy(Bytes.data() + Starts[I], L.Params[I], L.Sizes[I]);
    // The padding too (under 8 bytes): equal launches have equal bytes.
    for (uint32_t B = Ends[I]; B < End; ++B)
      Bytes[B] = 0;
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
  R.How = LaunchKind::Plain;
  R.Config = {};
  R.Kernel = nullptr;
  R.Specialization = nullptr;
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

// Whether L has R's configuration and parameter bytes.
static bool sameConfigAndParams(const HeldLaunch &R, const LaunchView &L) {
  if (L.Sizes.size() != R.Ends.size() || !sameConfig(*L.Config, R.Config))
    return false;
  for (size_t I = 0; I < R.Ends.size(); ++I)
    if (L.Sizes[I] != R.Ends[I] - R.Starts[I] ||
        std::memcmp(L.Params[I], R.Bytes.data() + R.Starts[I], L.Sizes[I]) != 0)
      return false;
  return true;
}

bool HeldLaunch::matches(const LaunchView &L) const {
  return What == Kind::Kernel && L.Function == Function &&
         sameConfigAndParams(*this, L);
}

bool HeldLaunch::newCodeIn(const LaunchView &L) const {
  return What == Kind::Kernel && Specialization &&
         L.Specialization == Specialization && L.Function != Function &&
         L.Kernel == Kernel && sameConfigAndParams(*this, L);
}

void HeldLaunch::setCode(CUfunction NewFunction, LaunchKind NewHow) {
  assert(What == Kind::Kernel && "only a kernel has code");
  Function = NewFunction;
  How = NewHow;
  Hash = hashOf(*this);
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
