//===- BuildKey.h - The disk cache's key of a specialization --------------===//
//
// The in-memory cache finds a specialization by its launch's bytes
// (StagedLaunch::key()); the disk cache, shared by processes and builds,
// by a hash of everything its code depends on (cache/CacheKey.h).
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_LAUNCH_BUILDKEY_H
#define MSTAGE_RUNTIME_LAUNCH_BUILDKEY_H

#include "cache/CacheKey.h"
#include "launch/CodeRequest.h"

#include <cstdint>

namespace mstage::rt {

// The disk cache's key of R's code.
CacheKey diskCacheKey(const CodeRequest &R);

// The first 8 bytes of Key, which name the specialization's dump files.
uint64_t shortHash(const CacheKey &Key);

} // namespace mstage::rt

#endif
