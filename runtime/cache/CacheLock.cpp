//===- CacheLock.cpp - One compile per cache key across processes ---------===//
#include "cache/CacheLock.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <cassert>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace mstage::rt {
namespace {

// Opens the lock file at Path, a regular file (never through a link, and a
// FIFO does not block the open); -1 when it cannot be.
int openLockFile(StringRef Path, bool Create, unsigned Mode, struct stat &St) {
  int Flags = O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
  int FD = ::open(Path.str().c_str(), Create ? Flags | O_CREAT : Flags, Mode);
  if (FD < 0)
    return -1;
  if (::fstat(FD, &St) || !S_ISREG(St.st_mode)) {
    ::close(FD);
    return -1;
  }
  return FD;
}

// Whether Path still names the file open as St: an owner removes its file
// before it unlocks, so a waiter may have locked a removed file.
bool stillAt(StringRef Path, const struct stat &St) {
  struct stat Now;
  return !::lstat(Path.str().c_str(), &Now) && Now.st_dev == St.st_dev &&
         Now.st_ino == St.st_ino;
}

} // namespace

CacheLock &CacheLock::operator=(CacheLock &&O) noexcept {
  if (this != &O) {
    release();
    FD = O.FD;
    Path = std::move(O.Path);
    O.FD = -1;
  }
  return *this;
}

CacheLock::Outcome CacheLock::acquire(StringRef LockPath,
                                      std::chrono::milliseconds Wait,
                                      unsigned Mode) {
  using Clock = std::chrono::steady_clock;
  release();
  auto Deadline = Clock::now() + Wait;
  while (true) {
    struct stat St;
    int F = openLockFile(LockPath, /*Create=*/true, Mode, St);
    if (F < 0)
      return Outcome::Failed;
    // Created under the umask: every user of a shared cache must be able to
    // open it for writing, which a record lock needs.
    if (St.st_uid == geteuid())
      ::fchmod(F, Mode);
    auto Left = std::max(std::chrono::duration_cast<std::chrono::milliseconds>(
                             Deadline - Clock::now()),
                         std::chrono::milliseconds(0));
    if (std::error_code EC = sys::fs::tryLockFile(F, Left)) {
      ::close(F);
      return EC == errc::no_lock_available ? Outcome::TimedOut
                                           : Outcome::Failed;
    }
    if (stillAt(LockPath, St)) {
      // A killed owner's file may be old: a scan removes only old ones.
      sys::fs::setLastAccessAndModificationTime(
          F, std::chrono::system_clock::now());
      assert(FD < 0 && "release() above let go of any earlier lock");
      FD = F;
      Path = LockPath.str();
      return Outcome::Acquired;
    }
    ::close(F); // its owner is done; lock the file at the path now
  }
}

void CacheLock::release() {
  if (FD < 0)
    return;
  assert(!Path.empty() && "a held lock names its file");
  sys::fs::remove(Path);
  ::close(FD); // drops the lock
  FD = -1;
}

void removeStaleCacheLock(StringRef Path) {
  struct stat St;
  int F = openLockFile(Path, /*Create=*/false, 0, St);
  if (F < 0)
    return;
  if (!sys::fs::tryLockFile(F) && stillAt(Path, St))
    sys::fs::remove(Path);
  ::close(F);
}

} // namespace mstage::rt
