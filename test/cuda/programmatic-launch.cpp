// MSTAGE_PDL (on by default, as with =1): every JIT specialization (sm_90,
// the fake driver's "H200") begins with griddepcontrol.wait, so the runtime
// launches it with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
// (cuLaunchKernelEx); the fake driver (Inputs/FakeCudaDriver.cpp) ends such
// a launch's line with "(programmatic)". The generic code has no wait and
// is launched plainly (MSTAGE_JIT=async runs it first); so is everything
// with MSTAGE_PDL=0. Under MSTAGE_GRAPHS=auto the replayed graph is
// captured from programmatic launches, so its kernel-to-kernel edges are
// programmatic.
// A bad value fails the launch, naming the variable.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_PDL=1 FAKECUDA_LAUNCHES=1 FAKECUDA_CALLS=1 %t 2>&1 | FileCheck %s --check-prefix=ON
// RUN: env -u MSTAGE_PDL LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync FAKECUDA_LAUNCHES=1 FAKECUDA_CALLS=1 %t 2>&1 | FileCheck %s --check-prefix=ON
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_PDL=0 FAKECUDA_LAUNCHES=1 FAKECUDA_CALLS=1 %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=async MSTAGE_JIT_TIERS=0 MSTAGE_PDL=1 FAKECUDA_LAUNCHES=1 %t 2>&1 | FileCheck %s --check-prefix=GENERIC
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_PDL=1 MSTAGE_GRAPHS=auto FAKECUDA_LAUNCHES=1 FAKECUDA_GRAPHS=1 %t 2>&1 | FileCheck %s --check-prefix=GRAPH
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_PDL=maybe not %t 2>&1 | FileCheck %s --check-prefix=BAD
// UNSUPPORTED: gpu

// ON:      begin
// ON:      call cuLaunchKernelEx
// ON-NEXT: fakecuda: launch [[K1:_ZN[A-Za-z0-9_]+]] (programmatic)
// ON-NOT:  call cuLaunchKernel{{$}}
// ON:      fakecuda: launch [[K2:_ZN[A-Za-z0-9_]+]] (programmatic)
// ON:      end

// OFF:     begin
// OFF-NOT: cuLaunchKernelEx
// OFF-NOT: (programmatic)
// OFF:     call cuLaunchKernel{{$}}
// OFF-NOT: cuLaunchKernelEx
// OFF-NOT: (programmatic)
// OFF:     end

// The first launch of each kernel runs the generic code.
// GENERIC:      begin
// GENERIC-NEXT: fakecuda: launch {{_ZN[A-Za-z0-9_]+}}{{$}}

// 40 steps of two kernels: a period of 2, graphs of 16 programmatic nodes.
// GRAPH:      begin
// GRAPH:      fakecuda: graph launch (16 kernels)
// GRAPH-COUNT-16: fakecuda: launch {{_ZN[A-Za-z0-9_]+}} (programmatic)
// GRAPH:      end

// BAD: error: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}': MSTAGE_PDL='maybe' is not a boolean

// Only a grid that fits on the device at once (about one wave) is launched
// programmatically; the fake driver has 132 multiprocessors and says 2
// blocks of any kernel fit on one (264 blocks). "wide" launches 3 kernels
// of 256 threads: 200 blocks (fits: the wait, programmatic), 1000 blocks
// (no sm_90 multiprocessor holds more than 8 such blocks: 1,056 may fit, so
// the wait is compiled in; by the occupancy they do not: a plain launch,
// where the wait returns at once) and 2000 blocks (over 1,056: no wait is
// compiled, the code is the one without MSTAGE_PDL).
// RUN: rm -rf %t.wide && env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_PDL=1 FAKECUDA_LAUNCHES=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.wide %t wide 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: grep -c griddepcontrol.wait %t.wide/*.ptx | sort -t: -k2 | FileCheck %s --check-prefix=WAITS
// WIDE:      begin wide
// WIDE-NEXT: fakecuda: launch {{_ZN[A-Za-z0-9_]+}} (programmatic)
// WIDE-NEXT: fakecuda: launch {{_ZN[A-Za-z0-9_]+}}{{$}}
// WIDE-NEXT: fakecuda: launch {{_ZN[A-Za-z0-9_]+}}{{$}}
// WIDE-NEXT: end wide
// WAITS:      .ptx:0
// WAITS-NEXT: .ptx:1
// WAITS-NEXT: .ptx:1
// WAITS-NOT:  .ptx

#include <mstage.hpp>

#include <cstdio>
#include <string>
#include <vector>

// 200, 1000 and 2000 blocks of 256 threads after one another.
static int wide() {
  mstage::device_vector<float> X(2000 * 256, 1.0f);
  auto Add = [](unsigned Blocks) {
    return mstage::kernel(
        [](auto &Out) {
          unsigned I = mstage::Thread::get().global.x;
          Out[I] = Out[I] + 1.0f;
        },
        Blocks, 256);
  };
  std::fprintf(stderr, "begin wide\n");
  for (unsigned Blocks : {200u, 1000u, 2000u})
    Add(Blocks)(X);
  std::vector<float> Host = X.download();
  std::fprintf(stderr, "end wide\n");
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "wide")
    return wide();
  // A chain: each kernel reads what the one before wrote.
  mstage::device_vector<float> X(1024, 1.0f), Y(1024, 0.0f);
  auto Scale = mstage::kernel(
      [](auto &Out, const auto &In) {
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = In[I] * 2.0f;
      },
      4, 256);
  auto Add = mstage::kernel(
      [](auto &Out, const auto &In) {
        unsigned I = mstage::Thread::get().global.x;
        Out[I] = In[I] + 1.0f;
      },
      4, 256);
  try {
    std::fprintf(stderr, "begin\n");
    for (int Step = 0; Step < 40; ++Step) {
      Scale(Y, X);
      Add(X, Y);
    }
    std::vector<float> Host = X.download();
    std::fprintf(stderr, "end\n");
  } catch (const mstage::error &E) {
    std::fprintf(stderr, "error: %s\n", E.what());
    return 1;
  }
}
