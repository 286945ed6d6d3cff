//===- LostContext.h - Failures that a kernel's fault causes ----*- C++ -*-===//
//
// A kernel's fault leaves the GPU context unusable: every later driver call
// fails with the fault's error, also those that wait for nothing (making or
// recording an event, making a stream). Such a failure is the fault's first
// report when it comes before any wait: it names the kernels in flight, as
// a wait does (asyncFailure), so that the fault is not reported again, as
// unknown, at exit.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CORE_LOSTCONTEXT_H
#define MSTAGE_RUNTIME_CORE_LOSTCONTEXT_H

#include "llvm/Support/Error.h"

#include <cuda.h>

#include <string>

namespace mstage::rt {

class Stream;

// Whether Code is the error a kernel's fault makes every call fail with.
bool contextLost(CUresult Code);

// Failure said with What ("What: <message>"); when a kernel's fault lost
// the context, the fault's report naming the kernels in flight on S (null:
// on every stream).
llvm::Error failureOrFault(llvm::Error Failure, Stream *S,
                           const std::string &What);

} // namespace mstage::rt

#endif
