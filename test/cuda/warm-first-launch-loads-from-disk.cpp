// A warm process (the specialization is in the disk cache, which an earlier
// process filled) loads it at the first launch, as a program that nvcc built
// loads its module: no generic code runs and nothing is compiled or loaded in
// the background. A cold process runs the generic code first (the default
// policy: the launch is short). MSTAGE_JIT=generic still measures the generic
// code. An entry found damaged at the first launch is said, and compiled at
// that launch. On the fake driver (Inputs/FakeCudaDriver.cpp).
//
// RUN: rm -rf %t.cache && %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=auto MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=auto MSTAGE_TRACE=1 FAKECUDA_LAUNCHES=1 %t 2>&1 | FileCheck %s --check-prefix=WARM --implicit-check-not="cache generic" --implicit-check-not="(background)" --implicit-check-not="cache miss"
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=generic MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=GENERIC --implicit-check-not="cache disk"
// RUN: truncate -s 100 %t.cache/*.mstage
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=auto MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=DAMAGED --implicit-check-not="cache generic"
// UNSUPPORTED: gpu

// COLD: staged {line [[#LINE:]]: 7} cache generic:
// COLD: staged {line [[#LINE]]: 7} cache miss (background):
// COLD: staged {line [[#LINE]]: 7} cache memory:
// WARM: staged {line [[#LINE:]]: 7} cache disk:
// WARM-NEXT: fakecuda: launch [[K:_ZN[A-Za-z0-9_]+]]
// WARM-NEXT: staged {line [[#LINE]]: 7} cache memory:
// WARM-NEXT: fakecuda: launch [[K]]
// GENERIC: staged {line [[#LINE:]]: 7} cache generic:
// GENERIC-NEXT: staged {line [[#LINE]]: 7} cache generic:
// DAMAGED: mstage: kernel cache entry {{.*}}.mstage is damaged (truncated (100 bytes, header says {{[0-9]+}})); compiling the kernel again
// DAMAGED-NEXT: staged {line [[#LINE:]]: 7} cache miss:
// DAMAGED-NEXT: staged {line [[#LINE]]: 7} cache memory:

#include <mstage.hpp>

int main(int argc, char **) {
  mstage::device_vector<int> Out(64);
  int Value = argc + 6;
  auto Fill = mstage::kernel(
      [Value](auto &Out) {
        Out[mstage::Thread::get().global.x] = mstage::stage(Value);
      },
      1, 64);
  Fill(Out);
  mstage::jit_wait();
  Fill(Out);
  return 0;
}
