//===- DeviceAssertFail.cpp - A device trap that says where it happened ---===//
#include "transforms/DeviceAssertFail.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mstage {

CallInst *createAssertFail(Instruction *InsertBefore, const Instruction &Site,
                           StringRef Message, StringRef Prefix) {
  Module &M = *InsertBefore->getModule();
  LLVMContext &Ctx = M.getContext();
  auto *Ptr = PointerType::getUnqual(Ctx);
  FunctionCallee AssertFail = M.getOrInsertFunction(
      "__assert_fail",
      FunctionType::get(Type::getVoidTy(Ctx),
                        {Ptr, Ptr, Type::getInt32Ty(Ctx), Ptr}, false));
  StringRef File = "kernel code";
  unsigned Line = 0;
  if (const DILocation *Loc = Site.getDebugLoc()) {
    File = Loc->getFilename();
    Line = Loc->getLine();
  }
  IRBuilder<> B(InsertBefore);
  return B.CreateCall(
      AssertFail,
      {B.CreateGlobalString(Message, Prefix + ".msg"),
       B.CreateGlobalString(File, Prefix + ".file"), B.getInt32(Line),
       B.CreateGlobalString(demangle(Site.getFunction()->getName()),
                            Prefix + ".function")});
}

} // namespace mstage
