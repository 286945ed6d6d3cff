//===- GenericKernel.h - A kernel whose staged values come at run time ----===//
//
// The ahead-of-time generic code of a kernel reads its staged values from
// one extra, trailing kernel parameter instead of from the placeholders that
// the JIT fills with constants: stage site I at the sum of alignTo(size of
// site J, 16) over J < I, the parameter 16-byte aligned (AotImage.h). The
// launch extents stay unfolded.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_GENERICKERNEL_H
#define MSTAGE_PASSES_TRANSFORMS_GENERICKERNEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace llvm {
class Module;
}

namespace mstage {

// Turns the kernel KernelName of its device module M, whose stage sites
// have the sizes SiteSizes, into its generic form: without sites it is left
// as it is. Functions other than the kernel that read a staged value get
// the parameter's address as a trailing argument of their own.
llvm::Error makeGenericKernel(llvm::Module &M, llvm::StringRef KernelName,
                              llvm::ArrayRef<uint32_t> SiteSizes);

} // namespace mstage

#endif
