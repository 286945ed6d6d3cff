//===- AccessFootprint.cpp - The device bytes a launch may read and write -===//
#include "transforms/AccessFootprint.h"

#include "formats/PointerSlots.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LazyValueInfo.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Passes/PassBuilder.h"

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace mstage {

bool accessesMeet(const AccessFootprint &A, const AccessFootprint &B) {
  if (!A.Bounded || !B.Bounded)
    return true;
  auto Meet = [](const std::vector<ByteRange> &X,
                 const std::vector<ByteRange> &Y) {
    for (size_t I = 0, J = 0; I < X.size() && J < Y.size();) {
      if (X[I].End <= Y[J].Begin)
        ++I;
      else if (Y[J].End <= X[I].Begin)
        ++J;
      else
        return true;
    }
    return false;
  };
  return Meet(A.Writes, B.Writes) || Meet(A.Writes, B.Reads) ||
         Meet(A.Reads, B.Writes);
}

void normalizeRanges(std::vector<ByteRange> &Ranges) {
  llvm::sort(Ranges, [](const ByteRange &A, const ByteRange &B) {
    return A.Begin < B.Begin;
  });
  size_t Out = 0;
  for (const ByteRange &R : Ranges) {
    if (R.Begin >= R.End)
      continue;
    if (Out && R.Begin <= Ranges[Out - 1].End)
      Ranges[Out - 1].End = std::max(Ranges[Out - 1].End, R.End);
    else
      Ranges[Out++] = R;
  }
  Ranges.resize(Out);
}

void bindParameters(Function &Kernel, ArrayRef<StringRef> ParamBytes) {
  Module &M = *Kernel.getParent();
  // LVI takes a call's range from its range attribute (an index
  // intrinsic's declaration has the widest one) before its !range, which
  // KernelSpecialization.h gives from the launch: the call gets the
  // narrower as its attribute.
  for (Instruction &I : instructions(Kernel)) {
    auto *Call = dyn_cast<CallBase>(&I);
    MDNode *MD = I.getMetadata(LLVMContext::MD_range);
    if (!Call || !MD || !Call->getType()->isIntegerTy())
      continue;
    ConstantRange R = getConstantRangeFromMetadata(*MD);
    if (std::optional<ConstantRange> Old = Call->getRange())
      R = R.intersectWith(*Old);
    Call->removeRetAttr(Attribute::Range);
    Call->addRetAttr(Attribute::get(M.getContext(), Attribute::Range, R));
  }
  for (Argument &A : Kernel.args()) {
    if (A.getArgNo() >= ParamBytes.size() || !A.hasByValAttr() ||
        mayWriteThrough(A))
      continue;
    StringRef Bytes = ParamBytes[A.getArgNo()];
    if (M.getDataLayout().getTypeAllocSize(A.getParamByValType()) !=
        Bytes.size())
      continue;
    Constant *Init = ConstantDataArray::getRaw(Bytes, Bytes.size(),
                                               Type::getInt8Ty(M.getContext()));
    auto *G = new GlobalVariable(
        M, Init->getType(), /*isConstant=*/true, GlobalValue::PrivateLinkage,
        Init, Kernel.getName() + ".param" + Twine(A.getArgNo()), nullptr,
        GlobalValue::NotThreadLocal, A.getType()->getPointerAddressSpace());
    G->setAlignment(Align(16));
    A.replaceAllUsesWith(G);
  }
}

namespace {

// Wide enough for a 64-bit address plus a sum of products of 64-bit values:
// with at most MaxTerms atoms (64-bit values) of coefficients under
// CoefLimit, and constants under Limit, a form's bounds stay under 2^127.
using Int = __int128;
constexpr Int Limit = Int(1) << 100;
constexpr Int CoefLimit = Int(1) << 60;
constexpr size_t MaxTerms = 4;

bool inLimit(Int V, Int Bound = Limit) { return V > -Bound && V < Bound; }

// A * B, when it is under Bound.
std::optional<Int> product(Int A, Int B, Int Bound) {
  Int P;
  if (__builtin_mul_overflow(A, B, &P) || !inLimit(P, Bound))
    return std::nullopt;
  return P;
}

// One value the address depends on, in [Lo, Hi].
struct Term {
  const Value *Atom;
  Int Coef, Lo, Hi;
};

// Const + sum of Coef * Atom: congruent, modulo 2^width of the value it
// stands for, to that value.
struct Form {
  Int Const = 0;
  SmallVector<Term, 4> Terms;

  Int min() const {
    Int S = Const;
    for (const Term &T : Terms)
      S += T.Coef > 0 ? T.Coef * T.Lo : T.Coef * T.Hi;
    return S;
  }
  Int max() const {
    Int S = Const;
    for (const Term &T : Terms)
      S += T.Coef > 0 ? T.Coef * T.Hi : T.Coef * T.Lo;
    return S;
  }
};

std::optional<Form> scaled(Form F, Int C) {
  std::optional<Int> Const = product(F.Const, C, Limit);
  if (!Const)
    return std::nullopt;
  F.Const = *Const;
  for (Term &T : F.Terms) {
    std::optional<Int> Coef = product(T.Coef, C, CoefLimit);
    if (!Coef)
      return std::nullopt;
    T.Coef = *Coef;
  }
  llvm::erase_if(F.Terms, [](const Term &T) { return T.Coef == 0; });
  return F;
}

std::optional<Form> sum(Form F, const Form &G) {
  F.Const += G.Const;
  if (!inLimit(F.Const))
    return std::nullopt;
  for (const Term &T : G.Terms) {
    auto It =
        llvm::find_if(F.Terms, [&](const Term &U) { return U.Atom == T.Atom; });
    if (It == F.Terms.end()) {
      F.Terms.push_back(T);
      continue;
    }
    It->Coef += T.Coef;
    if (!inLimit(It->Coef, CoefLimit))
      return std::nullopt;
  }
  llvm::erase_if(F.Terms, [](const Term &T) { return T.Coef == 0; });
  if (F.Terms.size() > MaxTerms || !inLimit(F.min()) || !inLimit(F.max()))
    return std::nullopt;
  return F;
}

bool fitsUnsigned(const Form &F, unsigned Bits) {
  return F.min() >= 0 && F.max() < (Int(1) << Bits);
}
bool fitsSigned(const Form &F, unsigned Bits) {
  return F.min() >= -(Int(1) << (Bits - 1)) && F.max() < (Int(1) << (Bits - 1));
}

Int asInt(const APInt &V, bool Signed) {
  // Widths over 64 bits are never atoms' (they fail the limits below).
  return Signed ? Int(V.getSExtValue()) : Int(V.getZExtValue());
}

enum class BaseKind { Absolute, Private, ConstantGlobal, Unknown };

// How an atom's bits are read: as the consumer needs (a zext its unsigned
// value, a sext or a GEP index its signed one), or either where only the
// value modulo its width matters.
enum class Reading { Either, Unsigned, Signed };

// Decomposes the addresses of one access; Ctx is the access, where LVI
// reads the conditions that guard it.
class AddressForms {
public:
  AddressForms(LazyValueInfo &LVI, const DominatorTree &DT,
               const DataLayout &DL, Instruction *Ctx)
      : LVI(LVI), DT(DT), DL(DL), Ctx(Ctx) {}

  // The address P as a form of absolute addresses (Absolute), or where it
  // points otherwise.
  BaseKind pointer(const Value *P, Form &Out) {
    Form Offset;
    for (unsigned Steps = 0; Steps < 64; ++Steps) {
      P = P->stripPointerCasts();
      if (const auto *GEP = dyn_cast<GEPOperator>(P)) {
        unsigned Bits = DL.getIndexSizeInBits(GEP->getPointerAddressSpace());
        if (Bits != 64)
          return BaseKind::Unknown;
        SmallMapVector<Value *, APInt, 4> Vars;
        APInt Const(Bits, 0);
        if (!GEP->collectOffset(DL, Bits, Vars, Const))
          return BaseKind::Unknown;
        Form F;
        F.Const = asInt(Const, /*Signed=*/true);
        for (auto &[V, Scale] : Vars) {
          // The GEP sign-extends a narrower index.
          std::optional<Form> I = index(V);
          if (!I)
            return BaseKind::Unknown;
          std::optional<Form> S = scaled(*I, asInt(Scale, /*Signed=*/true));
          if (!S || !(S = sum(*S, F)))
            return BaseKind::Unknown;
          F = *S;
        }
        std::optional<Form> Total = sum(Offset, F);
        if (!Total)
          return BaseKind::Unknown;
        Offset = *Total;
        P = GEP->getPointerOperand();
        continue;
      }
      if (const auto *Op = dyn_cast<Operator>(P);
          Op && Op->getOpcode() == Instruction::IntToPtr) {
        const Value *I = Op->getOperand(0);
        if (I->getType()->getIntegerBitWidth() != 64)
          return BaseKind::Unknown;
        std::optional<Form> Base = integer(I);
        if (!Base || !(Base = sum(*Base, Offset)))
          return BaseKind::Unknown;
        Out = *Base;
        return BaseKind::Absolute;
      }
      if (isa<ConstantPointerNull>(P)) {
        Out = Offset;
        return BaseKind::Absolute;
      }
      if (isa<AllocaInst>(P))
        return BaseKind::Private;
      if (const auto *A = dyn_cast<Argument>(P))
        return A->hasByValAttr() ? BaseKind::Private : BaseKind::Unknown;
      if (const auto *G = dyn_cast<GlobalVariable>(P))
        return G->isConstant() ? BaseKind::ConstantGlobal : BaseKind::Unknown;
      return BaseKind::Unknown;
    }
    return BaseKind::Unknown;
  }

private:
  // A GEP's index, sign-extended to 64 bits.
  std::optional<Form> index(const Value *V) {
    unsigned Bits = V->getType()->getIntegerBitWidth();
    std::optional<Form> F = integer(V);
    if (Bits == 64 || (F && fitsSigned(*F, Bits)))
      return F;
    return atom(V, Reading::Signed);
  }

  // V as a form: its constant, a sum of forms, or itself (an atom) with its
  // range at Ctx; the atom too where its range there is narrower than the
  // form's (a guard bounds it: a row checked against the field's edges).
  std::optional<Form> integer(const Value *V) {
    if (++Visits > 512)
      return atom(V, Reading::Either);
    unsigned Bits = V->getType()->getIntegerBitWidth();
    if (Bits > 64)
      return std::nullopt;
    if (const auto *C = dyn_cast<ConstantInt>(V)) {
      Form F;
      F.Const = asInt(C->getValue(), /*Signed=*/true);
      return F;
    }
    std::optional<Form> F = decompose(V, Bits);
    if (!F)
      return atom(V, Reading::Either);
    std::optional<Form> A = atom(V, Reading::Either);
    if (A && (A->Terms.empty() ||
              A->Terms[0].Hi - A->Terms[0].Lo < F->max() - F->min()))
      return A;
    return F;
  }

  std::optional<Form> decompose(const Value *V, unsigned Bits) {
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return std::nullopt;
    switch (I->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Or: {
      if (I->getOpcode() == Instruction::Or &&
          !cast<PossiblyDisjointInst>(I)->isDisjoint())
        return std::nullopt;
      std::optional<Form> L = integer(I->getOperand(0));
      std::optional<Form> R = integer(I->getOperand(1));
      if (!L || !R)
        return std::nullopt;
      if (I->getOpcode() == Instruction::Sub && !(R = scaled(*R, -1)))
        return std::nullopt;
      return sum(*L, *R);
    }
    case Instruction::Mul: {
      std::optional<Form> L = integer(I->getOperand(0));
      std::optional<Form> R = integer(I->getOperand(1));
      if (!L || !R)
        return std::nullopt;
      if (R->Terms.empty())
        return scaled(*L, R->Const);
      if (L->Terms.empty())
        return scaled(*R, L->Const);
      return std::nullopt;
    }
    case Instruction::Shl: {
      const auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
      if (!C || C->getZExtValue() >= Bits || C->getZExtValue() > 62)
        return std::nullopt;
      std::optional<Form> L = integer(I->getOperand(0));
      if (!L)
        return std::nullopt;
      return scaled(*L, Int(1) << C->getZExtValue());
    }
    case Instruction::ZExt:
    case Instruction::SExt: {
      const Value *Op = I->getOperand(0);
      unsigned From = Op->getType()->getIntegerBitWidth();
      std::optional<Form> F = integer(Op);
      bool Signed = I->getOpcode() == Instruction::SExt;
      if (F && (Signed ? fitsSigned(*F, From) : fitsUnsigned(*F, From)))
        return F;
      return atom(Op, Signed ? Reading::Signed : Reading::Unsigned);
    }
    case Instruction::Trunc:
      // Congruent modulo the narrower width too.
      return integer(I->getOperand(0));
    default:
      return std::nullopt;
    }
  }

  // V itself, in its range at Ctx, read as How says; Either: its unsigned
  // values where they do not wrap, else its signed ones, else all.
  std::optional<Form> atom(const Value *V, Reading How) {
    unsigned Bits = V->getType()->getIntegerBitWidth();
    if (Bits > 64)
      return std::nullopt;
    ConstantRange R = LVI.getConstantRange(const_cast<Value *>(V), Ctx,
                                           /*UndefAllowed=*/false);
    Term T{V, 1, 0, 0};
    bool Signed =
        How == Reading::Signed ||
        (How == Reading::Either && R.isUpperWrapped() && !R.isSignWrappedSet());
    // getSignedMin/Max and getUnsignedMin/Max bound the range either way:
    // a wrapped one in that reading gets the whole width.
    if (Signed) {
      T.Lo = asInt(R.getSignedMin(), true);
      T.Hi = asInt(R.getSignedMax(), true);
    } else {
      T.Lo = asInt(R.getUnsignedMin(), false);
      T.Hi = asInt(R.getUnsignedMax(), false);
    }
    narrowByGuards(V, T, Signed);
    Form F;
    if (T.Lo == T.Hi) {
      F.Const = T.Lo;
      return F;
    }
    F.Terms.push_back(T);
    return F;
  }

  // Narrows T (V's values, read signed or not) by the conditions that hold
  // at Ctx: those of each branch or switch whose edge alone enters a block
  // that dominates Ctx. LVI reads most of them, but not through a truncation
  // ("row - 1 < 254" on the row's low byte, which is how the optimizer
  // checks "not 0 and not 255" once the field's edge is known) nor a
  // switch's default edge with its cases inside the range.
  void narrowByGuards(const Value *V, Term &T, bool Signed) {
    // As LLVM's dominating conditions: V's definition dominates the check,
    // so every path to Ctx since V was last made takes the checked edge.
    unsigned Bits = V->getType()->getIntegerBitWidth();
    ConstantRange R = ConstantRange::getFull(Bits);
    for (DomTreeNode *N = DT.getNode(Ctx->getParent()); N && N->getIDom();
         N = N->getIDom()) {
      const BasicBlock *B = N->getBlock();
      const BasicBlock *P = B->getSinglePredecessor();
      if (!P)
        continue;
      if (const auto *Br = dyn_cast<BranchInst>(P->getTerminator())) {
        if (Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1))
          constrain(Br->getCondition(), Br->getSuccessor(0) == B, V, R, 0);
      } else if (const auto *SI = dyn_cast<SwitchInst>(P->getTerminator())) {
        switchEdge(*SI, B, V, R);
      }
    }
    if (R.isFullSet())
      return;
    if (Signed ? R.isSignWrappedSet() : R.isUpperWrapped())
      return;
    T.Lo = std::max(
        T.Lo, asInt(Signed ? R.getSignedMin() : R.getUnsignedMin(), Signed));
    T.Hi = std::min(
        T.Hi, asInt(Signed ? R.getSignedMax() : R.getUnsignedMax(), Signed));
    if (T.Lo > T.Hi) // the access cannot run: keep its range as it was
      T.Hi = T.Lo;
  }

  // The values of V allowed where Cond is Holds, into R; Cond reached
  // through logical ands (and ors that fail).
  void constrain(const Value *Cond, bool Holds, const Value *V,
                 ConstantRange &R, unsigned Depth) {
    if (Depth > 8)
      return;
    const Value *A, *B;
    if (Holds ? match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))
              : match(Cond, m_LogicalOr(m_Value(A), m_Value(B)))) {
      constrain(A, Holds, V, R, Depth + 1);
      constrain(B, Holds, V, R, Depth + 1);
      return;
    }
    const auto *Cmp = dyn_cast<ICmpInst>(Cond);
    const auto *C = Cmp ? dyn_cast<ConstantInt>(Cmp->getOperand(1)) : nullptr;
    if (!C)
      return;
    CmpInst::Predicate Pred =
        Holds ? Cmp->getPredicate() : Cmp->getInversePredicate();
    narrow(Cmp->getOperand(0),
           ConstantRange::makeAllowedICmpRegion(Pred, C->getValue()), V, R);
  }

  // The values of V where switch SI takes its edge to B.
  void switchEdge(const SwitchInst &SI, const BasicBlock *B, const Value *V,
                  ConstantRange &R) {
    unsigned Bits = SI.getCondition()->getType()->getIntegerBitWidth();
    bool Default = SI.getDefaultDest() == B;
    ConstantRange Allowed = ConstantRange::getEmpty(Bits);
    SmallVector<APInt, 8> Excluded;
    for (const auto &K : SI.cases()) {
      if (K.getCaseSuccessor() == B)
        Allowed = Allowed.unionWith(K.getCaseValue()->getValue());
      else if (Default)
        Excluded.push_back(K.getCaseValue()->getValue());
    }
    if (Default) {
      // Only the cases at the ends of V's range narrow it: a hole is not a
      // range. The range is found first, from the other conditions.
      ConstantRange Here = LVI.getConstantRange(
          const_cast<Value *>(SI.getCondition()), Ctx, false);
      if (Here.isWrappedSet())
        return;
      APInt Lo = Here.getLower(), Hi = Here.getUpper() - 1;
      for (bool Moved = true; Moved && Lo.ult(Hi);) {
        Moved = false;
        if (llvm::is_contained(Excluded, Lo))
          ++Lo, Moved = true;
        if (llvm::is_contained(Excluded, Hi))
          --Hi, Moved = true;
      }
      Allowed = ConstantRange::getNonEmpty(Lo, Hi + 1);
    }
    narrow(SI.getCondition(), Allowed, V, R);
  }

  // R narrowed by X being in Allowed, where X is V, or V plus a constant, or
  // V's truncation or extension (through any number of those).
  void narrow(const Value *X, ConstantRange Allowed, const Value *V,
              ConstantRange &R) {
    for (unsigned Steps = 0; Steps < 8; ++Steps) {
      if (X == V) {
        R = R.intersectWith(Allowed);
        return;
      }
      const APInt *Add;
      const Value *Y;
      if (match(X, m_Add(m_Value(Y), m_APInt(Add)))) {
        Allowed = Allowed.sub(*Add); // exact modulo the width
        X = Y;
      } else if (match(X, m_Trunc(m_Value(Y)))) {
        // Only where Y's values fit the narrower width: then they are its.
        unsigned Wide = Y->getType()->getIntegerBitWidth();
        ConstantRange YRange =
            LVI.getConstantRange(const_cast<Value *>(Y), Ctx, false);
        if (YRange.getUnsignedMax().getActiveBits() > Allowed.getBitWidth())
          return;
        Allowed = Allowed.zeroExtend(Wide);
        X = Y;
      } else if (match(X, m_ZExt(m_Value(Y)))) {
        Allowed = Allowed.truncate(Y->getType()->getIntegerBitWidth());
        X = Y;
      } else {
        // X may be V's truncation or extension instead.
        const Value *Inner;
        if (match(V, m_ZExt(m_Value(Inner))) && Inner == X) {
          R = R.intersectWith(Allowed.zeroExtend(R.getBitWidth()));
          return;
        }
        return;
      }
    }
  }

  LazyValueInfo &LVI;
  const DominatorTree &DT;
  const DataLayout &DL;
  Instruction *Ctx;
  unsigned Visits = 0;
};

