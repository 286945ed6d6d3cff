//===- CaptureInMemory.h - Kernel parameters too large for .param ---------===//
//
// A kernel's parameters (the lambda object with its captures, the launch
// arguments, and the generic code's staged values) travel in PTX parameter
// space, which ptxas caps (PTX ISA, "Kernel Function Parameters"): 4352
// bytes for PTX ISA before 8.1, 32764 bytes from 8.1 on sm_70 and later.
// NVPTX in LLVM 22 emits .version 7.8 and lower for sm_90 and older
// (4352 bytes) and 8.6 and above for sm_100 and newer (32764 bytes).
//
// A kernel over the limit gets its largest parameters in device memory
// instead: the runtime copies each into a stream-ordered allocation and
// passes its address, and the kernel's byval parameter becomes a `ptr
// addrspace(1)` to it. The runtime (from the launch's parameter sizes), the
// JIT and the ahead-of-time compile (from the kernel's IR) choose the same
// parameters with paramsInMemory.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_CAPTUREINMEMORY_H
#define MSTAGE_PASSES_TRANSFORMS_CAPTUREINMEMORY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace llvm {
class Function;
}

namespace mstage {

inline constexpr uint64_t ParamLimitBeforePtx81 = 4352;
inline constexpr uint64_t ParamLimitPtx81 = 32764;

// The parameter space, in bytes, of a kernel compiled for Arch ("sm_90").
uint64_t kernelParamLimit(llvm::StringRef Arch);

// The parameter space that parameters of these sizes take, followed by
// ExtraBytes (the generic code's staged values): each parameter is counted
// from a 16-byte boundary, which is at least what ptxas counts.
uint64_t paramSpaceBytes(llvm::ArrayRef<uint32_t> Sizes, uint64_t ExtraBytes);

// The parameters, bit I for parameter I, that go to device memory so that
// the rest fit in Limit: the largest over 16 bytes first, each leaving an
// 8-byte pointer. 0 when all fit (the common case, checked first). Only the
// first 64 parameters can move.
uint64_t paramsInMemory(llvm::ArrayRef<uint32_t> Sizes, uint64_t ExtraBytes,
                        uint64_t Limit);

// Bytes of the parameters in Mask.
uint64_t bytesInMemory(llvm::ArrayRef<uint32_t> Sizes, uint64_t Mask);

// Moves the parameters of Kernel (a ptx_kernel whose first NumParams
// parameters are the launch's, each byval) that paramsInMemory chooses for
// Arch, with StagedBytes more parameter space after them, into device
// memory (moveParamsToMemory). Returns the mask it applied.
llvm::Expected<uint64_t> moveLargeParams(llvm::Function &Kernel,
                                         llvm::StringRef Arch,
                                         uint64_t StagedBytes,
                                         unsigned NumParams);

// Rewrites each byval parameter I of Kernel in Mask into a `ptr
// addrspace(1)` to the same bytes: noalias, aligned and dereferenceable as
// the byval was, and readonly when nothing writes through it. A kernel that
// may write its copy (a mutable lambda) gets a per-thread copy first, as
// byval has. Kernel is replaced by a new function of the same name.
llvm::Error moveParamsToMemory(llvm::Function &Kernel, uint64_t Mask);

} // namespace mstage

#endif
