//===- AotCompile.cpp - Compile a unit's generic kernels ahead of time ----===//
#include "aot/AotCompile.h"
#include "aot/AotObject.h"
#include "aot/CudaToolkit.h"
#include "aot/JoinPtx.h"
#include "aot/LibDevice.h"
#include "aot/WorkerTimeTrace.h"
#include "formats/AotImage.h"
#include "formats/KernelBlob.h"
#include "transforms/CaptureInMemory.h"
#include "transforms/DeviceCodegen.h"
#include "transforms/DeviceGlobals.h"
#include "transforms/DeviceOptimizer.h"
#include "transforms/GenericKernel.h"
#include "transforms/LaunchFacts.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

using namespace llvm;

#define DEBUG_TYPE "mstage-aot"

STATISTIC(NumImagesEmbedded, "Ahead-of-time images embedded");
STATISTIC(NumCubins, "Cubins that ptxas made for the generic code");
STATISTIC(NumArchsFailed, "Architectures without ahead-of-time code");
STATISTIC(NumDisjointEntries, "Kernels given an entry for disjoint pointers");

namespace mstage {
namespace {

// ptxas as the runtime finds it (runtime/cuda/CudaTools.cpp).
PtxasChoice findPtxas() {
  const char *Env = std::getenv("MSTAGE_PTXAS");
  return choosePtxas(Env ? Env : "");
}

// MSTAGE_PTXAS_FAST_COMPILE=min|mid|max, read as the runtime reads it, when
// the compile runs: ptxas's --Ofast-compile level for the generic code too
// (it runs only until the specialization is ready); empty when off. A value
// the runtime would refuse is one warning, and ptxas runs at its default.
std::string ptxasFastCompile() {
  const char *Env = std::getenv("MSTAGE_PTXAS_FAST_COMPILE");
  std::string Level = StringRef(Env ? Env : "").trim().lower();
  if (Level == "min" || Level == "mid" || Level == "max")
    return Level;
  static std::once_flag Warned;
  if (!Level.empty() && Level != "off" && Level != "0")
    std::call_once(Warned, [Env] {
      errs() << "mstage++: warning: MSTAGE_PTXAS_FAST_COMPILE='" << Env
             << "' is not one of off, min, mid or max; ptxas assembles the "
                "ahead-of-time code at its default\n";
    });
  return "";
}

// A warning or note of the ahead-of-time compile, which does not fail the
// user's compile: one line that mstage++'s driver would print.
raw_ostream &report(StringRef Kind) {
  return errs() << "mstage++: " << Kind << ": ";
}

// What went wrong for some of the kernels, on some architectures.
struct Failure {
  std::vector<std::string> Kernels; // pretty names; all kernels when empty
  std::string Reason;
};

struct ArchResult {
  std::string Arch;
  std::string PTX, Cubin;
  std::optional<Failure> Failed;      // no PTX
  std::optional<Failure> CubinFailed; // PTX, but no cubin
};

// Errors that passes report through the context: LLVM's default handler
// would end the compile.
struct CollectErrors : DiagnosticHandler {
  std::string &Errors;
  explicit CollectErrors(std::string &Errors) : Errors(Errors) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Error) {
      raw_string_ostream OS(Errors);
      DiagnosticPrinterRawOStream DP(OS);
      OS << (Errors.empty() ? "" : "; ");
      DI.print(DP);
    }
    return true; // warnings and remarks are not the user's business here
  }
};

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

