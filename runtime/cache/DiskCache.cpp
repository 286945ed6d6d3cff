//===- DiskCache.cpp - Compiled kernels kept on disk across runs ----------===//
#include "cache/DiskCache.h"
#include "cache/CacheLock.h"
#include "cache/DiskEntry.h"
#include "support/Settings.h"
#include "support/Warning.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace mstage::rt {
namespace {

constexpr StringLiteral EntrySuffix = ".mstage";
constexpr StringLiteral TempSuffix = ".tmp";
// Held by the process that compiles the entry of the same name (CacheLock.h).
constexpr StringLiteral LockSuffix = ".lock";
// An entry's note (loadEntryNote), removed with the entry.
constexpr StringLiteral NoteSuffix = ".note";
// The PTX and the cubin of a ptxas run that the process handed over at its
// exit (CompilePool.h), moved here by the run once it succeeded; the next
// lookup of the key makes them its entry. Counted and removed when stale
// as temporaries are.
constexpr StringLiteral HandedPtxSuffix = ".ptxas-ptx";
constexpr StringLiteral HandedCubinSuffix = ".ptxas-cubin";
// Holds the process id of the shell of a run in flight (CudaTools.h).
constexpr StringLiteral HandedRunSuffix = ".ptxas-run";
// The directory's size, the time of its last scan and the number of scans
// (CacheIndex below).
constexpr StringLiteral IndexName = ".mstage-index";
// A temporary file this old belongs to a process that died.
constexpr auto StaleAfter = std::chrono::hours(1);

// One warning per process for a directory (or an entry) that cannot be
// used or trusted; after it, the disk cache is off (for launches on every
// thread, hence atomic).
std::once_flag Unusable;
std::atomic<bool> DiskOff{false};

void giveUp(const Twine &Why) {
  std::call_once(Unusable, [&] {
    warn(Why + "; caching kernels in memory only");
    DiskOff = true;
  });
}

void giveUpOnDir(const Twine &What, std::error_code EC) {
  giveUp("cannot use the kernel cache at " + cacheSettings().Dir + ": " + What +
         ": " + EC.message());
}

std::string octal(mode_t M) {
  std::string S;
  raw_string_ostream(S) << format("%04o", unsigned(M & 07777));
  return S;
}

// Why the directory or an entry, which another user could have written,
// is not trusted, with what to do; "" when it is trusted (as ssh and ccache
// do; MSTAGE_CACHE_SHARED=1 trusts).
std::string distrust(const struct stat &St, bool IsDir) {
  constexpr StringLiteral Shared =
      "MSTAGE_CACHE_SHARED=1 if the cache is shared on purpose";
  if (cacheSettings().Shared)
    return "";
  if (St.st_uid != geteuid())
    return "is owned by another user (uid " + utostr(St.st_uid) + ") (" +
           (IsDir ? "set MSTAGE_CACHE_DIR to a directory of your own, or "
                  : "remove it, or set ") +
           Shared.str() + ")";
  if (St.st_mode & (S_IWGRP | S_IWOTH))
    return "is writable by other users (mode " + octal(St.st_mode) +
           ") (make it private with chmod go-w, or set " + Shared.str() + ")";
  return "";
}

// Set when this process made the cache directory: its index starts at 0
// without a scan.
bool CreatedDir = false;

// Creates the directory and checks who may write it, once per process.
bool dirUsable() {
  static const bool Usable = [] {
    const CacheSettings &S = cacheSettings();
    // Private unless shared: nobody else can then plant entries.
    auto Perms = S.Shared ? sys::fs::all_all : sys::fs::owner_all;
    CreatedDir = !sys::fs::exists(S.Dir);
    // A read-only cache that does not exist is an empty one.
    if (S.ReadOnly && CreatedDir)
      return false;
    if (std::error_code EC = sys::fs::create_directories(
            S.Dir, /*IgnoreExisting=*/true, Perms)) {
      giveUpOnDir("cannot create the directory", EC);
      return false;
    }
    struct stat St;
    if (::stat(S.Dir.c_str(), &St)) {
      giveUpOnDir("cannot read the directory",
                  std::error_code(errno, std::generic_category()));
      return false;
    }
    if (std::string Why = distrust(St, /*IsDir=*/true); !Why.empty()) {
      giveUp("the kernel cache directory " + S.Dir + " " + Why);
      return false;
    }
    return true;
  }();
  return Usable && !DiskOff;
}

bool diskOn() {
  return cacheSettings().Mode == CacheMode::Disk && !DiskOff && dirUsable();
}

// Whether the cache may be written: it is on and not read-only.
bool writable() { return !cacheSettings().ReadOnly && diskOn(); }

std::string pathFor(const CacheKey &Key, StringRef Suffix) {
  assert(!cacheSettings().Dir.empty() &&
         "the disk cache is on only with a directory (Settings.cpp)");
  SmallString<256> P(cacheSettings().Dir);
  sys::path::append(P, Key.hex() + Suffix);
  return std::string(P);
}

std::string entryPath(const CacheKey &Key) { return pathFor(Key, EntrySuffix); }

unsigned fileMode() { return cacheSettings().Shared ? 0644 : 0600; }

// Reads exactly Size bytes at Offset, or fails.
bool readAll(int FD, char *To, size_t Size, uint64_t Offset) {
  assert(FD >= 0 && "reads from an open file");
  while (Size) {
    ssize_t N = ::pread(FD, To, Size, Offset);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    To += N;
    Size -= N;
    Offset += N;
  }
  return true;
}

// The cache directory's size, kept in a small file beside the entries so
// that a store costs O(1) cache I/O: it adds its entry's size, and only
// when the sum passes the cap (or the last scan is an hour old, to remove
// the temporaries of processes that died) is the directory scanned, which
// also corrects the sum. Updates are under flock; a process killed between
// two updates leaves the sum off until the next scan. The file also counts
// the scans, for tests (test/cache/Inputs/index_info.py).
class CacheIndex {
public:
  // Adds Delta bytes; says whether the directory should be scanned.
  bool add(int64_t Delta) {
    int FD = open();
    if (FD < 0)
      return true; // no index: scan every time, as before it
    ::flock(FD, LOCK_EX);
    Fields F;
    bool Known = read(FD, F);
    if (!Known && CreatedDir) {
      F = Fields{0, nowSeconds(), 0}; // a new directory holds nothing else
      Known = true;
    }
    if (Known) {
      F.Total = Delta < 0 && uint64_t(-Delta) > F.Total ? 0 : F.Total + Delta;
      write(FD, F);
    }
    ::flock(FD, LOCK_UN);
    ::close(FD);
    return !Known || F.Total > cacheSettings().MaxBytes ||
           nowSeconds() > F.LastScan + std::chrono::seconds(StaleAfter).count();
  }

