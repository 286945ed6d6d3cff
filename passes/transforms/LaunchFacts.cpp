//===- LaunchFacts.cpp - What a launch's pointers tell the JIT ------------===//
#include "transforms/LaunchFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#include <cassert>

using namespace llvm;

#define DEBUG_TYPE "mstage-launch-facts"

STATISTIC(NumInvariantLoads, "Loads of unwritten views marked invariant");
STATISTIC(NumScopedAccesses, "Accesses given their allocation's alias scope");
STATISTIC(NumAlignmentAssumptions, "Alignments of views assumed");

namespace mstage {
namespace {

// The groups of the allocations an address may be in: a mask of groups
// (at most 64), or Unknown when some way of computing it is not a slot's
// pointer plus an offset (a pointer read from memory, an integer cast).
struct Place {
  uint64_t Groups = 0;
  bool Unknown = false;
};

class FactsAnalysis {
public:
  FactsAnalysis(Function &Kernel, ArrayRef<PointerSlot> Slots,
                ArrayRef<SlotFact> Facts) {
    for (Instruction &I : instructions(Kernel))
      if (auto S = pointerSlotOf(I)) {
        const auto *It = llvm::lower_bound(Slots, *S);
        if (It == Slots.end() || !(*It == *S))
          continue;
        const SlotFact &F = Facts[It - Slots.begin()];
        if (F.Group < 64)
          GroupOf[&I] = F.Group;
        if (F.AlignLog2 > 0)
          Aligned.push_back({&I, 1u << std::min<unsigned>(F.AlignLog2, 4)});
      }
  }

  Place placeOf(const Value *Ptr) const {
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects, nullptr, /*MaxLookup=*/0);
    Place P;
    for (const Value *O : Objects) {
      if (auto It = GroupOf.find(O); It != GroupOf.end())
        P.Groups |= uint64_t(1) << It->second;
      else if (isa<AllocaInst>(O) || isa<GlobalVariable>(O) ||
               (isa<Argument>(O) && cast<Argument>(O)->hasByValAttr()))
        continue; // the thread's, the block's or the module's own memory
      else
        P.Unknown = true;
    }
    return P;
  }

  DenseMap<const Value *, unsigned> GroupOf;
  SmallVector<std::pair<Instruction *, unsigned>, 8> Aligned;
};

// Calls that write no memory a view points to.
bool writesNoViews(const CallBase &CB) {
  if (CB.onlyReadsMemory() || CB.onlyAccessesInaccessibleMemory())
    return true;
  const Function *F = CB.getCalledFunction();
  if (!F)
    return false;
  StringRef Name = F->getName();
  // Barriers and fences order memory, printf and assert read their own
  // buffers.
  return Name.starts_with("llvm.nvvm.barrier") ||
         Name.starts_with("llvm.nvvm.bar.") ||
         Name.starts_with("llvm.nvvm.membar") ||
         Name.starts_with("llvm.nvvm.fence") || Name == "vprintf" ||
         Name == "__assertfail" || F->getIntrinsicID() == Intrinsic::assume ||
         F->getIntrinsicID() == Intrinsic::lifetime_start ||
         F->getIntrinsicID() == Intrinsic::lifetime_end;
}

} // namespace

