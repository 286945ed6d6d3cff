//===- DeviceProperties.cpp - What mstage::device reports -----------------===//
//
// mstage_rt_device_query answers for the back end that launches go to, and
// mstage_rt_device_properties for one of its devices:
//  - a GPU: the driver's attributes of the device, and the occupancy of a
//  launch's own
//    specialization (compiled through mstage_rt_compile, so that the launch
//    that follows finds it in the cache) from cuOccupancy;
//  - the CPU back end: the host (its name from /proc/cpuinfo, arch "cpu",
//    one multiprocessor per thread that runs blocks, 32-thread warps), held
//    to sm_90's shared memory and thread limits as its launches are, and an
//    occupancy of 1, as each of its threads runs one block at a time;
//  - PTX-only mode: what MSTAGE_ARCH's architecture fixes, and a nominal
//    device, so that a program that prints its device runs there too: the
//    name "PTX-only sm_90 (nominal)" and the multiprocessor count and memory
//    of a reference GPU of the architecture (nominalGpu); occupancy fails, as
//    only a GPU's driver can tell it.
//
//===----------------------------------------------------------------------===//
#include "AotImage.h"
#include "CodeForLaunch.h"
#include "core/Backend.h"
#include "core/KernelRegistry.h"
#include "core/LaunchLimits.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "cpu/CpuThreadPool.h"
#include "cuda/CudaDriver.h"
#include "support/Settings.h"

#include "mstage/abi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <string>

using namespace mstage::rt;

