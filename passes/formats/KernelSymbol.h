//===- KernelSymbol.h - Kernel symbols that NVIDIA's tools demangle -------===//
//
// A kernel's device symbol is an Itanium-mangled nested name, so that
// c++filt, Nsight Compute, compute-sanitizer and cuda-gdb show it as C++:
// _ZN4main10kernel_L22E is main::kernel_L22. Each component is a C++
// identifier, so the symbol is also a valid PTX identifier.
//
//===----------------------------------------------------------------------===//
#ifndef MSTAGE_PASSES_FORMATS_KERNELSYMBOL_H
#define MSTAGE_PASSES_FORMATS_KERNELSYMBOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mstage {

// Text as one identifier: other characters become '_', trailing ones are
// dropped (reduce<Staged> gives reduce_Staged), and a leading digit is
// prefixed with '_'. Never empty.
std::string symbolComponent(llvm::StringRef Text);

// The mangled name whose demangled form is the components joined by "::",
// always a nested name (_ZN...E). Each component must be an identifier
// (symbolComponent).
std::string mangleKernelSymbol(llvm::ArrayRef<std::string> Components);

// Symbol's name with one more component: for _ZN4main10kernel_L22E and
// "disjoint", _ZN4main10kernel_L228disjointE (main::kernel_L22::disjoint).
// A symbol that is not of mangleKernelSymbol's form (a kernel of an older
// mstage++, mstage_main_L22) gets "__mstage_" + Component, the name such a
// binary's ahead-of-time code has.
std::string nestedKernelSymbol(llvm::StringRef Symbol,
                               llvm::StringRef Component);

// The readable form of a kernel symbol, as the tools show it.
std::string demangleKernelSymbol(llvm::StringRef Symbol);

} // namespace mstage

#endif
