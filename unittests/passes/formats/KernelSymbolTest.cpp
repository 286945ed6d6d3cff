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
    std::vector<SymbolPart> Parts(C.begin(), C.end());
    std::string Symbol = mangleKernelSymbol(Parts);
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

// Template arguments as clang mangles them on their own (the _ZTI<type> of
// each); the demangler shows them as C++.
TEST(KernelSymbolTest, TemplateArgumentsDemangleAsCxx) {
  struct Case {
    std::vector<SymbolPart> Parts;
    const char *Want;
  } Cases[] = {
      {{{"reduce", "i"}, "kernel_L9"}, "reduce<int>::kernel_L9"},
      {{"mstage", {"scan", "fLj256E"}}, "mstage::scan<float, 256u>"},
      {{{"listing4Kernel", "6Staged"}, "kernel_L21"},
       "listing4Kernel<Staged>::kernel_L21"},
      {{{"stencil", "Li3ELb1E"}, "kernel_L5"}, "stencil<3, true>::kernel_L5"},
      {{{"shift", "Lin2E"}, "kernel_L5"}, "shift<-2>::kernel_L5"},
      {{"app", {"Solver", "d"}, "run", "kernel_L44"},
       "app::Solver<double>::run::kernel_L44"},
      {{{"f", "N2ns3TagE"}, "kernel_L1_2"}, "f<ns::Tag>::kernel_L1_2"},
      {{{"Saxpy", "St6vectorIfSaIfEE"}},
       "Saxpy<std::vector<float, std::allocator<float>>>"},
  };
  for (const Case &C : Cases) {
    std::string Symbol = mangleKernelSymbol(C.Parts);
    EXPECT_EQ(demangled(Symbol), C.Want) << Symbol;
    for (char Ch : Symbol)
      EXPECT_TRUE(llvm::isAlnum(Ch) || Ch == '_') << Symbol;
  }
  EXPECT_EQ(mangleKernelSymbol({{"reduce", "i"}, "kernel_L9"}),
            "_ZN6reduceIiE9kernel_L9E");
  EXPECT_EQ(SymbolPart("reduce", "i").key(), "reduce<i>");
  EXPECT_EQ(SymbolPart("main").key(), "main");
}

// A substitution or template parameter counts from the start of the whole
// name, so such a mangling would mean another type inside the symbol.
TEST(KernelSymbolTest, SubstitutionsAreNotSelfContained) {
  EXPECT_TRUE(isSelfContainedMangling("i"));
  EXPECT_TRUE(isSelfContainedMangling("St6vectorIfSaIfEE"));
  EXPECT_TRUE(isSelfContainedMangling("Li3E"));
  EXPECT_TRUE(isSelfContainedMangling(""));
  EXPECT_FALSE(isSelfContainedMangling("4PairI3TagS0_E")); // Pair<Tag, Tag>
  EXPECT_FALSE(isSelfContainedMangling("S_"));
  EXPECT_FALSE(isSelfContainedMangling("T_"));
  EXPECT_FALSE(isSelfContainedMangling("PT0_"));
  EXPECT_FALSE(isSelfContainedMangling("SA_"));
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
