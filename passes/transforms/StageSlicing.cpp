//===- StageSlicing.cpp - Split stage() sites into host evaluators --------===//
#include "transforms/StageSlicing.h"
#include "formats/KernelTags.h"
#include "transforms/DeviceOptimizer.h"
#include "transforms/Diagnostics.h"
#include "formats/LaunchConfig.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
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
#include "llvm/Support/Debug.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <deque>
#include <tuple>

using namespace llvm;

#define DEBUG_TYPE "mstage-stage-slicing"

STATISTIC(NumSitesSliced, "stage() sites sliced into host evaluators");
STATISTIC(NumSitesRejected, "stage() sites that cannot be staged (errors)");
STATISTIC(NumBodiesInlined, "Calls inlined into staged kernel bodies");
STATISTIC(NumPlaceholders, "stage() sites replaced by placeholders");
STATISTIC(NumCheckersFlattened,
          "Stage checkers built from the whole flattened body");

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
  reportErrorIn(*I->getFunction(), Msg,
                L ? DiagnosticLocation(DebugLoc(L)) : DiagnosticLocation());
}

// Runs the scalar cleanups that turn -O0 memory traffic into SSA values.
void simplify(Function &F) {
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(ADCEPass());
  runFunctionPasses(F, FPM);
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

// Inlines Body's calls, round by round, but not those of stage() itself;
// with OnlyToSites, only the calls that lead to a stage() site.
void inlineCalls(Function &Body, const StageFunctions &StageFns,
                 bool OnlyToSites) {
  DenseMap<Function *, bool> ToSite;
  auto Inlined = [&](Function *Callee) {
    if (Callee->isDeclaration() || StageFns.count(Callee) || Callee == &Body)
      return false;
    if (!OnlyToSites)
      return true;
    auto [It, New] = ToSite.try_emplace(Callee, false);
    if (New)
      It->second = reachesStageSite(*Callee, StageFns);
    return It->second;
  };
  for (unsigned Round = 0; Round < MaxInlineRounds; ++Round) {
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(Body))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction();
            Callee && Inlined(Callee))
          Calls.push_back(CB);
    if (Calls.empty())
      break;
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      // What cannot be inlined stays a call.
      if (InlineFunction(*CB, IFI).isSuccess())
        ++NumBodiesInlined;
    }
  }
}

// Body's stage() calls in the order that numbers the sites.
SmallVector<CallInst *, 8> stageCalls(Function &Body,
                                      const StageFunctions &StageFns) {
  SmallVector<CallInst *, 8> Calls;
  ReversePostOrderTraversal<Function *> RPOT(&Body);
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (StageFns.count(Callee))
            Calls.push_back(CI);
  return Calls;
}

// The functions reachable from Entry that call themselves, directly or
// through others, and lead to a stage() site, each with its first call on
// the way to the site; they cannot be inlined into the kernel.
SmallVector<CallBase *, 2> recursiveStageCalls(Function &Entry,
                                               const StageFunctions &StageFns) {
  auto Callees = [&](Function *F) {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *C = CB->getCalledFunction(); C && !C->isDeclaration())
          Calls.push_back(CB);
    return Calls;
  };
  auto Reaches = [&](Function *From, Function *To) {
    SmallVector<Function *, 16> Work{From};
    SmallPtrSet<Function *, 16> Seen{From};
    while (!Work.empty())
      for (CallBase *CB : Callees(Work.pop_back_val())) {
        Function *C = CB->getCalledFunction();
        if (C == To)
          return true;
        if (!StageFns.count(C) && Seen.insert(C).second)
          Work.push_back(C);
      }
    return false;
  };
  SmallVector<CallBase *, 2> Result;
  SmallVector<Function *, 16> Work{&Entry};
  SmallPtrSet<Function *, 16> Seen{&Entry};
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (F != &Entry && reachesStageSite(*F, StageFns) && Reaches(F, F)) {
      for (CallBase *CB : Callees(F)) {
        Function *C = CB->getCalledFunction();
        if (StageFns.count(C) || reachesStageSite(*C, StageFns)) {
          Result.push_back(CB);
          break;
        }
      }
      continue;
    }
    for (CallBase *CB : Callees(F))
      if (Function *C = CB->getCalledFunction();
          !StageFns.count(C) && Seen.insert(C).second)
        Work.push_back(C);
  }
  return Result;
}

