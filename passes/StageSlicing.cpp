//===- StageSlicing.cpp - Split stage() sites into host evaluators --------===//
#include "StageSlicing.h"
#include "KernelTags.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <deque>

using namespace llvm;

namespace mstage {
namespace {

// The outermost location of I that is in the user's code rather than in
// mstage's own headers (where Thread::get() and stage() are inlined from).
const DILocation *userLocation(const Instruction *I) {
  const DILocation *Best = nullptr;
  for (const DILocation *L = I->getDebugLoc().get(); L; L = L->getInlinedAt()) {
    StringRef File = L->getFilename();
    bool InMStage =
        File.contains("include/mstage") || File.ends_with("mstage.hpp");
    if (!InMStage)
      return L;
    Best = L;
  }
  return Best;
}

// The first location of I's inlining chain in File, else userLocation(I).
const DILocation *siteLocation(const Instruction *I, StringRef File) {
  auto SameFile = [&](const DILocation *L) {
    StringRef F = L->getFilename();
    return F == File ||
           (File.ends_with(F) && File.drop_back(F.size()).ends_with("/")) ||
           (F.ends_with(File) && F.drop_back(File.size()).ends_with("/"));
  };
  if (!File.empty())
    for (const DILocation *L = I->getDebugLoc().get(); L; L = L->getInlinedAt())
      if (SameFile(L))
        return L;
  return userLocation(I);
}

std::string describeLocation(const Instruction *I) {
  const DILocation *L = userLocation(I);
  if (!L)
    return "unknown location";
  SmallString<128> Path(L->getFilename());
  if (!sys::path::is_absolute(Path) && !L->getDirectory().empty())
    Path = (L->getDirectory() + "/" + L->getFilename()).str();
  return (Path + ":" + Twine(L->getLine()) + ":" + Twine(L->getColumn())).str();
}

void reportAt(const Instruction *I, const Twine &Msg) {
  const DILocation *L = userLocation(I);
  I->getContext().diagnose(DiagnosticInfoUnsupported(
      *I->getFunction(), Msg,
      L ? DiagnosticLocation(DebugLoc(L)) : DiagnosticLocation()));
}

// Runs the scalar cleanups that turn -O0 memory traffic into SSA values.
void simplify(Function &F) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(ADCEPass());
  FPM.run(F, FAM);
}

// Inlining rounds before the remaining calls (recursion) are left alone.
constexpr unsigned MaxInlineRounds = 32;

// True when a stage() site can be reached from Entry through direct calls.
bool reachesStageSite(Function &Entry, const StageFunctions &StageFns) {
  SmallVector<Function *, 16> Work{&Entry};
  SmallPtrSet<Function *, 16> Seen{&Entry};
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    for (Instruction &I : instructions(*F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (!Callee)
        continue;
      if (StageFns.count(Callee))
        return true;
      if (!Callee->isDeclaration() && Seen.insert(Callee).second)
        Work.push_back(Callee);
    }
  }
  return false;
}

// What a device builtin reads, for errors; empty when the host knows it too
// (the launch configuration).
StringRef deviceOnlyBuiltin(StringRef Name) {
  if (Name.starts_with("__mstage_tid_"))
    return "the thread index (Thread::get())";
  if (Name.starts_with("__mstage_ctaid_"))
    return "the block index (Block::get().index)";
  if (Name == "__mstage_shared_base")
    return "shared memory";
  if (Name == "__mstage_barrier")
    return "a barrier";
  return "";
}

// The instructions that compute a stage site's operands.
class Slicer {
public:
  Slicer(Function &F, CallInst *Site, const StageFunctions &StageFns)
      : F(F), Site(Site), StageFns(StageFns), DT(F), PDT(F) {}

  // False when the slice reaches a device-only value (see DeviceOnly).
  bool run() {
    Slice.insert(Site);
    for (Value *Op : Site->args())
      add(Op);
    while (!Work.empty() && !DeviceOnly) {
      Instruction *I = Work.front();
      Work.pop_front();
      visit(I);
    }
    return !DeviceOnly;
  }

  SmallPtrSet<Instruction *, 32> Slice;
  const Instruction *DeviceOnly = nullptr;
  std::string DeviceWhat;

private:
  void add(Value *V) {
    if (auto *I = dyn_cast<Instruction>(V))
      if (Slice.insert(I).second)
        Work.push_back(I);
  }

  void deviceOnly(const Instruction *I, StringRef What) {
    if (!DeviceOnly) {
      DeviceOnly = I;
      DeviceWhat = What.str();
    }
  }

