//===- CompileInBackground.h - Specializations made by the compile pool ---===//
//
// With MSTAGE_JIT=async (and auto, unless it waits) a launch that misses
// queues its specialization's
// compile (jit/CompilePool.h) and runs the kernel's generic code meanwhile
// (core/GenericCode.h).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_COMPILEINBACKGROUND_H
#define MSTAGE_RUNTIME_LAUNCH_COMPILEINBACKGROUND_H

#include "cache/MemoryCache.h"
#include "core/KernelRegistry.h"

namespace mstage::rt {

// Whether a launch that misses may queue its compile (MSTAGE_JIT=auto or
// async). Not in
// PTX-only mode unless asked for: nothing runs there, so there is nothing to
// overlap, and a short program would end before its compiles (its PTX never
// dumped or cached). Not once the pool is closed at exit: a launch from a
// static destructor compiles on its own thread.
bool compilesInBackground();

// Whether a compile ahead (prepare()) is queued: with MSTAGE_JIT=sync too, so
// that a program's prepared specializations compile side by side, one per
// pool worker, and not one after another on its thread (issue 33: the
// stencil's 8 specializations). Where launches may not queue, a launch of a
// queued specialization waits for it (FindOrMakeCode.h). Not in PTX-only
// mode unless MSTAGE_JIT is set, nor once the pool is closed.
bool preparesInBackground();

// Queues E's compile unless it is queued, made or failed already: only the
// launch that finds it empty queues it, and is told so (true). It loads the
// code on D (null off the GPU); EvaluateMs is the launch's time spent
// evaluating its staged values. Tiered: launches run the generic code
// meanwhile, so with tiers on (tiersWanted) the compile first makes tier 0 into
// E.Quick, which they run instead until tier 1, the full compile and the only
// one cached, is ready.
bool queueSpecialization(const RegisteredKernel &K, CacheEntry &E,
                         double EvaluateMs, CudaDriver *D, bool Tiered = false);

// MSTAGE_JIT_TIERS, or by default whether the back end loads code: tier 0
// is worth its compile only where it runs.
bool tiersWanted();

} // namespace mstage::rt

#endif
