//===- DiskCache.cpp - Compiled kernels kept on disk across runs ----------===//
#include "DiskCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

using namespace llvm;

namespace mstage::rt {
namespace {

constexpr char EntryMagic[8] = {'M', 'S', 'T', 'G', 'C', 'A', 'C', 'H'};
constexpr uint32_t EntryVersion = 2;
constexpr StringLiteral EntrySuffix = ".mstage";

// The entry's header; all fields little-endian (the cache is per machine,
// but a copied home directory must not crash the reader).
struct EntryHeader {
  char Magic[8];
  uint32_t Version;
  uint32_t HeaderSize;
  uint8_t Key[16];
  uint64_t PtxSize;
  uint64_t CubinSize; // 0: no cubin
  uint64_t PtxChecksum;
  uint64_t CubinChecksum;
};

std::string resolveDir() {
  if (const char *D = std::getenv("MSTAGE_CACHE_DIR"); D && *D)
    return D;
  SmallString<256> Path;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    Path = X;
  else if (const char *H = std::getenv("HOME"); H && *H)
    sys::path::append(Path, H, ".cache");
  else
    return "";
  sys::path::append(Path, "mstage");
  return std::string(Path);
}

CacheSettings readSettings() {
  CacheSettings S;
  if (const char *M = std::getenv("MSTAGE_CACHE"); M && *M) {
    StringRef V = StringRef(M).trim();
    if (V == "off")
      S.Mode = CacheMode::Off;
    else if (V == "memory")
      S.Mode = CacheMode::Memory;
    else if (V == "disk")
      S.Mode = CacheMode::Disk;
    else
      S.Error =
          "MSTAGE_CACHE='" + V.str() + "' is not one of off, memory, disk";
  }
  if (const char *Cap = std::getenv("MSTAGE_CACHE_MAX_MB"); Cap && *Cap) {
    double MB;
    if (StringRef(Cap).trim().getAsDouble(MB) || !(MB >= 0))
      S.Error = "MSTAGE_CACHE_MAX_MB='" + std::string(Cap) +
                "' is not a number of megabytes";
    else
      S.MaxBytes = uint64_t(MB * 1048576);
  }
  S.Dir = resolveDir();
  if (S.Mode == CacheMode::Disk && S.Dir.empty()) {
    errs() << "mstage: no cache directory (set MSTAGE_CACHE_DIR, "
              "XDG_CACHE_HOME or HOME); caching kernels in memory only\n";
    S.Mode = CacheMode::Memory;
  }
  return S;
}

// One warning per process for a directory that cannot be used; after it,
// the disk cache is off (for launches on every thread, hence atomic).
std::once_flag Unusable;
std::atomic<bool> DiskOff{false};

void giveUpOnDir(const Twine &What, std::error_code EC) {
  std::call_once(Unusable, [&] {
    errs() << "mstage: cannot use the kernel cache at " << cacheSettings().Dir
           << ": " << What << ": " << EC.message()
           << "; caching kernels in memory only\n";
    DiskOff = true;
  });
}

std::string entryPath(const CacheKey &Key) {
  SmallString<256> P(cacheSettings().Dir);
  sys::path::append(P, Key.hex() + EntrySuffix);
  return std::string(P);
}

uint64_t checksum(StringRef Bytes) {
  return xxh3_64bits(arrayRefFromStringRef(Bytes));
}

// Why the bytes of an entry cannot be used, or "".
std::string validate(StringRef Data, const CacheKey &Key, CachedCode &Out) {
  if (Data.size() < sizeof(EntryHeader))
    return "truncated (" + utostr(Data.size()) + " bytes)";
  EntryHeader H;
  std::memcpy(&H, Data.data(), sizeof(H));
  if (std::memcmp(H.Magic, EntryMagic, sizeof(H.Magic)))
    return "not an mstage cache entry";
  using llvm::endianness;
  using support::endian::byte_swap;
  H.Version = byte_swap(H.Version, endianness::little);
  H.HeaderSize = byte_swap(H.HeaderSize, endianness::little);
  H.PtxSize = byte_swap(H.PtxSize, endianness::little);
  H.CubinSize = byte_swap(H.CubinSize, endianness::little);
  H.PtxChecksum = byte_swap(H.PtxChecksum, endianness::little);
  H.CubinChecksum = byte_swap(H.CubinChecksum, endianness::little);
  if (H.Version != EntryVersion || H.HeaderSize != sizeof(EntryHeader))
    return "written by another version of mstage";
  if (std::memcmp(H.Key, Key.Bytes.data(), sizeof(H.Key)))
    return "holds another key";
  uint64_t Body = Data.size() - sizeof(H);
  if (H.PtxSize > Body || H.CubinSize != Body - H.PtxSize)
    return "truncated (" + utostr(Data.size()) + " bytes, header says " +
           utostr(sizeof(H) + H.PtxSize + H.CubinSize) + ")";
  StringRef Ptx = Data.substr(sizeof(H), H.PtxSize);
  StringRef Cubin = Data.substr(sizeof(H) + H.PtxSize);
  if (checksum(Ptx) != H.PtxChecksum || checksum(Cubin) != H.CubinChecksum)
    return "checksum mismatch";
  Out.PTX = Ptx.str();
  Out.Cubin = Cubin.str();
  return "";
}

void evictToCap(StringRef Keep) {
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
  for (sys::fs::directory_iterator It(S.Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    auto St = It->status();
    if (!St)
      continue;
    // Temporary files of writers that died are removed after an hour.
    if (Name.ends_with(".tmp")) {
      if (Now - St->getLastModificationTime() > std::chrono::hours(1))
        sys::fs::remove(It->path());
      continue;
    }
    if (!Name.ends_with(EntrySuffix))
      continue;
    Files.push_back({It->path(), St->getSize(), St->getLastModificationTime()});
    Total += St->getSize();
  }
  if (Total <= S.MaxBytes)
    return;
  std::sort(Files.begin(), Files.end(),
            [](const File &A, const File &B) { return A.Used < B.Used; });
  for (const File &F : Files) {
    if (Total <= S.MaxBytes)
      break;
    if (F.Path == Keep)
      continue;
    if (!sys::fs::remove(F.Path))
      Total -= F.Size;
  }
}

} // namespace

const CacheSettings &cacheSettings() {
  static const CacheSettings S = readSettings();
  return S;
}

std::optional<CachedCode> loadFromDiskCache(const CacheKey &Key) {
  if (cacheSettings().Mode != CacheMode::Disk || DiskOff)
    return std::nullopt;
  std::string Path = entryPath(Key);
  int FD;
  if (sys::fs::openFileForRead(Path, FD))
    return std::nullopt; // no entry (or evicted meanwhile): a miss
  auto Buf = MemoryBuffer::getOpenFile(sys::fs::convertFDToNativeFile(FD), Path,
                                       /*FileSize=*/-1,
                                       /*RequiresNullTerminator=*/false);
  // The entry is used now: eviction goes by modification time.
  sys::fs::setLastAccessAndModificationTime(FD,
                                            std::chrono::system_clock::now());
  sys::Process::SafelyCloseFileDescriptor(FD);
  CachedCode Code;
  std::string Why = Buf ? validate((*Buf)->getBuffer(), Key, Code)
                        : "unreadable: " + Buf.getError().message();
  if (Why.empty())
    return Code;
  errs() << "mstage: kernel cache entry " << Path << " is damaged (" << Why
         << "); compiling the kernel again\n";
  sys::fs::remove(Path);
  return std::nullopt;
}

void storeInDiskCache(const CacheKey &Key, const CachedCode &Code) {
  const CacheSettings &S = cacheSettings();
  if (S.Mode != CacheMode::Disk || DiskOff)
    return;
  if (std::error_code EC = sys::fs::create_directories(S.Dir))
    return giveUpOnDir("cannot create the directory", EC);

  EntryHeader H;
  std::memcpy(H.Magic, EntryMagic, sizeof(H.Magic));
  using llvm::endianness;
  using support::endian::byte_swap;
  H.Version = byte_swap(EntryVersion, endianness::little);
  H.HeaderSize = byte_swap(uint32_t(sizeof(EntryHeader)), endianness::little);
  std::memcpy(H.Key, Key.Bytes.data(), sizeof(H.Key));
  H.PtxSize = byte_swap(uint64_t(Code.PTX.size()), endianness::little);
  H.CubinSize = byte_swap(uint64_t(Code.Cubin.size()), endianness::little);
  H.PtxChecksum = byte_swap(checksum(Code.PTX), endianness::little);
  H.CubinChecksum = byte_swap(checksum(Code.Cubin), endianness::little);

  std::string Path = entryPath(Key);
  SmallString<256> Tmp;
  int FD;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Path + "-%%%%%%%%.tmp", FD, Tmp))
    return giveUpOnDir("cannot create a file in it", EC);
  std::error_code EC;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS.write(reinterpret_cast<const char *>(&H), sizeof(H));
    OS << Code.PTX << Code.Cubin;
    OS.close();
    EC = OS.error();
    OS.clear_error();
  }
  if (!EC)
    EC = sys::fs::rename(Tmp, Path);
  if (EC) {
    sys::fs::remove(Tmp);
    return giveUpOnDir("cannot write " + Path, EC);
  }
  evictToCap(Path);
}

} // namespace mstage::rt
