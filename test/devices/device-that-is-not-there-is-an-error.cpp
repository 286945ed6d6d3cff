// MSTAGE_DEVICE or MSTAGE_VISIBLE_DEVICES naming a device that is not there
// is an error that names the variable, its value and how many devices there
// are: devices() and every launch fail with it. It does not fall back to the
// CPU back end (a GPU job silently become a slow CPU job), with a driver that
// has fewer devices (a fake one, Inputs/FakeCudaDriver.cpp: 1 device) or
// with no driver at all, where the CPU back end has one device, 0. Asking
// for the CPU back end (MSTAGE_BACKEND=cpu) runs there regardless; device 0
// without a GPU keeps falling back, as before, with its one line; a
// MSTAGE_DEVICE that is no number is an error on every back end.
//
// RUN: %mstagexx -O2 %s -o %t
// No driver (this test does not run where there is a GPU):
// RUN: env MSTAGE_DEVICE=3 %t 2>&1 | FileCheck %s --check-prefix=NOGPU-DEVICE --implicit-check-not=launched
// RUN: env MSTAGE_VISIBLE_DEVICES=0,5 %t 2>&1 | FileCheck %s --check-prefix=NOGPU-VISIBLE --implicit-check-not=launched
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_DEVICE=3 %t 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: env MSTAGE_DEVICE=0 %t 2>&1 | FileCheck %s --check-prefix=FALLBACK
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_DEVICE=one %t 2>&1 | FileCheck %s --check-prefix=WORD --implicit-check-not=launched
// A driver with one device:
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_DEVICE=1 %t 2>&1 | FileCheck %s --check-prefix=FAKE-DEVICE --implicit-check-not=launched
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_VISIBLE_DEVICES=5 %t 2>&1 | FileCheck %s --check-prefix=FAKE-VISIBLE --implicit-check-not=launched
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_VISIBLE_DEVICES=0 MSTAGE_DEVICE=1 %t 2>&1 | FileCheck %s --check-prefix=FAKE-BOTH --implicit-check-not=launched
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_DEVICE=0 %t 2>&1 | FileCheck %s --check-prefix=FAKE-OK
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>

int main() {
  try {
    std::printf("devices: %zu\n", mstage::devices().size());
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
  std::vector<int> V(4, 0);
  try {
    mstage::kernel([](auto &V) { V[0] = 1; }, 1, 1)(V);
    std::printf("launched on %s\n", mstage_rt_backend());
  } catch (const mstage::error &E) {
    std::printf("%s\n", E.what());
  }
}

// NOGPU-DEVICE: mstage: no device: MSTAGE_DEVICE=3 names device 3, but there is no GPU (cannot load the CUDA driver ({{.*}})) and the CPU back end has 1 device, 0; MSTAGE_BACKEND=cpu runs kernels on the CPU regardless
// NOGPU-DEVICE: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' cannot run: MSTAGE_DEVICE=3 names device 3, but there is no GPU
// NOGPU-VISIBLE: mstage: no device: MSTAGE_VISIBLE_DEVICES='0,5' names device 5, but there is no GPU ({{.*}}) and the CPU back end has 1 device, 0;
// NOGPU-VISIBLE: cannot run: MSTAGE_VISIBLE_DEVICES='0,5' names device 5
// CPU: devices: 1
// CPU-NEXT: launched on cpu
// FALLBACK: mstage: no GPU ({{.*}}); running kernels on the CPU
// FALLBACK: devices: 1
// FALLBACK-NEXT: launched on cpu
// WORD: mstage: no device: MSTAGE_DEVICE='one' is not a device number such as 0
// WORD: cannot run: MSTAGE_DEVICE='one' is not a device number such as 0
// FAKE-DEVICE: mstage: no device: MSTAGE_DEVICE=1 names device 1, but there is 1 CUDA device{{$}}
// FAKE-DEVICE: cannot run: MSTAGE_DEVICE=1 names device 1, but there is 1 CUDA device{{$}}
// FAKE-VISIBLE: mstage: no device: MSTAGE_VISIBLE_DEVICES='5' names device 5, but there is 1 CUDA device{{$}}
// FAKE-VISIBLE: cannot run: MSTAGE_VISIBLE_DEVICES='5' names device 5, but there is 1 CUDA device{{$}}
// FAKE-BOTH: mstage: no device: MSTAGE_DEVICE=1 names device 1, but there is 1 CUDA device in MSTAGE_VISIBLE_DEVICES='0'{{$}}
// FAKE-OK: devices: 1
// FAKE-OK-NEXT: launched on cuda