  // Records the size that a scan found.
  void scanned(uint64_t Total) {
    int FD = open();
    if (FD < 0)
      return;
    ::flock(FD, LOCK_EX);
    Fields F;
    uint64_t Scans = read(FD, F) ? F.Scans : 0;
    write(FD, Fields{Total, nowSeconds(), Scans + 1});
    ::flock(FD, LOCK_UN);
    ::close(FD);
  }

private:
  struct Fields {
    uint64_t Total = 0, LastScan = 0, Scans = 0;
  };
  static uint64_t nowSeconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  static int open() {
    SmallString<256> P(cacheSettings().Dir);
    sys::path::append(P, IndexName);
    int FD = ::open(P.c_str(),
                    O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                    fileMode());
    if (FD < 0)
      return -1;
    struct stat St;
    if (::fstat(FD, &St) || !S_ISREG(St.st_mode)) {
      ::close(FD);
      return -1;
    }
    if (cacheSettings().Shared && St.st_uid == geteuid())
      ::fchmod(FD, 0666); // every user of a shared cache updates it
    return FD;
  }
  static bool read(int FD, Fields &F) {
    char B[24];
    if (!readAll(FD, B, sizeof(B), 0))
      return false;
    F.Total = support::endian::read64le(B);
    F.LastScan = support::endian::read64le(B + 8);
    F.Scans = support::endian::read64le(B + 16);
    return true;
  }
  static void write(int FD, const Fields &F) {
    char B[24];
    support::endian::write64le(B, F.Total);
    support::endian::write64le(B + 8, F.LastScan);
    support::endian::write64le(B + 16, F.Scans);
    (void)!::pwrite(FD, B, sizeof(B), 0);
  }
};

// Writes Bytes to Path through a temporary and a rename, so that readers in
// other processes see the whole file or none; nothing is left on failure.
// Created says whether the temporary could be made.
std::error_code writeWhole(const std::string &Path, StringRef Bytes,
                           bool &Created) {
  SmallString<256> Tmp;
  int FD;
  Created = false;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Path + "-%%%%%%%%" + TempSuffix, FD, Tmp,
                                    sys::fs::OF_None, fileMode()))
    return EC;
  Created = true;
  std::error_code EC;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Bytes;
    OS.close();
    EC = OS.error();
    OS.clear_error();
  }
  if (!EC)
    EC = sys::fs::rename(Tmp, Path);
  if (EC)
    sys::fs::remove(Tmp);
  return EC;
}

