//===- KernelTags.cpp - How the front end marks kernel entries ------------===//
#include "formats/KernelTags.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mstage {

MapVector<GlobalValue *, SmallVector<StringRef, 2>>
readGlobalAnnotations(Module &M) {
  MapVector<GlobalValue *, SmallVector<StringRef, 2>> Result;
  GlobalVariable *GA = M.getNamedGlobal("llvm.global.annotations");
  auto *Arr = GA ? dyn_cast<ConstantArray>(GA->getInitializer()) : nullptr;
  if (!Arr)
    return Result;
  for (Value *Op : Arr->operands()) {
    auto *CS = dyn_cast<ConstantStruct>(Op);
    if (!CS || CS->getNumOperands() < 2)
      continue;
    auto *GV = dyn_cast<GlobalValue>(CS->getOperand(0)->stripPointerCasts());
    StringRef Str;
    if (GV && getConstantStringInfo(CS->getOperand(1), Str))
      Result[GV].push_back(Str);
  }
  return Result;
}

MapVector<Function *, SmallVector<StringRef, 2>> readAnnotations(Module &M) {
  MapVector<Function *, SmallVector<StringRef, 2>> Result;
  for (auto &[GV, Strings] : readGlobalAnnotations(M))
    if (auto *F = dyn_cast<Function>(GV))
      Result[F] = std::move(Strings);
  return Result;
}

// Fields are separated by the ASCII unit separator, which no name contains.
static constexpr char Sep = '\x1f';

std::string encodeKernelInfo(const KernelSourceInfo &Info) {
  return std::string(KernelInfoPrefix) + Info.Name + Sep + Info.PrettyName +
         Sep + Info.Location;
}

bool decodeKernelInfo(StringRef Annotation, KernelSourceInfo &Info) {
  if (!Annotation.consume_front(KernelInfoPrefix))
    return false;
  SmallVector<StringRef, 3> Fields;
  Annotation.split(Fields, Sep);
  if (Fields.size() != 3)
    return false;
  Info = {Fields[0].str(), Fields[1].str(), Fields[2].str()};
  return true;
}

std::string encodeStageInfo(const StageTypeInfo &Info) {
  assert(StringRef(Info.TypeName).find(Sep) == StringRef::npos &&
         "no C++ type name holds the separator");
  return std::string(StageInfoPrefix) + Info.TypeName + Sep +
         std::to_string(static_cast<uint32_t>(Info.Kind)) + Sep +
         std::to_string(Info.Size) + Sep + std::to_string(Info.Align);
}

bool decodeStageInfo(StringRef Annotation, StageTypeInfo &Info) {
  if (!Annotation.consume_front(StageInfoPrefix))
    return false;
  SmallVector<StringRef, 4> Fields;
  Annotation.split(Fields, Sep);
  uint32_t Kind;
  if (Fields.size() != 4 || Fields[1].getAsInteger(10, Kind) ||
      Fields[2].getAsInteger(10, Info.Size) ||
      Fields[3].getAsInteger(10, Info.Align))
    return false;
  Info.TypeName = Fields[0].str();
  Info.Kind = static_cast<StageKind>(Kind);
  return true;
}

} // namespace mstage