// What a device builtin reads, for errors; empty when the host knows it too
// (the launch configuration).
StringRef deviceOnlyBuiltin(StringRef Name) {
  if (Name.starts_with("__mstage_tid_"))
    return "the thread index (Thread::get())";
  if (Name.starts_with("__mstage_ctaid_"))
    return "the block index (Block::get().index)";
  if (Name == "__mstage_shared_base" || Name == "__mstage_shared_array")
    return "shared memory";
  if (Name == "__mstage_barrier")
    return "a barrier";
  return "";
}

// Calls Use(U, P) for each instruction U that uses Base's memory through a
// pointer P derived from it (by GEPs, casts, selects and PHIs), until Use
// returns true; returns whether it did.
bool anyMemoryUse(Value *Base,
                  function_ref<bool(Instruction *U, Value *P)> Use) {
  SmallVector<Value *, 16> Derived{Base};
  SmallPtrSet<Value *, 16> Seen{Base};
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
      if (Use(UI, P))
        return true;
    }
  }
  return false;
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
    visitAdded();
    return !DeviceOnly;
  }

  // Adds the branches that decide whether the site runs, and then those
  // that decide whether they run, when the host can compute them too: the
  // evaluator follows them as the kernel would, so a stage() under a
  // condition that is false (or in a loop that runs no iteration) for a
  // launch is not evaluated (its value is unused), rather than evaluated
  // with values it may not be computed from (`if (n) stage(k / n)`), or
  // looked for round a loop for ever. The others head for the site.
  void addDecidingBranches() {
    SmallVector<BasicBlock *, 8> Blocks{Site->getParent()};
    SmallPtrSet<BasicBlock *, 8> Done{Site->getParent()};
    while (!Blocks.empty()) {
      BasicBlock *BB = Blocks.pop_back_val();
      for (Instruction *T : decidingBranches(BB)) {
        if (Done.insert(T->getParent()).second)
          Blocks.push_back(T->getParent());
        if (!Slice.count(T))
          tryAdd(T);
      }
    }
  }

  // The branch nearest the site on the way from it to DeviceOnly, if the
  // dependence passes through one (stage() under a thread-dependent
  // branch), else null.
  const Instruction *branchToDeviceOnly() const {
    const Instruction *Branch = nullptr;
    for (const Instruction *I = DeviceOnly; I && I != Site; I = Via.lookup(I))
      if (I->isTerminator())
        Branch = I;
    return Branch;
  }

  SmallPtrSet<Instruction *, 32> Slice;
  const Instruction *DeviceOnly = nullptr;
  std::string DeviceWhat;
  // When DeviceOnly is a call to a function with a body: the call, which
  // inlining may resolve.
  CallBase *ToInline = nullptr;