// Runs ptxas on PTX for Arch; the cubin, or ptxas's complaint. The unit's
// kernels are one module: --split-compile=0 has ptxas assemble them on all
// the cores at once (on 8 kernels of 1,500-2,500 lines, 2.5x less wall time;
// the same code: docs/performance.md). A ptxas that does not know the option
// (before CUDA 12.x) is run again without it.
Expected<std::string> runPtxas(StringRef Ptxas, StringRef PTX, StringRef Arch,
                               StringRef FastCompile, bool Split = true) {
  SmallString<128> PtxPath, CubinPath, LogPath;
  int FD;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage-aot", "ptx", FD, PtxPath))
    return fail("cannot create a temporary file: " + EC.message());
  FileRemover RemovePtx(PtxPath);
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << PTX;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      return fail("cannot write " + PtxPath);
    }
  }
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage-aot", "cubin", CubinPath))
    return fail("cannot create a temporary file: " + EC.message());
  FileRemover RemoveCubin(CubinPath);
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage-aot", "log", LogPath))
    return fail("cannot create a temporary file: " + EC.message());
  FileRemover RemoveLog(LogPath);
  std::string ArchArg = "-arch=" + ptxasArch(PTX, Arch);
  SmallVector<StringRef, 8> Args = {Ptxas, ArchArg};
  if (Split)
    Args.push_back("--split-compile=0");
  std::string FastArg = ("--Ofast-compile=" + FastCompile).str();
  if (!FastCompile.empty())
    Args.push_back(FastArg);
  Args.append({PtxPath, "-o", CubinPath});
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(LogPath),
                                          StringRef(LogPath)};
  std::string ExecError;
  bool ExecFailed = false;
  sys::ProcessInfo PI = sys::ExecuteNoWait(Ptxas, Args, std::nullopt, Redirects,
                                           0, &ExecError, &ExecFailed);
  if (ExecFailed || PI.Pid == sys::ProcessInfo::InvalidPid)
    return fail("cannot run " + Ptxas + ": " + ExecError);
  std::string WaitError;
  sys::ProcessInfo Done = sys::Wait(PI, std::nullopt, &WaitError);
  if (Done.ReturnCode != 0) {
    std::string Log;
    if (auto Buf = MemoryBuffer::getFile(LogPath))
      Log = (*Buf)->getBuffer().trim().str();
    if (Split && StringRef(Log).contains("split-compile"))
      return runPtxas(Ptxas, PTX, Arch, FastCompile, /*Split=*/false);
    // The first line says what; the rest repeats it.
    Log = StringRef(Log).split('\n').first.str();
    if (Log.empty())
      Log = WaitError.empty() ? "exit status " + std::to_string(Done.ReturnCode)
                              : WaitError;
    return fail(Ptxas + " " + ArchArg + " failed: " + Log);
  }
  auto Cubin = MemoryBuffer::getFile(CubinPath, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
  if (!Cubin || (*Cubin)->getBufferSize() == 0)
    return fail(Ptxas + " " + ArchArg + " wrote no cubin");
  return (*Cubin)->getBuffer().str();
}

// Adds K's disjoint entry (disjointEntryName) to M: a copy of its generic
// kernel Generic with each pointer slot in a group of its own; for kernels
// with pointer slots (nothing else gains).
static void addDisjointEntry(Module &M, Function &Generic, const AotKernel &K) {
  if (K.PointerSlots.empty() || K.PointerSlots.size() > SlotFact::NoGroup)
    return;
  ValueToValueMapTy Map;
  Function *Copy = CloneFunction(&Generic, Map);
  Copy->setName(disjointEntryName(K.Name));
  Copy->setLinkage(Generic.getLinkage());
  std::vector<SlotFact> Facts(K.PointerSlots.size());
  for (size_t I = 0; I < Facts.size(); ++I)
    Facts[I].Group = uint8_t(I); // alignment: nothing assumed
  applyLaunchFacts(*Copy, K.PointerSlots, Facts);
  ++NumDisjointEntries;
}

// One kernel's generic code, in a context of its own, so that the unit's
// kernels optimize and generate code on threads at once (one module of all
// of them took one thread: docs/compiling.md).
struct KernelUnit {
  LLVMContext Ctx;
  std::string Errors; // what passes reported through Ctx
  std::unique_ptr<TargetMachine> TM;
  std::unique_ptr<Module> M;
  std::string Label; // what its time-trace events name
  std::string PTX;
  std::optional<Failure> Failed;
  bool Debug = false; // a -g -O0 unit's: unoptimized, NVPTX at -O0
};

// LLVM ends the process on a fatal error (NVPTX meeting an operation it
// cannot select) once the handler returns, and clang's handler also reports
// it as the compile's error and removes the output. In an ahead-of-time
// compile the handler jumps back to that compile's CrashRecoveryContext
// instead; elsewhere it does what clang's does. Installed while the plugin
// is loaded (clang's handler cannot be chained: LLVM does not expose it).
thread_local bool InAotCompile = false;
thread_local std::string AotFatalError;

