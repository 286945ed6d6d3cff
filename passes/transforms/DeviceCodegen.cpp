//===- DeviceCodegen.cpp - From a device module to PTX --------------------===//
#include "transforms/DeviceCodegen.h"
#include "DeviceLibraryFunctions.h"
#include "transforms/DeviceAsyncCopies.h"
#include "transforms/DeviceBuiltins.h"
#include "transforms/DeviceGlobals.h"
#include "transforms/DeviceOptimizer.h"
#include "transforms/DeviceStreamLoads.h"
#include "transforms/DeviceWarpReductions.h"
#include "transforms/DeviceWgmma.h"
#include "transforms/DeviceWmma.h"
#include "transforms/LibdeviceAsm.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace llvm;

#define DEBUG_TYPE "mstage-device-codegen"

STATISTIC(NumMathMapped, "Math functions mapped to libdevice's");
STATISTIC(NumLibdeviceFunctions, "libdevice functions linked");
STATISTIC(NumReflectsFolded, "__nvvm_reflect queries folded");

namespace mstage {
namespace {

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

// Host math calls (sqrtf, expf, ...) become their libdevice versions
// (__nv_sqrtf, ...) when libdevice has one; with fast math, its fast
// versions where it has them (__nv_fast_expf, ...), as CUDA's headers do
// under --use_fast_math. CUDA's own names (__expf, __fmul_rn, ...) become
// the libdevice functions that CUDA's headers call.
void mapMathToLibdevice(Module &M, Module &LibDevice, bool FastMath) {
  for (Function &F : make_early_inc_range(M)) {
    if (!F.isDeclaration() || F.isIntrinsic())
      continue;
    std::string NvName = ("__nv_" + F.getName()).str();
    std::string FastName = ("__nv_fast_" + F.getName()).str();
    if (StringRef CudaName = cudaLibdeviceName(F.getName());
        !CudaName.empty())
      NvName = CudaName.str();
    else if (FastMath && LibDevice.getFunction(FastName))
      NvName = FastName;
    if (!LibDevice.getFunction(NvName))
      continue;
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << F.getName() << " is " << NvName
                      << "\n");
    ++NumMathMapped;
    if (Function *Existing = M.getFunction(NvName)) {
      F.replaceAllUsesWith(Existing);
      F.eraseFromParent();
    } else {
      F.setName(NvName);
    }
  }
}

// libdevice's __nv_mul24 multiplies the sign-extended low 24 bits of its
// operands with `mul nsw i32`, although the product takes up to 48 bits and
// CUDA's __mul24 returns its low 32: LLVM then widens a sign extension of
// the result into a 64-bit multiply that returns all 48 bits. nvcc's NVVM
// does not use the flag; without it the PTX is nvcc's (mul.lo.s32).
void dropMul24WrapFlag(Module &M) {
  if (Function *F = M.getFunction("__nv_mul24"))
    for (Instruction &I : instructions(*F))
      if (I.getOpcode() == Instruction::Mul)
        I.setHasNoSignedWrap(false);
}

// Answers libdevice's __nvvm_reflect queries for FTZ and precise sqrt here:
// LLVM 22's NVVMReflect ignores the nvvm-reflect-prec-sqrt flag and answers 0
// (approximate sqrt). __CUDA_ARCH is left to NVVMReflect.
void foldReflectQueries(Module &M, bool FastMath) {
  Function *Reflect = M.getFunction("__nvvm_reflect");
  if (!Reflect)
    return;
  for (User *U : make_early_inc_range(Reflect->users())) {
    auto *CI = dyn_cast<CallInst>(U);
    StringRef Query;
    if (!CI || CI->arg_size() != 1 ||
        !getConstantStringInfo(CI->getArgOperand(0), Query))
      continue;
    int Value;
    if (Query == "__CUDA_FTZ")
      Value = FastMath ? 1 : 0;
    else if (Query == "__CUDA_PREC_SQRT")
      Value = FastMath ? 0 : 1;
    else
      continue;
    CI->replaceAllUsesWith(ConstantInt::get(CI->getType(), Value));
    CI->eraseFromParent();
    ++NumReflectsFolded;
  }
}

// mstage::device_arch(): the architecture the code is compiled for, as
// __CUDA_ARCH__ writes it (sm_90: 900).
void foldDeviceArch(Module &M, const TargetMachine &TM) {
  Function *Arch = M.getFunction(DeviceArchBuiltin);
  if (!Arch)
    return;
  unsigned SM = 0;
  bool Parsed = !TM.getTargetCPU().drop_front(3).consumeInteger(10, SM);
  assert(TM.getTargetCPU().starts_with("sm_") && Parsed &&
         "the JIT targets an sm_ architecture");
  (void)Parsed;
  for (User *U : make_early_inc_range(Arch->users()))
    if (auto *CI = dyn_cast<CallInst>(U);
        CI && CI->getCalledFunction() == Arch) {
      CI->replaceAllUsesWith(ConstantInt::get(CI->getType(), SM * 10));
      CI->eraseFromParent();
    }
}

// Declarations that the driver or the NVPTX back end provide.
bool isProvidedByTarget(const Function &F) {
  return F.isIntrinsic() || F.getName() == "vprintf" ||
         F.getName() == "malloc" || F.getName() == "free" ||
         F.getName() == "__assertfail" || F.getName() == "__nvvm_reflect";
}

Error checkResolved(Module &M) {
  std::string Missing;
  bool Reserved = false; // a name such as CUDA's intrinsics have
  for (Function &F : M)
    if (F.isDeclaration() && !F.use_empty() && !isProvidedByTarget(F)) {
      Missing += (Missing.empty() ? "'" : ", '") + demangle(F.getName()) + "'";
      Reserved |= F.getName().starts_with("__");
    }
  if (Missing.empty())
    return Error::success();
  return fail("calls " + Missing +
              ", which has no device definition; define it in a source file "
              "compiled with mstage++ (the kernel's, a header, or another "
              "file of the program; mstage-ptx reads only the kernel's)" +
              (Reserved ? "; CUDA's intrinsics that mstage has are declared "
                          "by <mstage/cuda_compat.hpp> "
                          "(docs/porting-from-cuda.md)"
                        : ""));
}

} // namespace

