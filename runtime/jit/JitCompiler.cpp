//===- JitCompiler.cpp - Specialize a kernel's bitcode and emit PTX -------===//
#include "jit/JitCompiler.h"
#include "aot/LibDevice.h"
#include "formats/AotImage.h"
#include "jit/DeviceLibrary.h"
#include "jit/FastMath.h"
#include "plugin/Passes.h"
#include "support/Elapsed.h"
#include "support/KeptStatics.h"
#include "support/RuntimeFailure.h"
#include "support/Settings.h"
#include "transforms/CaptureInMemory.h"
#include "transforms/DeviceCodegen.h"
#include "transforms/DeviceOptimizer.h"
#include "transforms/DeviceRetarget.h"
#include "transforms/DeviceWgmma.h"
#include "transforms/SmallCopies.h"

#include "support/Warning.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <cassert>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <vector>

using namespace llvm;

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

namespace mstage::rt {
namespace {

Error jitError(const KernelBlob &K, const Twine &Msg) {
  return withKernel(failure(Msg), K.PrettyName);
}

// LLVM's options for its tools, which print something instead of setting it
// (-version exits the program; -help crashes it, as the JIT has no command
// line for it to describe).
bool printsAndExits(StringRef Name) {
  return Name.starts_with("help") || Name == "version" ||
         Name == "print-options" || Name == "print-all-options";
}

// The JIT's defaults for LLVM's loop unroller, then MSTAGE_LLVM_ARGS (an
// expert knob, e.g. "-unroll-partial-threshold=300"), which overrides them.
// Staged values and the folded launch configuration give loops known trip
// counts, and a GPU hides latency through independent work in a thread, so
// the JIT unrolls more than LLVM's CPU-tuned defaults (docs/performance.md):
//  - the trip count of a grid-stride loop divides by a constant stride,
//    which is over the default SCEV expansion budget of 4 and so blocks
//    runtime unrolling: 16 lets it through;
//  - NVPTX allows a partially unrolled loop 75 instructions: 600 unrolls a
//    small body 8-16 times (nvcc: 4);
//  - the leftover iterations of a runtime-unrolled loop run first (prolog),
//    not at the end of every thread, where they would slow the kernel's
//    drain;
//  - shared, constant and local memory take 32-bit addresses, as nvcc's
//    code does: 64-bit ones cost a 64-bit multiply-add per shared access
//    (the Blelloch scan: 171 64-bit registers against 20).
// Options are set through the registry, not by parsing a command line: a
// tool that links the JIT (mstage-ptx) has required options of its own in
// the same registry. Returns what is wrong with MSTAGE_LLVM_ARGS, or "".
std::string setLlvmOptions() {
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 8> Args;
  cl::TokenizeGNUCommandLine(llvmArgsSetting(), Saver, Args);
  auto &Registered = cl::getRegisteredOptions();
  // Sets "-name=value" (or "-name"); false when no such option takes it.
  auto Set = [&](StringRef Arg) {
    auto [Name, Value] = Arg.ltrim('-').split('=');
    auto It = Registered.find(Name);
    return It != Registered.end() && !It->second->addOccurrence(1, Name, Value);
  };
  auto NameOf = [](StringRef Arg) { return Arg.ltrim('-').split('=').first; };
  for (StringRef Default :
       {"scev-cheap-expansion-budget=16", "unroll-partial-threshold=600",
        "unroll-runtime-epilog=false", "nvptx-short-ptr=true"})
    if (none_of(Args,
                [&](StringRef A) { return NameOf(A) == NameOf(Default); }))
      Set(Default);
  std::string Bad;
  for (StringRef Arg : Args) {
    bool Known = Arg.starts_with("-") && Registered.count(NameOf(Arg));
    if (!Known)
      Bad += " Unknown command line argument '" + Arg.str() + "'.";
    else if (printsAndExits(NameOf(Arg)))
      Bad += " '" + Arg.str() +
             "' is for LLVM's tools: it prints, and may end the program.";
    else if (!Set(Arg))
      Bad += " '" + Arg.str() + "' has a value its option does not take.";
  }
  if (Bad.empty())
    return "";
  return "MSTAGE_LLVM_ARGS='" + llvmArgsSetting() + "' is not valid:" + Bad;
}

// LLVM ends the process on a fatal error (report_fatal_error: NVPTX meeting
// an operation it cannot select, say) once this handler returns. In a
// compile, the handler jumps back to the compile's CrashRecoveryContext
// instead, so that the launch fails with the message. The handler is
// process-wide, but only for the LLVM linked into mstage (its symbols are
// hidden): a program's own LLVM keeps its own.
thread_local std::string FatalError;

void onFatalError(void *, const char *Reason, bool) {
  if (CrashRecoveryContext *CRC = CrashRecoveryContext::GetCurrent()) {
    FatalError = Reason;
    CRC->HandleExit(1);
  }
  warn(Twine("LLVM error outside a kernel compile: ") + Reason);
}

// Errors that passes report through the context (NVPTX on a dynamic alloca
// before sm_52, an inline asm constraint it lacks, ...): LLVM's default
// handler prints them and exits the process.
struct CollectErrors : DiagnosticHandler {
  std::string &Errors;
  explicit CollectErrors(std::string &Errors) : Errors(Errors) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error)
      return false; // printed as before
    raw_string_ostream OS(Errors);
    DiagnosticPrinterRawOStream DP(OS);
    OS << (Errors.empty() ? "" : "; ");
    DI.print(DP);
    return true;
  }
};

