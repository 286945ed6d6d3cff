//===- mstage-ptx.cpp - Inspect the kernels embedded by mstage++ ----------===//
//
//   mstage-ptx FILE                  list the kernels in FILE, with their
//                                    source locations and stage sites
//   mstage-ptx FILE --kernel K --ir  the kernel's embedded device IR
//   mstage-ptx FILE --kernel K [--ptx] [--stage SITE=VALUE ...]
//              [--grid X[,Y,Z]] [--block X[,Y,Z]] [--arch sm_XY]
//                                    the specialized PTX (or --ir: its IR)
//              [--views "A16 B16 ..."]
//                                    ... with the launch facts of views
//   ... --resources                  ptxas's registers, spills, stack, shared
//                                    memory and the occupancy for --block
//   ... --diff                       unified diff of the PTX without and with
//                                    the staged values and launch folded in
//   ... --source                     the PTX (and SASS, with nvdisasm) with
//                                    the C++ lines it came from
//   mstage-ptx FILE --aot            the ahead-of-time images (kind, arch,
//                                    size, kernels)
//   mstage-ptx FILE --aot-ptx [--arch sm_XY]
//                                    an ahead-of-time PTX image
//
// SITE is a stage site's index (0, 1, ...) or its source line (L23). FILE is
// an object file or executable built by mstage++ (a regular file). Kernels
// that share a name are listed, and picked, as NAME#1, NAME#2. No GPU is
// needed.
//
//===----------------------------------------------------------------------===//
#include "aot/PtxResources.h"
#include "PtxSourceView.h"
#include "formats/AotImage.h"
#include "formats/KernelBlob.h"
#include "formats/KernelSymbol.h"
#include "formats/StageValueText.h"
#include "jit/DeviceLibrary.h"
#include "jit/JitCompiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace mstage;

static cl::OptionCategory Category("mstage-ptx options");
static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<object or executable>"),
                                      cl::cat(Category));
static cl::opt<std::string>
    KernelName("kernel",
               cl::desc("kernel to print (device name or readable name; "
                        "NAME#N, as listed, when several share a name)"),
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
static cl::opt<std::string>
    Views("views",
          cl::desc("\"A16 B16 ...\": per pointer slot, its allocation as a "
                   "letter and its alignment, as MSTAGE_TRACE prints them "
                   "(? for not known); the launch facts to assume"),
          cl::cat(Category));
static cl::opt<bool>
    Tier0("tier0",
          cl::desc("compile with the JIT's tier-0 pipeline (the quick code "
                   "that MSTAGE_JIT_TIERS runs first: O1, NVPTX -O0)"),
          cl::cat(Category));
static cl::opt<bool> FastMath("fast-math",
                              cl::desc("compile with fast math, as "
                                       "Kernel::fast_math() or "
                                       "MSTAGE_FAST_MATH=1 do"),
                              cl::cat(Category));
static cl::opt<bool>
    Resources("resources",
              cl::desc("print the specialization's registers, spills, stack, "
                       "shared memory and occupancy (needs ptxas)"),
              cl::cat(Category));
static cl::opt<bool> Diff("diff",
                          cl::desc("unified diff of the PTX without and with "
                                   "folding (needs diff on PATH)"),
                          cl::cat(Category));

static cl::opt<bool>
    ShowSource("source",
               cl::desc("the PTX with the C++ source lines it came from, "
                        "then the SASS likewise (needs nvdisasm)"),
               cl::cat(Category));

static cl::opt<bool> ListAot("aot",
                             cl::desc("list the ahead-of-time images: kind, "
                                      "architecture, size and kernels"),
                             cl::cat(Category));
static cl::opt<bool>
    AotPTX("aot-ptx",
           cl::desc("print the ahead-of-time PTX image (for --arch when "
                    "given, else the only or highest one)"),
           cl::cat(Category));

static int fail(const Twine &Msg) {
  WithColor::error(errs(), "mstage-ptx") << Msg << "\n";
  return 1;
}

// The largest file mstage-ptx reads: far above any real executable, and it
// keeps a mistaken argument from being read without end.
static constexpr uint64_t MaxInputSize = uint64_t(4) << 30;

// The kernels in the file's mstage_kernels section, in section order. The
// same inline kernel linked in from several objects is listed once.
static Expected<std::vector<KernelBlob>>
readKernels(const object::ObjectFile &Obj) {
  std::vector<KernelBlob> Kernels;
  bool HasSection = false;
  for (const object::SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name || *Name != KernelBlobSection)
      continue;
    HasSection = true;
    Expected<StringRef> Data = Sec.getContents();
    if (!Data)
      return Data.takeError();
    if (Data->empty())
      return createStringError(inconvertibleErrorCode(),
                               "its " + Twine(KernelBlobSection) +
                                   " section is empty; rebuild it with "
                                   "mstage++");
    auto Blobs = readKernelSection(arrayRefFromStringRef(*Data));
    if (!Blobs)
      return Blobs.takeError();
    for (KernelBlob &B : *Blobs)
      if (llvm::none_of(Kernels, [&](const KernelBlob &K) {
            return K.Name == B.Name && K.BitcodeHash == B.BitcodeHash &&
                   K.Location == B.Location;
          }))
        Kernels.push_back(std::move(B));
  }
  if (!HasSection)
    return createStringError(inconvertibleErrorCode(),
                             "not an mstage binary: it has no " +
                                 Twine(KernelBlobSection) +
                                 " section; build it with mstage++");
  if (Kernels.empty())
    return createStringError(inconvertibleErrorCode(),
                             "its " + Twine(KernelBlobSection) +
                                 " section holds no kernel; rebuild it with "
                                 "mstage++");
  llvm::stable_sort(Kernels, [](const KernelBlob &A, const KernelBlob &B) {
    return A.Name < B.Name;
  });
  return Kernels;
}