private:
  void add(Value *V) {
    if (auto *I = dyn_cast<Instruction>(V))
      if (Slice.insert(I).second) {
        Work.push_back(I);
        Via[I] = Current;
      }
  }

  void deviceOnly(const Instruction *I, StringRef What) {
    if (!DeviceOnly) {
      DeviceOnly = I;
      DeviceWhat = What.str();
    }
  }

  // The conditional terminators that decide whether BB runs.
  SmallVector<Instruction *, 4> decidingBranches(BasicBlock *BB) {
    SmallVector<Instruction *, 4> Deciding;
    for (BasicBlock &A : F) {
      Instruction *T = A.getTerminator();
      if (&A == BB || T->getNumSuccessors() < 2)
        continue;
      bool Decides = false;
      for (BasicBlock *S : successors(&A))
        Decides |= PDT.dominates(BB, S);
      if (Decides && !PDT.properlyDominates(BB, &A))
        Deciding.push_back(T);
    }
    return Deciding;
  }

  void addControlDependences(BasicBlock *BB) {
    if (ControlDone.insert(BB).second)
      for (Instruction *T : decidingBranches(BB))
        add(T);
  }

  // Visits what was added, and what that adds, up to a device-only value.
  void visitAdded() {
    while (!Work.empty() && !DeviceOnly) {
      Current = Work.front();
      Work.pop_front();
      visit(Current);
    }
  }

  // Adds I and what it needs, unless that reaches a device-only value;
  // then the slice stays as it was.
  void tryAdd(Instruction *I) {
    assert(!DeviceOnly && Work.empty() && "the slice is complete");
    auto Kept = std::make_tuple(Slice, Via, ControlDone);
    add(I);
    visitAdded();
    if (DeviceOnly) {
      std::tie(Slice, Via, ControlDone) = std::move(Kept);
      Work.clear();
      DeviceOnly = nullptr;
      DeviceWhat.clear();
      ToInline = nullptr;
    }
  }

  // The branches that choose the edge by which PB is entered: those after
  // PB's immediate dominator D (every path to PB passes D, so only a branch
  // taken after the last visit of D can choose). A loop before D, even a
  // thread-dependent one, does not decide a PHI after it.
  void addChoosingBranches(BasicBlock *PB) {
    DomTreeNode *Node = DT.getNode(PB);
    if (!Node || !Node->getIDom())
      return;
    BasicBlock *D = Node->getIDom()->getBlock();
    SmallPtrSet<BasicBlock *, 1> NotThroughD{D};
    auto Reaches = [&](BasicBlock *S) {
      return S == PB ||
             (S != D && isPotentiallyReachable(S, PB, &NotThroughD, &DT));
    };
    for (BasicBlock &X : F) {
      Instruction *T = X.getTerminator();
      if (T->getNumSuccessors() < 2 || !DT.dominates(D, &X))
        continue;
      unsigned Leading = count_if(successors(&X), Reaches);
      if (Leading >= (&X == D ? 2u : 1u))
        add(T);
    }
  }

  // Everything that may write the memory of A before the site.
  void addWriters(Instruction *A) {
    anyMemoryUse(A, [&](Instruction *UI, Value *P) {
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
        // A write on every path to the site is there whichever way the
        // branches before it went.
        if (!DT.dominates(UI, Site))
          addControlDependences(UI->getParent());
      }
      return false;
    });
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
      if (Callee && !Callee->isDeclaration() && !StageFns.count(Callee)) {
        if (!DeviceOnly)
          ToInline = CB;
        return deviceOnly(I, "a call to '" + demangle(Callee->getName()) +
                                 "', which could not be inlined");
      }
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
      for (Value *V : Phi->incoming_values())
        add(V);
      addChoosingBranches(Phi->getParent());
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
  Instruction *Current = nullptr;                         // being visited
  DenseMap<const Instruction *, const Instruction *> Via; // added for whom
  SmallPtrSet<BasicBlock *, 16> ControlDone;
};

// Whether a stage() site in a loop can see a different value in another
// iteration. A site is evaluated once per launch, so such a site would be
// folded with one iteration's value. Works on the slice of the site, inside
// the outermost loop around it: values from before that loop are the same
// in every iteration; inside it, a value varies when it depends on a loop
// header's PHI (the loop's variables), on memory that an iteration may
// change before the read or a previous iteration changed after it, or on a
// branch that does.
class LoopVariance {
public:
  LoopVariance(CallInst *Site, const SmallPtrSet<Instruction *, 32> &Slice,
               const StageFunctions &StageFns, DominatorTree &DT, LoopInfo &LI)
      : Site(Site), Slice(Slice), StageFns(StageFns), DT(DT), LI(LI) {}

  // A call to a function with a body that is given what the site reads in
  // the loop: inlined, it may show not to change it.
  mutable CallBase *ToInline = nullptr;

  // The loop in which Site varies, or null.
  const Loop *run() {
    const Loop *L = LI.getLoopFor(Site->getParent());
    if (!L)
      return nullptr;
    while (L->getParentLoop())
      L = L->getParentLoop();
    Outer = L;
    for (Instruction *I : Slice)
      if (Outer->contains(I))
        InLoop.push_back(I);
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (Instruction *I : InLoop)
        if (!Varies.count(I) && varies(I)) {
          Varies.insert(I);
          Changed = true;
        }
    }
    if (!Varies.count(Site))
      return nullptr;
    return LI.getLoopFor(Site->getParent());
  }

