//===- CudaTools.cpp - The CUDA toolkit's ptxas and cuobjdump -------------===//
#include "CudaTools.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace mstage::rt {

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

const std::string &ptxasPath() {
  static const std::string Path = []() -> std::string {
    const char *Env = std::getenv("MSTAGE_PTXAS");
    if (!Env || !*Env)
      return findCudaTool("ptxas");
    if (StringRef(Env) == "off")
      return "";
    if (!sys::fs::can_execute(Env)) {
      errs() << "mstage: MSTAGE_PTXAS='" << Env
             << "' is not a program that can be run; kernels are loaded as "
                "PTX (set MSTAGE_PTXAS to ptxas's path, or to off)\n";
      return "";
    }
    return Env;
  }();
  return Path;
}

Expected<std::string> assembleCubin(StringRef PTX, StringRef Arch) {
  const std::string &Ptxas = ptxasPath();
  auto Fail = [](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Why);
  };
  if (Ptxas.empty())
    return Fail("no ptxas");
  SmallString<128> PtxPath, CubinPath, LogPath;
  int FD;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage", "ptx", FD, PtxPath))
    return Fail("cannot create a temporary file: " + EC.message());
  scope_exit RemoveFiles([&] {
    for (StringRef P :
         {StringRef(PtxPath), StringRef(CubinPath), StringRef(LogPath)})
      if (!P.empty())
        sys::fs::remove(P);
  });
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << PTX;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      return Fail("cannot write " + PtxPath + ": " + EC.message());
    }
  }
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage", "cubin", CubinPath))
    return Fail("cannot create a temporary file: " + EC.message());
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage", "log", LogPath))
    return Fail("cannot create a temporary file: " + EC.message());

  std::string ArchArg = ("-arch=" + Arch).str();
  StringRef Args[] = {Ptxas, ArchArg, PtxPath, "-o", CubinPath};
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(LogPath),
                                          StringRef(LogPath)};
  std::string ExecError;
  int Rc =
      sys::ExecuteAndWait(Ptxas, Args, std::nullopt, Redirects,
                          /*SecondsToWait=*/600, /*MemoryLimit=*/0, &ExecError);
  if (Rc != 0) {
    std::string Log;
    if (auto Buf = MemoryBuffer::getFile(LogPath))
      Log = (*Buf)->getBuffer().trim().str();
    if (Log.empty())
      Log = ExecError.empty() ? "exit status " + std::to_string(Rc) : ExecError;
    return Fail(Ptxas + " " + ArchArg + " failed: " + Log);
  }
  auto Cubin = MemoryBuffer::getFile(CubinPath, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
  if (!Cubin)
    return Fail("cannot read what " + Ptxas +
                " wrote: " + Cubin.getError().message());
  if ((*Cubin)->getBufferSize() == 0)
    return Fail(Ptxas + " wrote an empty cubin");
  return (*Cubin)->getBuffer().str();
}

} // namespace mstage::rt