std::once_flag InitTargets;
std::string LlvmOptionsError;

// Target machines, one per compile in flight and architecture: a target
// machine is not thread-safe, and LLVM's state is per context otherwise. A
// compile takes one (or makes one) and gives it back, so that the one the
// warm-up made serves the first compile, on whichever thread it runs.
class TargetMachines {
public:
  std::unique_ptr<TargetMachine> take(StringRef Arch) {
    std::lock_guard<std::mutex> G(Lock);
    auto &Free = FreeByArch[Arch.str()];
    if (Free.empty())
      return nullptr;
    std::unique_ptr<TargetMachine> TM = std::move(Free.back());
    Free.pop_back();
    return TM;
  }
  void giveBack(StringRef Arch, std::unique_ptr<TargetMachine> TM) {
    std::lock_guard<std::mutex> G(Lock);
    FreeByArch[Arch.str()].push_back(std::move(TM));
  }
  // Held across fork() (initTargets).
  void lock() { Lock.lock(); }
  void unlock() { Lock.unlock(); }

private:
  std::mutex Lock;
  std::map<std::string, std::vector<std::unique_ptr<TargetMachine>>> FreeByArch;
};

// Never destroyed: compiles may run while the process exits.
TargetMachines &targetMachines() {
  static TargetMachines *TMs = new TargetMachines;
  return *TMs;
}

// Every target machine of the JIT is made under this lock (see below).
std::mutex MakingTargetMachines;

void initTargets() {
  std::call_once(InitTargets, [] {
    // A fork() while a worker makes or lends a target machine would leave
    // the child these locks held by a thread it does not have: its own
    // compiles would wait for them forever.
    auto Release = [] {
      targetMachines().unlock();
      MakingTargetMachines.unlock();
    };
    pthread_atfork(
        [] {
          MakingTargetMachines.lock();
          targetMachines().lock();
        },
        Release, Release);
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    install_fatal_error_handler(onFatalError);
    LlvmOptionsError = setLlvmOptions();
  });
}

// The crash handlers are process-wide: the first compile to start installs
// them and the last to finish removes them, so that none is left without
// them while another finishes.
std::mutex ContainedLock;
unsigned ContainedCompiles = 0;

void enterContained() {
  std::lock_guard<std::mutex> G(ContainedLock);
  if (ContainedCompiles++ == 0)
    CrashRecoveryContext::Enable();
}

void leaveContained() {
  std::lock_guard<std::mutex> G(ContainedLock);
  if (--ContainedCompiles == 0)
    CrashRecoveryContext::Disable();
}

