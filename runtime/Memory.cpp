//===- Memory.cpp - The C API's device memory functions -------------------===//
//
// On a GPU these are driver allocations and copies. On the CPU back end and
// in PTX-only mode device memory is host memory, so that programs run
// through unchanged.
//
//===----------------------------------------------------------------------===//
#include "Backend.h"
#include "CudaDriver.h"
#include "RuntimeError.h"

#include "mstage/abi.h"

#include <cstdlib>
#include <cstring>

using namespace mstage::rt;

#define MSTAGE_EXPORT __attribute__((visibility("default")))

static int result(const Status &S) {
  return S ? 0 : fail("mstage: " + S.Message);
}

static int unavailable() { return fail("mstage: " + backend().Reason); }

extern "C" {

MSTAGE_EXPORT int mstage_rt_executes(void) {
  switch (backend().Kind) {
  case BackendKind::Gpu:
  case BackendKind::Cpu:
    return 1;
  case BackendKind::PtxOnly:
    return 0;
  case BackendKind::Unavailable:
    fail("mstage: " + backend().Reason);
    return -1;
  }
  return -1;
}

MSTAGE_EXPORT int mstage_rt_alloc(void **Ptr, size_t Bytes) {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu) {
    CUdeviceptr D = 0;
    Status S = B.Driver->alloc(Bytes, &D);
    *Ptr = reinterpret_cast<void *>(D);
    return result(S);
  }
  if (B.Kind == BackendKind::Unavailable)
    return unavailable();
  // Aligned as cudaMalloc's memory is (256 bytes), so that code that
  // relies on it behaves the same on the CPU.
  *Ptr = std::aligned_alloc(256, Bytes ? (Bytes + 255) / 256 * 256 : 256);
  return *Ptr ? 0 : fail("mstage: out of host memory");
}

MSTAGE_EXPORT int mstage_rt_free(void *Ptr) {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu)
    return result(B.Driver->free(reinterpret_cast<CUdeviceptr>(Ptr)));
  std::free(Ptr);
  return 0;
}

MSTAGE_EXPORT int mstage_rt_copy_to_device(void *Dst, const void *Src,
                                           size_t Bytes) {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu)
    return result(
        B.Driver->copyToDevice(reinterpret_cast<CUdeviceptr>(Dst), Src, Bytes));
  if (B.Kind == BackendKind::Unavailable)
    return unavailable();
  std::memcpy(Dst, Src, Bytes);
  return 0;
}

MSTAGE_EXPORT int mstage_rt_copy_to_host(void *Dst, const void *Src,
                                         size_t Bytes) {
  const Backend &B = backend();
  if (B.Kind == BackendKind::Gpu)
    return result(
        B.Driver->copyToHost(Dst, reinterpret_cast<CUdeviceptr>(Src), Bytes));
  if (B.Kind == BackendKind::Unavailable)
    return unavailable();
  std::memcpy(Dst, Src, Bytes);
  return 0;
}

} // extern "C"