void onFatalError(void *, const char *Reason, bool GenCrashDiag) {
  if (CrashRecoveryContext *CRC = CrashRecoveryContext::GetCurrent();
      CRC && InAotCompile) {
    AotFatalError = Reason;
    CRC->HandleExit(1);
  }
  errs() << "fatal error: error in backend: " << Reason << "\n";
  sys::RunInterruptHandlers();
  sys::Process::Exit(GenCrashDiag ? 70 : 1);
}

// Runs Work on *U, where a fatal error in LLVM is U's failure. What an
// interrupted compile built is leaked (its state is not trusted): U becomes
// a unit that holds only the failure.
void runContained(std::unique_ptr<KernelUnit> &U, function_ref<void()> Work) {
  assert(!InAotCompile && "one ahead-of-time compile per thread at a time");
  InAotCompile = true;
  CrashRecoveryContext CRC;
  bool Finished = CRC.RunSafely(Work);
  InAotCompile = false;
  if (Finished)
    return;
  (void)U.release();
  U = std::make_unique<KernelUnit>();
  U->Failed = Failure{{},
                      "LLVM cannot compile it: " +
                          StringRef(AotFatalError).split('\n').first.str()};
}

// K's generic form for Arch, optimized as the JIT optimizes it.
void optimizeKernel(KernelUnit &U, const AotKernel &K,
                    const std::string &Arch) {
  TimeTraceScope Scope("mstage AOT optimize", K.PrettyName);
  U.Label = K.PrettyName;
  U.Ctx.setDiagnosticHandler(std::make_unique<CollectErrors>(U.Errors));
  auto TM = createNVPTXTargetMachine(Arch);
  if (!TM) {
    U.Failed = Failure{{}, toString(TM.takeError())};
    return;
  }
  U.TM = std::move(*TM);
  auto ModOrErr = parseBitcodeFile(MemoryBufferRef(K.Bitcode, K.Name), U.Ctx);
  if (!ModOrErr) {
    U.Failed = Failure{{K.PrettyName}, toString(ModOrErr.takeError())};
    return;
  }
  U.M = std::move(*ModOrErr);
  if (Error E = makeGenericKernel(*U.M, K.Name, K.SiteSizes)) {
    U.Failed = Failure{{K.PrettyName}, toString(std::move(E))};
    return;
  }
  if (Function *F = U.M->getFunction(K.Name))
    addDisjointEntry(*U.M, *F, K);
  // Parameters over the limit go to memory, as in the specialized code.
  for (std::string Name : {K.Name, disjointEntryName(K.Name)})
    if (Function *F = U.M->getFunction(Name)) {
      uint64_t Staged = stagedParamSize(K.SiteSizes);
      auto Moved =
          moveLargeParams(*F, Arch, Staged, F->arg_size() - (Staged ? 1 : 0));
      if (!Moved) {
        U.Failed = Failure{{K.PrettyName}, toString(Moved.takeError())};
        return;
      }
    }
  // A unit built with -g at -O0: unoptimized, with DWARF; ptxas compiles
  // such PTX (".target sm_XY, debug") as with -g.
  U.Debug = K.DebugAtO0;
  if (Error E =
          optimizeDeviceCode(*U.M, *U.TM, libdeviceBitcode(),
                             /*FastMath=*/false, /*Quick=*/false, U.Debug))
    U.Failed = Failure{{}, toString(std::move(E))};
}

void emitKernel(KernelUnit &U) {
  TimeTraceScope Scope("mstage AOT NVPTX codegen", U.Label);
  U.TM->setOptLevel(U.Debug ? CodeGenOptLevel::None
                            : CodeGenOptLevel::Aggressive);
  Expected<std::string> PTX = emitPTX(*U.M, *U.TM);
  if (!PTX)
    U.Failed = Failure{{}, toString(PTX.takeError())};
  else
    U.PTX = std::move(*PTX);
}

