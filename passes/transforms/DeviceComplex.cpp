//===- DeviceComplex.cpp - Device bodies of the complex arithmetic helpers ===//
//
// Clang compiles `std::complex<float/double>` * and / to calls of __mulsc3,
// __muldc3, __divsc3 and __divdc3 (C11 Annex G: the naive formulas give NaN
// where the result is an infinity). The host has them in compiler-rt or
// libgcc; the GPU has no library with them, so the device module gets
// bodies here, written from Annex G's example implementations (G.5.1):
// branch-free, with selects, as the slow cases are rare. The declaration's
// own type is kept (the host ABI's return type: <2 x float> or
// {double, double}), so the calls need no change.
//
//===----------------------------------------------------------------------===//
#include "transforms/DeviceComplex.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-complex"

STATISTIC(NumHelpersDefined, "Complex multiply and divide helpers defined");

namespace mstage {
namespace {

class ComplexBuilder {
public:
  ComplexBuilder(IRBuilder<> &B, Type *T) : B(B), T(T) {
    assert((T->isFloatTy() || T->isDoubleTy()) &&
           "the complex helpers are of float or double");
  }

  Value *c(double V) { return ConstantFP::get(T, V); }
  Value *inf() { return ConstantFP::getInfinity(T); }
  Value *isNaN(Value *X) { return B.CreateFCmpUNO(X, X); }
  Value *isInf(Value *X) { return B.CreateFCmpOEQ(fabs(X), inf()); }
  Value *isFinite(Value *X) { return B.CreateFCmpOLT(fabs(X), inf()); }
  Value *fabs(Value *X) { return B.CreateUnaryIntrinsic(Intrinsic::fabs, X); }
  Value *copySign(Value *Mag, Value *Sign) {
    return B.CreateBinaryIntrinsic(Intrinsic::copysign, Mag, Sign);
  }
  // copysign(isinf(X) ? 1 : 0, X): an infinity becomes a unit "box".
  Value *box(Value *X) {
    return copySign(B.CreateSelect(isInf(X), c(1), c(0)), X);
  }
  // X, or copysign(0, X) where X is NaN and If holds.
  Value *nanToZero(Value *If, Value *X) {
    return B.CreateSelect(B.CreateAnd(If, isNaN(X)), copySign(c(0), X), X);
  }
  Value *mul(Value *X, Value *Y) { return B.CreateFMul(X, Y); }
  Value *add(Value *X, Value *Y) { return B.CreateFAdd(X, Y); }
  Value *sub(Value *X, Value *Y) { return B.CreateFSub(X, Y); }

  // 2^K for K within the normal exponents, built from its bits.
  Value *pow2(Value *K) {
    unsigned Bits = T->getPrimitiveSizeInBits();
    unsigned Mantissa = T->isFloatTy() ? 23 : 52;
    int Bias = T->isFloatTy() ? 127 : 1023;
    Type *I = B.getIntNTy(Bits);
    Value *E = B.CreateAdd(B.CreateSExt(K, I), ConstantInt::get(I, Bias));
    return B.CreateBitCast(B.CreateShl(E, Mantissa), T);
  }
  // scalbn(X, K) for |K| up to the largest exponent plus one, in two steps
  // so that each factor is a normal number.
  Value *scale(Value *X, Value *K) {
    Value *K1 = B.CreateAShr(K, 1);
    Value *K2 = B.CreateSub(K, K1);
    return mul(mul(X, pow2(K1)), pow2(K2));
  }
  // ilogb(M) for a finite, non-zero M >= 0 (subnormals read as the smallest
  // normal exponent: only a scale factor, so that is enough); 0 otherwise.
  Value *ilogb(Value *M) {
    unsigned Bits = T->getPrimitiveSizeInBits();
    unsigned Mantissa = T->isFloatTy() ? 23 : 52;
    int Bias = T->isFloatTy() ? 127 : 1023;
    Type *I = B.getIntNTy(Bits);
    Value *E = B.CreateLShr(B.CreateBitCast(M, I), Mantissa);
    E = B.CreateSelect(B.CreateICmpEQ(E, ConstantInt::get(I, 0)),
                       ConstantInt::get(I, 1), E);
    Value *L = B.CreateTrunc(B.CreateSub(E, ConstantInt::get(I, Bias)),
                             B.getInt32Ty());
    Value *Usable = B.CreateAnd(isFinite(M), B.CreateFCmpONE(M, c(0)));
    return B.CreateSelect(Usable, L, B.getInt32(0));
  }