// Runs Compile so that a fatal error or a crash in LLVM ends the compile,
// not the process; returns what happened, or "". The crash handlers
// (SIGSEGV, SIGABRT, ...) are LLVM's only while a compile runs, so that the
// program's own are left alone otherwise. What an interrupted compile built
// (its context and module) is leaked: LLVM's state in it is not to be
// trusted.
std::string runContained(function_ref<void()> Compile) {
  enterContained();
  CrashRecoveryContext CRC;
  FatalError.clear();
  bool Finished = CRC.RunSafely(Compile);
  leaveContained();
  if (Finished)
    return "";
  if (CRC.RetCode > 128) // a signal
    return std::string("LLVM crashed (") + strsignal(CRC.RetCode - 128) + ")";
  // The first line: "Cannot select" goes on with the DAG, node by node.
  return StringRef(FatalError).split('\n').first.str();
}

// A target machine for Arch; with ForDebug, for a kernel built with -g at
// -O0, with 64-bit pointers to local memory: NVPTX (LLVM 22) fails on
// unoptimized locals (allocas no pass promoted) with nvptx-short-ptr, the
// JIT's default ("Copy one register into another with a different width",
// also from llc). A target machine reads the option when it is made, so
// the option is off for that moment.
Expected<std::unique_ptr<TargetMachine>> makeTargetMachine(StringRef Arch,
                                                           bool ForDebug) {
  std::lock_guard<std::mutex> G(MakingTargetMachines);
  if (!ForDebug)
    return createNVPTXTargetMachine(Arch);
  auto *ShortPointers = static_cast<cl::opt<bool> *>(
      cl::getRegisteredOptions().lookup("nvptx-short-ptr"));
  assert(ShortPointers && "NVPTX registers nvptx-short-ptr");
  bool Was = ShortPointers->getValue();
  ShortPointers->setValue(false);
  auto TM = createNVPTXTargetMachine(Arch);
  ShortPointers->setValue(Was);
  return TM;
}

// A target machine for Arch, for one compile: given back when it finishes,
// dropped (leaked, not destroyed) when LLVM crashed in it, as its state is
// then not to be trusted.
class BorrowedTargetMachine {
public:
  BorrowedTargetMachine(StringRef Arch, bool ForDebug = false)
      : Arch(Arch), Key(ForDebug ? Arch.str() + " debug" : Arch.str()),
        ForDebug(ForDebug) {}
  ~BorrowedTargetMachine() {
    if (TM && !Broken)
      targetMachines().giveBack(Key, std::move(TM));
    else
      (void)TM.release();
  }
  Expected<TargetMachine *> get() {
    initTargets();
    if (!LlvmOptionsError.empty())
      return createStringError(inconvertibleErrorCode(), LlvmOptionsError);
    if (!TM)
      TM = targetMachines().take(Key);
    if (!TM) {
      auto TMOrErr = makeTargetMachine(Arch, ForDebug);
      if (!TMOrErr)
        return TMOrErr.takeError();
      TM = std::move(*TMOrErr);
    }
    return TM.get();
  }
  void markBroken() { Broken = true; }
  // Compiles for Arch instead (targetArchFor), before get().
  void setArch(StringRef NewArch) {
    assert(!TM && "the architecture is chosen before the target machine");
    if (NewArch == Arch)
      return;
    Key = Key.replace(0, Arch.size(), NewArch.str());
    Arch = NewArch.str();
  }

private:
  std::string Arch, Key; // Key: the pool's, which tells debug ones apart
  bool ForDebug;
  std::unique_ptr<TargetMachine> TM;
  bool Broken = false;
};

// Runs mstage's own passes on M: they use no analyses, so the managers hold
// only what a pass manager and its function adaptor need.
void runMStagePasses(ModulePassManager &MPM, Module &M) {
  FunctionAnalysisManager FAM;
  ModuleAnalysisManager MAM;
  FAM.registerPass([] { return PassInstrumentationAnalysis(); });
  MAM.registerPass([] { return PassInstrumentationAnalysis(); });
  FAM.registerPass([&] { return ModuleAnalysisManagerFunctionProxy(MAM); });
  MAM.registerPass([&] { return FunctionAnalysisManagerModuleProxy(FAM); });
  MPM.run(M, MAM);
}