// File, which ends in From, with To in its place: an entry's note and a
// note's entry.
std::string withSuffix(StringRef File, StringRef From, StringRef To) {
  assert(File.ends_with(From) && "the file has the suffix");
  return (File.drop_back(From.size()) + To).str();
}

// Counts the directory (entries and temporaries), removes stale
// temporaries, and evicts the entries least recently used until the rest
// fit in 90% of the cap, so that the next scan is some stores away.
void scanAndEvict(StringRef Keep) {
  const CacheSettings &S = cacheSettings();
  struct File {
    std::string Path;
    uint64_t Size;
    sys::TimePoint<> Used;
  };
  std::vector<File> Files;
  uint64_t Total = 0;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (sys::fs::directory_iterator It(S.Dir, EC, /*FollowSymlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    auto St = It->status();
    if (!St)
      continue;
    if (Name.ends_with(TempSuffix) || Name.ends_with(HandedPtxSuffix) ||
        Name.ends_with(HandedCubinSuffix) || Name.ends_with(HandedRunSuffix)) {
      if (Now - St->getLastModificationTime() > StaleAfter &&
          !sys::fs::remove(It->path()))
        continue;
      Total += St->getSize();
      continue;
    }
    // A note whose entry is gone (evicted by another process) goes too.
    if (Name.ends_with(NoteSuffix)) {
      if (!sys::fs::exists(withSuffix(It->path(), NoteSuffix, EntrySuffix)))
        sys::fs::remove(It->path());
      continue;
    }
    // Left by a process killed while it compiled; one that is held is not.
    if (Name.ends_with(LockSuffix)) {
      if (Now - St->getLastModificationTime() > StaleAfter)
        removeStaleCacheLock(It->path());
      continue;
    }
    if (!Name.ends_with(EntrySuffix))
      continue;
    Files.push_back({It->path(), St->getSize(), St->getLastModificationTime()});
    Total += St->getSize();
  }
  if (Total > S.MaxBytes) {
    uint64_t Target = S.MaxBytes / 10 * 9;
    std::sort(Files.begin(), Files.end(),
              [](const File &A, const File &B) { return A.Used < B.Used; });
    for (const File &F : Files) {
      if (Total <= Target)
        break;
      if (F.Path == Keep)
        continue;
      if (!sys::fs::remove(F.Path)) {
        Total -= F.Size;
        sys::fs::remove(withSuffix(F.Path, EntrySuffix, NoteSuffix));
      }
    }
  }
  CacheIndex().scanned(Total);
}

void reportDamaged(StringRef Path, const Twine &Why) {
  std::string Damaged = ("kernel cache entry " + Path + " is damaged (" + Why +
                         "); compiling the kernel again")
                            .str();
  if (cacheSettings().ReadOnly) {
    warn(Damaged + " (MSTAGE_CACHE_READONLY: the entry is left in place)");
    return;
  }
  warn(Damaged);
  sys::fs::remove(Path); // a symbolic link itself, never its target
}

// The entry for Key, as loadFromDiskCache says. A damaged file is noted in
// Damaged, and is not read (nor reported) again when it is still there.
std::optional<CachedCode> loadEntry(const CacheKey &Key,
                                    std::optional<sys::fs::UniqueID> &Damaged) {
  if (!diskOn())
    return std::nullopt;
  std::string Path = entryPath(Key);
  // Not through a symbolic link, and a FIFO must not block the open.
  int FD = ::open(Path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0) {
    if (errno == ELOOP)
      reportDamaged(Path, "a symbolic link");
    return std::nullopt; // no entry (or evicted meanwhile): a miss
  }
  scope_exit Close([&] { ::close(FD); });
  struct stat St;
  if (::fstat(FD, &St)) {
    reportDamaged(Path, "unreadable: " + std::string(std::strerror(errno)));
    return std::nullopt;
  }
  sys::fs::UniqueID ID(St.st_dev, St.st_ino);
  if (Damaged == ID)
    return std::nullopt; // reported already, and it could not be removed
  Damaged = ID;          // unless it is whole, below
  if (!S_ISREG(St.st_mode)) {
    reportDamaged(Path, "not a regular file");
    return std::nullopt;
  }
  if (std::string Why = distrust(St, /*IsDir=*/false); !Why.empty()) {
    giveUp("kernel cache entry " + Path + " " + Why);
    return std::nullopt;
  }
  // No more than the header says is read.
  std::string Data(DiskEntryHeaderSize, '\0');
  if (!readAll(FD, Data.data(), Data.size(), 0)) {
    reportDamaged(Path, "truncated (" + utostr(St.st_size) + " bytes)");
    return std::nullopt;
  }
  Expected<uint64_t> Size = diskEntrySize(Key.Bytes, Data);
  if (!Size) {
    reportDamaged(Path, toString(Size.takeError()));
    return std::nullopt;
  }
  if (uint64_t(St.st_size) != *Size) {
    reportDamaged(
        Path, Twine(uint64_t(St.st_size) < *Size ? "truncated" : "too long") +
                  " (" + utostr(St.st_size) + " bytes, header says " +
                  utostr(*Size) + ")");
    return std::nullopt;
  }
  Data.resize(*Size);
  if (!readAll(FD, Data.data() + DiskEntryHeaderSize,
               *Size - DiskEntryHeaderSize, DiskEntryHeaderSize)) {
    reportDamaged(Path, "truncated while read");
    return std::nullopt;
  }
  Expected<DiskEntryView> View = decodeDiskEntry(Key.Bytes, Data);
  if (!View) {
    reportDamaged(Path, toString(View.takeError()));
    return std::nullopt;
  }
  // The entry is used now: eviction goes by modification time. Through the
  // descriptor of the regular file checked above, never a link's target.
  if (!cacheSettings().ReadOnly)
    sys::fs::setLastAccessAndModificationTime(FD,
                                              std::chrono::system_clock::now());
  Damaged.reset();
  CachedCode Code;
  Code.PTX = View->PTX.str();
  Code.Cubin = View->Cubin.str();
  return Code;
}

