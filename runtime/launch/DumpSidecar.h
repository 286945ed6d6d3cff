//===- DumpSidecar.h - MSTAGE_DUMP's files of a specialization ------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_DUMPSIDECAR_H
#define MSTAGE_RUNTIME_LAUNCH_DUMPSIDECAR_H

#include "cache/CacheKey.h"
#include "cache/DiskCache.h"
#include "inspect/Trace.h"
#include "launch/CodeRequest.h"

namespace mstage::rt {

// Writes what MSTAGE_DUMP asks for of R's code (its PTX, its SASS) and,
// with any dump, the JSON beside it: the kernel, the launch, the staged
// values, the facts of the pointers, where the code came from and what it
// cost (Times). After the timing, which the dumps would distort.
void dumpCode(const CodeRequest &R, const CacheKey &Key, const CachedCode &Code,
              const LaunchTimes &Times);

} // namespace mstage::rt

#endif
