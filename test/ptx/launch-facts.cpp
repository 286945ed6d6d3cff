// Facts known at launch become part of the specialization (LaunchFacts.h):
//  - views in different allocations do not alias, and one the kernel only
//    reads gives read-only loads (ld.global.nc); the same allocation passed
//    twice gets the conservative code, plain ld.global;
//  - the alignment of each pointer is folded: four floats from a 16-byte
//    aligned pointer are one ld.global.nc.v4, from a pointer one float in
//    they stay four loads;
//  - each is its own specialization (the trace's views), in the cache key.
//
// RUN: rm -rf %t.d && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_TRACE=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.d %t 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: grep -l '"views": "A16 B16"' %t.d/_ZN4main*kernel_L28E*.json | sed 's/json$/ptx/' | xargs cat | FileCheck %s --check-prefix=DISJOINT
// RUN: grep -l '"views": "A16 A16"' %t.d/_ZN4main*kernel_L28E*.json | sed 's/json$/ptx/' | xargs cat | FileCheck %s --check-prefix=OVERLAP
// RUN: grep -l '"views": "A16 B16"' %t.d/_ZN4main*kernel_L37E*.json | sed 's/json$/ptx/' | xargs cat | FileCheck %s --check-prefix=VECTOR
// RUN: grep -l '"views": "A4 B16"' %t.d/_ZN4main*kernel_L37E*.json | sed 's/json$/ptx/' | xargs cat | FileCheck %s --check-prefix=SCALAR
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <vector>

using namespace mstage;

int main() {
  const unsigned n = 1024;
  device_vector<float> a(std::vector<float>(n, 1.0f)), b(n);
  auto Twice = kernel(
      [](const auto &in, auto &out) {
        unsigned i = Thread::get().global.x;
        if (i < in.size())
          out[i] = in[i] * 2.0f + in[i ^ 1];
      },
      n / 128, 128);
  Twice(a, b);
  Twice(a, a);
  auto Sum4 = kernel(
      [](const float *in, float *out) {
        unsigned i = Thread::get().global.x;
        out[i] = in[4 * i] + in[4 * i + 1] + in[4 * i + 2] + in[4 * i + 3];
      },
      n / 4 / 128, 128);
  Sum4(a.data(), b.data());
  Sum4(a.data() + 1, b.data());
  synchronize();
}

// TRACE: kernel_L{{[0-9]+}}@{{.*}}launch-facts.cpp:28:{{.*}} cache miss: {{.*}}; views {A16 B16}
// TRACE: kernel_L{{[0-9]+}}@{{.*}}launch-facts.cpp:28:{{.*}} cache miss: {{.*}}; views {A16 A16}
// TRACE: kernel_L{{[0-9]+}}@{{.*}}launch-facts.cpp:37:{{.*}} cache miss: {{.*}}; views {A16 B16}
// TRACE: kernel_L{{[0-9]+}}@{{.*}}launch-facts.cpp:37:{{.*}} cache miss: {{.*}}; views {A4 B16}

// DISJOINT-COUNT-2: ld.global.nc.b32
// DISJOINT-NOT: ld.global.b32
// OVERLAP-NOT: ld.global.nc
// OVERLAP-COUNT-2: ld.global.b32
// VECTOR: ld.global.nc.v4.b32
// SCALAR-NOT: .v4
// SCALAR-COUNT-4: ld.global.nc.b32