private:
  bool variesValue(const Value *V) const {
    auto *I = dyn_cast<Instruction>(V);
    return I && Varies.count(I);
  }

  // A read of the memory under Ptr at At varies when a write to it inside
  // the loop is not sure to come before At in the same iteration, or
  // writes a varying value. Memory whose address is stored in it (a
  // lambda's by-reference captures) is read too.
  bool variesMemory(const Value *Ptr, const Instruction *At) const {
    SmallPtrSet<const Value *, 4> Objects;
    return variesMemory(getUnderlyingObject(Ptr), At, Objects);
  }

  bool variesMemory(const Value *Base, const Instruction *At,
                    SmallPtrSetImpl<const Value *> &Objects) const {
    if (!isa<AllocaInst, Argument>(Base) || !Objects.insert(Base).second)
      return false; // device memory and globals: errors or constants
    return anyMemoryUse(const_cast<Value *>(Base), [&](Instruction *UI,
                                                       Value *P) {
      auto *SI = dyn_cast<StoreInst>(UI);
      if (SI && SI->getPointerOperand() == P &&
          SI->getValueOperand()->getType()->isPointerTy() &&
          variesMemory(getUnderlyingObject(SI->getValueOperand()), At, Objects))
        return true;
      if (!Outer->contains(UI) || UI == At || isa<LoadInst>(UI) ||
          !UI->mayWriteToMemory())
        return false;
      if (auto *II = dyn_cast<IntrinsicInst>(UI))
        if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
          return false;
      if (auto *MI = dyn_cast<MemIntrinsic>(UI); MI && MI->getRawDest() != P)
        return false; // a copy from P
      if (auto *CB = dyn_cast<CallBase>(UI))
        if (Function *Callee = CB->getCalledFunction();
            Callee && StageFns.count(Callee) && CB->getArgOperand(0) != P)
          return false; // a stage() call writes only its result
      if (SI && SI->getValueOperand() == P &&
          !Objects.count(getUnderlyingObject(SI->getPointerOperand())))
        return true; // the address escapes
      if (auto *MT = dyn_cast<MemTransferInst>(UI);
          MT && MT->getRawDest() == P &&
          variesMemory(getUnderlyingObject(MT->getRawSource()), MT, Objects))
        return true; // a copy of memory that varies
      if (auto *CB = dyn_cast<CallBase>(UI))
        if (Function *Callee = CB->getCalledFunction();
            Callee && !Callee->isDeclaration() && !StageFns.count(Callee)) {
          // What it does with the memory (keep its address, write it after
          // At) shows once it is inlined.
          if (!ToInline)
            ToInline = CB;
          return true;
        }
      return !DT.dominates(UI, At) || Varies.count(UI);
    });
  }

  // A loop header's PHI with no value on entry (the padding bytes of a
  // struct built in the loop, which SROA carries from one iteration to the
  // next): a program that reads it is undefined, so it varies only through
  // its values from inside the loop.
  static bool undefinedOnEntry(const PHINode *P, const Loop *L) {
    for (unsigned K = 0; K < P->getNumIncomingValues(); ++K)
      if (!L->contains(P->getIncomingBlock(K)) &&
          !isa<UndefValue>(P->getIncomingValue(K)))
        return false;
    return true;
  }

  // The branches inside the loop that choose which way reaches PHI P.
  bool variesChoice(const PHINode *P) const {
    const BasicBlock *PB = P->getParent();
    auto *Node = DT.getNode(PB);
    const BasicBlock *IDom =
        Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
    if (!IDom)
      return false;
    SmallPtrSet<BasicBlock *, 1> Stop{const_cast<BasicBlock *>(IDom)};
    for (Instruction *I : InLoop) {
      if (!I->isTerminator() || !Varies.count(I) ||
          !DT.dominates(IDom, I->getParent()))
        continue;
      if (I->getParent() == IDom ||
          isPotentiallyReachable(I->getParent(), PB, &Stop, &DT))
        return true;
    }
    return false;
  }

  bool varies(Instruction *I) const {
    if (auto *P = dyn_cast<PHINode>(I)) {
      const Loop *L = LI.getLoopFor(P->getParent());
      if (L && L->getHeader() == P->getParent() && !P->hasConstantValue()) {
        if (!undefinedOnEntry(P, L))
          return true; // a loop variable
        return any_of(P->incoming_values(),
                      [&](const Value *V) { return variesValue(V); });
      }
      return any_of(P->incoming_values(),
                    [&](const Value *V) { return variesValue(V); }) ||
             variesChoice(P);
    }
    if (auto *LD = dyn_cast<LoadInst>(I))
      return variesValue(LD->getPointerOperand()) ||
             variesMemory(LD->getPointerOperand(), LD);
    if (auto *CB = dyn_cast<CallBase>(I)) {
      // What the call reads: a copy its source, a stage() call all but its
      // result, any other call everything it is given.
      Function *Callee = CB->getCalledFunction();
      const Value *Written = nullptr;
      if (auto *MI = dyn_cast<MemIntrinsic>(CB))
        Written = MI->getRawDest();
      else if (Callee && StageFns.count(Callee))
        Written = CB->getArgOperand(0);
      for (const Value *Op : CB->args())
        if (variesValue(Op) || (Op != Written && Op->getType()->isPointerTy() &&
                                variesMemory(Op, CB)))
          return true;
      return false;
    }
    return any_of(I->operands(),
                  [&](const Value *V) { return variesValue(V); });
  }

  CallInst *Site;
  const SmallPtrSet<Instruction *, 32> &Slice;
  const StageFunctions &StageFns;
  DominatorTree &DT;
  LoopInfo &LI;
  const Loop *Outer = nullptr;
  SmallVector<Instruction *, 32> InLoop;
  SmallPtrSet<const Instruction *, 32> Varies;
};

