// A pointer one past the end of a device allocation (an end() passed as a
// raw pointer) points into that allocation: the launch accepts it, on the
// CPU back end and in PTX-only mode, and the kernel's loop from begin to end
// gives the host loop's result. A pointer into host memory is still refused.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory %t 2>&1 | FileCheck %s --check-prefix=PTX
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

using namespace mstage;

int main() {
  // 256 ints: the end is where the next 256-byte aligned block could start.
  for (std::size_t n : {std::size_t(100), std::size_t(256), std::size_t(1)}) {
    std::vector<int> host(n);
    std::iota(host.begin(), host.end(), 1);
    device_vector<int> in(host), out(1, 0);
    auto sum = kernel(
        [](const int *begin, const int *end, int *total) {
          int s = 0;
          for (const int *p = begin; p != end; ++p)
            s += *p;
          *total = s;
        },
        1, 1);
    try {
      sum(in.data(), in.data() + in.size(), out.data());
      long want = std::accumulate(host.begin(), host.end(), 0L);
      if (mstage_rt_executes() == 1)
        std::printf("n=%zu: sum %d, host %ld\n", n, out.get(0), want);
      else
        std::printf("n=%zu: launched\n", n);
    } catch (const mstage::error &e) {
      std::printf("n=%zu: %s\n", n, e.what());
    }
    // The end of a host array is host memory still.
    try {
      sum(in.data(), host.data() + host.size(), out.data());
      std::printf("host end: accepted\n");
    } catch (const mstage::error &e) {
      std::printf("host end: %s\n", e.what());
    }
  }
}

// CHECK: n=100: sum 5050, host 5050
// CHECK: host end: mstage: kernel '{{.*}}': argument 2 holds 0x{{[0-9a-f]+}}, a pointer into host memory
// CHECK: n=256: sum 32896, host 32896
// CHECK: host end: mstage: kernel '{{.*}}': argument 2 holds 0x{{[0-9a-f]+}}, a pointer into host memory
// CHECK: n=1: sum 1, host 1
// CHECK: host end: mstage: kernel '{{.*}}': argument 2 holds 0x{{[0-9a-f]+}}, a pointer into host memory
// PTX: n=100: launched
// PTX: host end: mstage: kernel '{{.*}}': argument 2 holds 0x{{[0-9a-f]+}}, a pointer into host memory
// PTX: n=256: launched
// PTX: host end: {{.*}}a pointer into host memory
// PTX: n=1: launched
// PTX: host end: {{.*}}a pointer into host memory