// K's module, with the device functions of other units it calls.
Expected<std::unique_ptr<Module>> readKernelModule(const KernelBlob &K,
                                                   LLVMContext &Ctx) {
  auto ModOrErr = parseBitcodeFile(MemoryBufferRef(K.Bitcode, K.Name), Ctx);
  if (!ModOrErr)
    return jitError(K, "embedded bitcode is unreadable: " +
                           toString(ModOrErr.takeError()));
  std::unique_ptr<Module> M = std::move(*ModOrErr);
  if (Error E = linkDeviceExports(*M))
    return jitError(K, toString(std::move(E)));
  return std::move(M);
}

// compileKernel, in a CrashRecoveryContext.
Expected<JitOutput> compileContained(const KernelBlob &K,
                                     const Specialization &Spec,
                                     const JitOptions &Opts, bool WantIR,
                                     BorrowedTargetMachine &Borrowed) {
  auto T0 = std::chrono::steady_clock::now();
  LLVMContext Ctx;
  std::string LlvmErrors;
  Ctx.setDiagnosticHandler(std::make_unique<CollectErrors>(LlvmErrors));
  auto CompileError = [&] {
    return jitError(K, "LLVM cannot compile it for " + Opts.Arch + ": " +
                           StringRef(LlvmErrors).rtrim());
  };
  Expected<std::unique_ptr<Module>> Read = readKernelModule(K, Ctx);
  double ReadIrMs = msSince(T0);
  if (!Read)
    return Read.takeError();
  std::unique_ptr<Module> M = std::move(*Read);
  assert(M->getFunction(K.Name) && !M->getFunction(K.Name)->isDeclaration() &&
         "a kernel blob's bitcode defines its kernel");
  // sm_90a for a kernel that uses wgmma on an sm_90 device.
  Borrowed.setArch(targetArchFor(*M, Opts.Arch));
  Expected<TargetMachine *> TM = Borrowed.get();
  if (!TM)
    return jitError(K, toString(TM.takeError()));
  if (Spec.Fold && Spec.StagedValues.size() != K.StageSites.size())
    return jitError(K, "got " + Twine(Spec.StagedValues.size()) +
                           " staged values for " + Twine(K.StageSites.size()) +
                           " stage sites");
  bool Facts = Spec.Fold && !Spec.Facts.empty();

  // The passes that `opt -passes=mstage-...` runs (passes/plugin/Passes.h), in
  // the JIT's order; their errors come back here, to be named after the kernel.
  Error PassFailure = Error::success();
  auto Choice = [&](auto Opts) {
    Opts.Kernel = K.Name;
    Opts.Failure = &PassFailure;
    return Opts;
  };
  ModulePassManager Before;
  if (Spec.Fold) {
    SpecializeOptions Specialize = Choice(SpecializeOptions());
    Specialize.StagedValues.assign(Spec.StagedValues.begin(),
                                   Spec.StagedValues.end());
    Specialize.Config = Spec.Config;
    Specialize.FoldSharedBytes = Spec.FoldSharedBytes;
    Before.addPass(KernelSpecializationPass(std::move(Specialize)));
  }
  LaunchFactsOptions FactsOpts = Choice(LaunchFactsOptions());
  if (Facts) {
    FactsOpts.Slots = K.PointerSlots;
    FactsOpts.Given.assign(Spec.Facts.begin(), Spec.Facts.end());
    // The facts mark loads; a struct copy is a memcpy until expanded.
    Before.addPass(createModuleToFunctionPassAdaptor(SmallCopiesPass(K.Name)));
    Before.addPass(LaunchFactsPass(FactsOpts));
  }
  // After the facts, which read pointer slots from the byval parameters;
  // before the optimizer, which folds loads through the moved ones.
  CaptureInMemoryOptions Capture = Choice(CaptureInMemoryOptions());
  Capture.Arch = Opts.Arch;
  Capture.StagedBytes = stagedParamSize(K.StageSites);
  Capture.NumParams = K.NumParams;
  Before.addPass(CaptureInMemoryPass(std::move(Capture)));
  runMStagePasses(Before, *M);
  if (PassFailure)
    return jitError(K, toString(std::move(PassFailure)));

  // The kernel's own code only: libdevice picks its own precision.
  if (Spec.Config.fastMath())
    markFastMath(*M);

  if (Error E =
          optimizeDeviceCode(*M, **TM, libdeviceBitcode(),
                             Spec.Config.fastMath(), Opts.Quick, K.DebugAtO0))
    return jitError(K, toString(std::move(E)) +
                           (LlvmErrors.empty() ? "" : ": ") +
                           StringRef(LlvmErrors).rtrim());
  if (!LlvmErrors.empty())
    return CompileError();
  if (Facts) {
    ModulePassManager After;
    FactsOpts.After = true;
    After.addPass(LaunchFactsPass(std::move(FactsOpts)));
    runMStagePasses(After, *M);
    if (PassFailure)
      return jitError(K, toString(std::move(PassFailure)));
  }
  // After the optimizer, so that nothing of the kernel's moves above it.
  if (Opts.EntryWait) {
    ModulePassManager Wait;
    Wait.addPass(KernelEntryWaitPass(Choice(KernelChoice())));
    runMStagePasses(Wait, *M);
    if (PassFailure)
      return jitError(K, toString(std::move(PassFailure)));
  }
  JitOutput Out;
  Out.ReadIrMs = ReadIrMs;
  Out.OptimizeMs = msSince(T0);
  Out.OptimizeStart = T0;
  if (WantIR) {
    raw_string_ostream OS(Out.OptimizedIR);
    M->print(OS, nullptr);
  }
  auto T1 = std::chrono::steady_clock::now();
  // The target machine is shared: its level is set for each compile. Tier
  // 0 at -O0: a third of -O2's codegen time for Listing 4, and ptxas takes
  // its PTX as quickly (docs/performance.md).
  // A -g -O0 kernel at -O0 too: its variables stay where the DWARF says.
  (*TM)->setOptLevel(Opts.Quick || K.DebugAtO0 ? CodeGenOptLevel::None
                                               : CodeGenOptLevel::Aggressive);
  Expected<std::string> PTX = emitPTX(*M, **TM);
  if (!PTX)
    return jitError(K, toString(PTX.takeError()));
  if (!LlvmErrors.empty())
    return CompileError();
  Out.PTX = std::move(*PTX);
  Out.CodegenMs = msSince(T1);
  Out.CodegenStart = T1;
  return std::move(Out);
}

