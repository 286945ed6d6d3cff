//===- GenericCode.cpp - A module's ahead-of-time generic kernels ---------===//
#include "core/GenericCode.h"
#include "core/Backend.h"
#include "formats/AotImage.h"
#include "formats/KernelBlob.h"
#include "support/RuntimeFailure.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "support/Warning.h"

#include <cassert>
#include <dlfcn.h>
#include <optional>
#include <vector>

using namespace llvm;

namespace mstage::rt {
namespace {

// The file the module is in, to name it in a report.
std::string moduleFile(const mstage_module_record &M) {
  Dl_info Info;
  if (dladdr(&M, &Info) && Info.dli_fname && *Info.dli_fname)
    return Info.dli_fname;
  return "a module";
}

const char *kindName(AotKind K) {
  return K == AotKind::Cubin ? "cubin" : "PTX";
}

// Whether the image (PTX text or a cubin's string table) names Symbol as a
// whole identifier: asking the driver for an absent function is an API
// error that compute-sanitizer reports.
bool namesSymbol(StringRef Image, StringRef Symbol) {
  auto IsIdent = [](char C) { return isAlnum(C) || C == '_' || C == '$'; };
  for (size_t At = Image.find(Symbol); At != StringRef::npos;
       At = Image.find(Symbol, At + 1)) {
    size_t End = At + Symbol.size();
    if ((At == 0 || !IsIdent(Image[At - 1])) &&
        (End == Image.size() || !IsIdent(Image[End])))
      return true;
  }
  return false;
}

} // namespace

void GenericCode::load() {
  const Backend &B = backend();
  if (Module.num_aot_images == 0 || !B.compiles())
    return;
  auto Report = [&](const Twine &What) {
    warn(moduleFile(Module) + ": " + What + "; its kernels wait for the JIT");
  };
  std::vector<AotImage> Images;
  for (uint32_t I = 0; I < Module.num_aot_images; ++I) {
    const mstage_aot_image_ref &Ref = Module.aot_images[I];
    // mstage++ -c gives the table a slot per possible image
    // (passes/aot/AotObject.h); the ones not made are empty.
    if (!Ref.data && Ref.size == 0)
      continue;
    auto Image =
        readAotImage(static_cast<const uint8_t *>(Ref.data), size_t(Ref.size));
    if (!Image)
      return Report(toString(Image.takeError()));
    Images.push_back(std::move(*Image));
  }
  // The kernels the images must be of: all of the module's, in order.
  std::vector<uint64_t> Hashes;
  std::vector<std::string> Names;
  for (uint32_t I = 0; I < Module.num_kernels; ++I) {
    const mstage_kernel_record &Rec = Module.kernels[I];
    auto Blob =
        readKernelBlob(static_cast<const uint8_t *>(Rec.blob), Rec.blob_size);
    if (!Blob)
      return; // reported by the registry when it matters
    Hashes.push_back(hashBitcode(Blob->Bitcode));
    Names.push_back(Blob->Name);
  }
  uint64_t KernelsHash = hashAotKernels(Hashes);
  for (const AotImage &Image : Images) {
    if (Image.KernelsHash != KernelsHash)
      return Report("its ahead-of-time " + Twine(kindName(Image.Kind)) +
                    " for " + Image.Arch +
                    " was made for other kernels (a stale or foreign image)");
    for (const std::string &Name : Names)
      if (!is_contained(Image.Kernels, Name))
        return Report("its ahead-of-time " + Twine(kindName(Image.Kind)) +
                      " for " + Image.Arch + " lacks kernel " + Name);
  }

  // A cubin of exactly this architecture, else the newest PTX not above it.
  unsigned Device = archNumber(B.arch());
  const AotImage *Chosen = nullptr;
  for (const AotImage &Image : Images)
    if (Image.Kind == AotKind::Cubin && archNumber(Image.Arch) == Device)
      Chosen = &Image;
  if (!Chosen)
    for (const AotImage &Image : Images) {
      unsigned N = archNumber(Image.Arch);
      if (Image.Kind == AotKind::Ptx && N && N <= Device &&
          (!Chosen || N > archNumber(Chosen->Arch)))
        Chosen = &Image;
    }
  if (!Chosen)
    return; // none for this device: launches wait for the JIT, silently

  // Loaded on the default device where code runs; PTX-only mode loads
  // nothing and finds each kernel without code. The functions are looked up
  // at their first launch (entry()).
  StringMap<GenericKernel> Found;
  std::string Payload = Chosen->Payload.str(); // the driver wants a string
  CUmodule M = nullptr;
  if (Error E = B.loadModule(B.defaultDevice(), Payload,
                             Chosen->Kind == AotKind::Cubin, &M))
    return Report("its ahead-of-time " + Twine(kindName(Chosen->Kind)) +
                  " for " + Chosen->Arch +
                  " does not load: " + failureMessage(std::move(E)));
  for (const std::string &Name : Names) {
    GenericKernel &G = Found[Name];
    G.Owner = this;
    G.Name = Name;
    // Images made before it (or of kernels without pointers) have none.
    G.HasDisjoint = namesSymbol(Payload, disjointEntryName(Name));
  }
  Code = M;
  Kernels = std::move(Found);
}

// Two threads may look up one entry at once: both get the same function,
// and neither waits for the other's lookup of another entry.
Expected<CUfunction> GenericCode::entry(const GenericKernel &G, bool Apart) {
  bool Disjoint = Apart && G.HasDisjoint;
  std::atomic<CUfunction> &Slot = Disjoint ? G.Disjoint : G.Function;
  if (CUfunction F = Slot.load(std::memory_order_acquire))
    return F;
  const Backend &B = backend();
  assert(Code && "a kernel of a loaded module is launched");
  CUfunction F = nullptr;
  if (Error E =
          B.getFunction(B.defaultDevice(), Code,
                        Disjoint ? disjointEntryName(G.Name) : G.Name, &F))
    return context(std::move(E),
                   "cannot find its function in its ahead-of-time code");
  Slot.store(F, std::memory_order_release);
  return F;
}

void GenericCode::preload() {
  std::call_once(Loaded, [this] { load(); });
  // The entries that launches have not looked up yet, disjoint ones first
  // (most launches' pointers are apart); a failure is the launch's to report.
  std::lock_guard<std::mutex> G(Lock);
  if (!Code)
    return;
  for (bool Apart : {true, false})
    for (const auto &K : Kernels)
      if (!Apart || K.second.HasDisjoint)
        consumeError(entry(K.second, Apart).takeError());
}

const GenericKernel *GenericCode::find(StringRef Name) {
  std::call_once(Loaded, [this] { load(); });
  auto It = Kernels.find(Name);
  return It == Kernels.end() ? nullptr : &It->second;
}

void GenericCode::unload() {
  std::call_once(Loaded, [] {}); // never loaded: never will be
  std::lock_guard<std::mutex> G(Lock);
  if (Code)
    consumeError(backend().unloadModule(backend().defaultDevice(), Code));
  Code = nullptr;
  Kernels.clear();
}

} // namespace mstage::rt
