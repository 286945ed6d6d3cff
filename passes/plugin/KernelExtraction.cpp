//===- KernelExtraction.cpp - Split kernels out of the host module --------===//
#include "plugin/KernelExtraction.h"
#include "aot/AotCompile.h"
#include "aot/WorkerTimeTrace.h"
#include "formats/KernelBlob.h"
#include "formats/KernelTags.h"
#include "mstage/abi.h"
#include "plugin/PluginOptions.h"
#include "transforms/DeviceAtomics.h"
#include "transforms/DeviceBuiltins.h"
#include "transforms/DeviceDebugInfo.h"
#include "transforms/DeviceExports.h"
#include "transforms/DeviceGlobals.h"
#include "transforms/DeviceOptimizer.h"
#include "transforms/DevicePrintf.h"
#include "transforms/DeviceRetarget.h"
#include "transforms/DeviceSharedArrays.h"
#include "transforms/DeviceWgmma.h"
#include "transforms/Diagnostics.h"
#include "transforms/KernelEntries.h"
#include "transforms/ScanKernelTraits.h"
#include "transforms/StageSlicing.h"
#include "transforms/WorkMeasure.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <future>
#include <optional>

using namespace llvm;

#define DEBUG_TYPE "mstage-extract-kernels"

STATISTIC(NumKernelsExtracted, "Kernels extracted and embedded");
STATISTIC(NumKernelsFailed, "Kernels not embedded after an error");
STATISTIC(NumGenericCompiles,
          "Units whose generic code is compiled ahead of time");

