//===- KernelSymbol.cpp - Kernel symbols that NVIDIA's tools demangle -----===//
#include "formats/KernelSymbol.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

#include <cassert>

using namespace llvm;

namespace mstage {

std::string symbolComponent(StringRef Text) {
  std::string Out;
  for (char C : Text)
    Out += (isAlnum(C) || C == '_') ? C : '_';
  while (!Out.empty() && Out.back() == '_')
    Out.pop_back();
  // A length prefix followed by a digit would read as a longer length.
  if (Out.empty() || isDigit(Out.front()))
    Out.insert(Out.begin(), '_');
  return Out;
}

static void appendSourceName(std::string &Out, StringRef Id) {
  assert(!Id.empty() && !isDigit(Id.front()) && "an identifier");
  Out += std::to_string(Id.size());
  Out += Id;
}

std::string SymbolPart::key() const {
  return TemplateArgs.empty() ? Name : Name + "<" + TemplateArgs + ">";
}

bool isSelfContainedMangling(StringRef Mangled) {
  // <substitution> ::= S_ | S <seq-id> _, <seq-id> in [0-9A-Z];
  // <template-param> ::= T_ | T <number> _.
  for (size_t I = 0; I + 1 < Mangled.size(); ++I) {
    char C = Mangled[I];
    if (C != 'S' && C != 'T')
      continue;
    size_t J = I + 1;
    while (J < Mangled.size() &&
           (isDigit(Mangled[J]) || (C == 'S' && isUpper(Mangled[J]))))
      ++J;
    if (J < Mangled.size() && Mangled[J] == '_')
      return false;
  }
  return true;
}

std::string mangleKernelSymbol(ArrayRef<SymbolPart> Components) {
  assert(!Components.empty() && "a kernel symbol names something");
  // Nested even with one component: c++filt and LLVM's demangler read
  // _ZN5SaxpyE as Saxpy, but not _Z5Saxpy.
  std::string Out = "_ZN";
  for (const SymbolPart &C : Components) {
    appendSourceName(Out, C.Name);
    assert(isSelfContainedMangling(C.TemplateArgs) &&
           "template arguments that mean the same inside the symbol");
    if (!C.TemplateArgs.empty())
      Out += "I" + C.TemplateArgs + "E";
  }
  return Out + "E";
}

std::string nestedKernelSymbol(StringRef Symbol, StringRef Component) {
  if (!Symbol.starts_with("_ZN") || !Symbol.ends_with("E"))
    return (Symbol + "__mstage_" + Component).str();
  std::string Out = Symbol.drop_back().str();
  appendSourceName(Out, Component);
  return Out + "E";
}

std::string demangleKernelSymbol(StringRef Symbol) {
  return llvm::demangle(Symbol);
}

} // namespace mstage