  // The conditional terminators that decide whether BB runs.
  void addControlDependences(BasicBlock *BB) {
    if (!ControlDone.insert(BB).second)
      return;
    for (BasicBlock &A : F) {
      Instruction *T = A.getTerminator();
      if (&A == BB || T->getNumSuccessors() < 2)
        continue;
      bool Decides = false;
      for (BasicBlock *S : successors(&A))
        Decides |= PDT.dominates(BB, S);
      if (Decides && !PDT.properlyDominates(BB, &A))
        add(T);
    }
  }

  // Everything that may write the memory of A before the site.
  void addWriters(Instruction *A) {
    SmallVector<Value *, 16> Derived{A};
    SmallPtrSet<Value *, 16> Seen{A};
    while (!Derived.empty()) {
      Value *P = Derived.pop_back_val();
      for (User *U : P->users()) {
        auto *UI = dyn_cast<Instruction>(U);
        if (!UI)
          continue;
        if (isa<GetElementPtrInst, CastInst, SelectInst, PHINode>(UI)) {
          if (Seen.insert(UI).second)
            Derived.push_back(UI);
          continue;
        }
        bool Writes = false;
        if (isa<StoreInst>(UI))
          Writes = true; // a store into A, or of A's address (an escape)
        else if (auto *MI = dyn_cast<MemIntrinsic>(UI))
          Writes = MI->getRawDest() == P;
        else if (auto *II = dyn_cast<IntrinsicInst>(UI))
          Writes = !II->isLifetimeStartOrEnd() && !II->isAssumeLikeIntrinsic();
        else if (auto *CB = dyn_cast<CallBase>(UI)) {
          Function *Callee = CB->getCalledFunction();
          Writes = Callee && StageFns.count(Callee)
                       ? CB->getArgOperand(0) == P // only `out` is written
                       : true;
        }
        if (Writes && UI != Site &&
            isPotentiallyReachable(UI, Site, nullptr, &DT)) {
          add(UI);
          addControlDependences(UI->getParent());
        }
      }
    }
  }

  void visit(Instruction *I) {
    if (auto *CB = dyn_cast<CallBase>(I)) {
      if (CB->isInlineAsm())
        return deviceOnly(I, "inline assembly");
      Function *Callee = CB->getCalledFunction();
      if (Callee && Callee->getName().starts_with("__mstage_")) {
        StringRef What = deviceOnlyBuiltin(Callee->getName());
        if (!What.empty())
          return deviceOnly(I, What);
      }
      if (Callee && !Callee->isDeclaration() && !StageFns.count(Callee))
        return deviceOnly(I, "a call to '" + demangle(Callee->getName()) +
                                 "', which could not be inlined");
      if (!Callee)
        return deviceOnly(I, "an indirect call");
      for (Value *Op : CB->args())
        add(Op);
      return;
    }
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      if (!LI->isSimple())
        return deviceOnly(I, "an atomic or volatile load");
      const Value *Base = getUnderlyingObject(LI->getPointerOperand());
      if (isa<LoadInst>(Base))
        return deviceOnly(I, "a load from device memory");
      add(LI->getPointerOperand());
      return;
    }
    if (isa<AtomicRMWInst, AtomicCmpXchgInst, FenceInst>(I))
      return deviceOnly(I, "an atomic operation");
    if (auto *AI = dyn_cast<AllocaInst>(I)) {
      addWriters(AI);
      return;
    }
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      addControlDependences(Phi->getParent());
      for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
        add(Phi->getIncomingValue(K));
        BasicBlock *In = Phi->getIncomingBlock(K);
        addControlDependences(In);
        if (In->getTerminator()->getNumSuccessors() > 1)
          add(In->getTerminator());
      }
      return;
    }
    for (Value *Op : I->operands())
      if (!isa<BasicBlock>(Op))
        add(Op);
  }

  Function &F;
  CallInst *Site;
  const StageFunctions &StageFns;
  DominatorTree DT;
  PostDominatorTree PDT;
  std::deque<Instruction *> Work;
  SmallPtrSet<BasicBlock *, 16> ControlDone;
};

// Number of edges from each block to Target (absent: cannot reach it).
DenseMap<BasicBlock *, unsigned> distancesTo(BasicBlock *Target) {
  DenseMap<BasicBlock *, unsigned> Dist{{Target, 0}};
  std::deque<BasicBlock *> Queue{Target};
  while (!Queue.empty()) {
    BasicBlock *BB = Queue.front();
    Queue.pop_front();
    for (BasicBlock *Pred : predecessors(BB))
      if (Dist.try_emplace(Pred, Dist[BB] + 1).second)
        Queue.push_back(Pred);
  }
  return Dist;
}

