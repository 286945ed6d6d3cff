//===- AotObject.cpp - Ahead-of-time images' table and object -------------===//
#include "aot/AotObject.h"
#include "formats/AotImage.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <cassert>

using namespace llvm;

namespace mstage {

// {data, size}: mstage_aot_image_ref.
static StructType *imageRefType(LLVMContext &Ctx) {
  return StructType::get(Ctx,
                         {PointerType::get(Ctx, 0), Type::getInt64Ty(Ctx)});
}

GlobalVariable *addAotImageTable(Module &M, ArrayRef<std::string> Images,
                                 unsigned Slots, StringRef Name,
                                 GlobalValue::LinkageTypes Linkage) {
  assert(Images.size() <= Slots && "a slot for every image");
  LLVMContext &Ctx = M.getContext();
  StructType *RefTy = imageRefType(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Constant *, 4> Refs;
  for (const std::string &Bytes : Images) {
    auto *Data =
        ConstantDataArray::getRaw(Bytes, Bytes.size(), Type::getInt8Ty(Ctx));
    auto *GV = new GlobalVariable(M, Data->getType(), true,
                                  GlobalValue::PrivateLinkage, Data,
                                  "__mstage_aot_image");
    GV->setSection(AotImageSection);
    GV->setAlignment(Align(AotImageAlign));
    Refs.push_back(
        ConstantStruct::get(RefTy, {GV, ConstantInt::get(I64, Bytes.size())}));
  }
  Refs.resize(Slots, Constant::getNullValue(RefTy));
  auto *Init = ConstantArray::get(ArrayType::get(RefTy, Slots), Refs);
  auto *Table =
      new GlobalVariable(M, Init->getType(), true, Linkage, Init, Name);
  if (!Table->hasLocalLinkage())
    Table->setVisibility(GlobalValue::HiddenVisibility);
  return Table;
}

GlobalVariable *declareAotImageTable(Module &M, unsigned Slots,
                                     StringRef Name) {
  auto *Ty = ArrayType::get(imageRefType(M.getContext()), Slots);
  auto *Table = new GlobalVariable(M, Ty, true, GlobalValue::ExternalLinkage,
                                   nullptr, Name);
  Table->setVisibility(GlobalValue::HiddenVisibility);
  return Table;
}

static Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

bool isJoinableTarget(const Triple &TT) {
  // The vendor (pc, unknown) does not change the object.
  Triple Host(sys::getProcessTriple());
  return TT.isOSBinFormatELF() && TT.getArch() == Host.getArch() &&
         TT.getSubArch() == Host.getSubArch() && TT.getOS() == Host.getOS() &&
         TT.getEnvironment() == Host.getEnvironment() &&
         TT.getObjectFormat() == Host.getObjectFormat();
}

Error writeAotObject(StringRef Path, const Triple &TT, const DataLayout &DL,
                     ArrayRef<std::string> Images, unsigned Slots,
                     StringRef Name) {
  LLVMContext Ctx;
  Module M("mstage-aot-images", Ctx);
  M.setTargetTriple(TT);
  M.setDataLayout(DL);
  addAotImageTable(M, Images, Slots, Name, GlobalValue::WeakODRLinkage);
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TT, Err);
  if (!T)
    return fail("no target for " + TT.str() + ": " + Err);
  std::unique_ptr<TargetMachine> TM(
      T->createTargetMachine(TT, "", "", TargetOptions(), Reloc::PIC_));
  if (!TM)
    return fail("no target machine for " + TT.str());
  std::error_code EC;
  ToolOutputFile Out(Path, EC, sys::fs::OF_None);
  if (EC)
    return fail("cannot write " + Path + ": " + EC.message());
  legacy::PassManager PM;
  if (TM->addPassesToEmitFile(PM, Out.os(), nullptr,
                              CodeGenFileType::ObjectFile))
    return fail("cannot write objects for " + TT.str());
  PM.run(M);
  Out.os().close();
  if (Out.os().has_error()) {
    Out.os().clear_error();
    return fail("cannot write " + Path);
  }
  Out.keep();
  return Error::success();
}

} // namespace mstage
