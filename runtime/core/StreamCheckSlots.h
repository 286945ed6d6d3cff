//===- StreamCheckSlots.h - The memory a launch's pointers use -*- C++ -*-===//
//
// MSTAGE_CHECK=streams sees a launch's device_vector, managed_vector and
// vector_view arguments through the headers (mstage_rt_check_use); a view or
// pointer captured in the lambda it sees through the kernel's pointer slots
// in the lambda (formats/PointerSlots.h): the pointer each slot holds at the
// launch, and whether the kernel may write through it, read once per kernel
// from its bitcode. The arguments' slots say the same of the arguments: a
// non-const argument that the kernel never writes through is only read.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_STREAMCHECKSLOTS_H
#define MSTAGE_RUNTIME_CORE_STREAMCHECKSLOTS_H

#include "core/KernelRegistry.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace mstage::rt::streamcheck {

// One pointer the launch's parameters hold, and whether the kernel may
// write through it.
struct SlotPointer {
  uintptr_t P;
  bool Write;
  bool Argument; // a launch argument's slot, not the lambda's
};

// The non-null pointers in K's slots of this launch's lambda and arguments.
// Calls are serialized by the caller (the checker's lock).
void slotPointers(const RegisteredKernel &K, void *const *Params,
                  const uint32_t *ParamSizes, uint32_t NumParams,
                  llvm::SmallVectorImpl<SlotPointer> &Out);

} // namespace mstage::rt::streamcheck

#endif