// Where a loop starts, as file:line, for errors.
std::string describeLoop(const Loop *L) {
  for (const Instruction &I : *L->getHeader())
    if (const DILocation *Loc = userLocation(&I); Loc && Loc->getLine())
      return (sys::path::filename(Loc->getFilename()) + ":" +
              Twine(Loc->getLine()))
          .str();
  return "unknown location";
}

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

// A copy of Body, named Name + ".impl", that takes Extra more pointer
// parameters after Body's own; VMap maps Body's values to the copy's.
Function *cloneBodyWithExtraParams(Module &M, Function &Body, unsigned Extra,
                                   const Twine &Name, ValueToValueMapTy &VMap) {
  LLVMContext &Ctx = M.getContext();
  SmallVector<Type *, 8> Params(Body.arg_size() + Extra,
                                PointerType::get(Ctx, 0));
  Function *Impl =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), Params, false),
                       GlobalValue::InternalLinkage, Name + ".impl", M);
  for (unsigned K = 0; K < Body.arg_size(); ++K)
    VMap[Body.getArg(K)] = Impl->getArg(K);
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Impl, &Body, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  Impl->removeFnAttr(Attribute::OptimizeNone);
  Impl->removeFnAttr(Attribute::NoInline);
  return Impl;
}

// The first N pointers of the array Array (a launch's parameters).
SmallVector<Value *, 8> loadPointers(IRBuilder<> &B, Value *Array, unsigned N) {
  SmallVector<Value *, 8> Values;
  for (unsigned K = 0; K < N; ++K)
    Values.push_back(B.CreateLoad(
        B.getPtrTy(), B.CreateConstGEP1_32(B.getPtrTy(), Array, K)));
  return Values;
}

// Loop iterations after which an evaluator gives up: a branch of the slice
// may lead away from the site while the branches outside it, which head for
// the site, lead back around a loop (the site is not reached for these
// values), and the launch must fail rather than hang.
constexpr uint64_t EvaluatorMaxSteps = uint64_t(1) << 32;

// Counts every loop iteration of F in *Steps; past EvaluatorMaxSteps, F
// returns.
void boundLoops(Function &F, Argument *Steps) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Out = nullptr;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!Out) {
      Out = BasicBlock::Create(Ctx, "steps.out", &F);
      ReturnInst::Create(Ctx, Out);
    }
    BasicBlock *H = L->getHeader();
    BasicBlock *Go = H->splitBasicBlock(H->getFirstNonPHIIt(), "steps.go");
    H->getTerminator()->eraseFromParent();
    IRBuilder<> B(H);
    Value *N = B.CreateAdd(B.CreateLoad(B.getInt64Ty(), Steps), B.getInt64(1));
    B.CreateStore(N, Steps);
    B.CreateCondBr(B.CreateICmpUGT(N, B.getInt64(EvaluatorMaxSteps)), Out, Go);
  }
}