// The kernels' PTX become one module's: their local definitions (helpers,
// libdevice's functions, string constants) must not share a name, and an
// unnamed one would be given the same name in each. Renames only where an
// earlier kernel defines the name, so that one kernel's code is its own.
void renameSharedLocals(MutableArrayRef<std::unique_ptr<KernelUnit>> Units) {
  StringSet<> Defined;
  for (size_t I = 0; I < Units.size(); ++I) {
    SmallVector<GlobalValue *, 16> Locals;
    for (GlobalValue &GV : Units[I]->M->global_values())
      if (GV.hasLocalLinkage() && !GV.isDeclaration())
        Locals.push_back(&GV);
    for (GlobalValue *GV : Locals) {
      if (!GV->hasName())
        GV->setName("mstage_aot_anon");
      if (!Defined.contains(GV->getName()))
        continue;
      std::string Base = (GV->getName() + ".k" + Twine(I)).str(), Name = Base;
      for (unsigned N = 1;
           Defined.contains(Name) || Units[I]->M->getNamedValue(Name); ++N)
        Name = Base + "." + std::to_string(N);
      GV->setName(Name);
    }
    for (GlobalValue *GV : Locals)
      Defined.insert(GV->getName());
  }
}

// With debug information beyond line directives (-g -O0: DWARF sections),
// each kernel's PTX would carry sections of its own, which joinPtx cannot
// join, and a device global (DeviceGlobals.h) would be defined in each
// kernel's PTX, which ptxas refuses: the optimized kernels are linked into
// the first one's module instead (the linker keeps one of the weak globals),
// which then generates all the code (on one thread). Line directives alone
// (.file/.loc, what other builds keep) are joined.
bool needsOneModule(const Module &M) {
  return any_of(M.debug_compile_units(),
                [](DICompileUnit *CU) {
                  return CU->getEmissionKind() !=
                             DICompileUnit::DebugDirectivesOnly &&
                         CU->getEmissionKind() != DICompileUnit::NoDebug;
                }) ||
         any_of(M.global_values(),
                [](const GlobalValue &GV) { return isDeviceGlobal(GV); });
}

Error linkUnits(std::vector<std::unique_ptr<KernelUnit>> &Units) {
  TimeTraceScope Scope("mstage AOT link");
  KernelUnit &First = *Units.front();
  for (size_t I = 1; I < Units.size(); ++I) {
    SmallString<0> Bitcode;
    raw_svector_ostream OS(Bitcode);
    WriteBitcodeToFile(*Units[I]->M, OS);
    auto M = parseBitcodeFile(MemoryBufferRef(Bitcode, "kernel"), First.Ctx);
    if (!M)
      return M.takeError();
    if (Linker::linkModules(*First.M, std::move(*M)))
      return fail("linking the kernels failed: " + First.Errors);
  }
  Units.resize(1);
  First.Label = "all kernels";
  return Error::success();
}

// Compiles every kernel's generic form to one PTX module for Arch: each
// kernel optimized and generated on a thread of the pool (Threads: 0 for
// all the cores, 1 for one at a time, which makes the same PTX).
ArchResult compileForArch(const std::vector<AotKernel> &Kernels,
                          const std::string &Arch, unsigned Threads,
                          WorkerTimeTrace Trace) {
  ArchResult R;
  R.Arch = Arch;
  std::vector<std::unique_ptr<KernelUnit>> Units;
  for (size_t I = 0; I < Kernels.size(); ++I)
    Units.push_back(std::make_unique<KernelUnit>());
  DefaultThreadPool Pool(hardware_concurrency(Threads));
  // Runs Step on each unit not yet failed, at once; false after the first
  // failure, in the kernels' order.
  auto EachKernel = [&](auto Step) -> bool {
    for (size_t I = 0; I < Units.size(); ++I)
      Pool.async([&, I] {
        WorkerTimeTrace::Scope Traced(Trace);
        if (!Units[I]->Failed)
          runContained(Units[I], [&] { Step(*Units[I], I); });
      });
    Pool.wait();
    for (const std::unique_ptr<KernelUnit> &U : Units) {
      if (!U->Failed && !U->Errors.empty())
        U->Failed = Failure{{}, "LLVM cannot compile it: " + U->Errors};
      if (U->Failed) {
        R.Failed = U->Failed;
        return false;
      }
    }
    return true;
  };
  if (!EachKernel([&](KernelUnit &U, size_t I) {
        optimizeKernel(U, Kernels[I], Arch);
      }))
    return R;
  if (any_of(Units, [](const std::unique_ptr<KernelUnit> &U) {
        return needsOneModule(*U->M);
      })) {
    if (Error E = linkUnits(Units)) {
      R.Failed = Failure{{}, toString(std::move(E))};
      return R;
    }
  } else {
    renameSharedLocals(Units);
  }
  if (!EachKernel([](KernelUnit &U, size_t) { emitKernel(U); }))
    return R;
  SmallVector<StringRef, 8> Modules;
  for (const std::unique_ptr<KernelUnit> &U : Units)
    Modules.push_back(U->PTX);
  Expected<std::string> PTX = joinPtx(Modules);
  if (!PTX) {
    R.Failed = Failure{{}, toString(PTX.takeError())};
    return R;
  }
  R.PTX = std::move(*PTX);
  return R;
}

