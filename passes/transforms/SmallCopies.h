//===- SmallCopies.h - Small memcpy/memmove as loads and stores -*- C++ -*-===//
//
// The host front end copies a struct (a float4, a 12-byte struct) with
// llvm.memcpy, which stays a memcpy through the optimizer when it goes
// through memory it cannot promote, and which codegen expands into loads
// that carry no metadata: no !invariant.load (so no ld.global.nc) and,
// through a temporary, no vector access. The JIT expands each small copy of
// a constant length into loads and then stores, as wide as the alignment of
// both pointers allows, before the launch facts and the optimizer see them.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_TRANSFORMS_SMALLCOPIES_H
#define MSTAGE_PASSES_TRANSFORMS_SMALLCOPIES_H

namespace llvm {
class Function;
} // namespace llvm

namespace mstage {

// Expands the non-volatile memcpy and memmove calls in F of at most 64
// bytes. Returns whether it changed F.
bool expandSmallCopies(llvm::Function &F);

} // namespace mstage

#endif