// launchFootprint, in a CrashRecoveryContext.
Expected<AccessFootprint> footprintContained(const KernelBlob &K,
                                             const Specialization &Spec,
                                             ArrayRef<StringRef> Params,
                                             BorrowedTargetMachine &Borrowed) {
  LLVMContext Ctx;
  std::string LlvmErrors;
  Ctx.setDiagnosticHandler(std::make_unique<CollectErrors>(LlvmErrors));
  Expected<std::unique_ptr<Module>> Read = readKernelModule(K, Ctx);
  if (!Read)
    return Read.takeError();
  std::unique_ptr<Module> M = std::move(*Read);
  if (Spec.StagedValues.size() != K.StageSites.size())
    return jitError(K, "got " + Twine(Spec.StagedValues.size()) +
                           " staged values for " + Twine(K.StageSites.size()) +
                           " stage sites");
  Expected<TargetMachine *> TM = Borrowed.get();
  if (!TM)
    return jitError(K, toString(TM.takeError()));
  Error PassFailure = Error::success();
  SpecializeOptions Specialize;
  Specialize.Kernel = K.Name;
  Specialize.Failure = &PassFailure;
  Specialize.StagedValues.assign(Spec.StagedValues.begin(),
                                 Spec.StagedValues.end());
  Specialize.Config = Spec.Config;
  ModulePassManager Before;
  Before.addPass(KernelSpecializationPass(std::move(Specialize)));
  runMStagePasses(Before, *M);
  if (PassFailure)
    return jitError(K, toString(std::move(PassFailure)));
  bindParameters(*M->getFunction(K.Name), Params);
  if (Spec.Config.fastMath())
    markFastMath(*M);
  if (Error E = optimizeDeviceCode(*M, **TM, libdeviceBitcode(),
                                   Spec.Config.fastMath()))
    return jitError(K, toString(std::move(E)));
  if (!LlvmErrors.empty())
    return jitError(K,
                    "LLVM cannot analyze it: " + StringRef(LlvmErrors).rtrim());
  Function *F = M->getFunction(K.Name);
  assert(F && "the optimizer keeps the kernel");
  return computeAccessFootprint(*F);
}

} // namespace