// ptxas makes R's cubin from PTX (R's own, or the lowest target's).
void assemble(ArchResult &R, StringRef PTX, StringRef Ptxas,
              StringRef FastCompile) {
  TimeTraceScope Scope("mstage AOT ptxas", R.Arch);
  Expected<std::string> Cubin = runPtxas(Ptxas, PTX, R.Arch, FastCompile);
  if (Cubin) {
    R.Cubin = std::move(*Cubin);
    ++NumCubins;
  } else
    R.CubinFailed = Failure{{}, toString(Cubin.takeError())};
}

// One unit's compile, on a thread of its own. NVPTX generates the PTX of the
// lowest target once, and ptxas makes every target's cubin from it, one
// ptxas per target at once: the PTX of a higher target differs from it only
// in its header (docs/performance.md), so a second code generation would
// make the same code again.
struct AotJob {
  std::vector<AotKernel> Kernels;
  std::vector<std::string> Archs;
  PtxasChoice Ptxas;
  std::string FastCompile; // ptxas's --Ofast-compile level, if any
  unsigned Threads = 0;    // for the kernels' LLVM work; 0: all the cores
  WorkerTimeTrace Trace;
  uint64_t KernelsHash = 0;
  std::vector<ArchResult> Results;
  // The target whose PTX every cubin is made from, and the one PTX that is
  // embedded; empty when each target has its own.
  std::string SharedPtxArch;
  std::thread Thread;

  ~AotJob() { join(); }
  void join() {
    if (Thread.joinable())
      Thread.join();
  }
  void run();
};

void AotJob::run() {
  WorkerTimeTrace::Scope Traced(Trace);
  size_t Low = 0;
  for (size_t I = 1; I < Archs.size(); ++I)
    if (archNumber(Archs[I]) < archNumber(Archs[Low]))
      Low = I;
  Results[Low] = compileForArch(Kernels, Archs[Low], Threads, Trace);
  if (!Results[Low].Failed) {
    SharedPtxArch = Archs[Low];
    for (size_t I = 0; I < Archs.size(); ++I)
      Results[I].Arch = Archs[I];
  } else {
    // A kernel may need what only a higher target has: each target then
    // generates its own code, as it fails or succeeds alone.
    for (size_t I = 0; I < Archs.size(); ++I)
      if (I != Low)
        Results[I] = compileForArch(Kernels, Archs[I], Threads, Trace);
  }
  if (Ptxas.Path.empty())
    return;
  std::vector<std::thread> Assemblers;
  for (ArchResult &R : Results) {
    if (R.Failed)
      continue;
    StringRef PTX =
        SharedPtxArch.empty() ? StringRef(R.PTX) : StringRef(Results[Low].PTX);
    Assemblers.emplace_back([this, &R, PTX] {
      WorkerTimeTrace::Scope Traced(Trace);
      assemble(R, PTX, Ptxas.Path, FastCompile);
    });
  }
  for (std::thread &T : Assemblers)
    T.join();
}

// The jobs started and not yet embedded, by module. A job whose module
// never reaches AotEmbedPass is joined when the map is destroyed.
std::map<const Module *, std::unique_ptr<AotJob>> &pendingJobs() {
  static std::map<const Module *, std::unique_ptr<AotJob>> Jobs;
  return Jobs;
}

