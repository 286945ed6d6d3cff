//===- CacheKey.h - What identifies one compiled specialization -----------===//
#ifndef MSTAGE_RUNTIME_CACHE_CACHEKEY_H
#define MSTAGE_RUNTIME_CACHE_CACHEKEY_H

#include "formats/LaunchConfig.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>

namespace mstage::rt {

struct CacheKey {
  std::array<uint8_t, 16> Bytes{};
  std::string hex() const;
  bool operator==(const CacheKey &O) const { return Bytes == O.Bytes; }
};

// Everything that changes the compiled code of a launch, apart from the
// kernel's bitcode (hashed once per kernel, see hashKernelBitcode).
struct KeyInputs {
  uint64_t BitcodeHashLo = 0, BitcodeHashHi = 0;
  LaunchConfig Config;
  llvm::StringRef StagedBytes; // all staged values, back to back
  llvm::StringRef FactBytes;   // the launch's facts (LaunchFacts.h)
  llvm::StringRef Target;      // the architecture, e.g. "sm_90"
  llvm::StringRef JitOptionsText; // MSTAGE_LLVM_ARGS, ...
};

// A 128-bit xxh3 over the toolchain's identity and the inputs.
CacheKey makeCacheKey(const KeyInputs &In);

// The 128-bit xxh3 of a kernel's bitcode, as {low, high}.
std::array<uint64_t, 2> hashKernelBitcode(llvm::StringRef Bitcode);

// This build of mstage and of LLVM: code from another build is not reused.
llvm::StringRef toolchainIdentity();

} // namespace mstage::rt

#endif
