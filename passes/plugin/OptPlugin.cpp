//===- OptPlugin.cpp - mstage's passes as a plugin for opt ----------------===//
//
// MStagePlugin.so cannot be loaded by opt: it refers to Clang's symbols,
// which opt does not have. This plugin holds only the passes:
//
//   opt -load-pass-plugin=build/lib/MStagePasses.so -passes=mstage-retarget
//
//===----------------------------------------------------------------------===//
#include "plugin/Passes.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "mstage-passes", "0.1",
          mstage::registerMStagePasses};
}
