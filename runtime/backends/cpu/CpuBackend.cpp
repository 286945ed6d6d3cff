//===- CpuBackend.cpp - The CPU back end: the host's cores ----------------===//
#include "backends/cpu/CpuBackend.h"
#include "backends/cpu/CpuThreadPool.h"
#include "backends/cpu/StageCheck.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cassert>

namespace mstage::rt {

// "model name : <name>" of /proc/cpuinfo's first processor.
static std::string hostCpuName() {
  auto Info = llvm::MemoryBuffer::getFileAsStream("/proc/cpuinfo");
  if (Info) {
    llvm::StringRef Rest = (*Info)->getBuffer();
    while (!Rest.empty()) {
      llvm::StringRef Line;
      std::tie(Line, Rest) = Rest.split('\n');
      if (Line.consume_front("model name")) {
        llvm::StringRef Name = Line.ltrim(" \t").drop_front().trim();
        if (!Name.empty())
          return Name.str();
      }
    }
  }
  return "host CPU";
}

CpuBackend::CpuBackend(std::string Why)
    : HostBackend(BackendTraits{"cpu", /*Usable=*/true, /*Executes=*/true,
                                /*Compiles=*/false, /*OnGpu=*/false},
                  "", std::move(Why)) {}

void CpuBackend::describeDevice(unsigned, mstage_device_properties &P) const {
  describeHeldTo("sm_90", "cpu", P); // as its launches are (LaunchLimits.h)
  copyText(P.name, sizeof(P.name), hostCpuName());
  P.multiprocessors = cpuThreadCount();
}

llvm::Error CpuBackend::occupancy(CodeMaker, const mstage_launch_config &,
                                  const char *, int *Blocks) const {
  assert(Blocks && "occupancy() has somewhere to put its answer");
  *Blocks = 1;
  return llvm::Error::success();
}

llvm::Error CpuBackend::runHostBody(const RegisteredKernel &K,
                                    mstage_invoke_fn Invoke,
                                    void *const *Params,
                                    const mstage_launch_config &Config,
                                    double *KernelMs) const {
  assert(Invoke && "a CPU launch comes with the kernel's invoker");
  return launchOnCpuStageChecked(K, Invoke, Params, Config, KernelMs);
}

} // namespace mstage::rt
