//===- PtxResources.cpp - ptxas's resource report for mstage-ptx ----------===//
#include "aot/PtxResources.h"

#include "aot/CudaToolkit.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace mstage {

// The number before Unit in "..., 10 registers, 1024 bytes smem, ...".
static uint64_t field(StringRef Line, StringRef Unit) {
  SmallVector<StringRef, 8> Parts;
  Line.split(Parts, ',');
  for (StringRef P : Parts) {
    P = P.trim();
    if (P.consume_front("Used "))
      P = P.trim();
    if (P.consume_front("used "))
      P = P.trim();
    auto [Num, Rest] = P.split(' ');
    uint64_t V;
    if (Rest.trim() == Unit && !Num.getAsInteger(10, V))
      return V;
  }
  return 0;
}

Expected<PtxResources> parsePtxasVerbose(StringRef Log, StringRef Kernel) {
  PtxResources R;
  bool InKernel = false, Found = false;
  SmallVector<StringRef, 16> Lines;
  Log.split(Lines, '\n');
  for (StringRef L : Lines) {
    if (L.contains("Function properties for ")) {
      InKernel = L.rsplit("Function properties for ").second.trim() == Kernel;
      continue;
    }
    if (L.contains("Compiling entry function")) {
      InKernel = L.contains("'" + Kernel.str() + "'");
      continue;
    }
    if (!InKernel)
      continue;
    if (L.contains("stack frame")) {
      R.StackBytes = field(L, "bytes stack frame");
      R.SpillStoreBytes = field(L, "bytes spill stores");
      R.SpillLoadBytes = field(L, "bytes spill loads");
    } else if (L.contains("Used ") && L.contains("registers")) {
      L = L.substr(L.find("Used "));
      R.Registers = field(L, "registers");
      R.Barriers = field(L, "barriers");
      R.SharedBytes = field(L, "bytes smem");
      Found = true;
    }
  }
  if (!Found)
    return createStringError("ptxas -v reported no resources for '" + Kernel +
                             "'");
  return R;
}

Expected<PtxResources> measurePtxResources(StringRef PTX, StringRef Arch,
                                           StringRef Kernel) {
  std::string Ptxas = findCudaTool("ptxas");
  if (Ptxas.empty())
    return createStringError("--resources needs ptxas (the CUDA toolkit; "
                             "CUDA_PATH or PATH)");
  SmallString<128> PtxPath, LogPath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage-ptx", "ptx", PtxPath))
    return errorCodeToError(EC);
  FileRemover RemovePtx(PtxPath);
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mstage-ptx", "log", LogPath))
    return errorCodeToError(EC);
  FileRemover RemoveLog(LogPath);
  {
    std::error_code EC;
    raw_fd_ostream OS(PtxPath, EC);
    if (EC)
      return errorCodeToError(EC);
    OS << PTX;
  }
  std::string ArchArg = "-arch=" + ptxasArch(PTX, Arch);
  StringRef Args[] = {Ptxas, "-v", ArchArg, PtxPath, "-o", "/dev/null"};
  std::optional<StringRef> Redirects[] = {std::nullopt, LogPath.str(),
                                          LogPath.str()};
  std::string Msg;
  int RC =
      sys::ExecuteAndWait(Ptxas, Args, std::nullopt, Redirects, 0, 0, &Msg);
  auto Log = MemoryBuffer::getFile(LogPath);
  if (!Log)
    return errorCodeToError(Log.getError());
  if (RC != 0)
    return createStringError(Ptxas + " failed" +
                             (Msg.empty() ? "" : ": " + Msg) + "\n" +
                             (*Log)->getBuffer());
  return parsePtxasVerbose((*Log)->getBuffer(), Kernel);
}

namespace {
// What bounds the blocks resident on one SM (CUDA C Programming Guide,
// "Technical Specifications per Compute Capability").
struct SmLimits {
  unsigned Warps, Blocks;
  uint64_t Registers, SharedPerSm, SharedPerBlock;
};
} // namespace

static SmLimits limitsFor(StringRef Arch) {
  unsigned CC = 0;
  Arch.drop_front(3).take_while(isDigit).getAsInteger(10, CC);
  if (CC == 86 || CC == 87 || CC == 89)
    return {48, CC == 89 ? 24u : 16u, 65536, 100 << 10, 99 << 10};
  if (CC == 80)
    return {64, 32, 65536, 164 << 10, 163 << 10};
  if (CC >= 90 && CC < 100)
    return {64, 32, 65536, 228 << 10, 227 << 10};
  if (CC >= 100 && CC < 120)
    return {64, 32, 65536, 228 << 10, 227 << 10};
  if (CC >= 120)
    return {48, 32, 65536, 100 << 10, 99 << 10};
  return {64, 32, 65536, 96 << 10, 96 << 10}; // sm_70/75 and older
}

PtxOccupancy ptxOccupancy(const PtxResources &R, StringRef Arch,
                          uint64_t BlockThreads, uint64_t DynamicShared) {
  SmLimits L = limitsFor(Arch);
  uint64_t WarpsPerBlock = (BlockThreads + 31) / 32;
  uint64_t Blocks = L.Blocks;
  const char *Limit = "blocks per SM";
  auto Bound = [&](uint64_t N, const char *Why) {
    if (N < Blocks) {
      Blocks = N;
      Limit = Why;
    }
  };
  Bound(L.Warps / WarpsPerBlock, "warps per SM");
  // Registers are allocated per warp in units of 256.
  uint64_t RegsPerWarp = alignTo(uint64_t(std::max(R.Registers, 1u)) * 32, 256);
  Bound(L.Registers / RegsPerWarp / WarpsPerBlock, "registers");
  uint64_t Shared = R.SharedBytes + DynamicShared;
  if (Shared > L.SharedPerBlock)
    Bound(0, "shared memory");
  else if (Shared)
    // The driver reserves 1 KiB of shared memory per block.
    Bound(L.SharedPerSm / (Shared + 1024), "shared memory");
  return {Blocks, unsigned(Blocks * WarpsPerBlock * 100 / L.Warps), Limit};
}

std::string formatPtxResources(const PtxResources &R, StringRef Arch,
                               uint64_t BlockThreads, uint64_t DynamicShared) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "registers " << R.Registers << ", spill stores " << R.SpillStoreBytes
     << " B, spill loads " << R.SpillLoadBytes << " B, stack (local) "
     << R.StackBytes << " B, shared " << R.SharedBytes << " B";
  if (DynamicShared)
    OS << " + " << DynamicShared << " B dynamic";
  OS << ", barriers " << R.Barriers << "\n";
  PtxOccupancy O = ptxOccupancy(R, Arch, BlockThreads, DynamicShared);
  OS << "occupancy " << O.Percent << "% (" << O.Blocks << " blocks of "
     << BlockThreads << " threads per SM on " << Arch << ", limited by "
     << O.Limit << ")\n";
  return S;
}

} // namespace mstage
