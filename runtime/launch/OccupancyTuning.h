//===- OccupancyTuning.h - The occupancy a kernel runs at -------*- C++ -*-===//
//
// Issue 34: a kernel to which ptxas gives fewer registers than nvcc's build
// gets fits more blocks on a multiprocessor, and a lookup-bound kernel can
// run slower for it (rsbench's lookups: 8 blocks of 256 against nvcc's 6,
// 1.13x on an H100), as more warps share the L1 cache. No directive raises
// registers, so the runtime limits the blocks instead, and measures whether
// that pays (MSTAGE_OCCUPANCY, docs/performance.md "Occupancy"):
//  - auto (default): the first launch of a JIT specialization is timed with
//    two events, read without waiting by a later launch. When it ran for
//    0.1 ms or more, at least 4 blocks fit, and three quarters or half of
//    them can be made the limit, the next launches run in turn at each limit
//    and at the natural occupancy, twice each, timed; the fastest is kept when
//    it is 2% faster than the natural one. These launches wait for each other
//    (one launch of the kernel at a time), not for the GPU.
//  - N: every specialization runs at N blocks where a limit can make it so.
//  - off: nothing is tried; launches are as before.
// A limit of N blocks is the smallest preferred shared-memory carveout
// that holds N blocks plus the least padding of dynamic shared memory that
// keeps an N+1st out, within the default 48 KiB limit (a raised limit may
// cost L1): the L1 cache stays large. Only launches without dynamic shared
// memory of their own (the padding must not be seen by the kernel), neither
// cooperative (the grid must stay resident) nor captured, are tuned, each
// kernel for the block size of its first such launch; others run as they come.
// What auto chose after trying is noted beside the specialization's disk
// cache entry, with the device's name, so that a later process on the same
// kind of GPU runs at it without trying again (a note it cannot apply, or
// none, and it tries as above).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_OCCUPANCYTUNING_H
#define MSTAGE_RUNTIME_LAUNCH_OCCUPANCYTUNING_H

#include "cache/CacheKey.h"
#include "launch/LaunchRequest.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include "cuda.h"

#include <optional>

namespace mstage::rt {

// One launch of a JIT specialization as the tuning says: made before the
// launch, told when it is enqueued; a launch that fails drops its sample.
class OccupancyTrial {
public:
  // Function is L's specialization, loaded; Config, a copy of L.Config,
  // gets the launch's padding. Timeable: the launch is neither captured
  // nor held for a graph, so events around it time it. NoteKey gives the
  // disk cache key that the choice is noted under (nothing: not noted), and
  // is called once per function.
  OccupancyTrial(const LaunchRequest &L, CUfunction Function, bool Timeable,
                 LaunchConfig &Config,
                 llvm::function_ref<std::optional<CacheKey>()> NoteKey);
  ~OccupancyTrial();
  OccupancyTrial(const OccupancyTrial &) = delete;
  OccupancyTrial &operator=(const OccupancyTrial &) = delete;
  void enqueued();

private:
  void *Held = nullptr; // the kernel's tuning, locked while this launch times
  CUevent Start = nullptr;
  CUstream Queue = nullptr;
  int Choice = 0;
};

} // namespace mstage::rt

#endif