// Whether Path is a regular file that may be used (not a link, not
// another user's in a private cache).
bool usableFile(const std::string &Path) {
  struct stat St;
  return !::lstat(Path.c_str(), &St) && S_ISREG(St.st_mode) &&
         distrust(St, /*IsDir=*/false).empty();
}

// Whether Pid is a handed-over run's shell, which names itself mstage-ptxas
// (CudaTools.cpp): a run killed before it removed its file leaves an id that
// another process can have taken since. Without /proc, any process of that
// id counts.
static bool runIsLive(pid_t Pid) {
  if (Pid <= 0 || (::kill(Pid, 0) && errno != EPERM))
    return false;
  int FD = ::open(("/proc/" + std::to_string(Pid) + "/cmdline").c_str(),
                  O_RDONLY | O_CLOEXEC);
  if (FD < 0) // gone meanwhile; or no /proc to ask
    return ::access("/proc/self", F_OK) != 0;
  char Cmd[4096];
  ssize_t N = ::read(FD, Cmd, sizeof(Cmd));
  ::close(FD);
  return N > 0 && StringRef(Cmd, size_t(N)).contains("mstage-ptxas");
}

// Whether a ptxas run for Key's entry is in flight in a live process (a
// handed-over one, or another process's): its shell's id is in the file.
bool handedOverRuns(const CacheKey &Key) {
  auto Buf = MemoryBuffer::getFile(pathFor(Key, HandedRunSuffix));
  if (!Buf)
    return false;
  long long Pid = 0;
  if (StringRef((*Buf)->getBuffer()).trim().getAsInteger(10, Pid))
    return true; // being written
  return runIsLive(pid_t(Pid));
}

