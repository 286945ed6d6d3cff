//===- DeviceWgmmaTest.cpp - Tests of the architecture wgmma needs --------===//
//
// A module that calls a wgmma builtin is compiled for sm_90a on an sm_90
// device, and only there: other modules, and other architectures (where
// the lowering then reports the error), keep the device's architecture.
//
//===----------------------------------------------------------------------===//
#include "transforms/DeviceWgmma.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "gtest/gtest.h"

using namespace llvm;

namespace {

// A module whose kernel calls Builtin (none when empty).
std::unique_ptr<Module> moduleCalling(LLVMContext &Ctx, StringRef Builtin) {
  auto M = std::make_unique<Module>("m", Ctx);
  auto *Void = FunctionType::get(Type::getVoidTy(Ctx), false);
  Function *K =
      Function::Create(Void, GlobalValue::ExternalLinkage, "kernel", *M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", K));
  if (!Builtin.empty())
    B.CreateCall(M->getOrInsertFunction(Builtin, Void));
  B.CreateRetVoid();
  return M;
}

TEST(DeviceWgmmaTest, Sm90BecomesSm90aForWgmma) {
  LLVMContext Ctx;
  auto M = moduleCalling(Ctx, "__mstage_wgmma_commit");
  EXPECT_TRUE(mstage::usesWgmma(*M));
  EXPECT_EQ(mstage::targetArchFor(*M, "sm_90"), "sm_90a");
  EXPECT_EQ(mstage::targetArchFor(*M, "sm_80"), "sm_80");
  EXPECT_EQ(mstage::targetArchFor(*M, "sm_100"), "sm_100");
}

TEST(DeviceWgmmaTest, OtherModulesKeepTheArchitecture) {
  LLVMContext Ctx;
  auto Plain = moduleCalling(Ctx, "");
  EXPECT_FALSE(mstage::usesWgmma(*Plain));
  EXPECT_EQ(mstage::targetArchFor(*Plain, "sm_90"), "sm_90");
  auto Other = moduleCalling(Ctx, "__mstage_cp_async_commit");
  EXPECT_FALSE(mstage::usesWgmma(*Other));
  // A declaration nothing calls does not count.
  auto Unused = moduleCalling(Ctx, "");
  Unused->getOrInsertFunction("__mstage_wgmma_fence",
                              FunctionType::get(Type::getVoidTy(Ctx), false));
  EXPECT_EQ(mstage::targetArchFor(*Unused, "sm_90"), "sm_90");
}

} // namespace
