//===- DeviceComplex.h - Device bodies of the complex arithmetic helpers --===//
#ifndef MSTAGE_PASSES_TRANSFORMS_DEVICECOMPLEX_H
#define MSTAGE_PASSES_TRANSFORMS_DEVICECOMPLEX_H

namespace llvm {
class Module;
}

namespace mstage {

// Defines __mulsc3, __muldc3, __divsc3 and __divdc3 where M declares them:
// the float and double complex * and / of C Annex G, which clang calls for
// std::complex arithmetic and the GPU has no library for.
void defineComplexHelpers(llvm::Module &M);

} // namespace mstage

#endif
