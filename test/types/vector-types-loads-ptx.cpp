// A vector_view element of an aligned vector type whose members the kernel
// reads is loaded and stored with one vector instruction, as nvcc does for
// CUDA's types: float4 and int4 ld/st.global.v4.b32, float2 v2.b32 and
// double2 v2.b64; uchar4 and short2 one 32-bit access
// (ld.global.b32, ld.global.v2.b16). float3 (aligned to 4
// only) takes three. (A plain copy, out[i] = in[i], is a 16-byte memcpy,
// which LLVM 22's NVPTX lowers to two 64-bit accesses: see
// docs/api.md.)
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | FileCheck %s
// RUN: ls %t.dump/*.ptx | xargs -I{} %ptxas -arch=sm_90 {} -o /dev/null
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

using namespace mstage;

template <class T> void copy(const std::vector<T> &in, std::vector<T> &out) {
  kernel(
      [](const auto &in, auto &out) {
        auto i = Thread::get().global.x;
        out[i] = in[i] + in[i];
      },
      1, 32)(in, out);
}

template <class T> void twice() {
  std::vector<T> in(32), out(32);
  copy(in, out);
}

int main() {
  twice<float4>();
  twice<int4>();
  twice<float2>();
  twice<double2>();
  twice<uchar4>();
  twice<short2>();
  twice<float3>();
}

// One file per element type; cat reads them in the order of their mangled
// names (the length of the function's name first: int4, then float2 to
// uchar4, then double2).
// CHECK-LABEL: .entry _ZN4copyIN6mstage{{[0-9]+}}int4EE{{[0-9]+}}kernel_L{{[0-9]+}}E
// CHECK:       ld.global{{(\.nc)?}}.v4.b32
// CHECK:       st.global.{{v4.b32|v2.b64}}
// CHECK-LABEL: .entry _ZN4copyIN6mstage{{[0-9]+}}float2EE{{[0-9]+}}kernel_L{{[0-9]+}}E
// CHECK:       ld.global{{(\.nc)?}}.v2.b32
// CHECK:       st.global.v2.b32
// CHECK-LABEL: .entry _ZN4copyIN6mstage{{[0-9]+}}float3EE{{[0-9]+}}kernel_L{{[0-9]+}}E
// CHECK-COUNT-3: ld.global{{(\.nc)?}}.b32
// CHECK-LABEL: .entry _ZN4copyIN6mstage{{[0-9]+}}float4EE{{[0-9]+}}kernel_L{{[0-9]+}}E
// CHECK:       ld.global{{(\.nc)?}}.v4.b32
// CHECK:       st.global.v4.b32
// CHECK-LABEL: .entry _ZN4copyIN6mstage{{[0-9]+}}short2EE{{[0-9]+}}kernel_L{{[0-9]+}}E
// CHECK:       ld.global{{(\.nc)?}}.v2.b16
// CHECK:       st.global.b32
// CHECK-LABEL: .entry _ZN4copyIN6mstage{{[0-9]+}}uchar4EE{{[0-9]+}}kernel_L{{[0-9]+}}E
// CHECK:       ld.global{{(\.nc)?}}.b32
// CHECK:       st.global.b32
// CHECK-LABEL: .entry _ZN4copyIN6mstage{{[0-9]+}}double2EE{{[0-9]+}}kernel_L{{[0-9]+}}E
// CHECK:       ld.global{{(\.nc)?}}.v2.b64
// CHECK:       add.rn.f64
// CHECK:       st.global.v2.b64