namespace {

void copyText(char *Dst, size_t Size, llvm::StringRef Text) {
  size_t N = std::min(Size - 1, Text.size());
  std::memcpy(Dst, Text.data(), N);
  Dst[N] = '\0';
}

// "model name : <name>" of /proc/cpuinfo's first processor.
std::string hostCpuName() {
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

// What an architecture fixes beyond LaunchLimits (CUDA programming guide,
// "Technical Specifications per Compute Capability"): shared memory and
// threads per multiprocessor. {0, 0} for one this table does not know.
struct ArchFacts {
  unsigned SharedKiBPerSM, ThreadsPerSM;
};
ArchFacts archFacts(llvm::StringRef Arch) {
  static const struct {
    unsigned CC;
    ArchFacts F;
  } Table[] = {{50, {64, 2048}},   {52, {96, 2048}},   {53, {64, 2048}},
               {60, {64, 2048}},   {61, {96, 2048}},   {62, {64, 2048}},
               {70, {96, 2048}},   {72, {96, 2048}},   {75, {64, 1024}},
               {80, {164, 2048}},  {86, {100, 1536}},  {87, {164, 2048}},
               {89, {100, 1536}},  {90, {228, 2048}},  {100, {228, 2048}},
               {101, {228, 2048}}, {103, {228, 2048}}, {110, {228, 2048}},
               {120, {100, 1536}}, {121, {100, 1536}}};
  unsigned CC = mstage::archNumber(Arch);
  for (const auto &T : Table)
    if (T.CC == CC)
      return T.F;
  return {0, 0};
}

// The reference GPU whose multiprocessors and memory PTX-only mode reports
// for an architecture: the table's newest at or below it (docs/api.md lists
// them). Data-center parts where there is one.
struct NominalGpu {
  unsigned CC;
  const char *Name;
  unsigned Multiprocessors;
  unsigned MemoryGiB;
};
NominalGpu nominalGpu(llvm::StringRef Arch) {
  static const NominalGpu Table[] = {
      {50, "Tesla M10", 5, 8},    {52, "Tesla M40", 24, 12},
      {60, "Tesla P100", 56, 16}, {61, "Tesla P40", 30, 24},
      {70, "Tesla V100", 80, 16}, {75, "Tesla T4", 40, 16},
      {80, "A100", 108, 40},      {86, "A10", 72, 24},
      {89, "L4", 58, 24},         {90, "H100 SXM", 132, 80},
      {100, "B200", 148, 180},    {120, "RTX PRO 6000", 188, 96}};
  unsigned CC = mstage::archNumber(Arch);
  const NominalGpu *Best = &Table[0];
  for (const NominalGpu &G : Table)
    if (G.CC <= CC)
      Best = &G;
  return *Best;
}

void fillProperties(const Backend &B, unsigned Device,
                    mstage_device_properties &P) {
  std::memset(&P, 0, sizeof(P));
  P.warp_size = 32;
  P.index = Device;
  if (const CudaDriver *Driver = driverOf(Device)) {
    const CudaDriver &D = *Driver;
    P.total_memory = D.totalMemory();
    copyText(P.pci_bus_id, sizeof(P.pci_bus_id), D.pciBusId());
    copyText(P.name, sizeof(P.name), D.deviceName());
    copyText(P.arch, sizeof(P.arch), D.arch());
    P.multiprocessors = uint32_t(D.multiprocessorCount());
    P.shared_memory_per_block = uint32_t(D.maxSharedBytesPerBlockOptin());
    P.shared_memory_per_multiprocessor =
        uint32_t(D.maxSharedBytesPerMultiprocessor());
    P.max_threads_per_block = uint32_t(D.maxThreadsPerBlock());
    P.max_threads_per_multiprocessor =
        uint32_t(D.maxThreadsPerMultiprocessor());
    P.warp_size = uint32_t(D.warpSize());
    return;
  }
  bool Cpu = B.Kind == BackendKind::Cpu;
  // The CPU is held to sm_90's limits (LaunchLimits.h).
  std::string Arch = Cpu ? "sm_90" : B.Arch;
  const LaunchLimits &L = launchLimits(B);
  ArchFacts F = archFacts(Arch);
  if (!F.ThreadsPerSM)
    F = archFacts("sm_90"); // as LaunchLimits does for an unknown one
  copyText(P.arch, sizeof(P.arch), Cpu ? "cpu" : B.Arch);
  P.shared_memory_per_block = uint32_t(L.SharedBytes);
  P.shared_memory_per_multiprocessor = F.SharedKiBPerSM * 1024;
  P.max_threads_per_block = uint32_t(L.BlockThreads);
  P.max_threads_per_multiprocessor = F.ThreadsPerSM;
  if (Cpu) {
    copyText(P.name, sizeof(P.name), hostCpuName());
    P.multiprocessors = cpuThreadCount();
    return;
  }
  NominalGpu G = nominalGpu(B.Arch);
  copyText(P.name, sizeof(P.name), "PTX-only " + B.Arch + " (nominal)");
  P.multiprocessors = G.Multiprocessors;
  P.total_memory = uint64_t(G.MemoryGiB) << 30;
}

// A failure of the kernel whose host entry is HostEntry.
int failFor(const void *HostEntry, llvm::Error E) {
  return failWith(withKernel(std::move(E), mstage_rt_kernel_name(HostEntry)));
}

// The occupancy of the launch on the GPU: its specialization is made as a
// launch would make it (or found), then the driver is asked about it.
llvm::Error gpuOccupancy(const Backend &B, const void *HostEntry,
                         void *const *Params, const uint32_t *ParamSizes,
                         uint32_t NumParams, const mstage_launch_config &Config,
                         int &Blocks) {
  CUfunction Function;
  CUmodule Owned;
  if (llvm::Error E = codeForLaunch(HostEntry, Params, ParamSizes, NumParams,
                                    Config, Function, Owned))
    return E;
  uint32_t Threads = Config.block[0] * Config.block[1] * Config.block[2];
  CudaDriver *D = currentDriver();
  llvm::Error E =
      D->occupancy(Function, int(Threads), Config.shared_bytes, &Blocks);
  if (Owned)
    llvm::consumeError(D->unloadModule(Owned));
  return withKernel(std::move(E), mstage_rt_kernel_name(HostEntry));
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
mstage_rt_device_query(mstage_device_properties *Props, const void *HostEntry,
                       void *const *Params, const uint32_t *ParamSizes,
                       uint32_t NumParams, const mstage_launch_config *Config,
                       int *Blocks) {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Unavailable)
    return failWith(failure("no device to describe: " + B.Reason));
  fillProperties(B, currentDevice(), *Props);
  if (!HostEntry)
    return 0;
  // A shape that cannot launch has no occupancy: said as a launch says it.
  if (llvm::Error Bad = checkLaunchShape(*Config, launchLimits(B)))
    return failFor(HostEntry, std::move(Bad));
  switch (B.Kind) {
  case BackendKind::Gpu:
    return toStatus(gpuOccupancy(B, HostEntry, Params, ParamSizes, NumParams,
                                 *Config, *Blocks));
  case BackendKind::Cpu:
    *Blocks = 1;
    return 0;
  default:
    return failFor(HostEntry,
                   failure("its occupancy cannot be known in PTX-only mode "
                           "(MSTAGE_BACKEND=ptx): only a GPU's driver can "
                           "tell"));
  }
}

namespace {

// What keeps a device from being asked about: no back end, or no device of
// that number. "" when it can be.
std::string deviceProblem(unsigned Device) {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Unavailable)
    return "no device to describe: " + B.Reason;
  return checkDevice(Device);
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
mstage_rt_device_count(unsigned *Count) {
  *Count = 0;
  if (backend().Kind == BackendKind::Unavailable)
    return failWith(failure("no device: " + backend().Reason));
  *Count = deviceCount();
  return 0;
}

extern "C" __attribute__((visibility("default"))) unsigned
mstage_rt_device_current(void) {
  return currentDevice();
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_device_set_current(unsigned Device) {
  return setCurrentDevice(Device);
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_device_properties(unsigned Device, mstage_device_properties *Props) {
  if (std::string Why = deviceProblem(Device); !Why.empty())
    return failWith(failure(Why));
  fillProperties(backend(), Device, *Props);
  return 0;
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_device_native(unsigned Device, int *Ordinal, void **Context) {
  *Ordinal = -1;
  *Context = nullptr;
  if (std::string Why = deviceProblem(Device); !Why.empty())
    return failWith(failure(Why));
  CudaDriver *D = driverOf(Device);
  if (!D)
    return 0;
  // The context is made on first use; NCCL and the CUDA runtime use it.
  if (llvm::Error E = D->bindThread())
    return failWith(std::move(E));
  *Ordinal = D->deviceOrdinal();
  *Context = D->context();
  return 0;
}

extern "C" __attribute__((visibility("default"))) int
mstage_rt_device_peer_access(unsigned Device, unsigned Owner) {
  if (!deviceProblem(Device).empty() || !deviceProblem(Owner).empty())
    return 0;
  CudaDriver *D = driverOf(Device);
  return !D || Device == Owner ? Device == Owner
                               : D->peerAccess(*driverOf(Owner));
}
