//===- AccessFootprint.h - The device bytes a launch may read and write ---===//
//
// Automatic graph replay (runtime/replay) orders two launches of a period
// only when their accesses meet. A launch's footprint is a superset of the
// bytes of global memory it may read and write, computed from its kernel's
// IR with everything the launch fixes folded in: the staged values and the
// configuration (KernelSpecialization.h), and the bytes of its parameters
// (bindParameters), so that a view's pointer and a captured size are
// constants. Each access's address is then an affine form of a few values
// (thread indices, a row and a column) whose ranges at the access, under
// the conditions that guard it, LazyValueInfo gives; the form's values are
// the footprint. Anything not so followed (an address loaded from memory, a
// call that may touch memory, a device global that may be written) makes
// the footprint unbounded: such a launch meets every other.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_ACCESSFOOTPRINT_H
#define MSTAGE_PASSES_TRANSFORMS_ACCESSFOOTPRINT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace llvm {
class Function;
class DominatorTree;
class LazyValueInfo;
} // namespace llvm

namespace mstage {

// The bytes [Begin, End).
struct ByteRange {
  uint64_t Begin = 0, End = 0;
  bool operator==(const ByteRange &O) const {
    return Begin == O.Begin && End == O.End;
  }
};

struct AccessFootprint {
  // False: the launch may read and write any byte.
  bool Bounded = false;
  // Sorted and apart (merged where they touch).
  std::vector<ByteRange> Reads, Writes;

  static AccessFootprint unbounded() { return {}; }
};

// Whether the two may touch a byte in common, one of them writing it.
bool accessesMeet(const AccessFootprint &A, const AccessFootprint &B);

// Sorts Ranges and merges those that overlap or touch.
void normalizeRanges(std::vector<ByteRange> &Ranges);

// Gives Kernel's parameters the launch's bytes (one per parameter, the
// lambda object first): a byval parameter that the kernel never writes
// becomes a constant global holding them, so that the optimizer folds its
// loads; a parameter that is written, or one whose bytes are missing or of
// another size, is left as it is. A call's !range (an index's, from the
// launch) becomes its range attribute too, which LVI reads.
void bindParameters(llvm::Function &Kernel,
                    llvm::ArrayRef<llvm::StringRef> ParamBytes);

// The footprint of Kernel's accesses (after bindParameters and the
// optimizer), with LVI for the ranges at each access (and DT for the
// switches that guard it). At most MaxRanges
// ranges are kept for reads and for writes each; past that a list is
// widened to the span of its accesses (still a superset).
AccessFootprint computeAccessFootprint(llvm::Function &Kernel,
                                       llvm::LazyValueInfo &LVI,
                                       const llvm::DominatorTree &DT,
                                       size_t MaxRanges = size_t(1) << 20);
// The same, with LVI and DT made here for Kernel alone.
AccessFootprint computeAccessFootprint(llvm::Function &Kernel,
                                       size_t MaxRanges = size_t(1) << 20);

} // namespace mstage

#endif
