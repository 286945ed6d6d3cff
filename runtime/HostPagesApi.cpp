//===- HostPagesApi.cpp - A fresh download buffer's pages, made at once ---===//
//
// A download into a freshly allocated std::vector (device_vector::download)
// first zeroes it, page fault by page fault. Where glibc has just returned
// the heap's top to the system (a program that frees its large host buffers
// every step), every download faults its pages again: 4 to 4.5 ms for 8 MiB
// on the H200 machine, against 1.2 ms when huge pages are allowed for
// it and its pages made in one call (docs/performance.md, "What the warm
// gap is made of, continued").
//
//===----------------------------------------------------------------------===//
#include "support/Export.h"

#include "mstage/abi.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14
#endif

namespace {

constexpr uintptr_t HugePage = uintptr_t(2) << 20;
// Below this the faults cost less than the calls (and the buffer most
// likely comes from a hole of the heap, its pages there).
constexpr size_t MinBytes = size_t(1) << 20;

std::atomic<bool> Unsupported{false};

} // namespace

// Whether a page of [Begin, End) is missing (or mincore cannot tell). A
// buffer from the heap may begin in pages the program used and end in ones
// glibc returned to the system when it trimmed the heap's top, so every
// page is asked about, not the first one only.
static bool anyPageMissing(uintptr_t Begin, uintptr_t End, uintptr_t Page) {
  constexpr uintptr_t PagesPerCall = 4096;
  unsigned char Resident[PagesPerCall];
  for (uintptr_t At = Begin; At < End; At += PagesPerCall * Page) {
    uintptr_t Bytes = std::min(End - At, PagesPerCall * Page);
    if (::mincore(reinterpret_cast<void *>(At), Bytes, Resident) != 0)
      return true;
    for (uintptr_t I = 0; I < Bytes / Page; ++I)
      if (!(Resident[I] & 1))
        return true;
  }
  return false;
}

MSTAGE_EXPORT void mstage_rt_prepare_host_buffer(void *Ptr, size_t Bytes) {
  if (Bytes < MinBytes || Unsupported.load(std::memory_order_relaxed))
    return;
  static const uintptr_t Page = uintptr_t(::sysconf(_SC_PAGESIZE));
  uintptr_t Begin = llvm::alignTo(uintptr_t(Ptr), Page);
  uintptr_t End = llvm::alignDown(uintptr_t(Ptr) + Bytes, Page);
  if (End <= Begin || !anyPageMissing(Begin, End, Page))
    return;
  uintptr_t HugeBegin = llvm::alignTo(Begin, HugePage);
  uintptr_t HugeEnd = llvm::alignDown(End, HugePage);
  // A hint only: where transparent huge pages are off, nothing changes.
  if (HugeEnd > HugeBegin)
    (void)::madvise(reinterpret_cast<void *>(HugeBegin), HugeEnd - HugeBegin,
                    MADV_HUGEPAGE);
  // The pages already there keep their contents. Before Linux 5.14 (EINVAL)
  // the zeroing makes them, as before. A failure for want of memory is the
  // zeroing's to meet, as it would without this.
  if (::madvise(reinterpret_cast<void *>(Begin), End - Begin,
                MADV_POPULATE_WRITE) != 0 &&
      errno == EINVAL)
    Unsupported.store(true, std::memory_order_relaxed);
}