// Builds the host evaluator of Site from a copy of Body that keeps only the
// slice: control flow not in the slice takes the shortest way to the site,
// and the site's result is copied out before returning.
Function *buildEvaluator(Module &M, Function &Body, CallInst *Site,
                         const SmallPtrSet<Instruction *, 32> &Slice,
                         const Twine &Name, uint32_t Size) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  ValueToValueMapTy VMap;
  // The extra parameters: the launch configuration, the result, the count
  // of loop iterations (boundLoops).
  assert(Slice.count(Site) && "a slice holds its stage() call");
  Function *Impl = cloneBodyWithExtraParams(M, Body, 3, Name, VMap);
  assert(Impl->arg_size() == Body.arg_size() + 3 && "three extra parameters");
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
    // No way leads to the site: it is not reached for this launch.
    if (Best)
      BranchInst::Create(Best, &BB);
    else
      ReturnInst::Create(Ctx, &BB);
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
      Offset =
          LaunchConfig::GridDimOffset + LaunchConfig::AxisStride * (N[0] - 'x');
    else if (N.consume_front("__mstage_ntid_"))
      Offset = LaunchConfig::BlockDimOffset +
               LaunchConfig::AxisStride * (N[0] - 'x');
    else if (N == "__mstage_dynamic_shared_size")
      Offset = LaunchConfig::SharedBytesOffset;
    else
      continue;
    IRBuilder<> LB(CI);
    Value *Addr = LB.CreateConstGEP1_32(LB.getInt8Ty(), Config, Offset);
    CI->replaceAllUsesWith(LB.CreateLoad(LB.getInt32Ty(), Addr));
    CI->eraseFromParent();
  }
  removeUnreachableBlocks(*Impl);
  simplify(*Impl);
  Argument *Steps = Impl->getArg(Body.arg_size() + 2);
  boundLoops(*Impl, Steps);

  // int eval(void *const *args, const mstage_launch_config *, void *result):
  // 0, or 1 when the loops ran out of steps.
  Function *Eval = Function::Create(
      FunctionType::get(Type::getInt32Ty(Ctx), {Ptr, Ptr, Ptr}, false),
      GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> EB(BasicBlock::Create(Ctx, "entry", Eval));
  Value *Counter = EB.CreateAlloca(EB.getInt64Ty());
  EB.CreateStore(EB.getInt64(0), Counter);
  SmallVector<Value *, 8> Args =
      loadPointers(EB, Eval->getArg(0), Body.arg_size());
  Args.append({Eval->getArg(1), Eval->getArg(2), Counter});
  EB.CreateCall(Impl, Args);
  Value *Left = EB.CreateICmpUGT(EB.CreateLoad(EB.getInt64Ty(), Counter),
                                 EB.getInt64(EvaluatorMaxSteps));
  EB.CreateRet(EB.CreateZExt(Left, EB.getInt32Ty()));
  return Eval;
}

