// A first compile on a GPU loads a small kernel's PTX through the driver's
// JIT (ptxas makes the cache's cubin meanwhile), but assembles large PTX
// (64 KiB or more, launch/AssembleCode.h) once, with ptxas, and loads the
// cubin: the driver's JIT would do ptxas's work a second time and hold the
// driver while it does. The entries are written after the load, so both
// keep their PTX, and a second process loads both from the cache. On the
// fake driver (Inputs/FakeCudaDriver.cpp).
//
// RUN: rm -rf %t.cache %t.dump && %mstagexx -O2 %s -o %t
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: %python -c "import glob, os; print(sorted(os.path.getsize(p) // 65536 > 0 for p in glob.glob('%t.dump/*.ptx')))" | FileCheck %s --check-prefix=SIZES
// RUN: env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=sync MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=WARM
// In the background (MSTAGE_JIT=async, JIT tiers on by default here), the
// small kernel gets tier-0 code first and the large one does not: its
// driver JIT would hold the worker about as long as tier 1. That is decided
// from the kernel's IR before LLVM runs: the timeline has one optimize span
// of the large kernel (tier 1's), two of the small one.
// RUN: %rm_cache %t.cache && env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=async MSTAGE_TRACE=1 %t wait 2>&1 | FileCheck %s --check-prefix=TIERS --implicit-check-not="3} cache tier0"
// RUN: %rm_cache %t.cache %t.json && env LD_LIBRARY_PATH=%obj_root/test/cuda/fake-driver MSTAGE_ARCH=sm_90 MSTAGE_CACHE_DIR=%t.cache MSTAGE_JIT=async MSTAGE_TRACE=chrome:%t.json %t wait
// RUN: %python -c "import json, re; e = json.load(open('%t.json')); e = e['traceEvents'] if isinstance(e, dict) else e; n = [re.search(r'run<(\d+)ul>', x['name']).group(1) for x in e if x.get('name', '').startswith('optimize ')]; print(sorted(n))" | FileCheck %s --check-prefix=SPANS
// REQUIRES: ptxas
// UNSUPPORTED: gpu

// COLD: staged {line [[#LINE:]]: 2} cache miss: {{.*}} (ptx)
// COLD: staged {line [[#LINE]]: 3} cache miss: {{.*}} (cubin)
// SIZES: [False, True]
// WARM: staged {line {{[0-9]+}}: 2} cache disk: {{.*}} (cubin)
// WARM: staged {line {{[0-9]+}}: 3} cache disk: {{.*}} (cubin)
// TIERS-DAG: staged {line {{[0-9]+}}: 2} cache tier0 (background)
// TIERS-DAG: jit: kernel 'run<2000ul>::kernel_L{{[0-9]+}}@{{.*}}' gets no tier-0 code: {{[0-9]+}} IR instructions, over the 1200 whose PTX reaches 64 KiB
// TIERS-DAG: staged {line {{[0-9]+}}: 3} cache miss (background)
// SPANS: ['2000', '8', '8']

#include <mstage.hpp>

#include <cstdio>
#include <string>
#include <utility>

// A chain of Terms loads and multiply-adds in straight-line code: 8 make a
// few KiB of PTX, 2000 well over 64 KiB.
template <class View, size_t... I>
float chain(const View &In, unsigned X, float Scale,
            std::index_sequence<I...>) {
  float S = 0;
  ((S = S * Scale + In[I + X]), ...);
  return S;
}

template <size_t Terms> void run(int Scale, bool Wait) {
  mstage::device_vector<float> In(Terms + 64), Out(64);
  mstage::kernel(
      [Scale](auto &Out, const auto &In) {
        unsigned X = mstage::Thread::get().global.x;
        float S = 1.0f / float(mstage::stage(Scale));
        Out[X] = chain(In, X, S, std::make_index_sequence<Terms>());
      },
      1, 64)(Out, In);
  if (Wait) // its background compile runs before the pool closes at exit
    mstage::jit_wait();
}

int main(int Argc, char **Argv) {
  bool Wait = Argc > 1 && std::string(Argv[1]) == "wait";
  run<8>(2, Wait);
  run<2000>(3, Wait);
  std::printf("done\n");
}