namespace mstage {
namespace {

// What the embedded IR is optimized for: the JIT and the ahead-of-time
// compile retarget it to the GPU's architecture.
constexpr const char *ExtractionArch = "sm_70";

// The device cannot see host variables: only constants travel with the code.
bool checkGlobals(Module &M, const KernelEntry &K,
                  const SetVector<GlobalValue *> &Reached) {
  bool OK = true;
  for (GlobalValue *GV : Reached) {
    auto *Var = dyn_cast<GlobalVariable>(GV);
    // std::nothrow only selects operator new's form (DeviceHeap.h); the
    // C++ runtime's type information is reached only from what a library
    // throw builds, which never runs on the device (DeviceThrows.h).
    if (!Var || (Var->isConstant() && !Var->isThreadLocal()) ||
        isDeviceGlobal(*Var) || Var->getName() == "_ZSt7nothrow" ||
        Var->getName().starts_with("_ZTVN10__cxxabiv1"))
      continue;
    reportError(M, "kernel '" + K.Info.PrettyName +
                       "' uses the host variable '" + demangle(Var->getName()) +
                       "', which the GPU cannot see; pass it as a kernel "
                       "argument or capture it by value");
    OK = false;
  }
  return OK;
}

// Builds the ptx_kernel that the driver launches. Each parameter of the
// entry is a pointer to one argument (the lambda, then the launch
// arguments); the kernel receives the arguments themselves, by value in
// parameter space, and passes their addresses on. This sidesteps the host
// ABI, which splits structs into scalars.
Function *createKernelWrapper(Module &Dev, Function &Entry,
                              const KernelSourceInfo &Info) {
  LLVMContext &Ctx = Dev.getContext();
  SmallVector<Type *, 8> ParamTys(Entry.arg_size(), PointerType::get(Ctx, 0));
  auto *FTy = FunctionType::get(Type::getVoidTy(Ctx), ParamTys, false);
  // The symbol is a C++ name (formats/KernelSymbol.h): a host variable of
  // that name (mstage::reduce, the algorithm's function object) gives it up,
  // as the kernel's symbol is what the runtime and the tools look for.
  if (GlobalValue *Host = Dev.getNamedValue(Info.Name))
    Host->setName(Info.Name + ".host");
  Function *K =
      Function::Create(FTy, GlobalValue::ExternalLinkage, Info.Name, Dev);
  K->setCallingConv(CallingConv::PTX_Kernel);
  for (unsigned I = 0; I < Entry.arg_size(); ++I) {
    uint64_t Bytes = Entry.getParamDereferenceableBytes(I);
    Align A = Entry.getParamAlign(I).valueOrOne();
    K->addParamAttr(I, Attribute::getWithByValType(
                           Ctx, ArrayType::get(Type::getInt8Ty(Ctx), Bytes)));
    K->addParamAttr(I, Attribute::getWithAlignment(Ctx, A));
    K->addParamAttr(I, Attribute::NoAlias);
  }
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", K));
  SmallVector<Value *, 8> Args;
  for (Argument &A : K->args())
    Args.push_back(&A);
  B.CreateCall(&Entry, Args);
  B.CreateRetVoid();
  describeWrapper(*K, Entry);
  return K;
}

// The device module of kernel K, not yet lowered, verified or optimized
// (optimizeDeviceBitcode does that), as bitcode that another thread can read
// into a context of its own; or nothing after reporting why.
std::optional<std::string>
buildDeviceBitcode(Module &M, const KernelEntry &K, const StagedBody &Staged,
                   const StageFunctions &StageFns, KernelBlob &Blob,
                   StringMap<std::string> &Locations) {
  TimeTraceScope Scope("mstage device module");
  SetVector<GlobalValue *> Reached = collectReachable(*Staged.Body, StageFns);
  if (!checkGlobals(M, K, Reached))
    return std::nullopt;

  ValueToValueMapTy VMap;
  std::unique_ptr<Module> Dev;
  {
    TimeTraceScope Scope("mstage device module clone");
    Dev = cloneReached(M, Reached, VMap);
  }

  SmallVector<CallInst *, 8> DevSites;
  for (const StageSiteIR &Site : Staged.Sites)
    DevSites.push_back(cast<CallInst>(VMap[Site.Call]));
  replaceStageSites(*Dev, DevSites, Staged.Sites);

  auto *DevEntry = cast<Function>(VMap[Staged.Body]);
  Function *Kernel = createKernelWrapper(*Dev, *DevEntry, K.Info);
  assert(Kernel->getName() == K.Info.Name &&
         "the kernel is found by its name in the optimizing thread");
  Blob.NumParams = Kernel->arg_size();
  for (GlobalValue &GV : Dev->global_values())
    if (!GV.isDeclaration() && &GV != Kernel) {
      GV.setLinkage(GlobalValue::InternalLinkage);
      GV.setVisibility(GlobalValue::DefaultVisibility);
    }

  Locations = callLocations(*Dev);

  // Lowered and verified on the optimizing thread, off the compile's
  // critical path. With the use-list order, so that the optimizer meets the
  // same IR.
  SmallString<0> Bitcode;
  raw_svector_ostream OS(Bitcode);
  WriteBitcodeToFile(*Dev, OS, /*ShouldPreserveUseListOrder=*/true);
  return std::string(Bitcode.str());
}

// What the optimizing thread makes of one kernel's device module.
struct DeviceCode {
  std::string Bitcode;                   // what the blob embeds
  std::vector<PointerSlot> PointerSlots; // what each launch reads
  std::vector<DeviceImport> Imports;     // what other units' exports define
  KernelWork Work;                       // the JIT policy's weight
  KernelTraits Traits;                   // what the back ends need
  bool ArchSpecific = false; // uses wgmma: no generic code (usesWgmma)
  bool DebugAtO0 = false;    // -g -O0: embedded unoptimized, for the debugger
  // The optimizer's errors and warnings, said on the host module's context.
  std::vector<std::pair<DiagnosticSeverity, std::string>> Diagnostics;
};

// Keeps a context's errors and warnings for the host's context to say.
struct KeepDiagnostics : DiagnosticHandler {
  DeviceCode &Code;
  explicit KeepDiagnostics(DeviceCode &Code) : Code(Code) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Error || DI.getSeverity() == DS_Warning) {
      std::string Text;
      raw_string_ostream OS(Text);
      DiagnosticPrinterRawOStream DP(OS);
      DI.print(DP);
      Code.Diagnostics.emplace_back(DI.getSeverity(), std::move(Text));
    }
    return true;
  }
};