Error optimizeDeviceCode(Module &M, TargetMachine &TM, StringRef LibDevice,
                         bool FastMath, bool Quick, bool Debug) {
  assert(M.getTargetTriple().isNVPTX() && "device code is retargeted first");
  lowerStreamLoads(M, TM);
  lowerWarpReductions(M, TM);
  lowerAsyncCopies(M, TM);
  if (Error E = lowerWgmma(M, TM))
    return E;
  // Reading libdevice's symbol table costs 1-2 ms (a tenth of a small
  // kernel's compile): only a call that neither the kernel nor the target
  // (printf, assert) defines can need it.
  bool CallsOut = any_of(M, [](const Function &F) {
    return F.isDeclaration() && !F.use_empty() && !isProvidedByTarget(F);
  });
  if (CallsOut) {
    auto LibOrErr = getLazyBitcodeModule(
        MemoryBufferRef(LibDevice, "libdevice.10.bc"), M.getContext());
    if (!LibOrErr)
      return fail("embedded libdevice is unreadable: " +
                  toString(LibOrErr.takeError()));
    std::unique_ptr<Module> Lib = std::move(*LibOrErr);
    Lib->setTargetTriple(M.getTargetTriple());
    Lib->setDataLayout(M.getDataLayout());
    mapMathToLibdevice(M, *Lib, FastMath);
    size_t Before = M.size();
    if (Linker::linkModules(M, std::move(Lib), Linker::Flags::LinkOnlyNeeded))
      return fail("linking libdevice failed");
    NumLibdeviceFunctions += M.size() - Before;
    dropMul24WrapFlag(M);
    useRcpIntrinsic(M);
  }
  // IEEE-exact sqrt and division unless fast math was asked for.
  M.addModuleFlag(Module::Override, "nvvm-reflect-ftz", FastMath ? 1 : 0);
  foldReflectQueries(M, FastMath);
  foldDeviceArch(M, TM);
  // The runtime finds the kernels and the device globals by name.
  internalizeModule(M, [](const GlobalValue &GV) {
    auto *F = dyn_cast<Function>(&GV);
    return (F && F->getCallingConv() == CallingConv::PTX_Kernel) ||
           isDeviceGlobal(GV);
  });
  if (Debug)
    removeUnreachedCode(M); // what optimization would have dropped
  if (Error E = checkResolved(M))
    return E;
  OptimizationLevel Level = Debug   ? OptimizationLevel::O0
                            : Quick ? OptimizationLevel::O1
                                    : OptimizationLevel::O3;
  optimizeDeviceModule(M, TM, Level, /*LoopTransforms=*/!Quick && !Debug);
  useSharedWmmaAddresses(M);
  return Error::success();
}

Expected<std::string> compileDeviceCode(Module &M, TargetMachine &TM,
                                        StringRef LibDevice, bool FastMath,
                                        bool Debug) {
  if (Error E = optimizeDeviceCode(M, TM, LibDevice, FastMath,
                                   /*Quick=*/false, Debug))
    return std::move(E);
  TM.setOptLevel(Debug ? CodeGenOptLevel::None : CodeGenOptLevel::Aggressive);
  return emitPTX(M, TM);
}

} // namespace mstage
