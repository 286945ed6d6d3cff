//===- HostBackend.cpp - What the back ends without a GPU share -----------===//
#include "backends/HostBackend.h"
#include "AotImage.h"
#include "core/LaunchLimits.h"
#include "core/RuntimeError.h"
#include "core/Stream.h"
#include "inspect/TraceEvents.h"

#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace mstage::rt {

namespace {

// What an architecture fixes beyond LaunchLimits (CUDA programming guide,
// "Technical Specifications per Compute Capability"): shared memory and
// threads per multiprocessor. {0, 0} for one this table does not know.
struct ArchFacts {
  unsigned SharedKiBPerSM, ThreadsPerSM;
};

} // namespace

static ArchFacts archFacts(llvm::StringRef Arch) {
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

// Device memory off the GPU.
static llvm::Error hostAlloc(void **Ptr, size_t Bytes) {
  *Ptr = nullptr;
  if (Bytes > SIZE_MAX - 255) // rounded up, it would wrap to a small size
    return failure("out of host memory: " + std::to_string(Bytes) +
                   " bytes asked for");
  *Ptr = std::aligned_alloc(256, Bytes ? (Bytes + 255) / 256 * 256 : 256);
  return *Ptr ? llvm::Error::success() : failure("out of host memory");
}

// A copy is a memmove in the stream's order.
static int hostCopy(Stream &S, void *Dst, const void *Src, size_t Bytes,
                    SpanKind Kind) {
  return S.runOrRecord([=, Id = S.id()] {
    StreamSpan Span(Kind, Id, Bytes);
    std::memmove(Dst, Src, Bytes);
    return 0;
  });
}

LaunchLimits HostBackend::limits() const {
  LaunchLimits Cpu = archLaunchLimits("sm_90");
  Cpu.Note = "; the CPU back end takes only what a GPU takes";
  return Cpu;
}

void HostBackend::describeHeldTo(const std::string &Arch,
                                 llvm::StringRef ArchText,
                                 mstage_device_properties &P) const {
  const LaunchLimits &L = launchLimits(*this);
  ArchFacts F = archFacts(Arch);
  if (!F.ThreadsPerSM)
    F = archFacts("sm_90"); // as LaunchLimits does for an unknown one
  copyText(P.arch, sizeof(P.arch), ArchText);
  P.shared_memory_per_block = uint32_t(L.SharedBytes);
  P.shared_memory_per_multiprocessor = F.SharedKiBPerSM * 1024;
  P.max_threads_per_block = uint32_t(L.BlockThreads);
  P.max_threads_per_multiprocessor = F.ThreadsPerSM;
}

llvm::Error HostBackend::alloc(size_t Bytes, unsigned, void **Ptr) const {
  return hostAlloc(Ptr, Bytes);
}

llvm::Error HostBackend::free(void *Ptr, int) const {
  std::free(Ptr);
  return llvm::Error::success();
}

llvm::Error HostBackend::copyToDevice(void *Dst, const void *Src,
                                      size_t Bytes) const {
  std::memcpy(Dst, Src, Bytes);
  return llvm::Error::success();
}

llvm::Error HostBackend::copyToHost(void *Dst, const void *Src,
                                    size_t Bytes) const {
  std::memcpy(Dst, Src, Bytes);
  return llvm::Error::success();
}

llvm::Error HostBackend::allocHost(size_t Bytes, void **Ptr) const {
  return hostAlloc(Ptr, Bytes);
}

llvm::Error HostBackend::freeHost(void *Ptr) const {
  std::free(Ptr);
  return llvm::Error::success();
}

llvm::Error HostBackend::allocManaged(size_t Bytes, void **Ptr) const {
  return hostAlloc(Ptr, Bytes);
}

llvm::Error HostBackend::freeManaged(void *Ptr) const {
  std::free(Ptr);
  return llvm::Error::success();
}

llvm::Error HostBackend::allocAsync(size_t Bytes, Stream &S, void **Ptr) const {
  return alloc(Bytes, S.device(), Ptr);
}

int HostBackend::freeAsync(void *Ptr, int, Stream *) const {
  std::free(Ptr);
  return 0;
}

int HostBackend::copyToDeviceAsync(Stream &S, void *Dst, const void *Src,
                                   size_t Bytes) const {
  return hostCopy(S, Dst, Src, Bytes, SpanKind::CopyToDevice);
}

int HostBackend::copyToHostAsync(Stream &S, void *Dst, const void *Src,
                                 size_t Bytes) const {
  return hostCopy(S, Dst, Src, Bytes, SpanKind::CopyToHost);
}

int HostBackend::copyOnDeviceAsync(Stream &S, void *Dst, const void *Src,
                                   size_t Bytes) const {
  return hostCopy(S, Dst, Src, Bytes, SpanKind::CopyOnDevice);
}

int HostBackend::fillAsync(Stream &S, void *Dst, const void *Pattern,
                           size_t ElementBytes, size_t Count) const {
  assert((ElementBytes || !Count) && "a fill has elements of some size");
  std::string Element(static_cast<const char *>(Pattern), ElementBytes);
  return S.runOrRecord([=] {
    auto *Out = static_cast<char *>(Dst);
    for (size_t I = 0; I < Count; ++I)
      std::memcpy(Out + I * ElementBytes, Element.data(), ElementBytes);
    return 0;
  });
}

int HostBackend::prefetch(mstage_stream *, const void *, size_t, bool) const {
  return 0; // already where the kernels run
}

} // namespace mstage::rt
