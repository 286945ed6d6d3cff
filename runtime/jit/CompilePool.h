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
// partial cache entry. A compile that is waiting for ptxas when the process
// exits is handed over instead: ptxas (a process of its own) runs on and
// leaves its cubin beside the cache entry's name, which the next process's
// lookup makes its entry (DiskCache.h, handOverPaths); the exit does not
// wait for it, as the process's launches can no longer use that code. A
// fork()ed child starts with no pool: the parent's workers are not in it.
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

// Whether the calling thread runs a job of the pool (a background compile).
bool inCompileJob();

// Called by a compile with true before it waits for a ptxas run that can
// finish without this process (startPtxas with a PtxasKeep), and with false
// after it: meanwhile the exit does not wait for the compile. If the exit
// has handed it over, the call with false never returns (the thread waits
// for the process's end). Nothing happens off the pool's workers.
void waitingForPtxas(bool Starts);

// Owner is being unloaded: drops its queued compiles and waits for its
// running ones, which read its code.
void finishCompilesOf(const void *Owner);

} // namespace mstage::rt

#endif
