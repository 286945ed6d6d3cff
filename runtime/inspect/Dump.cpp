//===- Dump.cpp - MSTAGE_DUMP: write what each launch compiled ------------===//
#include "inspect/Dump.h"
#include "cuda/CudaTools.h"
#include "support/RuntimeFailure.h"
#include "support/Warning.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cassert>
#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace mstage::rt {

// A file name holds at most 255 bytes: a longer kernel name (heavy
// templates) keeps its first MaxNameChars and gets the hash of the whole.
static constexpr size_t MaxNameChars = 100;

std::string dumpBaseName(StringRef KernelName) {
  if (KernelName.size() <= MaxNameChars + 17)
    return KernelName.str();
  std::string Name = (KernelName.take_front(MaxNameChars) + "~" +
                      utohexstr(xxh3_64bits(KernelName), true, 16))
                         .str();
  assert(Name.size() == MaxNameChars + 17 && "a name, '~' and 16 hex digits");
  return Name;
}

void dumpFile(StringRef KernelName, uint64_t Hash, StringRef Extension,
              StringRef Text) {
  assert(!KernelName.empty() && "a dump is named after its kernel");
  const DumpSettings &S = dumpSettings();
  SmallString<256> Path(S.Dir);
  std::error_code EC = sys::fs::create_directories(Path);
  sys::path::append(Path, dumpBaseName(KernelName) + "-" +
                              utohexstr(Hash, true, 16) + "." + Extension);
  if (!EC) {
    raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
    if (!EC) {
      OS << Text;
      OS.close();
      EC = OS.error();
    }
  }
  if (EC) {
    static std::once_flag Warned;
    std::call_once(Warned, [&] {
      warn("MSTAGE_DUMP: cannot write " + Path + ": " + EC.message());
    });
  }
}

void dumpSass(StringRef KernelName, uint64_t Hash, StringRef PTX,
              StringRef Cubin, StringRef Arch) {
  static const std::string Cuobjdump = findCudaTool("cuobjdump");
  static std::once_flag Warned;
  auto Warn = [&](const Twine &Why) {
    std::call_once(Warned, [&] { warn("MSTAGE_DUMP=sass: " + Why); });
  };
  if (Cuobjdump.empty())
    return Warn("needs cuobjdump (on PATH or in the CUDA toolkit's bin); no "
                "SASS is written");
  std::string Assembled;
  if (Cubin.empty()) {
    auto C = assembleCubin(PTX, Arch);
    if (!C)
      return Warn(failureMessage(C.takeError()) + "; no SASS is written");
    Assembled = std::move(*C);
    Cubin = Assembled;
  }
  SmallString<128> CubinPath, SassPath;
  int FD;
  if (sys::fs::createTemporaryFile("mstage", "cubin", FD, CubinPath))
    return Warn("cannot create a temporary file");
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Cubin;
  }
  sys::fs::createTemporaryFile("mstage", "sass", SassPath);
  StringRef DumpArgs[] = {Cuobjdump, "-sass", CubinPath};
  std::optional<StringRef> ToSass[] = {std::nullopt, StringRef(SassPath),
                                       std::nullopt};
  std::string Err;
  if (sys::ExecuteAndWait(Cuobjdump, DumpArgs, std::nullopt, ToSass, 0, 0,
                          &Err) != 0)
    Warn("cuobjdump failed" + (Err.empty() ? "" : ": " + Err));
  else if (auto Sass = MemoryBuffer::getFile(SassPath))
    dumpFile(KernelName, Hash, "sass", (*Sass)->getBuffer());
  for (StringRef P : {StringRef(CubinPath), StringRef(SassPath)})
    sys::fs::remove(P);
}

} // namespace mstage::rt
