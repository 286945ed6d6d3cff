//===- DeviceLibrary.cpp - Other units' device code that kernels call -----===//
#include "jit/DeviceLibrary.h"
#include "formats/KernelBlob.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <cassert>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

using namespace llvm;

namespace mstage::rt {
namespace {

struct Unit {
  const void *Owner;
  DeviceLinkBlob Blob; // its strings are copies; Bitcode points into the image
};

struct Library {
  std::mutex Lock;
  std::vector<std::unique_ptr<Unit>> Units; // in registration order
};

// Never destroyed, like the kernel registry that fills it.
Library &library() {
  static Library *L = new Library;
  return *L;
}

Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::string pretty(StringRef Symbol) { return demangle(Symbol); }

std::string sourceName(const Unit &U) {
  return U.Blob.Source.empty() ? "a file" : U.Blob.Source;
}

struct Definition {
  const Unit *From;
  const DeviceExport *Export;
};

// The units that export Name. L is locked.
SmallVector<Definition, 2> definitionsOf(Library &L, StringRef Name) {
  SmallVector<Definition, 2> Found;
  for (const auto &U : L.Units)
    for (const DeviceExport &E : U->Blob.Exports)
      if (E.Name == Name)
        Found.push_back({U.get(), &E});
  return Found;
}

} // namespace

Error addDeviceLink(const void *Owner, const uint8_t *Data, size_t Size) {
  Expected<DeviceLinkBlob> Blob = readDeviceLinkBlob(Data, Size);
  if (!Blob)
    return Blob.takeError();
  Library &L = library();
  std::lock_guard<std::mutex> G(L.Lock);
  L.Units.push_back(std::make_unique<Unit>(Unit{Owner, std::move(*Blob)}));
  return Error::success();
}

void removeDeviceLink(const void *Owner) {
  Library &L = library();
  std::lock_guard<std::mutex> G(L.Lock);
  erase_if(L.Units, [&](const auto &U) { return U->Owner == Owner; });
}

Expected<uint64_t> resolveImports(const void *Owner, StringRef KernelName,
                                  StringRef PrettyName) {
  Library &L = library();
  std::lock_guard<std::mutex> G(L.Lock);
  auto Self =
      find_if(L.Units, [&](const auto &U) { return U->Owner == Owner; });
  if (Self == L.Units.end())
    return 0;
  // What is to be resolved: the kernel's imports, then those of the exports
  // they lead to. Via names the export that needs it, for the messages.
  struct Need {
    const DeviceImport *Import;
    std::string Via;
  };
  std::vector<Need> Work;
  for (const DeviceImport &I : (*Self)->Blob.Imports)
    if (!I.FromExport && I.Requester == KernelName)
      Work.push_back({&I, ""});
  if (Work.empty())
    return 0;

  std::map<std::string, uint64_t> Linked; // symbol -> its export's hash
  std::string Kernel = "kernel '" + PrettyName.str() + "' calls '";
  while (!Work.empty()) {
    Need N = std::move(Work.back());
    Work.pop_back();
    const DeviceImport &I = *N.Import;
    if (Linked.count(I.Name))
      continue;
    std::string Callee = Kernel + pretty(I.Name) + "'" + N.Via;
    std::string Where = I.Location.empty() ? "" : " (at " + I.Location + ")";
    SmallVector<Definition, 2> Defs = definitionsOf(L, I.Name);
    if (Defs.empty())
      return failure(Callee + Where +
                     ", which no file compiled by mstage++ defines as device "
                     "code; compile the file that defines it with mstage++ "
                     "(its body must be code a kernel can run), or define it "
                     "in a header");
    for (const Definition &D : Defs)
      if (D.Export->Hash != Defs[0].Export->Hash)
        return failure(Callee + ", which " + sourceName(*Defs[0].From) +
                       " and " + sourceName(*D.From) +
                       " define differently (a definition must be the same "
                       "in every file); keep one definition");
    const Definition &Def = Defs[0];
    if (Def.Export->Type != I.Type)
      return failure(Callee + " as '" + I.Type + "'" + Where + ", but " +
                     sourceName(*Def.From) + " defines it as '" +
                     Def.Export->Type +
                     "'; declare it with the type of its definition");
    Linked[I.Name] = Def.Export->Hash;
    for (const DeviceImport &Next : Def.From->Blob.Imports)
      if (Next.FromExport && Next.Requester == I.Name)
        Work.push_back({&Next, ", through '" + pretty(I.Name) + "' of " +
                                   sourceName(*Def.From) + ","});
  }
  assert(!Linked.empty() && "each import was linked or reported");
  std::string Key;
  for (const auto &[Name, Hash] : Linked)
    Key += Name + "=" + std::to_string(Hash) + ";";
  return xxh3_64bits(Key) | 1; // never 0, which means "links nothing"
}

Error linkDeviceExports(Module &M) {
  Library &L = library();
  StringSet<> Tried;
  for (;;) {
    // The exported bitcode that defines something M calls but lacks.
    SmallVector<std::pair<StringRef, std::string>, 4> Sources;
    {
      std::lock_guard<std::mutex> G(L.Lock);
      for (Function &F : M) {
        if (!F.isDeclaration() || F.use_empty() || F.isIntrinsic() ||
            !Tried.insert(F.getName()).second)
          continue;
        SmallVector<Definition, 2> Defs = definitionsOf(L, F.getName());
        if (Defs.empty())
          continue; // libdevice's, or reported by the codegen's check
        StringRef Code = Defs[0].From->Blob.Bitcode;
        if (none_of(Sources, [&](const auto &S) { return S.first == Code; }))
          Sources.push_back({Code, sourceName(*Defs[0].From)});
      }
    }
    if (Sources.empty())
      return Error::success();
    for (const auto &[Code, Source] : Sources) {
      auto Lib =
          parseBitcodeFile(MemoryBufferRef(Code, Source), M.getContext());
      if (!Lib)
        return failure("the device code exported by " + Source +
                       " is unreadable: " + toString(Lib.takeError()));
      if (Linker::linkModules(M, std::move(*Lib),
                              Linker::Flags::LinkOnlyNeeded))
        return failure("linking the device code exported by " + Source +
                       " failed");
    }
  }
}

} // namespace mstage::rt