void applyLaunchFacts(Function &Kernel, ArrayRef<PointerSlot> Slots,
                      ArrayRef<SlotFact> Facts, FactsPass When) {
  assert((Facts.empty() || Facts.size() == Slots.size()) &&
         "launch facts are made one per pointer slot");
  if (Slots.empty() || Facts.size() != Slots.size())
    return;
  FactsAnalysis A(Kernel, Slots, Facts);

  // Where each access goes, and which groups are written.
  struct Access {
    Instruction *I;
    Place P;
  };
  SmallVector<Access, 32> Accesses;
  uint64_t Written = 0, Used = 0;
  bool UnknownWrite = false;
  auto Write = [&](const Place &P) {
    Written |= P.Groups;
    UnknownWrite |= P.Unknown;
  };
  for (Instruction &I : instructions(Kernel)) {
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      Accesses.push_back({L, A.placeOf(L->getPointerOperand())});
    } else if (auto *S = dyn_cast<StoreInst>(&I)) {
      Accesses.push_back({S, A.placeOf(S->getPointerOperand())});
      Write(Accesses.back().P);
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      Accesses.push_back({RMW, A.placeOf(RMW->getPointerOperand())});
      Write(Accesses.back().P);
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      Accesses.push_back({CX, A.placeOf(CX->getPointerOperand())});
      Write(Accesses.back().P);
    } else if (auto *MI = dyn_cast<AnyMemIntrinsic>(&I)) {
      Write(A.placeOf(MI->getRawDest()));
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (!writesNoViews(*CB))
        UnknownWrite = true;
    }
  }
  for (const Access &X : Accesses)
    Used |= X.P.Groups;

  LLVMContext &Ctx = Kernel.getContext();
  // A load from groups that nothing in the kernel writes: ld.global.nc.
  auto MarkReadOnly = [&](const Access &X) {
    auto *L = dyn_cast<LoadInst>(X.I);
    if (L && L->isSimple() && !X.P.Unknown && X.P.Groups && !UnknownWrite &&
        !(Written & X.P.Groups)) {
      L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
      ++NumInvariantLoads;
    }
  };
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Kernel.getName() << ": "
                    << Accesses.size() << " accesses, groups used 0x"
                    << Twine::utohexstr(Used) << ", written 0x"
                    << Twine::utohexstr(Written)
                    << (UnknownWrite ? ", and an unknown write" : "") << "\n");
  if (When == FactsPass::AfterOptimization) {
    for (const Access &X : Accesses)
      MarkReadOnly(X);
    return;
  }
  // One scope per group: accesses of different groups never alias. Each
  // group's own scope and the list of the others, made once.
  // The lists are made from the scopes themselves, never from another
  // group's list (a list in a list is invalid metadata).
  SmallVector<MDNode *, 8> Scope(64, nullptr), Others(64, nullptr);
  if (llvm::popcount(Used) > 1) {
    MDBuilder MDB(Ctx);
    MDNode *Domain = MDB.createAnonymousAliasScopeDomain("mstage.launch");
    SmallVector<MDNode *, 8> Scopes(64, nullptr);
    for (unsigned G = 0; G < 64; ++G)
      if (Used & (uint64_t(1) << G))
        Scopes[G] = MDB.createAnonymousAliasScope(
            Domain, "mstage.group." + std::to_string(G));
    for (unsigned G = 0; G < 64; ++G) {
      if (!Scopes[G])
        continue;
      SmallVector<Metadata *, 8> Rest;
      for (unsigned H = 0; H < 64; ++H)
        if (H != G && Scopes[H])
          Rest.push_back(Scopes[H]);
      Others[G] = MDNode::get(Ctx, Rest);
      Scope[G] = MDNode::get(Ctx, {Scopes[G]});
    }
  }
  for (const Access &X : Accesses) {
    if (X.P.Unknown || llvm::popcount(X.P.Groups) != 1)
      continue;
    unsigned G = llvm::countr_zero(X.P.Groups);
    assert(G < 64 && (Used & X.P.Groups) && "an access's group is used");
    if (Scope[G]) {
      ++NumScopedAccesses;
      X.I->setMetadata(
          LLVMContext::MD_alias_scope,
          MDNode::concatenate(X.I->getMetadata(LLVMContext::MD_alias_scope),
                              Scope[G]));
      X.I->setMetadata(
          LLVMContext::MD_noalias,
          MDNode::concatenate(X.I->getMetadata(LLVMContext::MD_noalias),
                              Others[G]));
    }
    MarkReadOnly(X);
  }

  const DataLayout &DL = Kernel.getDataLayout();
  for (auto [P, Align] : A.Aligned) {
    IRBuilder<> B(P->getNextNode());
    B.CreateAlignmentAssumption(DL, P, Align);
    ++NumAlignmentAssumptions;
  }
}

std::string formatLaunchFacts(ArrayRef<SlotFact> Facts) {
  std::string Out;
  for (const SlotFact &F : Facts) {
    if (!Out.empty())
      Out += ' ';
    if (F.Group == SlotFact::NoGroup) {
      Out += '?';
      continue;
    }
    Out += F.Group < 26 ? std::string(1, char('A' + F.Group))
                        : "G" + std::to_string(F.Group);
    Out += std::to_string(1u << F.AlignLog2);
  }
  return Out;
}

Expected<std::vector<SlotFact>> parseLaunchFacts(StringRef Text,
                                                 size_t NumSlots) {
  auto Bad = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Why);
  };
  SmallVector<StringRef, 8> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  if (Words.size() != NumSlots)
    return Bad("'" + Text + "' gives " + Twine(Words.size()) +
               " views; the kernel has " + Twine(NumSlots) +
               " pointer slots (mstage-ptx FILE lists them)");
  std::vector<SlotFact> Facts;
  for (StringRef W : Words) {
    SlotFact F;
    if (W == "?") {
      Facts.push_back(F);
      continue;
    }
    StringRef Rest = W;
    unsigned Group = 0, Bytes = 0;
    if (Rest.consume_front("G")) {
      if (Rest.consumeInteger(10, Group) || Group >= SlotFact::NoGroup)
        return Bad("'" + W + "': a group G<N> needs N below 255");
    } else if (!Rest.empty() && Rest[0] >= 'A' && Rest[0] <= 'Z') {
      Group = Rest[0] - 'A';
      Rest = Rest.drop_front();
    } else {
      return Bad("'" + W +
                 "' is not a view: write its allocation as a "
                 "letter and its alignment in bytes (A16), or "
                 "? for a pointer not known");
    }
    if (Rest.getAsInteger(10, Bytes) || !isPowerOf2_32(Bytes) || Bytes > 16)
      return Bad("'" + W + "': the alignment must be 1, 2, 4, 8 or 16");
    F.Group = uint8_t(Group);
    F.AlignLog2 = uint8_t(Log2_32(Bytes));
    Facts.push_back(F);
  }
  return Facts;
}

} // namespace mstage
