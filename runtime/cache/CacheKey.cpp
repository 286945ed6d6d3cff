//===- CacheKey.cpp - What identifies one compiled specialization ---------===//
#include "cache/CacheKey.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/xxhash.h"

#include <cstring>
#include <dlfcn.h>

using namespace llvm;

namespace mstage::rt {

std::string CacheKey::hex() const { return toHex(Bytes, /*LowerCase=*/true); }

StringRef toolchainIdentity() {
  // The runtime library's size and modification time stand for its build:
  // a rebuilt runtime (new passes, new LLVM) never reuses older code.
  // Never destroyed: background compiles may read it during exit().
  static const std::string &Id = *new std::string([] {
    std::string S =
        "mstage " MSTAGE_VERSION_STRING " LLVM " LLVM_VERSION_STRING;
    Dl_info Info;
    sys::fs::file_status St;
    if (dladdr(reinterpret_cast<void *>(&toolchainIdentity), &Info) &&
        Info.dli_fname && !sys::fs::status(Info.dli_fname, St))
      S += " " + std::string(Info.dli_fname) + " " + utostr(St.getSize()) +
           " " +
           utostr(St.getLastModificationTime().time_since_epoch().count());
    return S;
  }());
  return Id;
}

std::array<uint64_t, 2> hashKernelBitcode(StringRef Bitcode) {
  XXH128_hash_t H = xxh3_128bits(arrayRefFromStringRef(Bitcode));
  return {H.low64, H.high64};
}

CacheKey makeCacheKey(const KeyInputs &In) {
  std::string Buf;
  auto Field = [&](StringRef S) {
    Buf += utostr(S.size());
    Buf += ':';
    Buf += S;
  };
  Field(toolchainIdentity());
  Field(StringRef(reinterpret_cast<const char *>(&In.BitcodeHashLo), 8));
  Field(StringRef(reinterpret_cast<const char *>(&In.BitcodeHashHi), 8));
  Field(In.Config.bytes());
  Field(In.StagedBytes);
  Field(In.FactBytes);
  Field(In.Target);
  Field(In.JitOptionsText);
  XXH128_hash_t H = xxh3_128bits(arrayRefFromStringRef(Buf));
  CacheKey K;
  std::memcpy(K.Bytes.data(), &H.high64, 8);
  std::memcpy(K.Bytes.data() + 8, &H.low64, 8);
  return K;
}

} // namespace mstage::rt