// Waits, at most MSTAGE_CACHE_LOCK_WAIT_MS, for a ptxas run in flight for
// Key to finish (the next process after a cold one meets the runs that its
// exit handed over): its output is then there to adopt.
void waitForHandedOver(const CacheKey &Key) {
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(cacheSettings().LockWaitMs);
  while (handedOverRuns(Key) && std::chrono::steady_clock::now() < Deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

// Makes the files of Key's handed-over ptxas run its entry; false when
// there are none (or they are not whole: then they are removed).
bool adoptHandedOver(const CacheKey &Key) {
  std::string CubinPath = pathFor(Key, HandedCubinSuffix);
  if (!writable() || !usableFile(CubinPath))
    return false;
  // The run moves the cubin last: with it, the PTX is there, whole.
  std::string PtxPath = pathFor(Key, HandedPtxSuffix);
  auto Read = [](const std::string &P) -> std::string {
    auto Buf = MemoryBuffer::getFile(P, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    return Buf ? (*Buf)->getBuffer().str() : "";
  };
  CachedCode Code;
  if (usableFile(PtxPath)) {
    Code.PTX = Read(PtxPath);
    Code.Cubin = Read(CubinPath);
  }
  bool Whole = !Code.PTX.empty() && StringRef(Code.Cubin)
                                        .starts_with("\x7f"
                                                     "ELF");
  if (Whole)
    storeInDiskCache(Key, Code);
  sys::fs::remove(CubinPath);
  sys::fs::remove(PtxPath);
  // The handing-over process held Key's lock to its end: its file stays.
  removeStaleCacheLock(pathFor(Key, LockSuffix));
  return Whole;
}

} // namespace

std::optional<CachedCode> loadFromDiskCache(const CacheKey &Key) {
  std::optional<sys::fs::UniqueID> Damaged;
  if (std::optional<CachedCode> Hit = loadEntry(Key, Damaged))
    return Hit;
  return adoptHandedOver(Key) ? loadEntry(Key, Damaged) : std::nullopt;
}

bool inDiskCache(const CacheKey &Key) {
  struct stat St;
  if (!diskOn())
    return false;
  if (!::lstat(entryPath(Key).c_str(), &St) && S_ISREG(St.st_mode))
    return true;
  // Handed over: its output is there, or will be soon (waited for).
  return writable() &&
         ((!::lstat(pathFor(Key, HandedCubinSuffix).c_str(), &St) &&
           S_ISREG(St.st_mode)) ||
          handedOverRuns(Key));
}

std::optional<PtxasKeep> handOverPaths(const CacheKey &Key) {
  if (!writable())
    return std::nullopt;
  return PtxasKeep{pathFor(Key, HandedPtxSuffix),
                   pathFor(Key, HandedCubinSuffix),
                   pathFor(Key, HandedRunSuffix)};
}

std::optional<CachedCode> loadFromDiskCacheOrLock(const CacheKey &Key,
                                                  CacheLock &Lock) {
  std::optional<sys::fs::UniqueID> Damaged;
  if (std::optional<CachedCode> Hit = loadEntry(Key, Damaged))
    return Hit;
  if (!writable())
    return std::nullopt;
  waitForHandedOver(Key);
  if (adoptHandedOver(Key))
    if (std::optional<CachedCode> Hit = loadEntry(Key, Damaged))
      return Hit;
  const CacheSettings &S = cacheSettings();
  std::string LockPath = pathFor(Key, LockSuffix);
  switch (Lock.acquire(LockPath, std::chrono::milliseconds(S.LockWaitMs),
                       S.Shared ? 0666 : 0600)) {
  case CacheLock::Outcome::Acquired:
    break;
  case CacheLock::Outcome::TimedOut:
    // Not said when the user asked for no wait; else once, as it may repeat.
    if (S.LockWaitMs) {
      static std::once_flag Once;
      std::call_once(Once, [&] {
        warn("kernel cache entry " + entryPath(Key) +
             " is still being compiled by another process after " +
             Twine(S.LockWaitMs) +
             " ms (MSTAGE_CACHE_LOCK_WAIT_MS); compiling it here");
      });
    }
    return std::nullopt;
  case CacheLock::Outcome::Failed:
    return std::nullopt; // no locks here: compile, as without them
  }
  // The process that held the lock may have stored the entry.
  std::optional<CachedCode> Hit = loadEntry(Key, Damaged);
  if (Hit)
    Lock.release();
  return Hit;
}

void storeInDiskCache(const CacheKey &Key, const CachedCode &Code) {
  if (!writable())
    return;
  std::string Bytes = encodeDiskEntry(Key.Bytes, Code.PTX, Code.Cubin);
  // The index counts an entry as these bytes, as a scan finds it.
  assert(Bytes.size() ==
             DiskEntryHeaderSize + Code.PTX.size() + Code.Cubin.size() &&
         "an entry is its header and its sections");
  std::string Path = entryPath(Key);
  // The temporary counts towards the cap from its creation, so that one
  // left by a killed writer is counted until a scan removes it.
  uint64_t Old = 0;
  sys::fs::file_status Prev;
  if (!sys::fs::status(Path, Prev, /*Follow=*/false) &&
      Prev.type() == sys::fs::file_type::regular_file)
    Old = Prev.getSize();
  CacheIndex Index;
  bool Scan = Index.add(int64_t(Bytes.size()));

  bool Created;
  if (std::error_code EC = writeWhole(Path, Bytes, Created)) {
    Index.add(-int64_t(Bytes.size()));
    return giveUpOnDir(Created ? "cannot write " + Path
                               : std::string("cannot create a file in it"),
                       EC);
  }
  if (Old)
    Index.add(-int64_t(Old));
  if (Scan)
    scanAndEvict(Path);
}

void removeFromDiskCache(const CacheKey &Key) {
  if (!writable())
    return;
  std::string Path = entryPath(Key);
  sys::fs::file_status St;
  if (sys::fs::status(Path, St, /*Follow=*/false))
    return;
  if (!sys::fs::remove(Path) && St.type() == sys::fs::file_type::regular_file)
    CacheIndex().add(-int64_t(St.getSize()));
  sys::fs::remove(pathFor(Key, NoteSuffix));
}

std::optional<std::string> loadEntryNote(const CacheKey &Key) {
  if (!diskOn())
    return std::nullopt;
  std::string Path = pathFor(Key, NoteSuffix);
  int FD = ::open(Path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0)
    return std::nullopt;
  scope_exit Close([&] { ::close(FD); });
  struct stat St;
  if (::fstat(FD, &St) || !S_ISREG(St.st_mode) ||
      uint64_t(St.st_size) > MaxEntryNoteBytes ||
      !distrust(St, /*IsDir=*/false).empty())
    return std::nullopt;
  std::string Text(size_t(St.st_size), '\0');
  if (!readAll(FD, Text.data(), Text.size(), 0))
    return std::nullopt;
  return Text;
}

void storeEntryNote(const CacheKey &Key, StringRef Text) {
  assert(Text.size() <= MaxEntryNoteBytes && "a note is short");
  if (!writable())
    return;
  // A note is worth no warning: the next process measures again.
  bool Created;
  (void)writeWhole(pathFor(Key, NoteSuffix), Text, Created);
}

std::string cacheTemporaryDir() {
  return writable() ? cacheSettings().Dir : std::string();
}

void cacheWriteFailed(const Twine &What, std::error_code EC) {
  giveUpOnDir(What, EC);
}

} // namespace mstage::rt