// Registers the device code that the file's units export to each other's
// kernels (mstage_device_link), so that a kernel calling into another file
// compiles here as it does at run time. The section's data stays in Input.
static Error registerDeviceLinks(const object::ObjectFile &Obj) {
  for (const object::SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name || *Name != DeviceLinkSection)
      continue;
    Expected<StringRef> Data = Sec.getContents();
    if (!Data)
      return Data.takeError();
    auto Blobs = readDeviceLinkSection(arrayRefFromStringRef(*Data));
    if (!Blobs)
      return Blobs.takeError();
    for (ArrayRef<uint8_t> B : *Blobs)
      if (Error E = rt::addDeviceLink(B.data(), B.data(), B.size()))
        return E;
  }
  return Error::success();
}

// The images of the file's mstage_aot sections, in section order.
static Expected<std::vector<AotImage>>
readAotImages(const object::ObjectFile &Obj) {
  std::vector<AotImage> Images;
  for (const object::SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name || *Name != AotImageSection)
      continue;
    Expected<StringRef> Data = Sec.getContents();
    if (!Data)
      return Data.takeError();
    auto Read = readAotSection(arrayRefFromStringRef(*Data));
    if (!Read)
      return Read.takeError();
    for (AotImage &I : *Read)
      Images.push_back(std::move(I));
  }
  return Images;
}

static int showAot(const object::ObjectFile &Obj) {
  auto Images = readAotImages(Obj);
  if (!Images)
    return fail(InputFile + ": " + toString(Images.takeError()));
  if (ListAot) {
    if (Images->empty())
      outs() << "no ahead-of-time images (built with -mstage-arch=none?)\n";
    for (const AotImage &I : *Images)
      outs() << (I.Kind == AotKind::Cubin ? "cubin" : "ptx") << " " << I.Arch
             << " " << I.Payload.size() << " bytes, " << I.Kernels.size()
             << " kernels: " << join(I.Kernels, " ") << "\n";
    return 0;
  }
  const AotImage *Best = nullptr;
  auto Number = [](StringRef A) {
    unsigned N = 0;
    A.drop_front(3).consumeInteger(10, N);
    return N;
  };
  for (const AotImage &I : *Images) {
    if (I.Kind != AotKind::Ptx)
      continue;
    if (Arch.getNumOccurrences() ? I.Arch == Arch
                                 : !Best || Number(I.Arch) > Number(Best->Arch))
      Best = &I;
  }
  if (!Best)
    return fail(InputFile + ": no ahead-of-time PTX image" +
                (Arch.getNumOccurrences() ? " for " + Arch : std::string()) +
                "; --aot lists the images");
  outs() << Best->Payload.rtrim('\0');
  return 0;
}

// How the listing and --kernel name Kernels[I]: its device name, with "#N"
// (1-based) when several different kernels share that name.
static std::string kernelLabel(ArrayRef<KernelBlob> Kernels, size_t I) {
  size_t Nth = 0, Count = 0;
  for (size_t J = 0; J < Kernels.size(); ++J)
    if (Kernels[J].Name == Kernels[I].Name) {
      ++Count;
      if (J <= I)
        ++Nth;
    }
  return Count == 1 ? Kernels[I].Name : Kernels[I].Name + "#" + utostr(Nth);
}