// One line for all failures: "kernel 'a' (sm_80, sm_90): why".
std::string describeFailures(const AotJob &Job, bool Cubins) {
  // Same kernels and reason on several architectures: said once.
  std::vector<std::pair<Failure, std::vector<std::string>>> Groups;
  for (const ArchResult &R : Job.Results) {
    const std::optional<Failure> &F = Cubins ? R.CubinFailed : R.Failed;
    if (!F)
      continue;
    auto It = find_if(Groups, [&](const auto &G) {
      return G.first.Kernels == F->Kernels && G.first.Reason == F->Reason;
    });
    if (It == Groups.end())
      Groups.push_back({*F, {R.Arch}});
    else
      It->second.push_back(R.Arch);
  }
  std::string Out;
  for (auto &[F, Archs] : Groups) {
    std::vector<std::string> Names = F.Kernels;
    if (Names.empty())
      for (const AotKernel &K : Job.Kernels)
        Names.push_back(K.PrettyName);
    std::string Quoted;
    for (const std::string &N : Names)
      Quoted += (Quoted.empty() ? "'" : ", '") + N + "'";
    Out += (Out.empty() ? "" : "; ") + std::string("kernel") +
           (Names.size() > 1 ? "s " : " ") + Quoted + " (" + join(Archs, ", ") +
           "): " + StringRef(F.Reason).trim().str();
  }
  return Out;
}

} // namespace

void startAotCompile(Module &M, std::vector<AotKernel> Kernels,
                     std::vector<std::string> Archs, unsigned Threads) {
  if (Archs.empty() || Kernels.empty())
    return;
  auto Job = std::make_unique<AotJob>();
  Job->Kernels = std::move(Kernels);
  Job->Archs = std::move(Archs);
  Job->Threads = Threads;
  Job->Ptxas = findPtxas();
  if (!Job->Ptxas.Path.empty())
    Job->FastCompile = ptxasFastCompile();
  SmallVector<uint64_t, 8> Hashes;
  for (const AotKernel &K : Job->Kernels)
    Hashes.push_back(hashBitcode(K.Bitcode));
  Job->KernelsHash = hashAotKernels(Hashes);
  Job->Results.resize(Job->Archs.size());
  static std::once_flag Installed;
  std::call_once(Installed, [] {
    CrashRecoveryContext::Enable();
    remove_fatal_error_handler();
    install_fatal_error_handler(onFatalError);
  });
  Job->Trace = WorkerTimeTrace::ofCaller();
  Job->Thread = std::thread([J = Job.get()] { J->run(); });
  pendingJobs()[&M] = std::move(Job);
}

// The images of a finished Job, a cubin per architecture and one PTX (newer
// GPUs compile it): the lowest target's that every cubin was made from, or
// else the highest target's; without ptxas, each target's own PTX. What
// failed is one warning line.
static std::vector<std::string> collectImages(const AotJob &Job) {
  assert(Job.Results.size() == Job.Archs.size() &&
         "one result per architecture");
  unsigned Highest = 0;
  for (const std::string &A : Job.Archs)
    Highest = std::max(Highest, archNumber(A));
  bool HavePtxas = !Job.Ptxas.Path.empty();
  bool Shared = !Job.SharedPtxArch.empty();
  std::vector<std::string> Images, PtxImages;
  for (const ArchResult &R : Job.Results) {
    if (R.Failed) {
      ++NumArchsFailed;
      continue;
    }
    AotImage Image;
    Image.Arch = R.Arch;
    Image.KernelsHash = Job.KernelsHash;
    for (const AotKernel &K : Job.Kernels)
      Image.Kernels.push_back(K.Name);
    if (!R.Cubin.empty()) {
      Image.Kind = AotKind::Cubin;
      Image.Payload = R.Cubin;
      Images.push_back(writeAotImage(Image));
    }
    if (!R.PTX.empty() &&
        (Shared || !HavePtxas || archNumber(R.Arch) == Highest)) {
      // With its NUL, so that the driver can load it where it lies.
      std::string PTX = R.PTX + '\0';
      Image.Kind = AotKind::Ptx;
      Image.Payload = PTX;
      PtxImages.push_back(writeAotImage(Image));
    }
  }
  append_range(Images, PtxImages);

  std::string Failed = describeFailures(Job, /*Cubins=*/false);
  if (!Failed.empty())
    report("warning") << "no ahead-of-time code for " << Failed
                      << "; the first launches wait for the JIT\n";
  std::string NoCubin = describeFailures(Job, /*Cubins=*/true);
  if (!NoCubin.empty())
    report("warning") << "no ahead-of-time cubin for " << NoCubin
                      << "; the embedded PTX is used\n";
  static bool Noted = false;
  if (!HavePtxas && !Noted) {
    Noted = true;
    report("note") << Job.Ptxas.Why
                   << "; kernels' ahead-of-time code is embedded as PTX\n";
  }
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Images.size() << " images for "
                    << Job.Kernels.size() << " kernels\n");
  NumImagesEmbedded += Images.size();
  return Images;
}