// Optimizes the device module that Unoptimized holds (when NVPTX is there),
// in a context of its own so that the unit's kernels optimize in parallel,
// and finds what the runtime and the linker need from the result.
DeviceCode optimizeDeviceBitcode(StringRef Unoptimized, StringRef KernelName,
                                 StringRef PrettyName,
                                 const StringMap<std::string> &Locations,
                                 bool Flatten, bool HasNVPTX,
                                 bool DiscardValueNames) {
  DeviceCode Code;
  LLVMContext Ctx;
  // As clang's own context: the names the optimizer makes stay out of the IR.
  Ctx.setDiscardValueNames(DiscardValueNames);
  Ctx.setDiagnosticHandler(std::make_unique<KeepDiagnostics>(Code));
  Expected<std::unique_ptr<Module>> Dev =
      parseBitcodeFile(MemoryBufferRef(Unoptimized, KernelName), Ctx);
  if (!Dev) {
    Code.Diagnostics.emplace_back(
        DS_Error, "internal error: the device module of '" + KernelName.str() +
                      "' does not read back: " + toString(Dev.takeError()));
    return Code;
  }
  // What the extraction left of a staged kernel's body (StagedBody::
  // CalleesLeft) is flattened here, off the compile's critical path.
  if (Flatten) {
    Function *Body = (*Dev)->getFunction(StagedBodyPrefix + KernelName.str());
    assert(Body && "the device module keeps the body's name");
    flattenBody(*Body);
  }
  // The wrapper's one call (createKernelWrapper): the entry, which goes
  // into it once lowering has taken the host's noinline off.
  Function *Kernel = (*Dev)->getFunction(KernelName);
  assert(Kernel && "the extraction named the wrapper after the kernel");
  Function *Entry =
      cast<CallBase>(Kernel->getEntryBlock().front()).getCalledFunction();
  if (Error E = lowerForDevice(**Dev))
    Code.Diagnostics.emplace_back(DS_Error, "kernel '" + PrettyName.str() +
                                                "': " + toString(std::move(E)));
  Entry->addFnAttr(Attribute::AlwaysInline);
  // Lowering keeps full debug information at -O0 only (retargetToNVPTX).
  Code.DebugAtO0 = keepsFullDebugInfo(**Dev);
  std::string VerifyMsg;
  raw_string_ostream VOS(VerifyMsg);
  if (verifyModule(**Dev, &VOS)) {
    Code.Diagnostics.emplace_back(
        DS_Error, "internal error: the device module of '" + PrettyName.str() +
                      "' is invalid: " + VerifyMsg);
    return Code;
  }
  // Shrink the embedded IR now; loops stay rolled until the JIT knows the
  // staged values and the launch configuration.
  // A unit built with -g at -O0 keeps its code as written, for the
  // debugger to step through its lines.
  if (HasNVPTX && !Code.DebugAtO0) {
    TimeTraceScope Scope("mstage device O2", KernelName);
    auto TM = createNVPTXTargetMachine(ExtractionArch);
    assert(TM && "the extraction found the NVPTX target");
    if (TM)
      optimizeDeviceModule(**Dev, **TM, OptimizationLevel::O2,
                           /*LoopTransforms=*/false);
    else
      consumeError(TM.takeError());
  } else {
    removeUnreachedCode(**Dev); // as O2 would: its imports are the real ones
  }
  Kernel = (*Dev)->getFunction(KernelName);
  assert(Kernel && "the optimizer keeps the kernel");
  Code.PointerSlots = findPointerSlots(*Kernel);
  SmallVector<GlobalValue *, 32> All;
  for (Function &F : **Dev)
    All.push_back(&F);
  Code.Imports = findImports(All, KernelName, /*FromExport=*/false, Locations);
  // Of the module embedded, as the runtime would measure it, so that no
  // process parses bitcode to weigh a kernel.
  Code.Work = measureKernelWork(**Dev);
  Code.Traits = scanKernelTraits(**Dev);
  Code.ArchSpecific = usesWgmma(**Dev);
  SmallString<0> Bitcode;
  raw_svector_ostream OS(Bitcode);
  WriteBitcodeToFile(**Dev, OS);
  Code.Bitcode = std::string(Bitcode.str());
  return Code;
}

// Marks a module whose kernels are embedded and registered.
constexpr const char *ExtractedFlag = "mstage.kernels_embedded";

struct EmbeddedKernel {
  Function *Entry;
  std::string Blob;
  SmallVector<Function *, 4> Evaluators;
  Function *StageChecker = nullptr; // MSTAGE_CHECK=stage, with sites only
};