// Whether Given names Kernels[I]: its device name, its demangled name
// (main::kernel_L22), either with "#N" when the listing shows one, or its
// readable name with the location.
static bool namesKernel(ArrayRef<KernelBlob> Kernels, size_t I,
                        StringRef Given) {
  const KernelBlob &K = Kernels[I];
  std::string Nth =
      StringRef(kernelLabel(Kernels, I)).substr(K.Name.size()).str();
  std::string Demangled = demangleKernelSymbol(K.Name);
  return Given == K.Name || Given == K.PrettyName || Given == Demangled ||
         Given == K.Name + Nth || Given == Demangled + Nth;
}

// The kernel that Given names (namesKernel), or an error listing the
// candidates.
static Expected<const KernelBlob *>
findKernel(ArrayRef<KernelBlob> Kernels, StringRef Given, StringRef File) {
  SmallVector<size_t, 2> Found;
  for (size_t I = 0; I < Kernels.size(); ++I)
    if (namesKernel(Kernels, I, Given))
      Found.push_back(I);
  auto Describe = [&](size_t I) {
    return "\n  " + kernelLabel(Kernels, I) + "  " + Kernels[I].PrettyName +
           "  (" + Kernels[I].Location + ")";
  };
  if (Found.size() == 1)
    return &Kernels[Found[0]];
  std::string List;
  if (Found.empty()) {
    for (size_t I = 0; I < Kernels.size(); ++I)
      List += Describe(I);
    return createStringError(inconvertibleErrorCode(),
                             "no kernel '" + Given + "' in " + File +
                                 "; known kernels:" + List);
  }
  for (size_t I : Found)
    List += Describe(I);
  return createStringError(
      inconvertibleErrorCode(),
      "kernel '" + Given + "' is ambiguous in " + File + ": " +
          Twine(Found.size()) +
          " different kernels have that name; pick one with --kernel and "
          "its name as listed here:" +
          List);
}

