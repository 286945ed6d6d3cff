// A kernel that calls this_grid().sync() is launched with
// cuLaunchCooperativeKernel, without being asked, once the occupancy check
// finds that every block fits at once: on the fake driver
// (Inputs/FakeCudaDriver.cpp) 2 blocks per multiprocessor on 132
// multiprocessors, so 264 blocks fit and 265 fail before the launch, with an
// error that names the kernel and says how many fit. A kernel without a grid
// barrier keeps cuLaunchKernel, and so does MSTAGE_GRAPHS=auto's path.
// Under MSTAGE_PDL=1 the plain kernel's launch is programmatic and the
// cooperative one stays cooperative only.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_LAUNCHES=1 %t 264 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_GRAPHS=auto FAKECUDA_LAUNCHES=1 %t 264 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_PDL=1 FAKECUDA_LAUNCHES=1 %t 264 2>&1 | FileCheck %s --check-prefixes=FITS,PDL
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_LAUNCHES=1 %t 265 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_CALLS=1 FAKECUDA_FAIL=cuOccupancyMaxActiveBlocksPerMultiprocessor=2 %t 8 2>&1 | FileCheck %s --check-prefix=OCCUPANCY
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  unsigned Blocks = unsigned(std::atoi(argv[1]));
  std::vector<int> V(Blocks * 64);
  try {
    mstage::kernel([](auto &V) { V[mstage::Thread::get().global.x] = 1; },
                   Blocks, 64)(V);
    std::fprintf(stderr, "plain launched\n");
    mstage::kernel(
        [](auto &V) {
          unsigned I = mstage::Thread::get().global.x;
          V[I] = 1;
          mstage::cg::this_grid().sync();
          V[I] += V[(I + 64) % V.size()];
        },
        Blocks, 64)(V);
    std::fprintf(stderr, "cooperative launched\n");
  } catch (const mstage::error &E) {
    std::fprintf(stderr, "error: %s\n", E.what());
  }
}

// FITS-NOT:   cooperative launch
// FITS:       fakecuda: launch [[PLAIN:_ZN[A-Za-z0-9_]+]]
// PDL-SAME:   (programmatic)
// FITS:       plain launched
// FITS:       fakecuda: cooperative launch of [[K:_ZN[A-Za-z0-9_]+]] (264 blocks)
// FITS-NEXT:  fakecuda: launch [[K]]{{$}}
// FITS:       cooperative launched

// LARGE:      plain launched
// LARGE-NOT:  fakecuda: cooperative launch
// LARGE:      error: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}' synchronizes its grid (this_grid().sync()), so all its blocks must be resident at once, but {{.*}} holds at most 264 blocks of 64 threads with 0 bytes of dynamic shared memory (2 per multiprocessor, 132 multiprocessors), and the grid has 265; launch at most 264 blocks and loop over the work (a grid-stride loop)
// LARGE-NOT:  cooperative launched

// OCCUPANCY:      cuOccupancyMaxActiveBlocksPerMultiprocessor
// OCCUPANCY-NOT:  cuLaunchCooperativeKernel
// OCCUPANCY:      error: mstage: {{.*}}kernel 'main::kernel_L{{[0-9]+}}{{.*}}cuOccupancyMaxActiveBlocksPerMultiprocessor
