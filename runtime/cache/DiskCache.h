//===- DiskCache.h - Compiled kernels kept on disk across runs ------------===//
//
// One file per specialization, named by its key, holding a header (magic,
// version, key, sizes, checksums bound to the key), the PTX and, when the
// toolkit's ptxas made one, the cubin (DiskEntry.h, CudaTools.h). The PTX
// stays beside the cubin for a driver that cannot load the cubin. Files are
// written to a temporary name and renamed, so readers in other processes see
// whole entries or none. A damaged entry (also one that is not a regular
// file) is reported, removed and compiled again. Beside an entry there may
// be a note (loadEntryNote) of what a process measured about its code.
//
// The directory is a trust boundary: unless MSTAGE_CACHE_SHARED says the
// cache is shared on purpose, a directory or an entry that another user owns
// or can write is refused (one warning, then memory-only caching), as ssh
// and ccache do. The directory is kept under a size cap by removing the
// entries least recently used (their modification time is their last use);
// its size is kept in an index, so a store does not scan it.
//
// Processes that share the directory compile each entry once: the one that
// misses first holds a lock file for the key (CacheLock.h) while it
// compiles and stores; the others wait for it, at most
// MSTAGE_CACHE_LOCK_WAIT_MS, and read its entry; after that bound, or when
// its owner is gone without an entry, they compile it themselves.
//
// MSTAGE_CACHE_READONLY=1 reads the cache and writes nothing to it: no
// entries, locks, temporaries, index or eviction; a hit does not mark its
// entry used, a damaged entry is reported and left in place, and a
// directory that does not exist is not created.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CACHE_DISKCACHE_H
#define MSTAGE_RUNTIME_CACHE_DISKCACHE_H

#include "cache/CacheKey.h"
#include "cache/CacheLock.h"
#include "cuda/CudaTools.h"
#include "support/Settings.h"

#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <optional>
#include <string>
#include <system_error>

namespace mstage::rt {

struct CachedCode {
  std::string PTX;
  std::string Cubin; // empty when there is none
};

// Returns the entry for Key, or nothing when there is none or it is damaged
// (then it is removed, with one warning line). A hit marks the entry as used.
// Under MSTAGE_CACHE_READONLY a damaged entry stays (the warning says so)
// and a hit is not marked.
std::optional<CachedCode> loadFromDiskCache(const CacheKey &Key);

// The same, and on a miss takes Key's lock into Lock, first waiting (at
// most MSTAGE_CACHE_LOCK_WAIT_MS) for a process that holds it and looking
// again: Lock is then held, and the caller compiles, stores the entry and
// releases it (or drops it, when the compile fails). Nothing is locked on a
// hit, after the bound, without a writable disk cache, or on a file system
// without locks; the caller compiles anyway.
std::optional<CachedCode> loadFromDiskCacheOrLock(const CacheKey &Key,
                                                  CacheLock &Lock);

// Whether Key has an entry on disk (a regular file; it is not read nor
// checked here): a first launch loads it rather than run the generic code
// while it loads in the background.
bool inDiskCache(const CacheKey &Key);

// Where a ptxas run for Key's entry puts its PTX and cubin when it succeeds
// (PtxasKeep), so that the run can outlive the process (CompilePool.h:
// the exit hands running ptxas over): a later lookup of Key (the two
// above, inDiskCache) makes them its entry. Nothing without a writable disk
// cache.
std::optional<PtxasKeep> handOverPaths(const CacheKey &Key);

// Writes the entry for Key atomically, then evicts to the size cap. A
// directory that cannot be written is reported once; the program goes on
// with the in-memory cache.
void storeInDiskCache(const CacheKey &Key, const CachedCode &Code);

// Removes the entry for Key (whose code turned out to be bad).
void removeFromDiskCache(const CacheKey &Key);

// A short text kept beside Key's entry: what a process measured about the
// entry's code, for the processes after it (the occupancy a kernel ran
// fastest at, OccupancyTuning.h). Read as entries are (a regular file, not
// another user's in a private cache), at most MaxEntryNoteBytes; written
// atomically, not under MSTAGE_CACHE_READONLY; removed with its entry.
// Nothing without the disk cache.
constexpr size_t MaxEntryNoteBytes = 4096;
std::optional<std::string> loadEntryNote(const CacheKey &Key);
void storeEntryNote(const CacheKey &Key, llvm::StringRef Text);

// Where the runtime's temporary files go: the cache directory when the
// disk cache is used (a killed process's leftovers are then counted and
// removed by a later scan), else "" for the system's temporary directory.
std::string cacheTemporaryDir();

// A file in cacheTemporaryDir() could not be written (What, EC): reported
// once as storeInDiskCache's failures are, and the disk cache is off.
void cacheWriteFailed(const llvm::Twine &What, std::error_code EC);

} // namespace mstage::rt

#endif
