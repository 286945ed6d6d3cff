//===- JitSettings.cpp - MSTAGE_JIT and MSTAGE_JIT_THREADS ----------------===//
#include "jit/JitSettings.h"

#include "llvm/ADT/StringRef.h"

#include <cstdlib>

using namespace llvm;

namespace mstage::rt {

const JitSettings &jitSettings() {
  static const JitSettings S = [] {
    JitSettings S;
    if (const char *V = std::getenv("MSTAGE_JIT"); V && *V) {
      std::string Mode = StringRef(V).trim().lower();
      if (Mode == "sync")
        S.Async = false;
      else if (Mode != "async")
        S.Error =
            "MSTAGE_JIT='" + std::string(V) + "' is not one of async or sync";
    }
    if (const char *V = std::getenv("MSTAGE_JIT_THREADS"); V && *V) {
      unsigned N = 0;
      if (StringRef(V).trim().getAsInteger(10, N) || N == 0 || N > 1024)
        S.Error += (S.Error.empty() ? "" : "; ") +
                   std::string("MSTAGE_JIT_THREADS='") + V +
                   "' is not a number of threads from 1 to 1024";
      else
        S.Threads = N;
    }
    return S;
  }();
  return S;
}

} // namespace mstage::rt
