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
#include <utility>

namespace mstage {

// Text as one identifier: other characters become '_', trailing ones are
// dropped (reduce<Staged> gives reduce_Staged, for template arguments that
// cannot be mangled), and a leading digit is prefixed with '_'. Never empty.
std::string symbolComponent(llvm::StringRef Text);

// One component of a kernel's name: an identifier (symbolComponent) and,
// for a template's specialization, its arguments as Itanium
// <template-arg>s: "i" for reduce<int>, "6StagedLi3E" for f<Staged, 3>.
struct SymbolPart {
  std::string Name;
  std::string TemplateArgs; // empty: not a template's specialization
  SymbolPart(std::string Name, std::string TemplateArgs = "")
      : Name(std::move(Name)), TemplateArgs(std::move(TemplateArgs)) {}
  SymbolPart(const char *Name) : Name(Name) {}
  // The part as one key: the name, with "<args>" when it has some.
  std::string key() const;
};

// True when Mangled (an Itanium <type> or <template-arg>s mangled on its own)
// means the same inside a kernel symbol: it refers to no substitution (S_,
// S0_...) or template parameter (T_...), whose numbers count from the start
// of the whole name. Conservative: such text inside an identifier counts.
bool isSelfContainedMangling(llvm::StringRef Mangled);

// The mangled name whose demangled form is the components joined by "::",
// always a nested name (_ZN...E): main::kernel_L22 is
// _ZN4main10kernel_L22E, reduce<int>::kernel_L9 is _ZN6reduceIiE9kernel_L9E.
// Template arguments must be self-contained (isSelfContainedMangling).
std::string mangleKernelSymbol(llvm::ArrayRef<SymbolPart> Components);

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
