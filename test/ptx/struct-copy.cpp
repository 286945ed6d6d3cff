// A struct copied from a read-only view is a memcpy in the host front end's
// IR; the JIT expands small copies into loads and stores (SmallCopies.h)
// before the launch facts, so that a float4 copy is one read-only vector
// load and one vector store, and a copy through a temporary (one member
// changed) is too: no ld.global without .nc, no 64-bit or 32-bit pieces.
//
// RUN: rm -rf %t.d && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.d %t
// RUN: cat %t.d/_ZN4main*kernel_L30E*.ptx | FileCheck %s
// RUN: cat %t.d/_ZN4main*kernel_L36E*.ptx | FileCheck %s
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CACHE=memory %t | FileCheck %s --check-prefix=CPU
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mstage;

int main() {
  const unsigned n = 1024;
  std::vector<float4> host(n);
  for (unsigned i = 0; i < n; ++i)
    host[i] = make_float4(float(i), 1.0f, 2.0f, float(i % 7));
  device_vector<float4> a(host), b(n), c(n);
  kernel(
      [](vector_view<const float4> in, vector_view<float4> out) {
        unsigned i = Thread::get().global.x;
        out[i] = in[i];
      },
      n / 128, 128)(a, b);
  kernel(
      [](vector_view<const float4> in, vector_view<float4> out) {
        unsigned i = Thread::get().global.x;
        float4 v = in[i];
        v.x += 1.0f;
        out[i] = v;
      },
      n / 128, 128)(a, c);
  synchronize();
  const char *Backend = std::getenv("MSTAGE_BACKEND");
  if (Backend && std::string(Backend) == "ptx")
    return 0;
  std::vector<float4> gb = b.download(), gc = c.download();
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i)
    bad += gb[i].x != host[i].x || gb[i].w != host[i].w ||
           gc[i].x != host[i].x + 1.0f || gc[i].y != 1.0f ||
           gc[i].z != 2.0f || gc[i].w != host[i].w;
  std::printf("struct copies: %u of %u wrong\n", bad, n);
  return bad != 0;
}

// CHECK: ld.global.nc.v4.b32
// CHECK-NOT: ld.global
// CHECK: st.global.v4.b32
// CHECK-NOT: st.global
// CPU: struct copies: 0 of 1024 wrong
