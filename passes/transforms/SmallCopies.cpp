//===- SmallCopies.cpp - Small memcpy/memmove as loads and stores --------===//
#include "transforms/SmallCopies.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

#define DEBUG_TYPE "mstage-small-copies"

STATISTIC(NumCopiesExpanded, "Small memcpy and memmove expanded");
STATISTIC(NumCopyChunks, "Loads and stores the expanded copies became");

namespace mstage {

static constexpr uint64_t MaxBytes = 64;

bool expandSmallCopies(Function &F) {
  SmallVector<MemTransferInst *, 8> Copies;
  for (Instruction &I : instructions(F))
    if (auto *MT = dyn_cast<MemTransferInst>(&I))
      if (auto *Len = dyn_cast<ConstantInt>(MT->getLength()))
        if (!MT->isVolatile() && Len->getZExtValue() > 0 &&
            Len->getZExtValue() <= MaxBytes)
          Copies.push_back(MT);
  for (MemTransferInst *MT : Copies) {
    uint64_t Bytes = cast<ConstantInt>(MT->getLength())->getZExtValue();
    uint64_t SrcAlign = MT->getSourceAlign().valueOrOne().value();
    uint64_t DestAlign = MT->getDestAlign().valueOrOne().value();
    // The widest chunk both alignments allow that divides the length.
    uint64_t Chunk = std::min<uint64_t>({SrcAlign, DestAlign, 16});
    while (Bytes % Chunk)
      Chunk /= 2;
    assert(isPowerOf2_64(Chunk) && Bytes % Chunk == 0 &&
           "a copy is split into equal power-of-two chunks");
    // The copy's type-based facts describe the whole struct, not a chunk.
    AAMDNodes AA = MT->getAAMetadata();
    AA.TBAA = AA.TBAAStruct = nullptr;
    IRBuilder<> B(MT);
    Type *Ty =
        Chunk == 16
            ? static_cast<Type *>(FixedVectorType::get(B.getInt32Ty(), 4))
            : B.getIntNTy(unsigned(Chunk * 8));
    // All loads before any store: right for a memmove too.
    SmallVector<Value *, 16> Parts;
    for (uint64_t At = 0; At < Bytes; At += Chunk) {
      Value *From =
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), MT->getRawSource(), At);
      LoadInst *L =
          B.CreateAlignedLoad(Ty, From, llvm::Align(MinAlign(SrcAlign, At)));
      L->setAAMetadata(AA);
      Parts.push_back(L);
    }
    for (uint64_t At = 0, I = 0; At < Bytes; At += Chunk, ++I) {
      Value *To =
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), MT->getRawDest(), At);
      StoreInst *S = B.CreateAlignedStore(Parts[I], To,
                                          llvm::Align(MinAlign(DestAlign, At)));
      S->setAAMetadata(AA);
    }
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Bytes << " bytes in "
                      << Parts.size() << " chunks of " << Chunk << " in "
                      << F.getName() << "\n");
    MT->eraseFromParent();
    ++NumCopiesExpanded;
    NumCopyChunks += Parts.size();
  }
  return !Copies.empty();
}

} // namespace mstage
