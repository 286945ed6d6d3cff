// A kernel that LLVM's NVPTX back end cannot compile (__builtin_powi with an
// exponent known only at run time: instruction selection meets an fpow node
// and calls report_fatal_error) fails its launch with an mstage::error that
// names the kernel and gives LLVM's message; the program goes on. Nothing is
// cached: a second launch fails again, launches from four threads at once
// each fail, the JIT still compiles a good kernel afterwards, and the disk
// cache holds that kernel's entry only. mstage-ptx reports the same error and
// exits with status 1.
//
// RUN: rm -rf %t.cache && %mstagexx -O2 %s -o %t -pthread
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_CACHE_DIR=%t.cache %t 2>&1 | FileCheck %s
// RUN: find %t.cache -type f -not -name '.mstage-index' | count 1
// RUN: not %mstage_ptx %t --kernel main::kernel_L26 --grid 1 2>&1 | FileCheck %s --check-prefix=TOOL
// UNSUPPORTED: gpu

#include <cstdio>
#include <mstage.hpp>
#include <string>
#include <thread>
#include <vector>

int main() {
  std::vector<double> v(4, 2.5);
  std::vector<int> n(4, 3);
  auto bad = mstage::kernel(
      [](auto &v, const auto &n) { v[0] = __builtin_powi(v[1], n[0]); }, 1, 32);
  auto tryLaunch = [&] {
    try {
      bad(v, n);
      return std::string("launched");
    } catch (const mstage::error &e) {
      return std::string(e.what());
    }
  };
  std::printf("first: %s\n", tryLaunch().c_str());
  std::printf("second: %s\n", tryLaunch().c_str());
  std::vector<std::string> Results(4);
  std::vector<std::thread> Threads;
  for (auto &R : Results)
    Threads.emplace_back([&] { R = tryLaunch(); });
  for (auto &T : Threads)
    T.join();
  for (auto &R : Results)
    std::printf("thread: %s\n", R.c_str());
  mstage::kernel([](auto &v) { v[0] = v[1] * v[2]; }, 1, 32)(v);
  std::printf("good kernel launched\n");
}

// CHECK: first: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}jit-fatal-error.cpp:26:7': LLVM cannot compile it for sm_90: Cannot select: {{.*}} = fpow
// CHECK-NEXT: second: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}jit-fatal-error.cpp:26:7': LLVM cannot compile it for sm_90: Cannot select
// CHECK-COUNT-4: thread: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}': LLVM cannot compile it for sm_90: Cannot select
// CHECK-NEXT: good kernel launched
// TOOL: mstage-ptx: error: mstage: kernel 'main::kernel_L{{[0-9]+}}@{{.*}}jit-fatal-error.cpp:26:7': LLVM cannot compile it for sm_90: Cannot select: {{.*}} = fpow
