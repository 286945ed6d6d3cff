//===- CacheLock.h - One compile per cache key across processes -----------===//
//
// A lock file beside a disk-cache entry, held by the process that compiles
// the entry, so that others that share the directory (the ranks of an MPI
// job) wait for its entry instead of compiling it too. It is a POSIX record
// lock (sys::fs::tryLockFile), which the kernel drops when its owner dies,
// however it dies: a killed owner's file is left but blocks nobody. The
// owner removes the file before it unlocks; whoever locks a file must then
// check that it is still the one at the path (else it locked a removed one).
//
// Record locks belong to a process, not to a thread: two threads of one
// process both get the lock. The memory cache already compiles each
// specialization once per process, so that costs at most a second compile.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_RUNTIME_CACHE_CACHELOCK_H
#define MSTAGE_RUNTIME_CACHE_CACHELOCK_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <string>

namespace mstage::rt {

class CacheLock {
public:
  enum class Outcome {
    Acquired, // the lock is held: compile, store, then release
    TimedOut, // another process held it for longer than the bound
    Failed,   // no lock here (a file system without locks, a foreign file)
  };

  CacheLock() = default;
  CacheLock(CacheLock &&O) noexcept : FD(O.FD), Path(std::move(O.Path)) {
    O.FD = -1;
  }
  CacheLock &operator=(CacheLock &&O) noexcept;
  CacheLock(const CacheLock &) = delete;
  CacheLock &operator=(const CacheLock &) = delete;
  ~CacheLock() { release(); }

  // Takes the lock file at Path (created with Mode), waiting at most Wait
  // for the process that holds it; Wait 0 tries once.
  Outcome acquire(llvm::StringRef Path, std::chrono::milliseconds Wait,
                  unsigned Mode);

  bool held() const { return FD >= 0; }

  // Removes the lock file and unlocks it: a waiter then looks for the entry.
  void release();

private:
  int FD = -1;
  std::string Path;
};

// Removes the lock file at Path when no process holds it: the leftover of a
// process that was killed while it compiled.
void removeStaleCacheLock(llvm::StringRef Path);

} // namespace mstage::rt

#endif