// The module record's initializer, when it has the image fields.
static ConstantStruct *recordInit(Module &M) {
  GlobalVariable *Record = M.getNamedGlobal(ModuleRecordName);
  auto *Init = Record
                   ? dyn_cast_or_null<ConstantStruct>(Record->getInitializer())
                   : nullptr;
  return Init && Init->getNumOperands() >= 5 ? Init : nullptr;
}

// Points M's record at Count images of Table.
static void setRecordImages(Module &M, unsigned Count, GlobalVariable *Table) {
  ConstantStruct *Init = recordInit(M);
  assert(Init && "the caller checked the record");
  SmallVector<Constant *, 8> Fields;
  for (const Use &Op : Init->operands())
    Fields.push_back(cast<Constant>(Op.get()));
  Fields[3] = ConstantInt::get(Type::getInt32Ty(M.getContext()), Count);
  Fields[4] = Table;
  M.getNamedGlobal(ModuleRecordName)
      ->setInitializer(ConstantStruct::get(Init->getType(), Fields));
}

// A job whose images go into an object of their own (aot-object=PATH), and
// what that object needs of the host module.
struct DeferredObject {
  std::unique_ptr<AotJob> Job;
  std::string Path;
  Triple TT;
  std::string DataLayout;
  std::string Table;
  unsigned Slots = 0;
};

static std::optional<DeferredObject> &deferredObject() {
  static std::optional<DeferredObject> Deferred;
  return Deferred;
}

// The table's symbol: the same for units whose images are the same (the
// kernels, the targets, ptxas's options), so that their weak definitions
// may stand for one another.
static std::string tableName(const AotJob &Job) {
  std::string Key = utohexstr(Job.KernelsHash) + ";" + join(Job.Archs, ",") +
                    ";" + Job.FastCompile + ";" + Job.Ptxas.Path;
  return "__mstage_aot_images_" + utohexstr(xxh3_64bits(Key), true, 16);
}

PreservedAnalyses AotEmbedPass::run(Module &M, ModuleAnalysisManager &) {
  auto It = pendingJobs().find(&M);
  if (It == pendingJobs().end())
    return PreservedAnalyses::all();
  std::unique_ptr<AotJob> Job = std::move(It->second);
  pendingJobs().erase(It);
  if (!ObjectPath.empty() && recordInit(M) &&
      isJoinableTarget(M.getTargetTriple())) {
    // The host code generation runs while the job finishes: the record
    // names a table of a fixed size that the other object defines.
    assert(!deferredObject() && "one host module per compile");
    DeferredObject &D = deferredObject().emplace();
    D.Slots = 2 * Job->Archs.size(); // a cubin and a PTX per target at most
    D.Table = tableName(*Job);
    D.Path = ObjectPath;
    D.TT = M.getTargetTriple();
    D.DataLayout = M.getDataLayoutStr();
    setRecordImages(M, D.Slots, declareAotImageTable(M, D.Slots, D.Table));
    D.Job = std::move(Job);
    return PreservedAnalyses::none();
  }
  {
    // Where the host compile waits for the generic code (none where the
    // ahead-of-time compile ran beside the host optimization to its end).
    TimeTraceScope Scope("mstage AOT wait");
    Job->join();
  }
  std::vector<std::string> Images = collectImages(*Job);
  if (Images.empty() || !recordInit(M))
    return PreservedAnalyses::all();
  setRecordImages(M, Images.size(),
                  addAotImageTable(M, Images, Images.size(),
                                   "__mstage_aot_images",
                                   GlobalValue::PrivateLinkage));
  return PreservedAnalyses::none();
}

Error writeDeferredAotObject() {
  std::optional<DeferredObject> D = std::move(deferredObject());
  deferredObject().reset();
  if (!D)
    return Error::success();
  {
    // Where the compile waits for the generic code after the host object.
    TimeTraceScope Scope("mstage AOT wait");
    D->Job->join();
  }
  std::vector<std::string> Images = collectImages(*D->Job);
  TimeTraceScope Scope("mstage AOT object");
  return writeAotObject(D->Path, D->TT, DataLayout(D->DataLayout), Images,
                        D->Slots, D->Table);
}

} // namespace mstage
