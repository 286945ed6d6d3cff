// mstage::device::current() off the GPU. The CPU back end answers for the
// host: arch "cpu", one multiprocessor per thread that runs blocks
// (MSTAGE_CPU_THREADS), 32-thread warps, sm_90's shared memory and thread
// limits, an occupancy of 1, and a block shape over the limits is the
// launch's error naming the kernel. PTX-only mode answers what MSTAGE_ARCH
// fixes (sm_80: 163 KiB per block, 164 KiB per multiprocessor), a nominal
// device (its name says so; the multiprocessors and memory of sm_80's
// reference GPU, an A100 40 GB) and says clearly that the occupancy needs a
// GPU.
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=3 %t | FileCheck %s --check-prefix=CPU
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_80 %t 2>&1 | FileCheck %s --check-prefix=PTX
// CPU:      name {{.+}}
// CPU-NEXT: arch cpu multiprocessors 3 warp 32
// CPU-NEXT: shared 232448 per-mp 233472 threads 1024 per-mp 2048
// CPU-NEXT: memory 0
// CPU-NEXT: occupancy 1
// CPU-NEXT: error: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}device-properties.cpp:{{[0-9]+}}:7' has block.x 2048, over sm_90's limit of 1024; the CPU back end takes only what a GPU takes
// PTX:      name PTX-only sm_80 (nominal)
// PTX-NEXT: arch sm_80 multiprocessors 108 warp 32
// PTX-NEXT: shared 166912 per-mp 167936 threads 1024 per-mp 2048
// PTX-NEXT: memory 42949672960
// PTX-NEXT: error: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}': its occupancy cannot be known in PTX-only mode (MSTAGE_BACKEND=ptx): only a GPU's driver can tell

#include <mstage.hpp>

#include <cstdio>
#include <vector>

using namespace mstage;

template <class F> void report(F &&f) {
  try {
    f();
  } catch (const mstage::error &E) {
    std::printf("error: %s\n", E.what());
  }
}

int main() {
  device D = device::current();
  report([&] { std::printf("name %s\n", D.name().c_str()); });
  std::printf("arch %s", D.arch().c_str());
  report([&] { std::printf(" multiprocessors %u", D.multiprocessors()); });
  std::printf(" warp %u\n", D.warp_size());
  std::printf("shared %zu per-mp %zu threads %u per-mp %u\n",
              D.shared_memory_per_block(), D.shared_memory_per_multiprocessor(),
              D.max_threads_per_block(), D.max_threads_per_multiprocessor());
  std::printf("memory %zu\n", D.total_memory());
  std::vector<float> X(256);
  auto K = kernel(
      [](auto &X) {
        auto I = Thread::get().global.x;
        X[I] = 2 * X[I];
      },
      1, 256);
  report([&] { std::printf("occupancy %u\n", D.occupancy(K, 256, X)); });
  report([&] { std::printf("occupancy %u\n", D.occupancy(K, 2048, X)); });
}