  std::pair<Value *, Value *> multiply(Value *A, Value *Bv, Value *C,
                                       Value *D) {
    Value *AC = mul(A, C), *BD = mul(Bv, D), *AD = mul(A, D), *BC = mul(Bv, C);
    Value *X = sub(AC, BD), *Y = add(AD, BC);
    Value *BothNaN = B.CreateAnd(isNaN(X), isNaN(Y));
    // An infinite operand: box it, and make the other's NaNs zeros.
    Value *ABInf = B.CreateOr(isInf(A), isInf(Bv));
    Value *A1 = B.CreateSelect(ABInf, box(A), A);
    Value *B1 = B.CreateSelect(ABInf, box(Bv), Bv);
    Value *C1 = nanToZero(ABInf, C), *D1 = nanToZero(ABInf, D);
    Value *CDInf = B.CreateOr(isInf(C1), isInf(D1));
    Value *C2 = B.CreateSelect(CDInf, box(C1), C1);
    Value *D2 = B.CreateSelect(CDInf, box(D1), D1);
    Value *A2 = nanToZero(CDInf, A1), *B2 = nanToZero(CDInf, B1);
    Value *Recalc = B.CreateOr(ABInf, CDInf);
    // Finite operands whose products overflowed: the result is infinite.
    Value *Overflow = B.CreateOr(B.CreateOr(isInf(AC), isInf(BD)),
                                 B.CreateOr(isInf(AD), isInf(BC)));
    Value *Other = B.CreateAnd(B.CreateNot(Recalc), Overflow);
    Value *A3 = nanToZero(Other, A2), *B3 = nanToZero(Other, B2);
    Value *C3 = nanToZero(Other, C2), *D3 = nanToZero(Other, D2);
    Recalc = B.CreateAnd(BothNaN, B.CreateOr(Recalc, Other));
    Value *XR = mul(inf(), sub(mul(A3, C3), mul(B3, D3)));
    Value *YR = mul(inf(), add(mul(A3, D3), mul(B3, C3)));
    return {B.CreateSelect(Recalc, XR, X), B.CreateSelect(Recalc, YR, Y)};
  }

