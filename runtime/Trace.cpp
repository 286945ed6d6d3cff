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

namespace {

template <class T> T load(StringRef Bytes) {
  T V;
  std::memcpy(&V, Bytes.data(), sizeof(V));
  return V;
}

// An integer of 1, 2, 4 or 8 bytes as text; "" for other sizes.
std::string integerText(StringRef B, bool Signed) {
  switch (B.size()) {
  case 1:
    return Signed ? itostr(load<int8_t>(B)) : utostr(load<uint8_t>(B));
  case 2:
    return Signed ? itostr(load<int16_t>(B)) : utostr(load<uint16_t>(B));
  case 4:
    return Signed ? itostr(load<int32_t>(B)) : utostr(load<uint32_t>(B));
  case 8:
    return Signed ? itostr(load<int64_t>(B)) : utostr(load<uint64_t>(B));
  }
  return "";
}

} // namespace

std::string formatStagedValue(const StageSite &Site, StringRef Bytes) {
  std::string Text;
  raw_string_ostream OS(Text);
  switch (Site.Kind) {
  case StageKind::Bool:
    if (Bytes.size() == 1)
      OS << (Bytes[0] ? "true" : "false");
    break;
  case StageKind::Signed:
  case StageKind::Unsigned:
    OS << integerText(Bytes, Site.Kind == StageKind::Signed);
    break;
  case StageKind::Float:
    if (Bytes.size() == 4)
      OS << format("%.9g", load<float>(Bytes));
    else if (Bytes.size() == 8)
      OS << format("%.17g", load<double>(Bytes));
    break;
  case StageKind::Bytes:
    break;
  }
  if (Text.empty())
    return "0x" + toHex(arrayRefFromStringRef(Bytes), /*LowerCase=*/true);
  return Text;
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
