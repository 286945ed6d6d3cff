//===- mstage-ptx.cpp - Inspect the kernels embedded by mstage++ ----------===//
//
//   mstage-ptx FILE                  list the kernels in FILE, with their
//                                    source locations and stage sites
//   mstage-ptx FILE --kernel K --ir  the kernel's embedded device IR
//   mstage-ptx FILE --kernel K [--ptx] [--stage SITE=VALUE ...]
//              [--grid X[,Y,Z]] [--block X[,Y,Z]] [--arch sm_XY]
//                                    the specialized PTX (or --ir: its IR)
//   ... --diff                       unified diff of the PTX without and with
//                                    the staged values and launch folded in
//
// SITE is a stage site's index (0, 1, ...) or its source line (L23). FILE is
// an object file or executable built by mstage++. No GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "JitCompiler.h"
#include "KernelBlob.h"
#include "StageValueText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <map>

using namespace llvm;
using namespace mstage;

static cl::OptionCategory Category("mstage-ptx options");
static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<object or executable>"),
                                      cl::cat(Category));
static cl::opt<std::string> KernelName("kernel",
                                       cl::desc("kernel to print (device "
                                                "name or readable name)"),
                                       cl::cat(Category));
static cl::opt<bool> PrintIR("ir",
                             cl::desc("print IR: the embedded device IR, or "
                                      "with --stage/--grid/--block the "
                                      "specialized and optimized IR"),
                             cl::cat(Category));
static cl::opt<bool> PrintPTX("ptx", cl::desc("print PTX (the default)"),
                              cl::cat(Category));
static cl::opt<std::string> Arch("arch", cl::init("sm_90"),
                                 cl::desc("architecture for --ptx"),
                                 cl::cat(Category));
static cl::list<std::string>
    Stages("stage",
           cl::desc("SITE=VALUE: the value of a stage site, by "
                    "index (0) or source line (L23)"),
           cl::cat(Category));
static cl::opt<std::string> Grid("grid", cl::init("1"),
                                 cl::desc("X[,Y,Z]: blocks in the grid"),
                                 cl::cat(Category));
static cl::opt<std::string> Block("block", cl::init("1"),
                                  cl::desc("X[,Y,Z]: threads in a block"),
                                  cl::cat(Category));
static cl::opt<unsigned>
    SharedBytes("shared",
                cl::desc("N: bytes of dynamic shared memory (folded into the "
                         "kernel; left out, it reads %dynamic_smem_size)"),
                cl::cat(Category));
static cl::opt<bool> FastMath("fast-math",
                              cl::desc("compile with fast math, as "
                                       "Kernel::fast_math() or "
                                       "MSTAGE_FAST_MATH=1 do"),
                              cl::cat(Category));
static cl::opt<bool> Diff("diff",
                          cl::desc("unified diff of the PTX without and with "
                                   "folding (needs diff on PATH)"),
                          cl::cat(Category));

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

static std::string describeSite(const KernelBlob &K, size_t I) {
  const StageSite &S = K.StageSites[I];
  return "stage site " + utostr(I) + " (line " + utostr(S.Line) + ", " +
         stageTypeName(S) + ")";
}

// The bytes of Text as the value of site I, or an error saying what it takes.
static Expected<std::string> parseValue(const KernelBlob &K, size_t I,
                                        StringRef Text) {
  if (std::optional<std::string> Bytes = parseStageValue(K.StageSites[I], Text))
    return *Bytes;
  std::string Hint;
  if (StringRef(stageTypeName(K.StageSites[I])).ends_with("-byte value"))
    Hint = "; give 0x and " + utostr(K.StageSites[I].Size * 2) +
           " hex digits, the bytes in memory order";
  return createStringError(inconvertibleErrorCode(),
                           "'" + Text + "' is not a value for " +
                               describeSite(K, I) + Hint);
}

