//===- DeviceDebugInfo.cpp - Source lines that device code keeps ----------===//
#include "transforms/DeviceDebugInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-debug-info"

STATISTIC(NumUnitsDirectivesOnly, "Compile units reduced to line directives");
STATISTIC(NumLabelsDropped, "DWARF range labels dropped from PTX");
STATISTIC(NumUnitsFull, "Compile units keeping full debug information");

namespace mstage {

// CU with line directives only: NVPTX then writes .file/.loc and no DWARF
// sections, and the PTX's target lacks ", debug", which would make ptxas
// compile without optimization.
static DICompileUnit *directivesOnly(DICompileUnit *CU) {
  return DICompileUnit::getDistinct(
      CU->getContext(), CU->getSourceLanguage(), CU->getFile(),
      CU->getProducer(), CU->isOptimized(), CU->getFlags(),
      CU->getRuntimeVersion(), CU->getSplitDebugFilename(),
      DICompileUnit::DebugDirectivesOnly, CU->getEnumTypes(),
      CU->getRetainedTypes(), CU->getGlobalVariables(),
      CU->getImportedEntities(), CU->getMacros(), CU->getDWOId(),
      CU->getSplitDebugInlining(), CU->getDebugInfoForProfiling(),
      CU->getNameTableKind(), CU->getRangesBaseAddress(), CU->getSysRoot(),
      CU->getSDK());
}

bool keepsFullDebugInfo(const Module &M) {
  return any_of(M.debug_compile_units(), [](const DICompileUnit *CU) {
    return CU->getEmissionKind() == DICompileUnit::FullDebug;
  });
}

void prepareDeviceDebugInfo(Module &M, bool FullDebugAtO0) {
  NamedMDNode *Units = M.getNamedMetadata("llvm.dbg.cu");
  if (!Units || Units->getNumOperands() == 0) {
    StripDebugInfo(M);
    return;
  }
  if (FullDebugAtO0 && keepsFullDebugInfo(M)) {
    NumUnitsFull += Units->getNumOperands();
    return;
  }
  // Variables and types mean nothing without DWARF sections.
  stripNonLineTableDebugInfo(M);
  Units = M.getNamedMetadata("llvm.dbg.cu");
  if (!Units)
    return;
  DenseMap<DICompileUnit *, DICompileUnit *> NewUnits;
  for (unsigned I = 0; I < Units->getNumOperands(); ++I) {
    auto *CU = cast<DICompileUnit>(Units->getOperand(I));
    DICompileUnit *New = directivesOnly(CU);
    NewUnits[CU] = New;
    Units->setOperand(I, New);
    ++NumUnitsDirectivesOnly;
  }
  DebugInfoFinder Finder;
  Finder.processModule(M);
  for (DISubprogram *SP : Finder.subprograms())
    if (DICompileUnit *New = NewUnits.lookup(SP->getUnit())) {
      assert(SP->isDistinct() && "definitions are distinct");
      SP->replaceUnit(New);
    }
}

void describeWrapper(Function &Wrapper, const Function &Entry) {
  DISubprogram *SP = Entry.getSubprogram();
  if (!SP)
    return;
  LLVMContext &Ctx = Wrapper.getContext();
  auto *Own = DISubprogram::getDistinct(
      Ctx, SP->getFile(), Wrapper.getName(), Wrapper.getName(), SP->getFile(),
      SP->getLine(), SP->getType(), SP->getScopeLine(),
      /*ContainingType=*/nullptr, /*VirtualIndex=*/0, /*ThisAdjustment=*/0,
      DINode::FlagArtificial | DINode::FlagPrototyped,
      DISubprogram::SPFlagDefinition |
          (SP->isOptimized() ? DISubprogram::SPFlagOptimized
                             : DISubprogram::SPFlagZero),
      SP->getUnit(), /*TemplateParams=*/nullptr, /*Declaration=*/nullptr,
      /*RetainedNodes=*/nullptr, /*ThrownTypes=*/nullptr,
      /*Annotations=*/nullptr, /*TargetFuncName=*/"",
      SP->getKeyInstructionsEnabled());
  Wrapper.setSubprogram(Own);
  DILocation *Line = DILocation::get(Ctx, SP->getLine(), 0, Own);
  for (Instruction &I : instructions(Wrapper))
    if (!I.getDebugLoc())
      I.setDebugLoc(Line);
}

std::string dropUnusedDebugLabels(StringRef PTX) {
  if (PTX.contains(".section\t.debug_info") || !PTX.contains("$L__func_begin"))
    return PTX.str();
  std::string Out;
  Out.reserve(PTX.size());
  while (!PTX.empty()) {
    StringRef Line, Rest;
    std::tie(Line, Rest) = PTX.split('\n');
    bool Drop =
        any_of(ArrayRef<StringRef>{"$L__tmp", "$L__func_begin", "$L__func_end"},
               [&](StringRef Prefix) {
                 StringRef L = Line;
                 return L.consume_front(Prefix) && L.consume_back(":") &&
                        !L.empty() && all_of(L, isDigit);
               });
    if (!Drop) {
      Out += Line;
      if (PTX.size() > Line.size())
        Out += '\n';
    } else {
      ++NumLabelsDropped;
    }
    PTX = Rest;
  }
  return Out;
}

} // namespace mstage
