//===- PtxBackend.cpp - PTX-only mode: compile, run nothing ---------------===//
#include "backends/ptx/PtxBackend.h"
#include "core/KernelRegistry.h"
#include "core/LaunchLimits.h"
#include "formats/AotImage.h"
#include "jit/CompilePool.h"
#include "support/Settings.h"

#include <cassert>

namespace mstage::rt {

namespace {

// The reference GPU whose multiprocessors and memory PTX-only mode reports
// for an architecture: the table's newest at or below it (docs/api.md lists
// them). Data-center parts where there is one.
struct NominalGpu {
  unsigned CC;
  const char *Name;
  unsigned Multiprocessors;
  unsigned MemoryGiB;
};

} // namespace

static NominalGpu nominalGpu(llvm::StringRef Arch) {
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

PtxBackend::PtxBackend(std::string Arch, std::string Why)
    : HostBackend(BackendTraits{"ptx", /*Usable=*/true, /*Executes=*/false,
                                /*Compiles=*/true, /*OnGpu=*/false},
                  std::move(Arch), std::move(Why)) {}

void PtxBackend::start() const { startCompilePool(/*OnGpu=*/false, arch()); }

LaunchLimits PtxBackend::limits() const { return archLaunchLimits(arch()); }

void PtxBackend::describeDevice(unsigned Device,
                                mstage_device_properties &P) const {
  assert(Device == 0 && "PTX-only mode has one device");
  describeHeldTo(arch(), arch(), P);
  NominalGpu G = nominalGpu(arch());
  copyText(P.name, sizeof(P.name), "PTX-only " + arch() + " (nominal)");
  P.multiprocessors = G.Multiprocessors;
  P.total_memory = uint64_t(G.MemoryGiB) << 30;
}

llvm::Error PtxBackend::occupancy(CodeMaker, const mstage_launch_config &,
                                  const char *Kernel, int *) const {
  return withKernel(failure("its occupancy cannot be known in PTX-only mode "
                            "(MSTAGE_BACKEND=ptx): only a GPU's driver can "
                            "tell"),
                    Kernel);
}

} // namespace mstage::rt
