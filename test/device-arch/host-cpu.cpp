// On the CPU back end and in host code, mstage::on_device() is false and
// mstage::device_arch() is 0 (as __CUDA_ARCH__ is undefined in host code):
// the kernel takes its host branch, as the host loop does.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s

#include <mstage.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<unsigned> out(2), ref(2);
  mstage::kernel(
      [](mstage::vector_view<unsigned> out) {
        out[0] = mstage::on_device() ? 11u : 22u;
        out[1] = mstage::device_arch();
      },
      1, 1)(out);
  ref[0] = mstage::on_device() ? 11u : 22u;
  ref[1] = mstage::device_arch();
  // CHECK: kernel 22 0 host 22 0
  std::printf("kernel %u %u host %u %u\n", out[0], out[1], ref[0], ref[1]);
}
