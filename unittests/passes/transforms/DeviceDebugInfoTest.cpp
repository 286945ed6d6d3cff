//===- DeviceDebugInfoTest.cpp - Tests of the device code's line info -----===//
//
// The expected PTX is written out by hand; the modules are built with
// DIBuilder, as clang makes them.
//
//===----------------------------------------------------------------------===//
#include "transforms/DeviceDebugInfo.h"

#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mstage;

namespace {

const char *LabelledPTX = ".visible .entry k(\n"
                          ")\n"
                          "{\n"
                          "$L__func_begin0:\n"
                          "\t.loc\t1 4 0\n"
                          "$L__tmp0:\n"
                          "\tst.global.b32 \t[%rd1], 1;\n"
                          "$L__BB0_2:\n"
                          "$L__tmp12:\n"
                          "\tret;\n"
                          "$L__func_end0:\n"
                          "}\n"
                          "\t.file\t1 \"/src/k.cpp\"\n";

TEST(DropUnusedDebugLabels, DropsRangeLabelsOnly) {
  EXPECT_EQ(dropUnusedDebugLabels(LabelledPTX), ".visible .entry k(\n"
                                                ")\n"
                                                "{\n"
                                                "\t.loc\t1 4 0\n"
                                                "\tst.global.b32 \t[%rd1], 1;\n"
                                                "$L__BB0_2:\n"
                                                "\tret;\n"
                                                "}\n"
                                                "\t.file\t1 \"/src/k.cpp\"\n");
}

TEST(DropUnusedDebugLabels, KeepsLabelsThatDwarfSectionsUse) {
  std::string PTX = std::string(LabelledPTX) +
                    "\t.section\t.debug_info\n\t{\n.b64 $L__func_begin0\n\t}\n";
  EXPECT_EQ(dropUnusedDebugLabels(PTX), PTX);
}

TEST(DropUnusedDebugLabels, LeavesPTXWithoutLabelsAlone) {
  const char *PTX = ".visible .entry k()\n{\n\tret;\n}\n";
  EXPECT_EQ(dropUnusedDebugLabels(PTX), PTX);
  EXPECT_EQ(dropUnusedDebugLabels(""), "");
  // A label-like name that is not one of NVPTX's range labels.
  const char *Own = "$L__func_begin0:\n$L__tmpX:\n$L__tmp:\n";
  EXPECT_EQ(dropUnusedDebugLabels(Own), "$L__tmpX:\n$L__tmp:\n");
}

// A module with one function whose store has a line, under a compile unit
// of Kind.
std::unique_ptr<Module> moduleWithLines(LLVMContext &Ctx,
                                        DICompileUnit::DebugEmissionKind Kind) {
  auto M = std::make_unique<Module>("m", Ctx);
  M->addModuleFlag(Module::Warning, "Debug Info Version",
                   DEBUG_METADATA_VERSION);
  DIBuilder DIB(*M);
  DIFile *File = DIB.createFile("k.cpp", "/src");
  DICompileUnit *CU = DIB.createCompileUnit(
      DISourceLanguageName(dwarf::DW_LANG_C_plus_plus_14), File, "clang",
      /*isOptimized=*/true, "", 0, "", Kind);
  auto *FTy = FunctionType::get(Type::getVoidTy(Ctx),
                                {PointerType::get(Ctx, 0)}, false);
  Function *F = Function::Create(FTy, GlobalValue::ExternalLinkage, "k", *M);
  DISubprogram *SP = DIB.createFunction(
      CU, "k", "k", File, 3, DIB.createSubroutineType({}), 3,
      DINode::FlagPrototyped, DISubprogram::SPFlagDefinition);
  F->setSubprogram(SP);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", F));
  B.SetCurrentDebugLocation(DILocation::get(Ctx, 4, 7, SP));
  B.CreateStore(B.getInt32(1), F->getArg(0));
  B.CreateRetVoid();
  DIB.finalize();
  return M;
}

DICompileUnit::DebugEmissionKind kindOf(const Module &M) {
  auto Units = M.debug_compile_units();
  EXPECT_EQ(std::distance(Units.begin(), Units.end()), 1);
  return (*Units.begin())->getEmissionKind();
}

unsigned lineOfStore(const Module &M) {
  for (const Instruction &I : M.getFunction("k")->getEntryBlock())
    if (isa<StoreInst>(I))
      return I.getDebugLoc() ? I.getDebugLoc().getLine() : 0;
  return 0;
}

TEST(PrepareDeviceDebugInfo, LineTablesBecomeDirectives) {
  LLVMContext Ctx;
  auto M = moduleWithLines(Ctx, DICompileUnit::LineTablesOnly);
  prepareDeviceDebugInfo(*M, /*FullDebugAtO0=*/false);
  EXPECT_EQ(kindOf(*M), DICompileUnit::DebugDirectivesOnly);
  EXPECT_EQ(M->getFunction("k")->getSubprogram()->getUnit()->getEmissionKind(),
            DICompileUnit::DebugDirectivesOnly);
  EXPECT_EQ(lineOfStore(*M), 4u);
  EXPECT_FALSE(verifyModule(*M, &errs()));
}

TEST(PrepareDeviceDebugInfo, FullDebugOnlyAtO0) {
  LLVMContext Ctx;
  auto Optimized = moduleWithLines(Ctx, DICompileUnit::FullDebug);
  prepareDeviceDebugInfo(*Optimized, /*FullDebugAtO0=*/false);
  EXPECT_EQ(kindOf(*Optimized), DICompileUnit::DebugDirectivesOnly);
  EXPECT_EQ(lineOfStore(*Optimized), 4u);
  EXPECT_FALSE(verifyModule(*Optimized, &errs()));
  // What the kernel blob's DebugAtO0 says.
  EXPECT_FALSE(keepsFullDebugInfo(*Optimized));

  auto AtO0 = moduleWithLines(Ctx, DICompileUnit::FullDebug);
  prepareDeviceDebugInfo(*AtO0, /*FullDebugAtO0=*/true);
  EXPECT_EQ(kindOf(*AtO0), DICompileUnit::FullDebug);
  EXPECT_EQ(lineOfStore(*AtO0), 4u);
  EXPECT_TRUE(keepsFullDebugInfo(*AtO0));

  // Line tables at -O0 (-gline-tables-only -O0, or mstage++'s own) are not
  // a build for the debugger.
  auto Lines = moduleWithLines(Ctx, DICompileUnit::LineTablesOnly);
  prepareDeviceDebugInfo(*Lines, /*FullDebugAtO0=*/true);
  EXPECT_FALSE(keepsFullDebugInfo(*Lines));
}

TEST(PrepareDeviceDebugInfo, StrayLocationsWithoutAUnitGo) {
  LLVMContext Ctx;
  auto M = moduleWithLines(Ctx, DICompileUnit::LineTablesOnly);
  M->eraseNamedMetadata(M->getNamedMetadata("llvm.dbg.cu"));
  prepareDeviceDebugInfo(*M, /*FullDebugAtO0=*/true);
  EXPECT_EQ(lineOfStore(*M), 0u);
  EXPECT_EQ(M->getFunction("k")->getSubprogram(), nullptr);
}

TEST(DescribeWrapper, GivesTheWrapperItsOwnSubprogram) {
  LLVMContext Ctx;
  auto M = moduleWithLines(Ctx, DICompileUnit::LineTablesOnly);
  Function *Entry = M->getFunction("k");
  Function *W = Function::Create(Entry->getFunctionType(),
                                 GlobalValue::ExternalLinkage, "wrapper", *M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", W));
  CallInst *Call = B.CreateCall(Entry, {W->getArg(0)});
  B.CreateRetVoid();
  describeWrapper(*W, *Entry);
  ASSERT_NE(W->getSubprogram(), nullptr);
  EXPECT_NE(W->getSubprogram(), Entry->getSubprogram());
  EXPECT_EQ(W->getSubprogram()->getLine(), 3u);
  ASSERT_TRUE(Call->getDebugLoc());
  EXPECT_EQ(Call->getDebugLoc().getLine(), 3u);
  EXPECT_FALSE(verifyModule(*M, &errs()));
}

} // namespace