// Inlines into Body the calls on the way to its stage() sites, then, round
// by round, the calls whose results or writes a site's value needs (see
// Slicer::ToInline, LoopVariance::ToInline); the rest of the kernel (a
// large stencil's arithmetic) stays calls, for the device module's
// optimizer to inline on its own thread instead of being copied and
// simplified here. True when every site then slices (and, with
// CheckLoops, does not vary in a loop).
bool inlineWhatSitesNeed(Function &Body, const StageFunctions &StageFns,
                         bool CheckLoops) {
  inlineCalls(Body, StageFns, /*OnlyToSites=*/true);
  simplify(Body);
  for (unsigned Round = 0; Round < MaxInlineRounds; ++Round) {
    SetVector<CallBase *> Needed;
    bool AllPass = true;
    DominatorTree DT(Body);
    LoopInfo LI(DT);
    for (CallInst *Call : stageCalls(Body, StageFns)) {
      Slicer S(Body, Call, StageFns);
      if (!S.run()) {
        AllPass = false;
        if (S.ToInline)
          Needed.insert(S.ToInline);
        continue;
      }
      LoopVariance LV(Call, S.Slice, StageFns, DT, LI);
      if (CheckLoops && LV.run()) {
        AllPass = false;
        if (LV.ToInline)
          Needed.insert(LV.ToInline);
      }
    }
    if (AllPass)
      return true;
    bool Inlined = false;
    for (CallBase *CB : Needed) {
      InlineFunctionInfo IFI;
      if (InlineFunction(*CB, IFI).isSuccess()) {
        ++NumBodiesInlined;
        Inlined = true;
      }
    }
    if (!Inlined)
      return false;
    simplify(Body);
  }
  return false;
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
                       bool CheckLoops, StagedBody &Out) {
  Out.Body = &Entry;
  if (StageFns.empty() || !reachesStageSite(Entry, StageFns))
    return true;
  SmallVector<CallBase *, 2> Recursive = recursiveStageCalls(Entry, StageFns);
  for (CallBase *CB : Recursive)
    reportAt(CB, "this call reaches a stage() site from '" +
                     demangle(CB->getFunction()->getName()) +
                     "', which calls itself; recursion cannot be inlined "
                     "into the kernel, so a stage() site in it has no fixed "
                     "place: stage the value outside the recursion and pass "
                     "it down");
  if (!Recursive.empty())
    return false;

  ValueToValueMapTy VMap;
  Function *Body = CloneFunction(&Entry, VMap);
  Body->setName(StagedBodyPrefix + KernelName);
  Body->setLinkage(GlobalValue::InternalLinkage);
  Body->removeFnAttr(Attribute::OptimizeNone);
  Body->removeFnAttr(Attribute::NoInline);
  Out.Body = Body;
  Out.OwnsBody = true;
  {
    TimeTraceScope Scope("mstage stage sites inline");
    // At -O0 (optnone: the device module gets no inliner) the body is
    // flattened at once; so it is when the sites do not all pass with the
    // calls they need inlined, for the errors to be a flattened body's.
    Out.CalleesLeft = !Entry.hasFnAttribute(Attribute::OptimizeNone) &&
                      inlineWhatSitesNeed(*Body, StageFns, CheckLoops);
    if (!Out.CalleesLeft)
      flattenBody(*Body, StageFns);
  }

  SmallVector<CallInst *, 8> Calls = stageCalls(*Body, StageFns);

  TimeTraceScope SliceScope("mstage stage sites slice");
  DominatorTree DT(*Body);
  LoopInfo LI(DT);
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
      reportAt(Call, "this stage() call has no type information; "
                     "compile with mstage++");
      OK = false;
      ++NumSitesRejected;
      continue;
    }
    Slicer S(*Body, Call, StageFns);
    if (!S.run()) {
      std::string Dependence = "depends on " + S.DeviceWhat + ", read at " +
                               describeLocation(S.DeviceOnly);
      if (const Instruction *Branch = S.branchToDeviceOnly())
        Dependence = "is chosen by the branch at " + describeLocation(Branch) +
                     ", which " + Dependence;
      reportAt(Call, "the value passed to stage() " + Dependence +
                         "; staged values are computed on the host before "
                         "the launch, from kernel arguments, captures, "
                         "constants, the launch configuration and other "
                         "staged values");
      OK = false;
      ++NumSitesRejected;
      continue;
    }
    if (const Loop *L =
            CheckLoops ? LoopVariance(Call, S.Slice, StageFns, DT, LI).run()
                       : nullptr) {
      reportAt(Call, "this stage() call is in the loop at " + describeLoop(L) +
                         " and its value can change from one iteration to "
                         "the next; a stage() site is evaluated once per "
                         "launch, so it cannot take a value per iteration: "
                         "stage the value before the loop, or stage what "
                         "the iterations need at once (for example a "
                         "std::array of the values)");
      OK = false;
      ++NumSitesRejected;
      continue;
    }
    S.addDecidingBranches();
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << KernelName << " site "
                      << Out.Sites.size() << ": " << S.Slice.size()
                      << " instructions sliced\n");
    ++NumSitesSliced;
    Site.Evaluator = buildEvaluator(M, *Body, Call, S.Slice,
                                    "__mstage_eval." + KernelName + "." +
                                        Twine(Out.Sites.size()),
                                    Site.Info.Size);
    Out.Sites.push_back(Site);
  }
  return OK;
}

void flattenBody(Function &Body, const StageFunctions &StageFns) {
  inlineCalls(Body, StageFns, /*OnlyToSites=*/false);
  simplify(Body);
}

// Whether two copies of an instruction come from the same source line
// through the same chain of inlined calls (each copy of a function and each
// inlining make their own scopes and inlined-at locations).
static bool sameInlinedPlace(const DILocation *A, const DILocation *B) {
  for (; A && B; A = A->getInlinedAt(), B = B->getInlinedAt())
    if (A->getLine() != B->getLine() || A->getColumn() != B->getColumn())
      return false;
  return !A && !B;
}