// Collects the ranges of each access; unbounded at the first that cannot
// be followed.
class FootprintBuilder {
public:
  FootprintBuilder(LazyValueInfo &LVI, const DominatorTree &DT,
                   const DataLayout &DL, size_t MaxRanges)
      : LVI(LVI), DT(DT), DL(DL), MaxRanges(MaxRanges) {}

  bool Unbounded = false;
  std::vector<ByteRange> Reads, Writes;

  void access(Instruction &At, const Value *Ptr, uint64_t Size, bool Read,
              bool Write) {
    if (Unbounded || Size == 0)
      return;
    unsigned AS = Ptr->getType()->getPointerAddressSpace();
    // Shared (also a cluster's), constant, local and parameter memory: the
    // block's, the module's (never written by a kernel) or the thread's.
    if (AS == 3 || AS == 4 || AS == 5 || AS == 7 || AS == 101)
      return;
    Form F;
    switch (AddressForms(LVI, DT, DL, &At).pointer(Ptr, F)) {
    case BaseKind::Private:
      return;
    case BaseKind::ConstantGlobal:
      if (Write)
        Unbounded = true; // not the program's to write; never mind why
      return;
    case BaseKind::Unknown:
      Unbounded = true;
      return;
    case BaseKind::Absolute:
      break;
    }
    if (F.min() < 0 || F.max() + Int(Size) > (Int(1) << 64)) {
      Unbounded = true;
      return;
    }
    if (Read)
      add(Reads, F, Size);
    if (Write)
      add(Writes, F, Size);
  }

private:
  // The bytes F's addresses touch, Size at each: a range for each value of
  // the outer terms, the innermost (smallest step) a range where its step
  // is within Size, else a range each; their span when that is too many.
  void add(std::vector<ByteRange> &To, Form F, uint64_t Size) {
    Int Lo = F.min(), Hi = F.max() + Int(Size);
    auto Span = [&] { To.push_back({uint64_t(Lo), uint64_t(Hi)}); };
    llvm::sort(F.Terms, [](const Term &A, const Term &B) {
      Int CA = A.Coef < 0 ? -A.Coef : A.Coef,
          CB = B.Coef < 0 ? -B.Coef : B.Coef;
      return CA > CB;
    });
    size_t Budget = MaxRanges > To.size() ? MaxRanges - To.size() : 0;
    if (F.Terms.empty()) {
      To.push_back({uint64_t(F.Const), uint64_t(F.Const + Int(Size))});
      return;
    }
    Term Inner = F.Terms.back();
    F.Terms.pop_back();
    Int InnerStep = Inner.Coef < 0 ? -Inner.Coef : Inner.Coef;
    bool InnerDense = InnerStep <= Int(Size);
    // Each factor is checked before it multiplies: no overflow.
    Int Count = InnerDense ? 1 : Inner.Hi - Inner.Lo + 1;
    if (Count > Int(Budget))
      return Span();
    for (const Term &T : F.Terms) {
      Int Values = T.Hi - T.Lo + 1;
      if (Values > Int(Budget) || (Count *= Values) > Int(Budget))
        return Span();
    }
    Int InnerMin =
        Inner.Coef > 0 ? Inner.Coef * Inner.Lo : Inner.Coef * Inner.Hi;
    Int InnerMax =
        Inner.Coef > 0 ? Inner.Coef * Inner.Hi : Inner.Coef * Inner.Lo;
    SmallVector<Int, 4> At;
    for (const Term &T : F.Terms)
      At.push_back(T.Lo);
    for (;;) {
      Int Base = F.Const;
      for (size_t I = 0; I < At.size(); ++I)
        Base += F.Terms[I].Coef * At[I];
      if (InnerDense) {
        To.push_back(
            {uint64_t(Base + InnerMin), uint64_t(Base + InnerMax + Int(Size))});
      } else {
        for (Int X = Inner.Lo; X <= Inner.Hi; ++X) {
          Int A = Base + Inner.Coef * X;
          To.push_back({uint64_t(A), uint64_t(A + Int(Size))});
        }
      }
      size_t I = 0;
      for (; I < At.size(); ++I) {
        if (At[I] < F.Terms[I].Hi) {
          ++At[I];
          break;
        }
        At[I] = F.Terms[I].Lo;
      }
      if (I == At.size())
        return;
    }
  }

