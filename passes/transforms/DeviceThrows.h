//===- DeviceThrows.h - The C++ library's throws as device traps ----------===//
//
// Kernel code may use what the C++ library implements with exceptions on its
// error paths (std::variant and std::visit, std::optional::value,
// std::array::at, ...): the kernel checks accept a throw inside the library's
// headers (a throw in the program's own code stays an error). On the device
// a call that would throw (__cxa_allocate_exception, __cxa_throw,
// std::__throw_bad_variant_access, std::terminate, ...) becomes
// __assert_fail with what was thrown, its place and function, and the
// launch stops as a failed assert does (CUDA_ERROR_ASSERT). The code that
// builds the exception object is left unreachable and optimized away.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICETHROWS_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICETHROWS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
} // namespace llvm

namespace mstage {

// Whether calling a function of this name throws (or terminates).
bool isThrowingFunction(llvm::StringRef Name);

// Replaces each call of a throwing function in the device module M with
// __assert_fail and unreachable; after retargeting (no invokes left) and
// before lowerAssert.
void lowerThrows(llvm::Module &M);

} // namespace mstage

#endif