// The site that NAME (an index, or L<line>) names.
static Expected<size_t> findSite(const KernelBlob &K, StringRef Name) {
  StringRef Given = Name;
  size_t N = K.StageSites.size();
  auto Sites = [&] {
    std::string List;
    for (size_t I = 0; I < N; ++I)
      List += "\n  " + describeSite(K, I);
    return N ? List : std::string(" none");
  };
  unsigned V;
  if (!Name.getAsInteger(10, V)) {
    if (V < N)
      return V;
  } else if (Name.consume_front("L") && !Name.getAsInteger(10, V)) {
    SmallVector<size_t, 2> Found;
    for (size_t I = 0; I < N; ++I)
      if (K.StageSites[I].Line == V)
        Found.push_back(I);
    if (Found.size() == 1)
      return Found[0];
    if (Found.size() > 1)
      return createStringError(inconvertibleErrorCode(),
                               "line " + Twine(V) + " has " +
                                   Twine(Found.size()) +
                                   " stage sites; name one by index. Sites "
                                   "of " +
                                   K.PrettyName + ":" + Sites());
  }
  return createStringError(inconvertibleErrorCode(),
                           "'" + Given + "' names no stage site of " +
                               K.PrettyName + "; its sites:" + Sites());
}

static Expected<std::vector<std::string>> stagedValues(const KernelBlob &K) {
  std::vector<std::optional<std::string>> Given(K.StageSites.size());
  for (StringRef Arg : Stages) {
    auto [Name, Text] = Arg.split('=');
    if (Text.empty() && !Arg.contains('='))
      return createStringError(inconvertibleErrorCode(),
                               "--stage " + Arg + ": write SITE=VALUE");
    Expected<size_t> I = findSite(K, Name.trim());
    if (!I)
      return I.takeError();
    Expected<std::string> V = parseValue(K, *I, Text.trim());
    if (!V)
      return V.takeError();
    Given[*I] = std::move(*V);
  }
  std::vector<std::string> Values;
  for (size_t I = 0; I < Given.size(); ++I) {
    if (!Given[I])
      return createStringError(
          inconvertibleErrorCode(),
          "no value for " + describeSite(K, I) + "; give --stage " + Twine(I) +
              "=VALUE or --stage L" + Twine(K.StageSites[I].Line) + "=VALUE");
    Values.push_back(std::move(*Given[I]));
  }
  return Values;
}

// "X[,Y,Z]" into three extents (missing ones are 1).
static Error parseExtents(StringRef Option, StringRef Text, uint32_t Out[3]) {
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, ',');
  if (Parts.size() > 3)
    return createStringError(inconvertibleErrorCode(),
                             "--" + Option + " " + Text +
                                 ": give X, X,Y or X,Y,Z");
  for (size_t I = 0; I < 3; ++I) {
    Out[I] = 1;
    if (I < Parts.size() &&
        (Parts[I].trim().getAsInteger(10, Out[I]) || Out[I] == 0))
      return createStringError(inconvertibleErrorCode(),
                               "--" + Option + " " + Text +
                                   ": extents are positive integers");
  }
  return Error::success();
}