Expected<AccessFootprint> launchFootprint(const KernelBlob &K,
                                          const Specialization &Spec,
                                          ArrayRef<StringRef> Params,
                                          StringRef Arch) {
  LlvmStaticsKept Kept;
  BorrowedTargetMachine TM(Arch);
  std::optional<Expected<AccessFootprint>> Out;
  std::string Failed = runContained(
      [&] { Out.emplace(footprintContained(K, Spec, Params, TM)); });
  if (Failed.empty())
    return std::move(*Out);
  TM.markBroken();
  return jitError(K, "LLVM cannot analyze it for " + Arch + ": " + Failed);
}

Error checkArch(StringRef Arch) {
  LlvmStaticsKept Kept;
  initTargets();
  return checkNVPTXArch(Arch);
}

Expected<JitOutput> compileKernel(const KernelBlob &K,
                                  const Specialization &Spec,
                                  const JitOptions &Opts, bool WantIR) {
  assert(!Opts.Arch.empty() && "a compile is for an architecture");
  LlvmStaticsKept Kept;
  // No lock: each compile has its own context and target machine, so
  // compiles on several threads run at once.
  BorrowedTargetMachine TM(Opts.Arch, /*ForDebug=*/K.DebugAtO0);
  std::optional<Expected<JitOutput>> Out;
  std::string Failed = runContained(
      [&] { Out.emplace(compileContained(K, Spec, Opts, WantIR, TM)); });
  if (Failed.empty()) {
    assert(Out && "a compile that did not crash has a result");
    return std::move(*Out);
  }
  TM.markBroken();
  return jitError(K, "LLVM cannot compile it for " + Opts.Arch + ": " + Failed);
}

void warmUpJit(StringRef Arch) {
  LlvmStaticsKept Kept;
  BorrowedTargetMachine Borrowed(Arch);
  std::string Failed = runContained([&] {
    Expected<TargetMachine *> TM = Borrowed.get();
    if (!TM)
      return consumeError(TM.takeError());
    // A kernel that stores one value: enough to make what every compile
    // needs (the target machine, LLVM's passes and their statics).
    LLVMContext Ctx;
    Module M("mstage_warm_up", Ctx);
    M.setTargetTriple(Triple(NVPTXTriple));
    M.setDataLayout((*TM)->createDataLayout());
    Type *Ptr = PointerType::get(Ctx, /*global*/ 1);
    Function *F =
        Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
                         GlobalValue::ExternalLinkage, "mstage_warm_up", M);
    F->setCallingConv(CallingConv::PTX_Kernel);
    IRBuilder<> B(BasicBlock::Create(Ctx, "", F));
    B.CreateStore(B.getInt32(1), F->getArg(0));
    B.CreateRetVoid();
    if (Error E = optimizeDeviceCode(M, **TM, libdeviceBitcode(), false))
      return consumeError(std::move(E));
    Expected<std::string> PTX = emitPTX(M, **TM);
    if (!PTX)
      return consumeError(PTX.takeError());
  });
  if (!Failed.empty())
    Borrowed.markBroken();
}

} // namespace mstage::rt