  std::pair<Value *, Value *> divide(Value *A, Value *Bv, Value *C, Value *D) {
    Value *M = B.CreateBinaryIntrinsic(Intrinsic::maxnum, fabs(C), fabs(D));
    Value *L = ilogb(M);
    Value *NegL = B.CreateNeg(L);
    Value *CS = scale(C, NegL), *DS = scale(D, NegL);
    Value *Denom = add(mul(CS, CS), mul(DS, DS));
    Value *X = scale(B.CreateFDiv(add(mul(A, CS), mul(Bv, DS)), Denom), NegL);
    Value *Y = scale(B.CreateFDiv(sub(mul(Bv, CS), mul(A, DS)), Denom), NegL);
    Value *BothNaN = B.CreateAnd(isNaN(X), isNaN(Y));
    // Division by zero of a non-NaN: an infinity in the numerator's
    // direction.
    Value *ByZero =
        B.CreateAnd(B.CreateFCmpOEQ(Denom, c(0)),
                    B.CreateOr(B.CreateNot(isNaN(A)), B.CreateNot(isNaN(Bv))));
    Value *SignedInf = copySign(inf(), C);
    Value *X1 = mul(SignedInf, A), *Y1 = mul(SignedInf, Bv);
    // An infinite numerator over a finite denominator: infinite.
    Value *InfOverFinite = B.CreateAnd(B.CreateOr(isInf(A), isInf(Bv)),
                                       B.CreateAnd(isFinite(C), isFinite(D)));
    Value *AB = box(A), *BB = box(Bv);
    Value *X2 = mul(inf(), add(mul(AB, CS), mul(BB, DS)));
    Value *Y2 = mul(inf(), sub(mul(BB, CS), mul(AB, DS)));
    // A finite numerator over an infinite denominator: zero.
    Value *FiniteOverInf = B.CreateAnd(B.CreateFCmpOEQ(M, inf()),
                                       B.CreateAnd(isFinite(A), isFinite(Bv)));
    Value *CB = box(C), *DB = box(D);
    Value *X3 = mul(c(0), add(mul(A, CB), mul(Bv, DB)));
    Value *Y3 = mul(c(0), sub(mul(Bv, CB), mul(A, DB)));
    auto Pick = [&](Value *V, Value *V1, Value *V2, Value *V3) {
      Value *R = B.CreateSelect(FiniteOverInf, V3, V);
      R = B.CreateSelect(InfOverFinite, V2, R);
      R = B.CreateSelect(ByZero, V1, R);
      return B.CreateSelect(BothNaN, R, V);
    };
    return {Pick(X, X1, X2, X3), Pick(Y, Y1, Y2, Y3)};
  }

private:
  IRBuilder<> &B;
  Type *T;
};

// Gives the declaration F (four T operands, a pair of T returned) its body.
bool define(Function &F, Type *T, bool Divide) {
  FunctionType *FT = F.getFunctionType();
  Type *R = FT->getReturnType();
  if (FT->getNumParams() != 4 || FT->isVarArg())
    return false;
  for (Type *P : FT->params())
    if (P != T)
      return false;
  auto *VT = dyn_cast<FixedVectorType>(R);
  auto *ST = dyn_cast<StructType>(R);
  bool Vector = VT && VT->getNumElements() == 2 && VT->getElementType() == T;
  bool Struct = ST && ST->getNumElements() == 2 && ST->getElementType(0) == T &&
                ST->getElementType(1) == T;
  if (!Vector && !Struct)
    return false;

  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", &F));
  ComplexBuilder CB(B, T);
  Value *Args[4] = {F.getArg(0), F.getArg(1), F.getArg(2), F.getArg(3)};
  auto [X, Y] = Divide ? CB.divide(Args[0], Args[1], Args[2], Args[3])
                       : CB.multiply(Args[0], Args[1], Args[2], Args[3]);
  Value *Result = PoisonValue::get(R);
  if (Vector) {
    Result = B.CreateInsertElement(Result, X, uint64_t(0));
    Result = B.CreateInsertElement(Result, Y, uint64_t(1));
  } else {
    Result = B.CreateInsertValue(Result, X, 0);
    Result = B.CreateInsertValue(Result, Y, 1);
  }
  B.CreateRet(Result);
  F.setLinkage(GlobalValue::InternalLinkage);
  F.addFnAttr(Attribute::AlwaysInline);
  return true;
}

} // namespace

void defineComplexHelpers(Module &M) {
  LLVMContext &Ctx = M.getContext();
  static const struct {
    const char *Name;
    bool Double, Divide;
  } Helpers[] = {{"__mulsc3", false, false},
                 {"__muldc3", true, false},
                 {"__divsc3", false, true},
                 {"__divdc3", true, true}};
  for (const auto &H : Helpers)
    if (Function *F = M.getFunction(H.Name))
      if (F->isDeclaration()) {
        // A declaration of another shape stays undefined, and the
        // unresolved-call check names it.
        if (define(*F,
                   H.Double ? Type::getDoubleTy(Ctx) : Type::getFloatTy(Ctx),
                   H.Divide))
          ++NumHelpersDefined;
        else
          LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << H.Name
                            << " has an unexpected type, left undefined\n");
      }
}

} // namespace mstage
