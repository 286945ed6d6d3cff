//===- PointerSlots.h - Pointers a kernel reads from its parameters -------===//
//
// A kernel's views reach it inside its byval parameters: the lambda object
// (captures) and the launch arguments. A pointer slot is a parameter and a
// byte offset from which the kernel loads a pointer. The extraction pass
// lists a kernel's slots in its blob, so that the runtime can read each
// launch's pointers there and tell the JIT what it knows about them
// (LaunchFacts.h) without reading the kernel's IR.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_POINTERSLOTS_H
#define MSTAGE_PASSES_FORMATS_POINTERSLOTS_H

#include <cstdint>
#include <cstring>
#include <optional>
#include <tuple>
#include <vector>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace mstage {

struct PointerSlot {
  uint32_t Param = 0;  // 0: the lambda object; I: the I-th launch argument
  uint32_t Offset = 0; // bytes into that parameter

  bool operator==(const PointerSlot &O) const {
    return Param == O.Param && Offset == O.Offset;
  }
  bool operator<(const PointerSlot &O) const {
    return std::tie(Param, Offset) < std::tie(O.Param, O.Offset);
  }
};

// The pointer that slot S holds in a launch's parameters (Params, of
// ParamSizes bytes each when given), or nothing when the launch has no such
// slot.
inline std::optional<uintptr_t> readPointerSlot(const PointerSlot &S,
                                                void *const *Params,
                                                const uint32_t *ParamSizes,
                                                uint32_t NumParams) {
  if (S.Param >= NumParams ||
      (ParamSizes && uint64_t(S.Offset) + 8 > ParamSizes[S.Param]))
    return std::nullopt;
  uintptr_t P;
  std::memcpy(&P, static_cast<const char *>(Params[S.Param]) + S.Offset,
              sizeof(P));
  return P;
}

// The slot V comes from, when V is a pointer loaded from a byval parameter
// of its function at a constant offset: a load of a pointer, or an integer
// load turned into one (how a lambda whose captures fit a register is read).
std::optional<PointerSlot> pointerSlotOf(const llvm::Value &V);

// Every slot Kernel loads a pointer from, sorted, each once.
std::vector<PointerSlot> findPointerSlots(const llvm::Function &Kernel);

// Whether memory may be written through the pointer V or a pointer derived
// from it: a store or an atomic to it, a call that may write through it, or
// a use that cannot be followed (V stored, or turned into an integer).
bool mayWriteThrough(const llvm::Value &V);

// The slots of Kernel that it may write through, sorted, each once: for
// MSTAGE_CHECK=streams, which counts the others' memory as only read. Every
// slot of a parameter whose bytes are used other than by loads counts.
std::vector<PointerSlot> findWrittenPointerSlots(const llvm::Function &Kernel);

} // namespace mstage

#endif
