// mstage::ldg forces a read-only load where the launch facts cannot: here
// the kernel writes the buffer it reads (the same allocation, other
// elements), so its plain loads stay ld.global, but ldg's are
// ld.global.nc, as wide as the type's alignment allows: a float4 is one
// 16-byte load, a 12-byte struct of floats three 4-byte loads, a half one
// 2-byte load. On the CPU back end ldg is a plain load: the results equal a
// host loop's.
//
// RUN: rm -rf %t.d && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.d %t
// RUN: cat %t.d/_ZN4main*kernel_L*.ptx | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CACHE=memory %t | FileCheck %s --check-prefix=CPU
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mstage;

struct Three {
  float x, y, z;
};

int main() {
  const unsigned n = 256;
  std::vector<float> host(8 * n);
  for (unsigned i = 0; i < host.size(); ++i)
    host[i] = float(i % 97) * 0.5f;
  device_vector<float> buf(host);
  device_vector<mstage::half> h(std::vector<mstage::half>(n, mstage::half(1.5f)));
  // The first 4n floats are read, the last 4n written: one allocation.
  auto Mixed = kernel(
      [](float *data, const mstage::half *hs, unsigned n) {
        unsigned i = Thread::get().global.x;
        if (i >= n)
          return;
        float4 v = ldg(reinterpret_cast<const float4 *>(data) + i);
        Three t = ldg(reinterpret_cast<const Three *>(data) + i);
        float plain = data[i ^ 1];
        float hv = float(ldg(hs + i));
        data[4 * n + 4 * i] = v.x + v.y + v.z + v.w;
        data[4 * n + 4 * i + 1] = t.x * t.y + t.z + plain + hv;
      },
      n / 64, 64);
  Mixed(buf.data(), h.data(), n);
  synchronize();
  const char *Backend = std::getenv("MSTAGE_BACKEND");
  if (Backend && std::string(Backend) == "ptx") // nothing ran
    return 0;
  std::vector<float> got = buf.download();
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i) {
    const float *v = &host[4 * i], *t = &host[3 * i];
    float want0 = v[0] + v[1] + v[2] + v[3];
    float want1 = t[0] * t[1] + t[2] + host[i ^ 1] + 1.5f;
    bad += got[4 * n + 4 * i] != want0 || got[4 * n + 4 * i + 1] != want1;
  }
  std::printf("ldg: %u of %u wrong\n", bad, n);
  return bad != 0;
}

// CHECK: ld.global.nc.v4.b32
// CHECK-COUNT-3: ld.global.nc.b32
// CHECK: ld.global.b32
// CHECK: ld.global.nc.b16
// CPU: ldg: 0 of 256 wrong
