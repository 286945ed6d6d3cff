// 128-bit integer arithmetic that the GPU can do is accepted, and NVPTX
// compiles it (PTX-only mode): +, -, *, /, %, shifts, comparisons, and
// conversions to and from 64-bit integers. The CPU back end computes what
// the host computes.
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 %t | FileCheck %s --check-prefix=PTX
// UNSUPPORTED: gpu
#include <mstage.hpp>

#include <cstdio>

template <class V> void arithmetic(V &a) {
  __int128 x = a[0];
  unsigned __int128 u = (unsigned __int128)a[3] << 70;
  x = x * x * x;         // overflows 64 bits
  __int128 q = x / a[1]; // 128-bit division
  __int128 r = x % a[1];
  unsigned __int128 w = u / 3 + u % 7;
  a[0] = (long long)(q >> 40);
  a[1] = (long long)r;
  a[2] = (long long)(w >> 64) + (x > q);
  a[3] = (long long)(u >> 64) * 2;
}

int main() {
  std::vector<long long> v = {1000000007, -123456789, 3, 1 << 20};
  std::vector<long long> host = v;
  auto k = mstage::kernel([](mstage::vector_view<long long> a) {
    arithmetic(a);
  }, 1, 1);
  k(v);
  arithmetic(host);
  if (!mstage_rt_executes())
    std::printf("compiled\n");
  else if (v == host)
    std::printf("same as the host: %lld %lld %lld %lld\n", v[0], v[1], v[2],
                v[3]);
  else
    std::printf("differs from the host\n");
}
// CHECK: same as the host: {{-?[0-9]+ -?[0-9]+ [0-9]+ [0-9]+}}
// PTX: compiled
