//===- LaunchFactsOf.cpp - Placing a launch's pointers --------------------===//
#include "core/LaunchFactsOf.h"

#include "core/AllocationMap.h"
#include "support/RuntimeFailure.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/mman.h>
#include <unistd.h>

namespace mstage::rt {
namespace {

std::string holderName(const PointerSlot &S) {
  if (S.Param == 0)
    return "a capture of the kernel's lambda (byte " +
           std::to_string(S.Offset) + " of it)";
  return "argument " + std::to_string(S.Param) +
         (S.Offset ? " (byte " + std::to_string(S.Offset) + " of it)" : "");
}

std::string hostPointerError(const PointerSlot &S, uintptr_t P, bool Gpu) {
  std::string Msg;
  llvm::raw_string_ostream OS(Msg);
  OS << holderName(S) << " holds " << llvm::format_hex(P, 2)
     << ", a pointer into host memory that "
     << (Gpu ? "the GPU cannot read" : "a GPU could not read")
     << "; pass a std::vector, a device_vector, a managed_vector or a "
        "pinned_vector instead";
  return Msg;
}

// Whether P is in memory mapped into this process: a host pointer, not a
// stray value (0x10), which is left to fault on the device and be reported
// as a fault.
bool mappedHere(uintptr_t P) {
  static const uintptr_t Page = uintptr_t(sysconf(_SC_PAGESIZE));
  unsigned char Resident;
  return mincore(reinterpret_cast<void *>(P & ~(Page - 1)), 1, &Resident) == 0;
}

} // namespace

llvm::Error launchFactsOf(const RegisteredKernel &K, const Backend &B,
                          void *const *Params, const uint32_t *ParamSizes,
                          uint32_t NumParams, bool Preview,
                          llvm::SmallVectorImpl<SlotFact> &Facts) {
  const std::vector<PointerSlot> &Slots = K.Blob.PointerSlots;
  Facts.assign(Slots.size(), SlotFact());
  // Allocations by start address, numbered as they first appear.
  llvm::SmallVector<uintptr_t, 8> Seen;
  auto GroupOf = [&](uintptr_t Start) -> uint8_t {
    const auto *It = llvm::find(Seen, Start);
    if (It == Seen.end()) {
      if (Seen.size() >= SlotFact::NoGroup)
        return SlotFact::NoGroup;
      Seen.push_back(Start);
      It = Seen.end() - 1;
    }
    return uint8_t(It - Seen.begin());
  };
  for (size_t I = 0; I < Slots.size(); ++I) {
    const PointerSlot &S = Slots[I];
    std::optional<uintptr_t> Held =
        readPointerSlot(S, Params, ParamSizes, NumParams);
    if (!Held)
      continue; // not a pointer of this launch: assume nothing
    uintptr_t P = *Held;
    SlotFact &F = Facts[I];
    F.AlignLog2 = P ? uint8_t(std::min(4, llvm::countr_zero(P))) : 4;
    if (!P) {
      // Never read: an allocation of its own.
      F.Group = GroupOf(uintptr_t(1) << 63 | I);
      continue;
    }
    if (uintptr_t Start = allocationStart(P)) {
      F.Group = GroupOf(Start);
      continue;
    }
    if (Preview) {
      F.Group = GroupOf(P);
      continue;
    }
    uintptr_t Start = 0;
    Backend::Pointer Known = B.findPointer(P, Start);
    if (Known == Backend::Pointer::Allocation) {
      F.Group = GroupOf(Start);
      continue;
    }
    if (Known == Backend::Pointer::HostReadable)
      continue; // host memory the GPU can read; nothing is assumed
    if (mappedHere(P))
      return failure(hostPointerError(S, P, B.onGpu()));
    // Not memory at all: nothing is assumed, and the kernel's fault says it.
  }
  return llvm::Error::success();
}

} // namespace mstage::rt
