//===- Trace.cpp - MSTAGE_TRACE: one line per launch ----------------------===//
#include "Trace.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace mstage::rt {

bool traceEnabled() {
  static const bool On = [] {
    const char *V = std::getenv("MSTAGE_TRACE");
    return V && *V && StringRef(V) != "0";
  }();
  return On;
}

std::string formatStagedValue(const StageSite &Site, StringRef Bytes) {
  auto Load = [&](auto Zero) {
    decltype(Zero) V;
    std::memcpy(&V, Bytes.data(), sizeof(V));
    return V;
  };
  size_t N = Bytes.size();
  switch (Site.Kind) {
  case StageKind::Bool:
    if (N == 1)
      return Bytes[0] ? "true" : "false";
    break;
  case StageKind::Signed:
    if (N == 1)
      return itostr(Load(int8_t()));
    if (N == 2)
      return itostr(Load(int16_t()));
    if (N == 4)
      return itostr(Load(int32_t()));
    if (N == 8)
      return itostr(Load(int64_t()));
    break;
  case StageKind::Unsigned:
    if (N == 1)
      return utostr(Load(uint8_t()));
    if (N == 2)
      return utostr(Load(uint16_t()));
    if (N == 4)
      return utostr(Load(uint32_t()));
    if (N == 8)
      return utostr(Load(uint64_t()));
    break;
  case StageKind::Float: {
    std::string S;
    raw_string_ostream OS(S);
    if (N == 4)
      OS << format("%.9g", Load(float()));
    else if (N == 8)
      OS << format("%.17g", Load(double()));
    else
      break;
    return S;
  }
  case StageKind::Bytes:
    break;
  }
  return "0x" + toHex(arrayRefFromStringRef(Bytes), /*LowerCase=*/true);
}

void traceLaunch(const KernelBlob &Kernel, const mstage_launch_config &C,
                 ArrayRef<StringRef> StagedValues, const LaunchTimes &T) {
  std::string Line;
  raw_string_ostream OS(Line);
  OS << "mstage: trace: kernel '" << Kernel.PrettyName << "' grid " << C.grid[0]
     << "x" << C.grid[1] << "x" << C.grid[2] << " block " << C.block[0] << "x"
     << C.block[1] << "x" << C.block[2] << " shared " << C.shared_bytes
     << " staged {";
  for (size_t I = 0; I < StagedValues.size(); ++I) {
    const StageSite &S = Kernel.StageSites[I];
    OS << (I ? ", " : "") << "line " << S.Line << ": "
       << formatStagedValue(S, StagedValues[I]);
  }
  OS << "} cache " << T.Cache << format(": evaluate %.3f ms", T.Evaluate);
  if (StringRef(T.Cache) != "memory")
    OS << format(", optimize %.3f ms, codegen %.3f ms, load %.3f ms",
                 T.Optimize, T.Codegen, T.Load);
  OS << "\n";
  errs() << Line;
}

} // namespace mstage::rt
