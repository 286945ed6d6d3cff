//===- PtxSourceView.cpp - C++ source lines beside PTX and SASS -----------===//
#include "PtxSourceView.h"

#include "aot/CudaToolkit.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace mstage {
namespace {

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

// T without directive Name and its blank, if T is that directive (.loc is
// not .local).
bool consumeDirective(StringRef &T, StringRef Name) {
  if (!T.starts_with(Name) || T.size() == Name.size() ||
      !isSpace(T[Name.size()]))
    return false;
  T = T.drop_front(Name.size());
  return true;
}

// The lines of the source files that the code names, read once each.
class SourceFiles {
public:
  // "name:LINE: text", or "name:LINE" when the file cannot be read here.
  std::string describe(StringRef Path, unsigned Line) {
    std::string Out = (sys::path::filename(Path) + ":" + Twine(Line)).str();
    const std::vector<StringRef> &Lines = linesOf(Path);
    if (Line >= 1 && Line <= Lines.size())
      Out += (": " + Lines[Line - 1].rtrim()).str();
    return Out;
  }

private:
  const std::vector<StringRef> &linesOf(StringRef Path) {
    auto [It, New] = Files.try_emplace(Path);
    if (New) {
      auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
      if (Buf) {
        It->second.Buf = std::move(*Buf);
        SmallVector<StringRef, 0> All;
        It->second.Buf->getBuffer().split(All, '\n');
        It->second.Lines.assign(All.begin(), All.end());
      }
    }
    return It->second.Lines;
  }
  struct File {
    std::unique_ptr<MemoryBuffer> Buf;
    std::vector<StringRef> Lines;
  };
  StringMap<File> Files;
};

// .file N "path" (or "dir" "name"), as NVPTX writes it.
DenseMap<unsigned, std::string> fileTable(StringRef PTX) {
  DenseMap<unsigned, std::string> Files;
  SmallVector<StringRef, 0> Lines;
  PTX.split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.trim();
    if (!consumeDirective(L, ".file"))
      continue;
    unsigned N;
    L = L.ltrim();
    StringRef Num = L.take_while(isDigit);
    if (Num.getAsInteger(10, N))
      continue;
    SmallVector<StringRef, 2> Quoted;
    for (StringRef Rest = L.drop_front(Num.size()); !Rest.empty();) {
      size_t Open = Rest.find('"');
      if (Open == StringRef::npos)
        break;
      size_t Close = Rest.find('"', Open + 1);
      if (Close == StringRef::npos)
        break;
      Quoted.push_back(Rest.slice(Open + 1, Close));
      Rest = Rest.drop_front(Close + 1);
    }
    if (Quoted.empty())
      continue;
    SmallString<256> Path(Quoted[0]);
    if (Quoted.size() > 1)
      sys::path::append(Path, Quoted[1]);
    Files[N] = std::string(Path);
  }
  return Files;
}

} // namespace

Error printPtxWithSource(StringRef PTX, raw_ostream &OS) {
  DenseMap<unsigned, std::string> Files = fileTable(PTX);
  if (Files.empty())
    return fail("the PTX has no line information (.file/.loc): the program "
                "was built by an older mstage++; rebuild it");
  SourceFiles Sources;
  SmallVector<StringRef, 0> Lines;
  PTX.split(Lines, '\n');
  std::string Shown, Pending;
  for (StringRef L : Lines) {
    StringRef T = L.trim();
    StringRef Directive = T;
    if (consumeDirective(Directive, ".file"))
      continue;
    if (consumeDirective(T, ".loc")) {
      // .loc FILE LINE COL   // path:LINE:COL @[ caller:LINE:COL ]
      SmallVector<StringRef, 4> F;
      T.split(F, ' ', -1, /*KeepEmpty=*/false);
      unsigned File = 0, Line = 0;
      if (F.size() < 2 || F[0].trim().getAsInteger(10, File) ||
          F[1].trim().getAsInteger(10, Line) || Line == 0)
        continue; // line 0: code of no source line
      auto It = Files.find(File);
      if (It == Files.end())
        continue;
      std::string Text = Sources.describe(It->second, Line);
      size_t At = T.find("@[");
      if (At != StringRef::npos) {
        StringRef Chain = T.drop_front(At + 2).rtrim().rtrim(']').trim();
        Text += "   (inlined at " + Chain.str() + ")";
      }
      Pending = Text;
      continue;
    }
    bool Code = !T.empty() && !T.starts_with("//") && !T.starts_with("$") &&
                !T.starts_with(".") && T != "{" && T != "}" && T != ")" &&
                T != "(";
    if (Code && !Pending.empty() && Pending != Shown) {
      OS << "\t//## " << Pending << "\n";
      Shown = Pending;
    }
    OS << L << "\n";
  }
  return Error::success();
}

