// mstage::device_global and mstage::constant on the CPU back end, with blocks
// running at once on 4 OS threads, against host loops:
//  - a counter that two kernels (two device modules) increment with
//    atomic_add: one value, 2 * 1000 after both (not 1000 per kernel);
//  - a constant table uploaded before any launch scales each element as a
//    host loop over the same table does;
//  - an upload between launches is seen by the next launch (the table,
//    uploaded again);
//  - download() returns what the kernels wrote; download(out) of an array;
//  - the initializer is the first value: a global never uploaded starts at
//    {7};
//  - upload to device 1 fails with a message naming the device.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t | FileCheck %s
// RUN: %mstagexx -O0 %s -o %t.O0
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=4 %t.O0 | FileCheck %s

#include <mstage.hpp>

#include <cstdio>
#include <vector>

mstage::device_global<unsigned> counter;
mstage::constant<float[8]> coeff;
namespace ns {
mstage::device_global<int> seven{7};
}

int main() {
  constexpr unsigned N = 1000;
  auto count = mstage::kernel(
      [](unsigned n) {
        if (mstage::Thread::get().global.x < n)
          mstage::atomic_add(&counter.get(), 1u);
      },
      4, 256);
  auto count_again = mstage::kernel(
      [](unsigned n) {
        if (mstage::Thread::get().global.x < n)
          mstage::atomic_add(&counter.get(), 1u);
      },
      4, 256);
  auto scale = mstage::kernel(
      [](mstage::vector_view<float> x) {
        unsigned i = mstage::Thread::get().global.x;
        if (i < x.size())
          x[i] *= coeff.get()[i % 8] + float(ns::seven.get());
      },
      1, 128);

  float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  coeff.upload(table);
  counter.upload(0);
  count(N);
  count_again(N);
  // CHECK: counter 2000 expected 2000
  std::printf("counter %u expected %u\n", counter.download(), 2 * N);

  std::vector<float> x(100, 1.f), ref(100, 1.f);
  for (int round = 0; round < 2; ++round) {
    scale(x);
    for (unsigned i = 0; i < ref.size(); ++i)
      ref[i] *= table[i % 8] + 7.f;
    for (float &t : table)
      t = -t; // the next round's table
    coeff.upload(table);
  }
  // CHECK: scale equal 1
  std::printf("scale equal %d\n", x == ref);
  float back[8];
  coeff.download(back);
  // The table negated twice: the first one, uploaded last.
  // CHECK: coeff[0] 1 coeff[7] 8
  std::printf("coeff[0] %g coeff[7] %g\n", back[0], back[7]);
  // CHECK: seven 7
  std::printf("seven %d\n", ns::seven.download());
  try {
    counter.upload(1, mstage::device::at(1));
  } catch (const mstage::error &e) {
    // CHECK: error: {{.*}}device 1
    std::printf("error: %s\n", e.what());
  }
}
