//===- CudaToolkit.cpp - Where the CUDA toolkit's tools are ---------------===//
#include "aot/CudaToolkit.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace llvm;

namespace mstage {

std::string findCudaTool(StringRef Name) {
  if (auto P = sys::findProgramByName(Name))
    return *P;
  SmallVector<std::string, 3> Dirs;
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *Root = std::getenv(Var); Root && *Root)
      Dirs.push_back((Twine(Root) + "/bin").str());
  Dirs.push_back("/usr/local/cuda/bin");
  SmallVector<StringRef, 3> Paths(Dirs.begin(), Dirs.end());
  if (auto P = sys::findProgramByName(Name, Paths))
    return *P;
  return "";
}

PtxasChoice choosePtxas(StringRef Setting) {
  if (Setting == "off")
    return {"", "MSTAGE_PTXAS=off"};
  if (!Setting.empty()) {
    if (!sys::fs::can_execute(Setting))
      return {
          "",
          ("MSTAGE_PTXAS='" + Setting + "' is not a program that can be run")
              .str(),
          /*Unrunnable=*/true};
    return {Setting.str(), ""};
  }
  if (std::string P = findCudaTool("ptxas"); !P.empty())
    return {P, ""};
  return {"", "ptxas was not found (set CUDA_HOME or MSTAGE_PTXAS)"};
}

std::string ptxasArch(StringRef PTX, StringRef Arch) {
  std::string Specific = (Arch + "a").str();
  bool ForSpecific = PTX.contains(".target " + Specific + "\n") ||
                     PTX.contains(".target " + Specific + ",");
  return ForSpecific ? Specific : Arch.str();
}

} // namespace mstage
