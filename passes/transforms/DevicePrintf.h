//===- DevicePrintf.h - printf and assert in kernels, through CUDA's runtime ===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICEPRINTF_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICEPRINTF_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
}

namespace mstage {

// Rewrites each call printf(format, args...) in the device module M into
// vprintf(format, buffer), where buffer holds the (already promoted)
// arguments, each at its natural alignment, as CUDA's device printf expects.
// The output appears when the launch is synchronized. Fails for an argument
// that is not an integer, a floating-point value or a pointer.
llvm::Error lowerPrintf(llvm::Module &M);

// Rewrites each call to glibc's __assert_fail(expression, file, line,
// function), which a failed assert() makes, into CUDA's __assertfail: the
// device prints the message with the thread's position and stops the
// launch, which then fails with CUDA_ERROR_ASSERT.
void lowerAssert(llvm::Module &M);

} // namespace mstage

#endif