// Emits the blobs, the kernel table and the constructor that registers them.
void emitRegistration(Module &M, ArrayRef<EmbeddedKernel> Kernels,
                      StringRef LinkBlob, ArrayRef<DeviceGlobalInfo> Globals) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  auto *RecordTy = StructType::get(Ctx, {Ptr, Ptr, Ptr, I32, I32, Ptr});
  SmallVector<Constant *, 4> Records;
  for (const EmbeddedKernel &K : Kernels) {
    auto *Init =
        ConstantDataArray::getRaw(K.Blob, K.Blob.size(), Type::getInt8Ty(Ctx));
    auto *GV =
        new GlobalVariable(M, Init->getType(), true,
                           GlobalValue::PrivateLinkage, Init, "__mstage_blob");
    GV->setSection(KernelBlobSection);
    GV->setAlignment(Align(KernelBlobAlign));
    Constant *Evals = ConstantPointerNull::get(cast<PointerType>(Ptr));
    if (!K.Evaluators.empty()) {
      SmallVector<Constant *, 4> Fns(K.Evaluators.begin(), K.Evaluators.end());
      auto *EvalInit = ConstantArray::get(ArrayType::get(Ptr, Fns.size()), Fns);
      Evals = new GlobalVariable(M, EvalInit->getType(), true,
                                 GlobalValue::PrivateLinkage, EvalInit,
                                 "__mstage_evaluators");
    }
    Records.push_back(ConstantStruct::get(
        RecordTy,
        {K.Entry, GV, Evals, ConstantInt::get(I32, K.Evaluators.size()),
         ConstantInt::get(I32, K.Blob.size()),
         K.StageChecker ? static_cast<Constant *>(K.StageChecker)
                        : ConstantPointerNull::get(cast<PointerType>(Ptr))}));
  }
  auto *TableInit =
      ConstantArray::get(ArrayType::get(RecordTy, Records.size()), Records);
  auto *Table = new GlobalVariable(M, TableInit->getType(), true,
                                   GlobalValue::PrivateLinkage, TableInit,
                                   "__mstage_kernel_table");
  Type *I64 = Type::getInt64Ty(Ctx);
  Constant *Link = ConstantPointerNull::get(cast<PointerType>(Ptr));
  if (!LinkBlob.empty()) {
    auto *Init = ConstantDataArray::getRaw(LinkBlob, LinkBlob.size(),
                                           Type::getInt8Ty(Ctx));
    auto *GV = new GlobalVariable(M, Init->getType(), true,
                                  GlobalValue::PrivateLinkage, Init,
                                  "__mstage_device_link");
    GV->setSection(DeviceLinkSection);
    GV->setAlignment(Align(KernelBlobAlign));
    Link = GV;
  }
  // mstage_global_record: the runtime finds each in the modules it loads.
  auto *GlobalTy = StructType::get(Ctx, {Ptr, Ptr, I64, I32});
  SmallVector<Constant *, 4> GlobalRecords;
  for (const DeviceGlobalInfo &G : Globals) {
    Constant *Name = ConstantDataArray::getString(Ctx, G.DeviceName);
    auto *NameGV = new GlobalVariable(M, Name->getType(), true,
                                      GlobalValue::PrivateLinkage, Name,
                                      "__mstage_global_name");
    GlobalRecords.push_back(ConstantStruct::get(
        GlobalTy, {NameGV, G.Host, ConstantInt::get(I64, G.Bytes),
                   ConstantInt::get(I32, G.Constant)}));
  }
  Constant *GlobalTable = ConstantPointerNull::get(cast<PointerType>(Ptr));
  if (!GlobalRecords.empty()) {
    auto *Init = ConstantArray::get(
        ArrayType::get(GlobalTy, GlobalRecords.size()), GlobalRecords);
    GlobalTable = new GlobalVariable(M, Init->getType(), true,
                                     GlobalValue::PrivateLinkage, Init,
                                     "__mstage_globals");
  }
  auto *ModuleTy =
      StructType::get(Ctx, {I32, I32, Ptr, I32, Ptr, Ptr, I64, I32, Ptr});
  auto *ModInit = ConstantStruct::get(
      ModuleTy,
      {ConstantInt::get(I32, MSTAGE_ABI_VERSION),
       ConstantInt::get(I32, Records.size()), Table, ConstantInt::get(I32, 0),
       ConstantPointerNull::get(cast<PointerType>(Ptr)), Link,
       ConstantInt::get(I64, LinkBlob.size()),
       ConstantInt::get(I32, GlobalRecords.size()), GlobalTable});
  auto *Mod = new GlobalVariable(M, ModuleTy, true, GlobalValue::PrivateLinkage,
                                 ModInit, ModuleRecordName);

  // Registered before the unit's own initializers (priority 65535) and
  // those of user priorities (101 and up), so that they can launch; and
  // unregistered after the unit's destructors, or when the shared library
  // that holds it is unloaded, so that a library loaded later at the same
  // address does not find these kernels.
  constexpr int Priority = 100;
  // A unit that only exports device code needs the runtime only where other
  // units' kernels do: linked without it, it skips its registration.
  bool Weak = Kernels.empty();
  auto AddCall = [&](StringRef Callee, StringRef Name) {
    FunctionCallee Fn =
        M.getOrInsertFunction(Callee, Type::getVoidTy(Ctx), Ptr);
    Function *F =
        Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                         GlobalValue::InternalLinkage, Name, M);
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
    auto *Decl = dyn_cast<Function>(Fn.getCallee());
    if (Weak && Decl && Decl->isDeclaration()) {
      Decl->setLinkage(GlobalValue::ExternalWeakLinkage);
      BasicBlock *Call = BasicBlock::Create(Ctx, "call", F);
      BasicBlock *Done = BasicBlock::Create(Ctx, "done", F);
      B.CreateCondBr(B.CreateIsNotNull(Decl), Call, Done);
      B.SetInsertPoint(Call);
      B.CreateCall(Fn, {Mod});
      B.CreateBr(Done);
      B.SetInsertPoint(Done);
    } else {
      B.CreateCall(Fn, {Mod});
    }
    B.CreateRetVoid();
    return F;
  };
  appendToGlobalCtors(
      M, AddCall("__mstage_register_module", "__mstage_register_kernels"),
      Priority);
  appendToGlobalDtors(
      M, AddCall("__mstage_unregister_module", "__mstage_unregister_kernels"),
      Priority);
  M.addModuleFlag(Module::Warning, ExtractedFlag, 1);
}

} // namespace

