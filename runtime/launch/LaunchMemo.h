//===- LaunchMemo.h - What a thread's last launches found -------*- C++ -*-===//
//
// Some of what a launch works out depends on nothing that a loop's next
// launch of the same kernel changes: that its configuration fits the device
// (the same configuration, the kernel's own shared memory), which of its
// parameters go to device memory (the kernel's parameter sizes and staged
// bytes), and the facts of its pointers (the same pointers, while no
// allocation was made or freed). Each thread keeps what its last launches of
// a few kernels found, by kernel, and a launch that finds its kernel there
// skips that work: no lookup, no lock. A kernel is never freed
// (KernelRegistry.h), so its address names it for the life of the process.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_LAUNCHMEMO_H
#define MSTAGE_RUNTIME_LAUNCH_LAUNCHMEMO_H

#include "transforms/LaunchFacts.h"

#include "mstage/abi.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <cstring>

namespace mstage::rt {

struct RegisteredKernel;

struct LaunchMemo {
  const RegisteredKernel *K = nullptr;
  // Config passed checkLaunch's checks (as given, before MSTAGE_FAST_MATH).
  bool ConfigChecked = false;
  mstage_launch_config Config = {};
  // InMemory is placeParams's result, the same for every launch of K: its
  // parameter sizes and staged bytes are its type's.
  bool Placed = false;
  uint64_t InMemory = 0;
  // The facts of the pointers in the kernel's slots, for its last two sets
  // of pointers (a loop that swaps two buffers alternates between them), all
  // in allocations of the map (AllocationMap.h) while its generation was
  // Generation: the same pointers then have the same facts.
  static constexpr unsigned MaxSlots = 6;
  struct FactsOf {
    bool Known = false;
    uint64_t Generation = 0;
    uintptr_t Pointers[MaxSlots] = {};
    SlotFact Facts[MaxSlots] = {};
  } Seen[2];
  unsigned NextSeen = 0; // the one a new set replaces

  bool checked(const mstage_launch_config &C) const {
    return ConfigChecked && std::memcmp(&C, &Config, sizeof(C)) == 0;
  }
  void noteChecked(const mstage_launch_config &C) {
    Config = C;
    ConfigChecked = true;
  }
  // The facts of Pointers (one per slot; 0 where a slot holds no pointer),
  // when seen in allocation map generation Generation, or null.
  const SlotFact *factsOf(llvm::ArrayRef<uintptr_t> Pointers,
                          uint64_t Generation) const {
    for (const FactsOf &F : Seen)
      if (F.Known && F.Generation == Generation &&
          std::memcmp(F.Pointers, Pointers.data(),
                      Pointers.size() * sizeof(uintptr_t)) == 0)
        return F.Facts;
    return nullptr;
  }
  void noteFacts(llvm::ArrayRef<uintptr_t> Pointers,
                 llvm::ArrayRef<SlotFact> Facts, uint64_t Generation);
};

// The calling thread's memo of K; empty when K was not among the kernels it
// launched last.
LaunchMemo &launchMemo(const RegisteredKernel &K);

} // namespace mstage::rt

#endif
