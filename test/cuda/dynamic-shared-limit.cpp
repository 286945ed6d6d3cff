// The runtime raises a kernel's dynamic shared memory limit
// (cuFuncSetAttribute, attribute 8) only for a launch whose static and
// dynamic shared memory together pass 48 KiB, and then to what the launch
// asks: a limit raised at every module load may give a kernel with a 1 KiB
// shared_array a smaller L1 cache on the GPU (issue 34's xs lookups). On
// the fake driver (Inputs/FakeCudaDriver.cpp), which prints each attribute
// set and each launch, and reports the static size that
// FAKECUDA_FUNC_ATTRIBUTES gives (attribute 1).
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=async FAKECUDA_LAUNCHES=1 FAKECUDA_FUNC_ATTRIBUTES=1=1024 %t 0 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=async FAKECUDA_LAUNCHES=1 FAKECUDA_FUNC_ATTRIBUTES=1=1024 %t 48128 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=async FAKECUDA_LAUNCHES=1 FAKECUDA_FUNC_ATTRIBUTES=1=1024 %t 48132 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=async FAKECUDA_LAUNCHES=1 FAKECUDA_FUNC_ATTRIBUTES=1=0 %t 65536 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=async FAKECUDA_LAUNCHES=1 FAKECUDA_FUNC_ATTRIBUTES=1=1024 FAKECUDA_FAIL=cuFuncSetAttribute=1 %t 65536 2>&1 | FileCheck %s --check-prefix=FAILS
// UNSUPPORTED: gpu

// 1 KiB static, no dynamic shared memory: the limit stays as it is.
// STATIC-NOT: fakecuda: attribute
// STATIC: fakecuda: launch
// STATIC-NOT: fakecuda: attribute
// STATIC: launched

// 1 KiB static and 47 KiB dynamic: 48 KiB, within the default.
// FITS-NOT: fakecuda: attribute
// FITS: fakecuda: launch
// FITS-NOT: fakecuda: attribute
// FITS: launched

// 4 bytes more pass 48 KiB: the limit becomes the launch's dynamic bytes.
// PAST-NOT: fakecuda: attribute
// PAST: fakecuda: attribute 8 = 48132 of [[K:_ZN[A-Za-z0-9_]+]]
// PAST-NEXT: fakecuda: launch [[K]]
// PAST-NOT: fakecuda: attribute
// PAST: launched

// LARGE: fakecuda: attribute 8 = 65536 of [[K:_ZN[A-Za-z0-9_]+]]
// LARGE-NEXT: fakecuda: launch [[K]]
// LARGE: launched

// A limit the driver refuses is the launch's error, with the device's limit.
// FAILS-NOT: fakecuda: launch
// FAILS: cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536 bytes){{.*}}allows at most 232448 bytes of shared memory per block
// FAILS-NOT: fakecuda: launch

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>

int main(int Argc, char **Argv) {
  const std::size_t Dynamic = Argc > 1 ? std::strtoul(Argv[1], nullptr, 10) : 0;
  mstage::device_vector<unsigned> Out(64);
  try {
    mstage::kernel(
        [](mstage::vector_view<unsigned> Out) {
          mstage::shared_array<unsigned, 64> Part;
          unsigned X = mstage::Thread::get().index.x;
          Part[X] = X;
          mstage::Block::get().synchronize();
          Out[X] = Part[63 - X];
        },
        1, 64, Dynamic)(Out);
    Out.download();
  } catch (const mstage::error &E) {
    std::fprintf(stderr, "error: %s\n", E.what());
    return 0;
  }
  std::fprintf(stderr, "launched\n");
  return 0;
}
