//===- ResolveArguments.h - A launch's stream and pointers ----------------===//
//
// After checkLaunch, a launch resolves the rest of its arguments: the
// stream it goes to (which must be alive), and the facts of its pointers
// (LaunchFacts.h), which are checked against the stream's device.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_RESOLVEARGUMENTS_H
#define MSTAGE_RUNTIME_LAUNCH_RESOLVEARGUMENTS_H

#include "launch/LaunchRequest.h"

#include "llvm/Support/Error.h"

namespace mstage::rt {

// Sets L.S and L.Facts, or fails naming L.K.
llvm::Error resolveArguments(mstage_stream *StreamPtr, LaunchRequest &L);

} // namespace mstage::rt

#endif
