//===- BuildKey.cpp - The disk cache's key of a specialization ------------===//
#include "launch/BuildKey.h"
#include "cache/MemoryCache.h"
#include "launch/JitCompile.h"
#include "support/Settings.h"

#include <cstring>
#include <string>
#include <string_view>

namespace mstage::rt {

// What the JIT's output depends on besides the kernel and the launch (whose
// flags carry fast math): LLVM's options and ptxas's, and whether the kernel
// compiles for the debugger (a unit built with -g at -O0), and whether it
// begins with a wait for the kernel before it (MSTAGE_PDL).
// Never destroyed, as every static that a background compile reads: a
// compile may still run while exit() destroys statics made after the
// compile pool (CompilePool.h).
static const std::string &jitOptionsText(bool DebugAtO0, bool EntryWait) {
  static const std::string &S =
      *new std::string("llvm-args=" + llvmArgsSetting() +
                       " ptxas-fast-compile=" + jitSettings().PtxasFastCompile);
  static const std::string &Debug = *new std::string(S + " debug-O0");
  static const std::string &Wait = *new std::string(S + " entry-wait");
  return DebugAtO0 ? Debug : EntryWait ? Wait : S;
}

CacheKey diskCacheKey(const CodeRequest &R) {
  const auto &BitcodeHash = R.K.Specializations->bitcodeHash(
      std::string_view(R.K.Blob.Bitcode.data(), R.K.Blob.Bitcode.size()));
  KeyInputs In;
  In.BitcodeHashLo = BitcodeHash[0];
  In.BitcodeHashHi = BitcodeHash[1];
  In.Config = R.Config;
  In.StagedBytes = R.Staged.stagedBytes();
  In.FactBytes = R.Staged.factBytes();
  In.Target = R.B.arch(); // the same entry serves GPU and PTX-only runs
  In.JitOptionsText = jitOptionsText(R.K.Blob.DebugAtO0, entryWaitWanted(R));
  return makeCacheKey(In);
}

uint64_t shortHash(const CacheKey &Key) {
  uint64_t Short;
  std::memcpy(&Short, Key.Bytes.data(), sizeof(Short));
  return Short;
}

} // namespace mstage::rt
