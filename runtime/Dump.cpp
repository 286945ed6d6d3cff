//===- Dump.cpp - MSTAGE_DUMP: write what each launch compiled ------------===//
#include "Dump.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace mstage::rt {

const DumpSettings &dumpSettings() {
  static const DumpSettings S = [] {
    DumpSettings S;
    if (const char *Dir = std::getenv("MSTAGE_DUMP_DIR"); Dir && *Dir)
      S.Dir = Dir;
    const char *Kinds = std::getenv("MSTAGE_DUMP");
    SmallVector<StringRef, 4> Parts;
    StringRef(Kinds ? Kinds : "").split(Parts, ',', -1, false);
    for (StringRef P : Parts) {
      P = P.trim();
      if (P == "ir")
        S.IR = true;
      else if (P == "ptx")
        S.PTX = true;
      else if (P == "all")
        S.IR = S.PTX = true;
      else
        errs() << "mstage: MSTAGE_DUMP: unknown kind '" << P
               << "' (known: ir, ptx, all)\n";
    }
    return S;
  }();
  return S;
}

void dumpFile(StringRef KernelName, uint64_t Hash, StringRef Extension,
              StringRef Text) {
  const DumpSettings &S = dumpSettings();
  SmallString<256> Path(S.Dir);
  std::error_code EC = sys::fs::create_directories(Path);
  sys::path::append(Path, KernelName + "-" + utohexstr(Hash, true, 16) + "." +
                              Extension);
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
      errs() << "mstage: MSTAGE_DUMP: cannot write " << Path << ": "
             << EC.message() << "\n";
    });
  }
}

} // namespace mstage::rt
