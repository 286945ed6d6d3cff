//===- LoadApart.h - A launch's code loaded on a thread of its own --------===//
//
// A warm first launch loads its specialization from the disk cache on a
// short-lived thread and waits for it. What the load allocates (the entry's
// bytes, and the driver's host copy of each module, which lives as long as
// the module) then comes from that thread's malloc arena, not from the
// launching thread's heap. Between a program's own large buffers (vectors it
// downloads and frees, step by step), those blocks fragmented the heap: glibc
// placed the next buffers higher and gave the pages back, and the program
// faulted them in again (docs/performance.md: issue 33's warm stencil process,
// 36,600 page faults against nvcc's 12,400).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_LOADAPART_H
#define MSTAGE_RUNTIME_LAUNCH_LOADAPART_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

namespace mstage::rt {

// Runs Load on a new thread and returns its result once it ends; on this
// thread when no thread can be made.
llvm::Error loadApart(llvm::function_ref<llvm::Error()> Load);

} // namespace mstage::rt

#endif
