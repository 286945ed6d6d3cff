//===- LaunchFacts.h - What a launch's pointers tell the JIT ---*- C++ -*-===//
//
// At each launch the runtime reads the pointer in every slot of the kernel
// (PointerSlots.h) and knows which allocation it points into and how it is
// aligned. Slots in different allocations cannot alias; a group of slots
// that the kernel never writes through is read-only for the launch. The JIT
// folds these facts into the specialization: alias scopes between groups,
// !invariant.load (ld.global.nc) on loads of read-only groups, and alignment
// assumptions (vector loads). Facts are part of the cache key.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_LAUNCHFACTS_H
#define MSTAGE_PASSES_TRANSFORMS_LAUNCHFACTS_H

#include "formats/PointerSlots.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Function;
} // namespace llvm

namespace mstage {

// What the runtime knows about one slot's pointer at a launch.
struct SlotFact {
  // Slots with the same group point into the same allocation; NoGroup: not
  // known (a pointer the runtime cannot place), nothing is assumed.
  uint8_t Group = NoGroup;
  uint8_t AlignLog2 = 0; // the pointer is 1 << AlignLog2 aligned (<= 16)
  static constexpr uint8_t NoGroup = 0xff;
};

// When the facts are applied: before the optimizer, everything; after it,
// !invariant.load again on the loads it made meanwhile (a struct copy's
// memcpy becomes loads only there), so that they are ld.global.nc too.
enum class FactsPass { BeforeOptimization, AfterOptimization };

// Applies Facts (one per entry of Slots) to Kernel's IR.
void applyLaunchFacts(llvm::Function &Kernel, llvm::ArrayRef<PointerSlot> Slots,
                      llvm::ArrayRef<SlotFact> Facts,
                      FactsPass When = FactsPass::BeforeOptimization);

// "A16 B16 A8 ?": per slot, its group as a letter and its alignment.
std::string formatLaunchFacts(llvm::ArrayRef<SlotFact> Facts);

// The facts that formatLaunchFacts prints as Text, which must name
// NumSlots slots (mstage-ptx --views).
llvm::Expected<std::vector<SlotFact>> parseLaunchFacts(llvm::StringRef Text,
                                                       size_t NumSlots);

} // namespace mstage

#endif