// The file's contents: only a regular file, of at most MaxInputSize bytes
// (a device or a FIFO would be read without end).
static Expected<std::unique_ptr<MemoryBuffer>> readInput(StringRef Path) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Path + ": " + Why);
  };
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St))
    return Fail(EC == std::errc::no_such_file_or_directory
                    ? std::string("no such file")
                    : "cannot read it: " + EC.message());
  if (!sys::fs::is_regular_file(St))
    return Fail("not a regular file; give an object file or executable built "
                "by mstage++");
  Expected<sys::fs::file_t> FD = sys::fs::openNativeFileForRead(Path);
  if (!FD)
    return Fail("cannot read it: " + toString(FD.takeError()));
  // Checked again on the open file, which cannot be swapped any more.
  std::error_code EC = sys::fs::status(*FD, St);
  if (!EC && !sys::fs::is_regular_file(St))
    EC = std::make_error_code(std::errc::invalid_argument);
  if (!EC && St.getSize() > MaxInputSize) {
    sys::fs::closeFile(*FD);
    return Fail("is larger than " + Twine(MaxInputSize >> 30) +
                " GiB; give an object file or executable built by mstage++");
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      EC ? ErrorOr<std::unique_ptr<MemoryBuffer>>(EC)
         : MemoryBuffer::getOpenFile(*FD, Path, St.getSize(),
                                     /*RequiresNullTerminator=*/false);
  sys::fs::closeFile(*FD);
  if (!Buf)
    return Fail("cannot read it: " + Buf.getError().message());
  return std::move(*Buf);
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

// A block no GPU can run (the limits of every architecture NVPTX targets).
static Error checkBlock(StringRef Text, const uint32_t B[3]) {
  auto Bad = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "--block " + Text + ": " + Why);
  };
  if (B[0] > 1024 || B[1] > 1024)
    return Bad("x and y may be at most 1024");
  if (B[2] > 64)
    return Bad("z may be at most 64");
  if (uint64_t(B[0]) * B[1] * B[2] > 1024)
    return Bad("a block has at most 1024 threads, this one " +
               Twine(uint64_t(B[0]) * B[1] * B[2]));
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
  auto Input = readInput(InputFile);
  if (!Input)
    return fail(toString(Input.takeError()));
  auto Bin = object::ObjectFile::createObjectFile((*Input)->getMemBufferRef());
  if (!Bin)
    return fail(InputFile +
                ": not an mstage binary (an object file or "
                "executable built by mstage++): " +
                toString(Bin.takeError()));
  auto Kernels = readKernels(**Bin);
  if (!Kernels)
    return fail(InputFile + ": " + toString(Kernels.takeError()));
  if (ListAot || AotPTX)
    return showAot(**Bin);
  if (Error E = registerDeviceLinks(**Bin))
    return fail(InputFile + ": " + toString(std::move(E)));

  if (KernelName.empty()) {
    for (size_t I = 0; I < Kernels->size(); ++I) {
      const KernelBlob &K = (*Kernels)[I];
      outs() << kernelLabel(*Kernels, I) << "  " << K.PrettyName << "  ("
             << K.NumParams << " parameters, " << K.StageSites.size()
             << " stage sites)";
      // The blob's traits, which decide how the back ends launch it.
      SmallVector<StringRef, 3> Traits;
      if (K.Traits.Synchronizes)
        Traits.push_back("barriers");
      if (K.Traits.SyncsGrid)
        Traits.push_back("grid barrier");
      if (K.Traits.UsesDeviceState)
        Traits.push_back("device state");
      if (!Traits.empty())
        outs() << "  [" << join(Traits, ", ") << "]";
      outs() << "\n";
      if (!K.PointerSlots.empty()) {
        outs() << "  pointer slots (--views):";
        ListSeparator Sep(",");
        for (const PointerSlot &P : K.PointerSlots)
          outs() << Sep
                 // Numbered as launch errors number them: arguments from 1.
                 << (P.Param ? " argument " + utostr(P.Param) : " capture")
                 << "+" << P.Offset;
        outs() << "\n";
      }
      for (size_t S = 0; S < K.StageSites.size(); ++S)
        outs() << "  stage " << S << ": line " << K.StageSites[S].Line << ":"
               << K.StageSites[S].Column << ", "
               << stageTypeName(K.StageSites[S]) << "\n";
    }
    return 0;
  }
  auto Found = findKernel(*Kernels, KernelName, InputFile);
  if (!Found)
    return fail(toString(Found.takeError()));
  const KernelBlob *K = *Found;

  bool Specialize = !Stages.empty() || Grid.getNumOccurrences() ||
                    Block.getNumOccurrences() ||
                    SharedBytes.getNumOccurrences() ||
                    Views.getNumOccurrences() || Diff || Resources;
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
  if (Error E = parseExtents("grid", Grid, Spec.Config.grid))
    return fail(toString(std::move(E)));
  if (Error E = parseExtents("block", Block, Spec.Config.block))
    return fail(toString(std::move(E)));
  if (Error E = checkBlock(Block, Spec.Config.block))
    return fail(toString(std::move(E)));
  Spec.Config.setSharedBytes(SharedBytes);
  Spec.FoldSharedBytes = SharedBytes.getNumOccurrences();
  Spec.Config.setFastMath(FastMath);
  std::vector<SlotFact> Facts;
  if (Views.getNumOccurrences()) {
    auto Parsed = parseLaunchFacts(Views, K->PointerSlots.size());
    if (!Parsed)
      return fail("--views " + toString(Parsed.takeError()));
    Facts = std::move(*Parsed);
    Spec.Facts = Facts;
  }
  rt::JitOptions Opts;
  Opts.Arch = Arch;
  Opts.Quick = Tier0;
  auto Out = rt::compileKernel(*K, Spec, Opts, PrintIR);
  if (!Out)
    return fail(toString(Out.takeError()));
  if (Resources) {
    auto R = measurePtxResources(Out->PTX, Arch, K->Name);
    if (!R)
      return fail(K->Name + ": " + toString(R.takeError()));
    const uint32_t *B = Spec.Config.block;
    outs() << K->Name << " (" << K->PrettyName << ")\n"
           << formatPtxResources(*R, Arch, uint64_t(B[0]) * B[1] * B[2],
                                 SharedBytes);
    return 0;
  }
  if (ShowSource) {
    if (Error E = printPtxWithSource(Out->PTX, outs()))
      return fail(K->Name + ": " + toString(std::move(E)));
    if (Error E = printSassWithSource(Out->PTX, Arch, outs()))
      return fail(K->Name + ": " + toString(std::move(E)));
    return 0;
  }
  if (!Diff) {
    outs() << (PrintIR ? Out->OptimizedIR : Out->PTX);
    return 0;
  }
  rt::Specialization Unfolded;
  Unfolded.Fold = false;
  Unfolded.Config.setFastMath(FastMath);
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
