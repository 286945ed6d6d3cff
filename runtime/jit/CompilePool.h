//===- CompilePool.h - The background compile pool ------------------------===//
//
// In MSTAGE_JIT=async mode a launch that misses the in-memory cache queues
// its specialization's compile here and runs the kernel's generic code
// meanwhile. The pool's workers (MSTAGE_JIT_THREADS, default one per
// hardware thread) are started on first use and never stopped: they must
// not meet the process's static destructors. At exit, queued compiles get
// MSTAGE_JIT_EXIT_WAIT_MS to finish (a short program's specializations
// reach the disk cache and the dumps), then what is still queued is dropped
// and running ones finish, so that the exit neither hangs nor leaves a
// partial cache entry. A fork()ed child starts with no pool: the parent's
// workers are not in it.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_JIT_COMPILEPOOL_H
#define MSTAGE_RUNTIME_JIT_COMPILEPOOL_H

#include "llvm/ADT/FunctionExtras.h"

#include <string>

namespace mstage::rt {

// Starts the pool, and warms the JIT up for Arch on it: done as the launch
// back end is made, so that the first launch that misses does not pay for
// either.
void startCompilePool(bool OnGpu, const std::string &Arch);

// Queues Job, which reads the code of the module Owner (a module record).
// Dropped when the process is exiting.
void queueCompile(const void *Owner, llvm::unique_function<void()> Job);

// Waits until no compile is queued or running (mstage::jit_wait()).
void waitForCompiles();

// What exit() does to the pool, done earlier by an exit handler that must
// come after the compiles (TraceEvents.h): queued compiles are given their
// time, then dropped, and running ones waited for.
void stopCompilePool();

// Whether the pool has stopped taking compiles (the process is exiting):
// a launch then compiles on its own thread.
bool compilePoolClosed();

// Owner is being unloaded: drops its queued compiles and waits for its
// running ones, which read its code.
void finishCompilesOf(const void *Owner);

} // namespace mstage::rt

#endif
