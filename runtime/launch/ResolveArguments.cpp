//===- ResolveArguments.cpp - A launch's stream and pointers --------------===//
#include "launch/ResolveArguments.h"
#include "core/AllocationMap.h"
#include "core/Backend.h"
#include "core/LaunchFactsOf.h"
#include "core/Stream.h"
#include "cuda/CudaDriver.h"
#include "launch/LaunchMemo.h"
#include "support/Settings.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <cstring>
#include <string>

namespace mstage::rt {

// "argument 2" or "a capture of the kernel's lambda", for the slot S.
static std::string slotHolder(const mstage::PointerSlot &S) {
  return S.Param == 0 ? "a capture of the kernel's lambda"
                      : "argument " + std::to_string(S.Param);
}

// With several GPUs: success when every pointer of the launch that the
// runtime allocated is memory of D or of a device D has peer access to, else
// the error, naming both devices.
static llvm::Error checkDevicesOfPointers(const LaunchRequest &L,
                                          CudaDriver &D) {
  for (const mstage::PointerSlot &S : L.K->Blob.PointerSlots) {
    if (S.Param >= L.NumParams ||
        uint64_t(S.Offset) + 8 > L.ParamSizes[S.Param])
      continue;
    uintptr_t P;
    std::memcpy(&P, static_cast<const char *>(L.Params[S.Param]) + S.Offset,
                sizeof(P));
    int Owner = P ? allocationDevice(P) : NoDevice;
    if (Owner == NoDevice || unsigned(Owner) == D.index())
      continue;
    CudaDriver &OwnerDev = *CudaDriver::at(unsigned(Owner));
    if (D.peerAccess(OwnerDev))
      continue;
    return failure(slotHolder(S) + " is memory of " + OwnerDev.shortName() +
                   ", but the kernel runs on " + D.shortName() +
                   ", which has no peer access to it" +
                   std::string(peerAccessSetting().Value
                                   ? ""
                                   : " (MSTAGE_PEER_ACCESS=0)") +
                   "; copy the data with copy_from, or launch on a stream of " +
                   OwnerDev.shortName());
  }
  return llvm::Error::success();
}

// Sets L.Facts: the memo's, when L's pointers are those of one of the
// kernel's last launches on this thread and no allocation was made or freed
// since, else launchFactsOf's.
static llvm::Error placePointers(const Backend &B, LaunchRequest &L) {
  const RegisteredKernel &K = *L.K;
  const std::vector<mstage::PointerSlot> &Slots = K.Blob.PointerSlots;
  if (Slots.size() > LaunchMemo::MaxSlots)
    return launchFactsOf(K, B, L.Params, L.ParamSizes, L.NumParams,
                         /*Preview=*/false, L.Facts);
  uintptr_t Pointers[LaunchMemo::MaxSlots];
  for (size_t I = 0; I < Slots.size(); ++I)
    Pointers[I] = readPointerSlot(Slots[I], L.Params, L.ParamSizes, L.NumParams)
                      .value_or(0);
  llvm::ArrayRef<uintptr_t> Held(Pointers, Slots.size());
  LaunchMemo &Memo = launchMemo(K);
  uint64_t Generation = allocationGeneration();
  if (const SlotFact *Facts = Memo.factsOf(Held, Generation)) {
    L.Facts.assign(Facts, Facts + Slots.size());
    return llvm::Error::success();
  }
  if (llvm::Error Why = launchFactsOf(K, B, L.Params, L.ParamSizes, L.NumParams,
                                      /*Preview=*/false, L.Facts))
    return Why;
  // Kept only when the map placed every pointer: what the driver says of
  // other memory may change with no allocation of the runtime's.
  if (llvm::all_of(Held, [](uintptr_t P) { return !P || allocationStart(P); }))
    Memo.noteFacts(Held, L.Facts, Generation);
  return llvm::Error::success();
}

llvm::Error resolveArguments(mstage_stream *StreamPtr, LaunchRequest &L) {
  assert(L.K && "checkLaunch resolves the kernel first");
  const RegisteredKernel &K = *L.K;
  const Backend &B = backend();
  // Made once: a launch allocates nothing, and builds no string.
  static const std::string &IsLaunched = *new std::string("is launched");
  if (llvm::Error Why =
          checkStreamAlive(StreamPtr, IsLaunched, RuntimeFailure::Join::Clause))
    return withKernel(std::move(Why), K);
  L.S = &streamOf(StreamPtr);
  // Also on the CPU back end: a host pointer is as wrong there as on a GPU.
  if (llvm::Error Why = placePointers(B, L))
    return withKernel(std::move(Why), K);
  // Memory of another device than the stream's is an error without peer
  // access; with one device there is no other.
  if (B.severalDevices()) {
    assert(L.S->driver() && "a stream on the GPU has a driver");
    if (llvm::Error Why = checkDevicesOfPointers(L, *L.S->driver()))
      return withKernel(std::move(Why), K);
  }
  return llvm::Error::success();
}

} // namespace mstage::rt
