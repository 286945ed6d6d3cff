//===- CheckSettings.cpp - MSTAGE_CHECK and MSTAGE_CHECK_RTOL, read once --===//
#include "cpu/CheckSettings.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdio>
#include <cstdlib>

using namespace mstage::rt;

namespace {

CheckSettings readCheckSettings() {
  CheckSettings S;
  llvm::StringRef Mode =
      std::getenv("MSTAGE_CHECK") ? std::getenv("MSTAGE_CHECK") : "";
  llvm::SmallVector<llvm::StringRef, 2> Parts;
  Mode.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    if (Part == "cpu")
      S.Cpu = true;
    else if (Part == "stage")
      S.Stage = true;
    else if (Part != "off" && Part != "0" && !Part.empty())
      S.Error = "MSTAGE_CHECK='" + Mode.str() +
                "' is not a list of cpu and stage, or off";
  }
  if (const char *R = std::getenv("MSTAGE_CHECK_RTOL"); R && *R) {
    if (llvm::StringRef(R).trim().getAsDouble(S.Rtol) || !(S.Rtol >= 0))
      S.Error = "MSTAGE_CHECK_RTOL='" + std::string(R) +
                "' is not a relative tolerance such as 1e-5";
  }
  if (S.Cpu && S.Error.empty())
    std::fprintf(stderr, "mstage: MSTAGE_CHECK=cpu: each launch also runs on "
                         "the CPU back end, and the outputs are compared\n");
  if (S.Stage && S.Error.empty())
    std::fprintf(stderr, "mstage: MSTAGE_CHECK=stage: on the CPU back end, "
                         "every stage() is compared with the value folded for "
                         "its launch\n");
  return S;
}

} // namespace

const CheckSettings &mstage::rt::checkSettings() {
  static const CheckSettings S = readCheckSettings();
  return S;
}