// Builds the host evaluator of Site from a copy of Body that keeps only the
// slice: control flow not in the slice takes the shortest way to the site,
// and the site's result is copied out before returning.
Function *buildEvaluator(Module &M, Function &Body, CallInst *Site,
                         const SmallPtrSet<Instruction *, 32> &Slice,
                         const Twine &Name, uint32_t Size) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  SmallVector<Type *, 8> Params(Body.arg_size(), Ptr);
  Params.append({Ptr, Ptr}); // launch configuration, result
  Function *Impl =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), Params, false),
                       GlobalValue::InternalLinkage, Name + ".impl", M);
  ValueToValueMapTy VMap;
  for (unsigned K = 0; K < Body.arg_size(); ++K)
    VMap[Body.getArg(K)] = Impl->getArg(K);
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Impl, &Body, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  Impl->removeFnAttr(Attribute::OptimizeNone);
  Impl->removeFnAttr(Attribute::NoInline);
  Argument *Config = Impl->getArg(Body.arg_size());
  Argument *Result = Impl->getArg(Body.arg_size() + 1);

  auto *S = cast<CallInst>(VMap[Site]);
  SmallPtrSet<Instruction *, 32> Keep;
  for (Instruction *I : Slice)
    Keep.insert(cast<Instruction>(VMap[I]));

  // After the site: copy the result out and return.
  BasicBlock *SiteBB = S->getParent();
  SiteBB->splitBasicBlock(S->getNextNode());
  SiteBB->getTerminator()->eraseFromParent();
  IRBuilder<> B(SiteBB);
  Keep.insert(B.CreateMemCpy(Result, MaybeAlign(), S->getArgOperand(0),
                             MaybeAlign(), Size));
  Keep.insert(B.CreateRetVoid());

  // Branches outside the slice head straight for the site.
  DenseMap<BasicBlock *, unsigned> Dist = distancesTo(SiteBB);
  for (BasicBlock &BB : *Impl) {
    Instruction *T = BB.getTerminator();
    if (&BB == SiteBB || Keep.count(T) || T->getNumSuccessors() < 2)
      continue;
    BasicBlock *Best = nullptr;
    for (BasicBlock *Succ : successors(&BB)) {
      auto It = Dist.find(Succ);
      if (It != Dist.end() && (!Best || It->second < Dist[Best]))
        Best = Succ;
    }
    SmallPtrSet<BasicBlock *, 4> Dropped;
    for (BasicBlock *Succ : successors(&BB))
      if (Succ != Best && Dropped.insert(Succ).second)
        Succ->removePredecessor(&BB);
    if (!T->getType()->isVoidTy())
      T->replaceAllUsesWith(PoisonValue::get(T->getType()));
    T->eraseFromParent();
    if (Best)
      BranchInst::Create(Best, &BB);
    else
      new UnreachableInst(Ctx, &BB);
  }

  // Everything else that is not in the slice goes.
  SmallVector<Instruction *, 64> Dead;
  for (Instruction &I : instructions(*Impl))
    if (!Keep.count(&I) && !I.isTerminator() && !isa<AllocaInst>(I))
      Dead.push_back(&I);
  for (Instruction *I : Dead)
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
  for (Instruction *I : Dead)
    I->eraseFromParent();

  // The launch configuration comes from the launch.
  for (Instruction &I : make_early_inc_range(instructions(*Impl))) {
    auto *CI = dyn_cast<CallInst>(&I);
    Function *Callee = CI ? CI->getCalledFunction() : nullptr;
    if (!Callee)
      continue;
    StringRef N = Callee->getName();
    unsigned Offset;
    if (N.consume_front("__mstage_nctaid_"))
      Offset = 0 + 4 * (N[0] - 'x'); // mstage_launch_config::grid
    else if (N.consume_front("__mstage_ntid_"))
      Offset = 12 + 4 * (N[0] - 'x'); // mstage_launch_config::block
    else if (N == "__mstage_dynamic_shared_size")
      Offset = 24; // mstage_launch_config::shared_bytes
    else
      continue;
    IRBuilder<> LB(CI);
    Value *Addr = LB.CreateConstGEP1_32(LB.getInt8Ty(), Config, Offset);
    CI->replaceAllUsesWith(LB.CreateLoad(LB.getInt32Ty(), Addr));
    CI->eraseFromParent();
  }
  removeUnreachableBlocks(*Impl);
  simplify(*Impl);

  // void eval(void *const *args, const mstage_launch_config *, void *result)
  Function *Eval = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, Ptr}, false),
      GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> EB(BasicBlock::Create(Ctx, "entry", Eval));
  SmallVector<Value *, 8> Args;
  for (unsigned K = 0; K < Body.arg_size(); ++K)
    Args.push_back(
        EB.CreateLoad(Ptr, EB.CreateConstGEP1_32(Ptr, Eval->getArg(0), K)));
  Args.append({Eval->getArg(1), Eval->getArg(2)});
  EB.CreateCall(Impl, Args);
  EB.CreateRetVoid();
  return Eval;
}

} // namespace