  LazyValueInfo &LVI;
  const DominatorTree &DT;
  const DataLayout &DL;
  size_t MaxRanges;
};

// Calls that touch no memory of the program: sreg reads, barriers and
// fences (they order accesses, they make none), assumptions.
bool touchesNoProgramMemory(const CallBase &Call) {
  if (Call.doesNotAccessMemory() || Call.onlyAccessesInaccessibleMemory())
    return true;
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isIntrinsic())
    return false;
  StringRef Name = Callee->getName();
  return Name.starts_with("llvm.nvvm.read.ptx.sreg.") ||
         Name.starts_with("llvm.nvvm.barrier") ||
         Name.starts_with("llvm.nvvm.bar.") ||
         Name.starts_with("llvm.nvvm.membar") ||
         Name.starts_with("llvm.nvvm.fence") ||
         Name.starts_with("llvm.lifetime.") || Name == "llvm.assume";
}

} // namespace

AccessFootprint computeAccessFootprint(Function &Kernel, LazyValueInfo &LVI,
                                       const DominatorTree &DT,
                                       size_t MaxRanges) {
  const DataLayout &DL = Kernel.getDataLayout();
  FootprintBuilder B(LVI, DT, DL, MaxRanges);
  auto SizeOf = [&](Type *T) { return DL.getTypeStoreSize(T).getFixedValue(); };
  for (Instruction &I : instructions(Kernel)) {
    if (B.Unbounded)
      return AccessFootprint::unbounded();
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      B.access(I, L->getPointerOperand(), SizeOf(L->getType()), true, false);
    } else if (auto *S = dyn_cast<StoreInst>(&I)) {
      B.access(I, S->getPointerOperand(),
               SizeOf(S->getValueOperand()->getType()), false, true);
    } else if (auto *A = dyn_cast<AtomicRMWInst>(&I)) {
      B.access(I, A->getPointerOperand(), SizeOf(A->getValOperand()->getType()),
               true, true);
    } else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
      B.access(I, X->getPointerOperand(),
               SizeOf(X->getNewValOperand()->getType()), true, true);
    } else if (auto *M = dyn_cast<AnyMemIntrinsic>(&I)) {
      const auto *Len = dyn_cast<ConstantInt>(M->getLength());
      if (!Len || Len->getValue().getActiveBits() > 40) {
        B.Unbounded = true;
        continue;
      }
      B.access(I, M->getRawDest(), Len->getZExtValue(), false, true);
      if (auto *T = dyn_cast<AnyMemTransferInst>(M))
        B.access(I, T->getRawSource(), Len->getZExtValue(), true, false);
    } else if (auto *C = dyn_cast<CallBase>(&I)) {
      if (!touchesNoProgramMemory(*C))
        B.Unbounded = true;
    } else if (I.mayReadOrWriteMemory() && !isa<FenceInst>(I)) {
      B.Unbounded = true;
    }
  }
  if (B.Unbounded)
    return AccessFootprint::unbounded();
  AccessFootprint F;
  F.Bounded = true;
  F.Reads = std::move(B.Reads);
  F.Writes = std::move(B.Writes);
  normalizeRanges(F.Reads);
  normalizeRanges(F.Writes);
  return F;
}

AccessFootprint computeAccessFootprint(Function &Kernel, size_t MaxRanges) {
  FunctionAnalysisManager FAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerFunctionAnalyses(FAM);
  FAM.registerPass([&] { return ModuleAnalysisManagerFunctionProxy(MAM); });
  MAM.registerPass([&] { return FunctionAnalysisManagerModuleProxy(FAM); });
  return computeAccessFootprint(
      Kernel, FAM.getResult<LazyValueAnalysis>(Kernel),
      FAM.getResult<DominatorTreeAnalysis>(Kernel), MaxRanges);
}

} // namespace mstage