// A copy of Entry with only the calls that lead to its stage() sites
// inlined, and its stage() calls in site order; nothing when these calls are
// not Staged's sites one for one (same callee and source location).
static Function *bodyToSites(Function &Entry,
                             const StagedBody &Staged,
                             const StageFunctions &StageFns,
                             SmallVectorImpl<CallInst *> &Sites) {
  ValueToValueMapTy VMap;
  Function *Body = CloneFunction(&Entry, VMap);
  Body->setLinkage(GlobalValue::InternalLinkage);
  Body->removeFnAttr(Attribute::OptimizeNone);
  Body->removeFnAttr(Attribute::NoInline);
  inlineCalls(*Body, StageFns, /*OnlyToSites=*/true);
  simplify(*Body);
  SmallVector<CallInst *, 8> Calls = stageCalls(*Body, StageFns);
  bool Same = Calls.size() == Staged.Sites.size();
  for (size_t I = 0; Same && I < Calls.size(); ++I) {
    const CallInst *Site = Staged.Sites[I].Call;
    Same = Calls[I]->getCalledFunction() == Site->getCalledFunction() &&
           sameInlinedPlace(Calls[I]->getDebugLoc(), Site->getDebugLoc());
  }
  if (!Same) {
    ++NumCheckersFlattened;
    Body->eraseFromParent();
    return nullptr;
  }
  Sites.assign(Calls.begin(), Calls.end());
  return Body;
}

Function *buildStageChecker(Module &M, Function &Entry,
                            const StagedBody &Staged,
                            const StageFunctions &StageFns, const Twine &Name) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  // Only MSTAGE_CHECK=stage runs the checker: built from the entry with the
  // paths to its sites inlined, it calls the rest of the kernel's code as the
  // host's copy of the kernel does; from the flattened body, it would be a
  // second copy of all of it (a fifth of a large kernel's compile time).
  SmallVector<CallInst *, 8> SiteCalls;
  Function *Partial = bodyToSites(Entry, Staged, StageFns, SiteCalls);
  if (!Partial)
    for (const StageSiteIR &Site : Staged.Sites)
      SiteCalls.push_back(Site.Call);
  Function &Body = Partial ? *Partial : *Staged.Body;
  ValueToValueMapTy VMap;
  // The extra parameter: the runtime's check context.
  Function *Impl = cloneBodyWithExtraParams(M, Body, 1, Name, VMap);

  // void __mstage_stage_check(void *context, uint32_t site, const void *v)
  FunctionCallee Check = M.getOrInsertFunction(
      "__mstage_stage_check", Type::getVoidTy(Ctx), Ptr, I32, Ptr);
  Argument *Context = Impl->getArg(Body.arg_size());
  for (size_t I = 0; I < SiteCalls.size(); ++I) {
    auto *S = cast<CallInst>(VMap[SiteCalls[I]]);
    IRBuilder<> B(S->getNextNode());
    B.SetCurrentDebugLocation(S->getDebugLoc());
    B.CreateCall(Check, {Context, B.getInt32(I), S->getArgOperand(0)});
  }

  // void checker(void *const *params): params as the launch's, then the
  // context.
  Function *Invoke =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
                       GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Invoke));
  B.CreateCall(Impl, loadPointers(B, Invoke->getArg(0), Body.arg_size() + 1));
  B.CreateRetVoid();
  if (Partial)
    Partial->eraseFromParent();
  return Invoke;
}

void replaceStageSites(Module &Dev, ArrayRef<CallInst *> Calls,
                       ArrayRef<StageSiteIR> Sites) {
  LLVMContext &Ctx = Dev.getContext();
  assert(Calls.size() == Sites.size() && "one device call per stage site");
  for (size_t I = 0; I < Calls.size(); ++I) {
    const StageSite &Info = Sites[I].Info;
    assert(Info.Size != 0 && "sites without a type were rejected");
    auto *Ty = ArrayType::get(Type::getInt8Ty(Ctx), Info.Size);
    auto *GV = new GlobalVariable(Dev, Ty, /*isConstant=*/true,
                                  GlobalValue::ExternalLinkage, nullptr,
                                  StagePlaceholderPrefix + Twine(I));
    GV->setAlignment(Align(Info.Align));
    IRBuilder<> B(Calls[I]);
    // The read is the user's stage() line, not a line of mstage's header:
    // NVPTX's .loc cannot say what a line was inlined into.
    for (const DILocation *L = Calls[I]->getDebugLoc().get(); L;
         L = L->getInlinedAt())
      if (L->getLine() == Info.Line && L->getColumn() == Info.Column) {
        B.SetCurrentDebugLocation(L);
        break;
      }
    B.CreateMemCpy(Calls[I]->getArgOperand(0), MaybeAlign(Info.Align), GV,
                   Align(Info.Align), Info.Size);
    Calls[I]->eraseFromParent();
    ++NumPlaceholders;
  }
}

} // namespace mstage
