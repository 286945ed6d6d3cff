//===- LaunchLimits.cpp - The launch shapes a GPU takes -------------------===//
#include "core/LaunchLimits.h"
#include "core/Backend.h"
#include "formats/AotImage.h"

namespace mstage::rt {

LaunchLimits archLaunchLimits(const std::string &Arch) {
  // The block and grid extents are the same on every architecture since
  // sm_30; the shared memory a block can opt in to is not (CUDA programming
  // guide, "Technical Specifications per Compute Capability").
  static const struct {
    unsigned CC, SharedKiB;
  } Shared[] = {{50, 48},   {52, 48},   {53, 48},   {60, 48},  {61, 48},
                {62, 48},   {70, 96},   {72, 96},   {75, 64},  {80, 163},
                {86, 99},   {87, 163},  {89, 99},   {90, 227}, {100, 227},
                {101, 227}, {103, 227}, {110, 227}, {120, 99}, {121, 99}};
  unsigned CC = archNumber(Arch);
  uint64_t SharedKiB = 0;
  for (const auto &S : Shared)
    if (S.CC == CC)
      SharedKiB = S.SharedKiB;
  if (!SharedKiB)
    return archLaunchLimits("sm_90");
  LaunchLimits L;
  L.Block[0] = L.Block[1] = 1024;
  L.Block[2] = 64;
  L.Grid[0] = 0x7fffffff;
  L.Grid[1] = L.Grid[2] = 65535;
  L.BlockThreads = 1024;
  L.SharedBytes = SharedKiB * 1024;
  L.Whose = "sm_" + std::to_string(CC) + "'s";
  return L;
}

const LaunchLimits &launchLimits(const Backend &B) {
  static const LaunchLimits L = B.limits();
  return L;
}

llvm::Error checkLaunchShape(const mstage_launch_config &C,
                             const LaunchLimits &L) {
  auto Over = [&](const std::string &What, uint64_t Limit) {
    return failure("has " + What + ", over " + L.Whose + " limit of " +
                       std::to_string(Limit) + L.Note,
                   RuntimeFailure::Join::Clause);
  };
  static const char *const Axis[] = {"x", "y", "z"};
  for (int I = 0; I < 3; ++I)
    if (C.block[I] > L.Block[I])
      return Over(std::string("block.") + Axis[I] + " " +
                      std::to_string(C.block[I]),
                  L.Block[I]);
  uint64_t Threads = uint64_t(C.block[0]) * C.block[1] * C.block[2];
  if (Threads > L.BlockThreads)
    return Over("block " + std::to_string(C.block[0]) + "x" +
                    std::to_string(C.block[1]) + "x" +
                    std::to_string(C.block[2]) + ", " +
                    std::to_string(Threads) + " threads per block",
                L.BlockThreads);
  for (int I = 0; I < 3; ++I)
    if (C.grid[I] > L.Grid[I])
      return Over(std::string("grid.") + Axis[I] + " " +
                      std::to_string(C.grid[I]),
                  L.Grid[I]);
  if (C.shared_bytes > L.SharedBytes)
    return Over("shared_bytes " + std::to_string(C.shared_bytes) +
                    " (dynamic shared memory)",
                L.SharedBytes);
  return llvm::Error::success();
}

uint64_t staticSharedBytes(const RegisteredKernel &K) {
  return K.Blob.Traits.StaticSharedBytes;
}

llvm::Error checkSharedMemory(const mstage_launch_config &C,
                              uint64_t StaticBytes, const LaunchLimits &L) {
  if (StaticBytes > StaticSharedLimit)
    return failure("has " + std::to_string(StaticBytes) +
                       " bytes of shared_array, over the limit of " +
                       std::to_string(StaticSharedLimit) +
                       " bytes of static shared memory per kernel; take large "
                       "arrays from dynamic shared memory (shared_arena and "
                       "the launch's shared_bytes)",
                   RuntimeFailure::Join::Clause);
  uint64_t Total = StaticBytes + C.shared_bytes;
  if (StaticBytes && Total > L.SharedBytes)
    return failure(
        "has " + std::to_string(Total) + " bytes of shared memory (" +
            std::to_string(StaticBytes) + " of shared_array, " +
            std::to_string(C.shared_bytes) + " of shared_bytes), over " +
            L.Whose + " limit of " + std::to_string(L.SharedBytes) + L.Note,
        RuntimeFailure::Join::Clause);
  return llvm::Error::success();
}

} // namespace mstage::rt