PreservedAnalyses KernelExtractionPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  // Bitcode that mstage++ wrote (-emit-llvm) already embeds its kernels.
  if (M.getModuleFlag(ExtractedFlag))
    return PreservedAnalyses::all();
  SmallVector<KernelEntry, 4> Entries = findKernelEntries(M);
  bool HasExports = any_of(readAnnotations(M), [](const auto &FS) {
    return is_contained(FS.second, DeviceExportAnnotation);
  });
  // Before the return: it erases the plugin's markers of extern ones.
  SmallVector<DeviceGlobalInfo, 4> Globals = markDeviceGlobals(M);
  if (Entries.empty() && !HasExports)
    return Globals.empty() ? PreservedAnalyses::all()
                           : PreservedAnalyses::none();

  // Without an NVPTX target the bitcode is embedded unoptimized; the JIT
  // optimizes it fully anyway.
  std::unique_ptr<TargetMachine> TM;
  if (auto TMOrErr = createNVPTXTargetMachine(ExtractionArch))
    TM = std::move(*TMOrErr);
  else
    consumeError(TMOrErr.takeError());

  numberSharedArrayDeclarations(M);
  StageFunctions StageFns = findStageFunctions(M);
  DeviceLinkBlob Link;
  std::string ExportsBitcode;
  if (HasExports)
    buildDeviceExports(M, StageFns, TM.get(), Link, ExportsBitcode);
  // Each kernel's device module is built here, then optimized on a thread
  // of its own (the unit's kernels at once), then embedded in order.
  struct Extracted {
    KernelBlob Blob;
    EmbeddedKernel E;
    std::string Unoptimized;
    bool Flatten = false; // StagedBody::CalleesLeft
    StringMap<std::string> Locations;
    std::shared_future<DeviceCode> Code;
  };
  std::vector<Extracted> Kernels;
  Kernels.reserve(Entries.size()); // the threads hold pointers into it
  DefaultThreadPool Pool(hardware_concurrency());
  WorkerTimeTrace Trace = WorkerTimeTrace::ofCaller();
  for (const KernelEntry &K : Entries) {
    TimeTraceScope Scope("mstage extract kernel", K.Info.PrettyName);
    StagedBody Staged;
    bool StagesOK;
    {
      TimeTraceScope Scope("mstage stage sites");
      StagesOK = prepareStagedBody(M, *K.F, K.Info.Name, kernelFile(K.Info),
                                   StageFns, checkStageLoops(), Staged);
    }
    KernelBlob Blob;
    Blob.Name = K.Info.Name;
    Blob.PrettyName = K.Info.PrettyName;
    Blob.Location = K.Info.Location;
    std::optional<std::string> Bitcode;
    StringMap<std::string> Locations;
    if (StagesOK)
      Bitcode = buildDeviceBitcode(M, K, Staged, StageFns, Blob, Locations);
    Function *Checker = nullptr;
    if (Bitcode && !Staged.Sites.empty()) {
      TimeTraceScope Scope("mstage stage checker");
      Checker = buildStageChecker(M, *K.F, Staged, StageFns,
                                  "__mstage_stage_checker." + K.Info.Name);
    }
    assert((!Staged.OwnsBody || Staged.Body != K.F) &&
           "the body that is erased is a copy of the entry");
    if (Staged.OwnsBody)
      Staged.Body->eraseFromParent();
    if (!Bitcode) {
      ++NumKernelsFailed;
      continue;
    }
    Extracted &X = Kernels.emplace_back();
    X.E = EmbeddedKernel{K.F, {}, {}, Checker};
    for (const StageSiteIR &Site : Staged.Sites) {
      Blob.StageSites.push_back(Site.Info);
      X.E.Evaluators.push_back(Site.Evaluator);
    }
    X.Blob = std::move(Blob);
    X.Unoptimized = std::move(*Bitcode);
    X.Flatten = Staged.CalleesLeft;
    X.Locations = std::move(Locations);
    X.Code = Pool.async([P = &X, HasNVPTX = bool(TM), Trace,
                         Discard = M.getContext().shouldDiscardValueNames()] {
      WorkerTimeTrace::Scope Traced(Trace);
      return optimizeDeviceBitcode(P->Unoptimized, P->Blob.Name,
                                   P->Blob.PrettyName, P->Locations, P->Flatten,
                                   HasNVPTX, Discard);
    });
  }
  SmallVector<EmbeddedKernel, 4> Embedded;
  std::vector<AotKernel> Generic;
  for (Extracted &X : Kernels) {
    DeviceCode Code;
    {
      TimeTraceScope Scope("mstage device O2 wait", X.Blob.PrettyName);
      Code = X.Code.get();
    }
    for (auto &[Severity, Text] : Code.Diagnostics)
      M.getContext().diagnose(DiagnosticInfoGeneric(Text, Severity));
    if (Code.Bitcode.empty()) {
      ++NumKernelsFailed;
      continue;
    }
    KernelBlob &Blob = X.Blob;
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Blob.Name << " ("
                      << Blob.PrettyName << "): " << Blob.StageSites.size()
                      << " stage sites, " << Code.Bitcode.size()
                      << " bytes of bitcode\n");
    ++NumKernelsExtracted;
    Blob.PointerSlots = std::move(Code.PointerSlots);
    Blob.Work = Code.Work;
    Blob.Traits = Code.Traits;
    Blob.DebugAtO0 = Code.DebugAtO0;
    Blob.Bitcode = Code.Bitcode;
    X.E.Blob = writeKernelBlob(Blob);
    Embedded.push_back(std::move(X.E));
    if (Link.Source.empty())
      Link.Source = M.getSourceFileName();
    for (DeviceImport &I : Code.Imports)
      Link.Imports.push_back(std::move(I));
    // sm_90a-only code has no generic form for the AOT targets: its first
    // launch waits for the JIT, which compiles it for the device.
    if (Code.ArchSpecific)
      continue;
    AotKernel &G = Generic.emplace_back();
    G.Name = Blob.Name;
    G.PrettyName = Blob.PrettyName;
    G.Bitcode = std::move(Code.Bitcode);
    for (const StageSite &Site : Blob.StageSites)
      G.SiteSizes.push_back(Site.Size);
    G.PointerSlots = Blob.PointerSlots;
    G.DebugAtO0 = Blob.DebugAtO0;
  }
  std::string LinkBlob;
  if (!Link.Exports.empty() || !Link.Imports.empty())
    LinkBlob = writeDeviceLinkBlob(Link);
  if (!Embedded.empty() || !LinkBlob.empty())
    emitRegistration(M, Embedded, LinkBlob, Globals);
  // Without an NVPTX target there is no generic code either; nor for kernels
  // that call other units' code, which is linked only at launch (ptxas
  // compiles a whole module).
  bool KernelsImport =
      any_of(Link.Imports, [](const DeviceImport &I) { return !I.FromExport; });
  if (!Embedded.empty() && TM && !KernelsImport) {
    ++NumGenericCompiles;
    startAotCompile(M, std::move(Generic), aotArchs(), aotThreads());
  }
  // mstage++ adds line tables so that errors can name source lines; they
  // leave the object unless the user asked for debug information.
  if (stripHostDebugInfo())
    StripDebugInfo(M);
  return PreservedAnalyses::none();
}

} // namespace mstage