StageFunctions findStageFunctions(Module &M) {
  StageFunctions Result;
  for (auto &[F, Strings] : readAnnotations(M)) {
    bool IsStage = false;
    StageTypeInfo Info;
    bool HasInfo = false;
    for (StringRef S : Strings) {
      IsStage |= S == StageAnnotation;
      HasInfo |= decodeStageInfo(S, Info);
    }
    if (!IsStage)
      continue;
    StageSite Site;
    if (HasInfo) {
      Site.Kind = Info.Kind;
      Site.Size = Info.Size;
      Site.Align = Info.Align;
      Site.TypeName = Info.TypeName;
    }
    Result[F] = Site;
  }
  return Result;
}

bool prepareStagedBody(Module &M, Function &Entry, StringRef KernelName,
                       StringRef KernelFile, const StageFunctions &StageFns,
                       StagedBody &Out) {
  Out.Body = &Entry;
  if (StageFns.empty() || !reachesStageSite(Entry, StageFns))
    return true;

  // The entry with its calls inlined (all but the stage() calls themselves),
  // so that each site sees what it depends on: kernel parameters, device
  // builtins, memory.
  ValueToValueMapTy VMap;
  Function *Body = CloneFunction(&Entry, VMap);
  Body->setName("__mstage_body." + KernelName);
  Body->setLinkage(GlobalValue::InternalLinkage);
  Body->removeFnAttr(Attribute::OptimizeNone);
  Body->removeFnAttr(Attribute::NoInline);
  Out.Body = Body;
  Out.OwnsBody = true;
  for (unsigned Round = 0; Round < MaxInlineRounds; ++Round) {
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(*Body))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && !StageFns.count(Callee) &&
              Callee != Body)
            Calls.push_back(CB);
    if (Calls.empty())
      break;
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      InlineFunction(*CB, IFI); // what cannot be inlined stays a call
    }
  }
  simplify(*Body);

  SmallVector<CallInst *, 8> Calls;
  ReversePostOrderTraversal<Function *> RPOT(Body);
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (StageFns.count(Callee))
            Calls.push_back(CI);

  bool OK = true;
  for (CallInst *Call : Calls) {
    StageSiteIR Site;
    Site.Call = Call;
    Site.Info = StageFns.lookup(Call->getCalledFunction());
    if (const DILocation *L = siteLocation(Call, KernelFile)) {
      Site.Info.Line = L->getLine();
      Site.Info.Column = L->getColumn();
    }
    if (Site.Info.Size == 0) {
      reportAt(Call, "mstage: this stage() call has no type information; "
                     "compile with mstage++");
      OK = false;
      continue;
    }
    Slicer S(*Body, Call, StageFns);
    if (!S.run()) {
      reportAt(Call, "mstage: the value passed to stage() depends on " +
                         S.DeviceWhat + ", read at " +
                         describeLocation(S.DeviceOnly) +
                         "; staged values are computed on the host before "
                         "the launch, from kernel arguments, captures, "
                         "constants, the launch configuration and other "
                         "staged values");
      OK = false;
      continue;
    }
    Site.Evaluator = buildEvaluator(M, *Body, Call, S.Slice,
                                    "__mstage_eval." + KernelName + "." +
                                        Twine(Out.Sites.size()),
                                    Site.Info.Size);
    Out.Sites.push_back(Site);
  }
  return OK;
}

void replaceStageSites(Module &Dev, ArrayRef<CallInst *> Calls,
                       ArrayRef<StageSiteIR> Sites) {
  LLVMContext &Ctx = Dev.getContext();
  for (size_t I = 0; I < Calls.size(); ++I) {
    const StageSite &Info = Sites[I].Info;
    auto *Ty = ArrayType::get(Type::getInt8Ty(Ctx), Info.Size);
    auto *GV = new GlobalVariable(Dev, Ty, /*isConstant=*/true,
                                  GlobalValue::ExternalLinkage, nullptr,
                                  StagePlaceholderPrefix + Twine(I));
    GV->setAlignment(Align(Info.Align));
    IRBuilder<> B(Calls[I]);
    B.CreateMemCpy(Calls[I]->getArgOperand(0), MaybeAlign(Info.Align), GV,
                   Align(Info.Align), Info.Size);
    Calls[I]->eraseFromParent();
  }
}

} // namespace mstage