Error printSassWithSource(StringRef PTX, StringRef Arch, raw_ostream &OS) {
  std::string Ptxas = findCudaTool("ptxas");
  std::string Nvdisasm = findCudaTool("nvdisasm");
  if (Ptxas.empty() || Nvdisasm.empty()) {
    OS << "// SASS: " << (Ptxas.empty() ? "ptxas" : "nvdisasm")
       << " is absent (it comes with the CUDA toolkit, on PATH or in "
          "$CUDA_HOME/bin)\n";
    return Error::success();
  }
  SmallString<128> PtxPath, CubinPath, SassPath;
  int FD;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage-ptx", "ptx", FD, PtxPath))
    return errorCodeToError(EC);
  {
    raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << PTX;
  }
  for (auto [Suffix, Path] :
       {std::pair{"cubin", &CubinPath}, std::pair{"sass", &SassPath}})
    if (std::error_code EC =
            sys::fs::createTemporaryFile("mstage-ptx", Suffix, *Path))
      return errorCodeToError(EC);
  scope_exit Remove([&] {
    for (StringRef P : {PtxPath.str(), CubinPath.str(), SassPath.str()})
      sys::fs::remove(P);
  });
  std::string ArchArg = ("-arch=" + Arch).str();
  StringRef PtxasArgs[] = {Ptxas, ArchArg, PtxPath, "-o", CubinPath};
  std::optional<StringRef> Quiet[] = {std::nullopt, StringRef(SassPath),
                                      StringRef(SassPath)};
  if (sys::ExecuteAndWait(Ptxas, PtxasArgs, std::nullopt, Quiet) != 0) {
    auto Log = MemoryBuffer::getFile(SassPath);
    return fail("ptxas rejected the PTX" +
                (Log ? ": " + (*Log)->getBuffer().trim() : Twine()));
  }
  StringRef DisasmArgs[] = {Nvdisasm, "--print-line-info", "--print-code",
                            CubinPath};
  std::optional<StringRef> ToFile[] = {std::nullopt, StringRef(SassPath),
                                       StringRef(SassPath)};
  int RC = sys::ExecuteAndWait(Nvdisasm, DisasmArgs, std::nullopt, ToFile);
  auto Sass = MemoryBuffer::getFile(SassPath);
  if (RC != 0 || !Sass)
    return fail("nvdisasm failed" +
                (Sass ? ": " + (*Sass)->getBuffer().trim() : Twine()));
  // nvdisasm marks lines as  //## File "PATH", line N[ inlined at ...]
  SourceFiles Sources;
  SmallVector<StringRef, 0> Lines;
  (*Sass)->getBuffer().split(Lines, '\n');
  for (StringRef L : Lines) {
    StringRef T = L.trim();
    unsigned Line;
    if (T.consume_front("//## File \"")) {
      size_t Close = T.find('"');
      StringRef Path = T.take_front(Close);
      StringRef Rest = T.drop_front(Close + 1);
      if (Close != StringRef::npos && Rest.consume_front(", line ")) {
        StringRef Num = Rest.take_while(isDigit);
        if (!Num.getAsInteger(10, Line)) {
          OS << "\t//## " << Sources.describe(Path, Line);
          if (StringRef More = Rest.drop_front(Num.size()).trim();
              !More.empty())
            OS << "   (" << More << ")";
          OS << "\n";
          continue;
        }
      }
    }
    OS << L << "\n";
  }
  return Error::success();
}

} // namespace mstage
