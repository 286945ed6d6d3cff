//===- mstage-ptx.cpp - Inspect the kernels embedded by mstage++ ----------===//
//
//   mstage-ptx FILE                        list the kernels in FILE
//   mstage-ptx FILE --kernel K --ir        the kernel's embedded device IR
//   mstage-ptx FILE --kernel K --ptx       PTX for --arch (default sm_90)
//
// FILE is an object file or executable built by mstage++. No GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "JitCompiler.h"
#include "KernelBlob.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;
using namespace mstage;

static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<object or executable>"));
static cl::opt<std::string> KernelName("kernel",
                                       cl::desc("kernel to print (device "
                                                "name or readable name)"));
static cl::opt<bool> PrintIR("ir", cl::desc("print the embedded device IR"));
static cl::opt<bool> PrintPTX("ptx", cl::desc("print PTX (the default)"));
static cl::opt<std::string> Arch("arch", cl::init("sm_90"),
                                 cl::desc("architecture for --ptx"));

static int fail(const Twine &Msg) {
  WithColor::error(errs(), "mstage-ptx") << Msg << "\n";
  return 1;
}

// The kernels in the file's mstage_kernels section, one per device name.
static Expected<std::map<std::string, KernelBlob>>
readKernels(const object::ObjectFile &Obj) {
  std::map<std::string, KernelBlob> Kernels;
  bool HasSection = false;
  for (const object::SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name || *Name != KernelBlobSection)
      continue;
    HasSection = true;
    Expected<StringRef> Data = Sec.getContents();
    if (!Data)
      return Data.takeError();
    const auto *P = reinterpret_cast<const uint8_t *>(Data->data());
    size_t Size = Data->size(), Off = 0;
    while (Off < Size) {
      uint64_t BlobSize = kernelBlobSize(P + Off, Size - Off);
      if (BlobSize == 0) { // alignment padding between objects
        Off += KernelBlobAlign;
        continue;
      }
      Expected<KernelBlob> Blob = readKernelBlob(P + Off, Size - Off);
      if (!Blob)
        return Blob.takeError();
      Kernels.emplace(Blob->Name, std::move(*Blob));
      Off += BlobSize;
    }
  }
  if (!HasSection)
    return createStringError(inconvertibleErrorCode(),
                             "not an mstage binary: it has no " +
                                 Twine(KernelBlobSection) +
                                 " section; build it with mstage++");
  return Kernels;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv,
                              "mstage-ptx: inspect mstage kernels\n");
  auto Bin = object::ObjectFile::createObjectFile(InputFile);
  if (!Bin)
    return fail(InputFile + ": " + toString(Bin.takeError()));
  auto Kernels = readKernels(*Bin->getBinary());
  if (!Kernels)
    return fail(InputFile + ": " + toString(Kernels.takeError()));

  if (KernelName.empty()) {
    for (auto &[Name, K] : *Kernels)
      outs() << Name << "  " << K.PrettyName << "  (" << K.NumParams
             << " parameters, " << K.StageSites.size() << " stage sites)\n";
    return 0;
  }
  const KernelBlob *K = nullptr;
  for (auto &[Name, Blob] : *Kernels)
    if (Name == KernelName || Blob.PrettyName == KernelName)
      K = &Blob;
  if (!K) {
    std::string Known;
    for (auto &[Name, Blob] : *Kernels)
      Known += "\n  " + Name + "  " + Blob.PrettyName;
    return fail("no kernel '" + KernelName + "' in " + InputFile +
                "; known kernels:" + Known);
  }

  if (PrintIR) {
    LLVMContext Ctx;
    auto M = parseBitcodeFile(MemoryBufferRef(K->Bitcode, K->Name), Ctx);
    if (!M)
      return fail(toString(M.takeError()));
    (*M)->print(outs(), nullptr);
    return 0;
  }
  rt::JitOptions Opts;
  Opts.Arch = Arch;
  // Until --stage, --block and --grid exist: zero-filled staged values and a
  // 1x1x1 launch.
  std::vector<std::string> Zeros;
  for (const StageSite &S : K->StageSites)
    Zeros.emplace_back(S.Size, '\0');
  std::vector<StringRef> Values(Zeros.begin(), Zeros.end());
  rt::Specialization Spec;
  Spec.StagedValues = Values;
  auto Out = rt::compileKernel(*K, Spec, Opts, false);
  if (!Out)
    return fail(toString(Out.takeError()));
  outs() << Out->PTX;
  return 0;
}