// The unified diff of A and B, labelled, through diff(1).
static Expected<std::string> unifiedDiff(StringRef A, StringRef LabelA,
                                         StringRef B, StringRef LabelB) {
  auto DiffExe = sys::findProgramByName("diff");
  if (!DiffExe)
    return createStringError(inconvertibleErrorCode(),
                             "--diff needs the diff program on PATH");
  SmallString<128> PathA, PathB, PathOut;
  for (auto [Text, Path] : {std::pair{A, &PathA}, std::pair{B, &PathB}}) {
    int FD;
    if (std::error_code EC =
            sys::fs::createTemporaryFile("mstage-ptx", "ptx", FD, *Path))
      return errorCodeToError(EC);
    raw_fd_ostream OS(FD, true);
    OS << Text;
  }
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage-ptx", "diff", PathOut))
    return errorCodeToError(EC);
  std::string LA = ("--label=" + LabelA).str(),
              LB = ("--label=" + LabelB).str();
  StringRef Args[] = {*DiffExe, "-u", LA, LB, PathA, PathB};
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(PathOut),
                                          std::nullopt};
  int RC = sys::ExecuteAndWait(*DiffExe, Args, std::nullopt, Redirects);
  auto Out = MemoryBuffer::getFile(PathOut);
  for (StringRef P : {StringRef(PathA), StringRef(PathB), StringRef(PathOut)})
    sys::fs::remove(P);
  if (RC < 0 || RC > 1 || !Out)
    return createStringError(inconvertibleErrorCode(), "running diff failed");
  return (*Out)->getBuffer().str();
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(Argc, Argv,
                              "mstage-ptx: inspect mstage kernels\n");
  if (Error E = rt::checkArch(Arch))
    return fail("--arch " + toString(std::move(E)));
  if (!sys::fs::exists(InputFile))
    return fail(InputFile + ": no such file");
  auto Bin = object::ObjectFile::createObjectFile(InputFile);
  if (!Bin)
    return fail(InputFile +
                ": not an mstage binary (an object file or "
                "executable built by mstage++): " +
                toString(Bin.takeError()));
  auto Kernels = readKernels(*Bin->getBinary());
  if (!Kernels)
    return fail(InputFile + ": " + toString(Kernels.takeError()));

  if (KernelName.empty()) {
    for (auto &[Name, K] : *Kernels) {
      outs() << Name << "  " << K.PrettyName << "  (" << K.NumParams
             << " parameters, " << K.StageSites.size() << " stage sites)\n";
      for (size_t I = 0; I < K.StageSites.size(); ++I)
        outs() << "  stage " << I << ": line " << K.StageSites[I].Line << ":"
               << K.StageSites[I].Column << ", "
               << stageTypeName(K.StageSites[I]) << "\n";
    }
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

  bool Specialize = !Stages.empty() || Grid.getNumOccurrences() ||
                    Block.getNumOccurrences() ||
                    SharedBytes.getNumOccurrences() || Diff;
  if (PrintIR && !Specialize) {
    LLVMContext Ctx;
    auto M = parseBitcodeFile(MemoryBufferRef(K->Bitcode, K->Name), Ctx);
    if (!M)
      return fail(toString(M.takeError()));
    (*M)->print(outs(), nullptr);
    return 0;
  }

  auto Values = stagedValues(*K);
  if (!Values)
    return fail(toString(Values.takeError()));
  std::vector<StringRef> Refs(Values->begin(), Values->end());
  rt::Specialization Spec;
  Spec.StagedValues = Refs;
  if (Error E = parseExtents("grid", Grid, Spec.Extents.Grid))
    return fail(toString(std::move(E)));
  if (Error E = parseExtents("block", Block, Spec.Extents.Block))
    return fail(toString(std::move(E)));
  if (SharedBytes.getNumOccurrences())
    Spec.Extents.SharedBytes = SharedBytes;
  rt::JitOptions Opts;
  Opts.Arch = Arch;
  Opts.FastMath = FastMath;
  auto Out = rt::compileKernel(*K, Spec, Opts, PrintIR);
  if (!Out)
    return fail(toString(Out.takeError()));
  if (!Diff) {
    outs() << (PrintIR ? Out->OptimizedIR : Out->PTX);
    return 0;
  }
  rt::Specialization Unfolded;
  Unfolded.Fold = false;
  auto Plain = rt::compileKernel(*K, Unfolded, Opts, false);
  if (!Plain)
    return fail(toString(Plain.takeError()));
  auto D = unifiedDiff(Plain->PTX, K->Name + " (nothing folded)", Out->PTX,
                       K->Name + " (staged values and launch folded)");
  if (!D)
    return fail(toString(D.takeError()));
  outs() << *D;
  return 0;
}
