// The GPU path of device_global on a fake driver (test/cuda/Inputs): an
// upload before any launch makes the device's object and copies to it, and
// download reads it back; loading a kernel's module finds its module
// variables by name (the constant's 32 bytes, the global's 8-byte pointer)
// and sets them; a failing cuModuleGetGlobal fails the launch with the
// kernel's name and the driver's error.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_LAUNCHES=1 %t 2>&1 | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_FAIL=cuModuleGetGlobal=1 %t 2>&1 | FileCheck %s --check-prefix=FAIL

#include <mstage.hpp>

#include <cstdio>
#include <vector>

mstage::device_global<unsigned> counter;
mstage::constant<float[8]> coeff{1.f};

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0); // in order with the driver's lines
  counter.upload(5);
  // CHECK: before 5
  std::printf("before %u\n", counter.download());
  float t[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  coeff.upload(t);
  std::vector<float> x(8, 1.f);
  try {
    mstage::kernel(
        [](mstage::vector_view<float> x) {
          unsigned i = mstage::Thread::get().global.x;
          x[i] *= coeff.get()[i];
          mstage::atomic_add(&counter.get(), 1u);
        },
        1, 8)(x);
    mstage::synchronize();
  } catch (const mstage::error &e) {
    // FAIL: launch failed: {{.*}}main::kernel_L{{[0-9]+}}{{.*}}cuModuleGetGlobal
    std::printf("launch failed: %s\n", e.what());
    return 0;
  }
  // CHECK-DAG: fakecuda: module variable __mstage_global_coeff, 32 bytes
  // CHECK-DAG: fakecuda: module variable __mstage_global_counter, 8 bytes
  // CHECK: after 5
  std::printf("after %u\n", counter.download());
  float back[8];
  coeff.download(back);
  // CHECK: coeff 1 8
  std::printf("coeff %g %g\n", back[0], back[7]);
}
