// NVTX ranges: a tool that NVTX_INJECTION64_PATH names (here one of our own,
// Inputs/NvtxRecorder.cpp, which writes down what it gets) sees, in domain
// "mstage", the user's mstage::nvtx_range, a range per cache load and per
// JIT compile (kernel, specialization key, and where the code came from:
// fresh, disk, memory or generic) and a range per wait. Without the variable
// no tool is loaded.
//
// REQUIRES: nvtx, ptxas
// RUN: %mstagexx -O2 %s -o %t -pthread
// RUN: rm -rf %t.cache
// Cold: compiled (fresh), then from memory.
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache NVTX_INJECTION64_PATH=%obj_root/test/inspect/nvtx-recorder/libmstage_nvtx_recorder.so NVTX_RECORDER_LOG=%t.cold %t
// RUN: FileCheck %s --check-prefix=COLD < %t.cold
// Warm: the disk cache has both specializations.
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache NVTX_INJECTION64_PATH=%obj_root/test/inspect/nvtx-recorder/libmstage_nvtx_recorder.so NVTX_RECORDER_LOG=%t.warm %t
// RUN: FileCheck %s --check-prefix=WARM < %t.warm
// In the background (MSTAGE_JIT=async): the compiles are the pool's, on
// threads of their own, while the launches run the generic code.
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_JIT=async NVTX_INJECTION64_PATH=%obj_root/test/inspect/nvtx-recorder/libmstage_nvtx_recorder.so NVTX_RECORDER_LOG=%t.async %t
// RUN: FileCheck %s --check-prefix=ASYNC < %t.async
// A launch that must wait for the background compile of its specialization
// (a captured launch does not run the generic code), here held up in a
// ptxas that sleeps 2 s: "wait jit" on the launching thread, beside the
// pool's compile.
// RUN: printf '#!/bin/sh\nsleep 2\nexec %ptxas "$@"\n' > %t.ptxas && chmod +x %t.ptxas
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_JIT=async MSTAGE_JIT_THREADS=1 MSTAGE_PTXAS=%t.ptxas NVTX_INJECTION64_PATH=%obj_root/test/inspect/nvtx-recorder/libmstage_nvtx_recorder.so NVTX_RECORDER_LOG=%t.wait %t wait
// RUN: FileCheck %s --check-prefix=WAIT < %t.wait
// Without the variable, NVTX loads no tool: the recorder never starts.
// RUN: rm -f %t.none && env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache NVTX_RECORDER_LOG=%t.none %t
// RUN: not test -e %t.none
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory LD_DEBUG=files %t 2>&1 | FileCheck %s --check-prefix=NOLOAD
// On the CPU back end nothing is compiled: the user's range and the waits.
// RUN: env MSTAGE_BACKEND=cpu NVTX_INJECTION64_PATH=%obj_root/test/inspect/nvtx-recorder/libmstage_nvtx_recorder.so NVTX_RECORDER_LOG=%t.cpu %t
// RUN: FileCheck %s --check-prefix=CPU < %t.cpu
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

// Queues a specialization's compile, then launches it into a graph.
static void waitForBackgroundCompile() {
  int *Out = nullptr; // never dereferenced: PTX-only mode runs nothing
  int Factor = 7;
  auto K = mstage::kernel(
      [=](int *Out) {
        if (Out)
          Out[mstage::Thread::get().index.x] = mstage::stage(Factor);
      },
      1, 64);
  K.prepare(Out);
  // The pool's thread has taken the compile (and sleeps in ptxas).
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  mstage::stream S;
  mstage::graph G = mstage::capture(S, [&] { K.on(S)(Out); });
  std::printf("captured\n");
}

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "wait")) {
    waitForBackgroundCompile();
    return 0;
  }
  std::vector<int> V(64, 1);
  {
    mstage::nvtx_range Step(std::string("step"));
    for (int Factor : {3, 3, 5})
      mstage::kernel(
          [=](auto &V) {
            V[mstage::Thread::get().index.x] *= mstage::stage(Factor);
          },
          1, 64)(V);
    {
      mstage::nvtx_range Inner("inner");
    }
  }
  mstage::jit_wait();
  mstage::synchronize();
  std::printf("v0=%d\n", V[0]);
}

// Each launch on a std::vector waits for its stream (the copy back).
// COLD:      init
// COLD-NEXT: push mstage T0: step
// COLD-NEXT: push mstage T0: cache load main::kernel_L{{[0-9]+}}@{{.*}}nvtx-ranges.cpp:{{[0-9]+}}:{{[0-9]+}} key [[K3:[0-9a-f]{16}]]
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: jit main::kernel_L{{[0-9]+}}@{{.*}} key [[K3]] fresh
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: wait stream synchronize
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: jit main::kernel_L{{[0-9]+}}@{{.*}} key [[K3]] memory
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: wait stream synchronize
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: cache load main::kernel_L{{[0-9]+}}@{{.*}} key [[K5:[0-9a-f]{16}]]
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: jit main::kernel_L{{[0-9]+}}@{{.*}} key [[K5]] fresh
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: wait stream synchronize
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: inner
// COLD-NEXT: pop mstage T0
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: wait jit_wait
// COLD-NEXT: pop mstage T0
// COLD-NEXT: push mstage T0: wait synchronize
// COLD-NEXT: pop mstage T0
// COLD-NOT:  {{.}}

// WARM:      push mstage T0: step
// WARM-NEXT: push mstage T0: cache load main::kernel_L{{[0-9]+}}@{{.*}} key [[W3:[0-9a-f]{16}]]
// WARM-NEXT: pop mstage T0
// WARM-NEXT: push mstage T0: jit main::kernel_L{{[0-9]+}}@{{.*}} key [[W3]] disk
// WARM-NEXT: pop mstage T0
// WARM:      push mstage T0: jit main::kernel_L{{[0-9]+}}@{{.*}} key [[W3]] memory
// WARM:      push mstage T0: cache load main::kernel_L{{[0-9]+}}@{{.*}} key [[W5:[0-9a-f]{16}]]
// WARM-NEXT: pop mstage T0
// WARM-NEXT: push mstage T0: jit main::kernel_L{{[0-9]+}}@{{.*}} key [[W5]] disk

// ASYNC-DAG: push mstage T{{[1-9]}}: jit main::kernel_L{{[0-9]+}}@{{.*}} key {{[0-9a-f]+}} generic
// ASYNC-DAG: push mstage T0: wait jit_wait

// NOLOAD-NOT: dynamically loaded
// NOLOAD: v0=1

// The pool's thread pushes first (T0), the launching thread waits (T1).
// WAIT:      init
// WAIT-NEXT: push mstage T0: jit waitForBackgroundCompile::kernel_L{{[0-9]+}}@{{.*}} key [[KW:[0-9a-f]+]] generic
// WAIT-NEXT: push mstage T1: wait jit waitForBackgroundCompile::kernel_L{{[0-9]+}}@{{.*}} key [[KW]]{{$}}
// WAIT-NEXT: pop mstage T0
// WAIT-NEXT: pop mstage T1

// CPU:      init
// CPU-NEXT: push mstage T0: step
// CPU:      push mstage T0: inner
// CPU-NEXT: pop mstage T0
// CPU-NEXT: pop mstage T0
// CPU-NEXT: push mstage T0: wait jit_wait
// CPU-NEXT: pop mstage T0
// CPU-NEXT: push mstage T0: wait synchronize
// CPU-NEXT: pop mstage T0
// CPU-NOT:  jit
