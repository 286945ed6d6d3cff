//===- Warning.h - The runtime's one way to warn on stderr ------*- C++ -*-===//
//
// A warning is what the runtime says on stderr when it goes on in a lesser
// way (a fallback, a setting it ignores, a damaged cache entry it
// replaces). Every warning reads as an error would (RuntimeFailure::log
// writes the one "mstage: " prefix):
//   mstage: <message>
//   mstage: kernel 'k': <message>
// and goes out as one write, so that the warnings of threads do not
// interleave.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_SUPPORT_WARNING_H
#define MSTAGE_RUNTIME_SUPPORT_WARNING_H

#include "support/RuntimeFailure.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace mstage::rt {

// Writes F's text and a newline on stderr.
void warn(const RuntimeFailure &F);

// "mstage: <Message>".
void warn(const llvm::Twine &Message);

// "mstage: kernel '<Kernel>': <Message>" ("mstage: <Message>" when Kernel
// is empty).
void warn(llvm::StringRef Kernel, const llvm::Twine &Message);

// E's text, as the error would read, followed by After. Consumes E, which
// must be a failure.
void warn(llvm::Error E, const llvm::Twine &After = "");

} // namespace mstage::rt

#endif
