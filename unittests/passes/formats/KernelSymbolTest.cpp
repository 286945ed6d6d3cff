//===- KernelSymbolTest.cpp - Tests of the kernels' mangled symbols -------===//
//
// The reference is LLVM's Itanium demangler, as c++filt and NVIDIA's tools
// read the symbols: each must demangle to its components joined by "::".
//
//===----------------------------------------------------------------------===//
#include "formats/KernelSymbol.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mstage;

namespace {

std::string demangled(llvm::StringRef Symbol) {
  std::string Out;
  EXPECT_TRUE(llvm::nonMicrosoftDemangle(Symbol, Out)) << Symbol.str();
  return Out;
}

TEST(KernelSymbolTest, ComponentsAreIdentifiers) {
  EXPECT_EQ(symbolComponent("main"), "main");
  EXPECT_EQ(symbolComponent("reduce<Staged>"), "reduce_Staged");
  EXPECT_EQ(symbolComponent("operator()"), "operator");
  EXPECT_EQ(symbolComponent("3d stencil"), "_3d_stencil");
  EXPECT_EQ(symbolComponent(""), "_");
  EXPECT_EQ(symbolComponent("<>::"), "_");
  EXPECT_EQ(symbolComponent("saxpy.cpp"), "saxpy_cpp");
}

TEST(KernelSymbolTest, DemanglesToTheComponents) {
  std::vector<std::vector<std::string>> Cases = {
      {"main", "kernel_L22"},
      {"Saxpy"},
      {"app", "Solver", "run", "kernel_L44_C12"},
      {"mstage", "sort", "radix_pass_2"},
      {"_GLOBAL__N_1", "f", "kernel_L3"},
      {symbolComponent("9lives"), "kernel_L1"},
      {std::string(300, 'a'), "kernel_L1"},
  };
  for (const auto &C : Cases) {
    std::string Symbol = mangleKernelSymbol(C);
    std::string Want = llvm::join(C, "::");
    if (C.front() == "_GLOBAL__N_1")
      Want = "(anonymous namespace)" + Want.substr(C.front().size());
    EXPECT_EQ(demangled(Symbol), Want);
    EXPECT_EQ(demangleKernelSymbol(Symbol), Want);
    // A valid PTX identifier: a letter or '_' first, then [A-Za-z0-9_$].
    for (char Ch : Symbol)
      EXPECT_TRUE(llvm::isAlnum(Ch) || Ch == '_') << Symbol;
  }
  EXPECT_EQ(mangleKernelSymbol({"main", "kernel_L22"}),
            "_ZN4main10kernel_L22E");
}

TEST(KernelSymbolTest, NestedSymbolDemanglesOneDeeper) {
  std::string K = mangleKernelSymbol({"main", "saxpy"});
  EXPECT_EQ(demangled(nestedKernelSymbol(K, "disjoint")),
            "main::saxpy::disjoint");
  EXPECT_NE(nestedKernelSymbol(K, "disjoint"), K);
  // A kernel of an older mstage++ keeps the name its binary has.
  EXPECT_EQ(nestedKernelSymbol("mstage_main_L9", "disjoint"),
            "mstage_main_L9__mstage_disjoint");
}

} // namespace
