// Parameters over the kernel-parameter limit are read from device memory
// (CaptureInMemory.h): in PTX-only mode for sm_90 (limit 4352 bytes), an
// 8 KiB capture becomes a .ptr .global parameter that the kernel reads
// with ld.global.nc, with no .param array of its size; a small capture
// stays in parameter space; a capture the kernel writes (a mutable lambda)
// is the thread's own copy: the only store is the output's, nothing is
// written to the capture in memory. For sm_100 (limit 32764)
// the 8 KiB capture stays a parameter and only a 36 KiB one moves. A
// 6 KiB struct argument beside the 8 KiB capture moves too, as both do not
// fit in 4352 bytes. The
// trace says which launches moved their capture, and ptxas takes every one
// of them; the ahead-of-time generic code takes the same pointer parameter.
//
// RUN: rm -rf %t.d %t.e && %mstagexx -O2 -DNDEBUG %s -o %t
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_TRACE=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.d %t 2>&1 | FileCheck %s --check-prefix=TRACE90
// RUN: cat %t.d/*_L49*.ptx | FileCheck %s --check-prefix=BIG
// RUN: cat %t.d/*_L55*.ptx | FileCheck %s --check-prefix=SMALL
// RUN: cat %t.d/*_L61*.ptx | FileCheck %s --check-prefix=HUGE
// RUN: cat %t.d/*_L67*.ptx | FileCheck %s --check-prefix=MUTABLE
// RUN: cat %t.d/*_L75*.ptx | FileCheck %s --check-prefix=ARGUMENT
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_100 MSTAGE_CACHE=memory MSTAGE_JIT=sync MSTAGE_TRACE=1 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.e %t 2>&1 | FileCheck %s --check-prefix=TRACE100
// RUN: cat %t.e/*_L49*.ptx | FileCheck %s --check-prefix=BIG100
// RUN: cat %t.e/*_L61*.ptx | FileCheck %s --check-prefix=HUGE
// RUN: %mstage_ptx --aot-ptx %t | FileCheck %s --check-prefix=AOT
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <array>
#include <vector>

using namespace mstage;

struct coefficients {
  float scale[1500];
  float shift;
};

int main() {
  const unsigned n = 4096;
  device_vector<float> out(n);
  std::array<float, 2048> table{};
  std::array<float, 9216> huge{};
  std::array<int, 1536> ints{};
  float small[4] = {1, 2, 3, 4};
  for (unsigned i = 0; i < table.size(); ++i)
    table[i] = float(i);
  kernel(
      [table](vector_view<float> out) {
        unsigned i = Thread::get().global.x;
        out[i] = table[i % 2048] * 2.0f;
      },
      n / 128, 128)(out);
  kernel(
      [small](vector_view<float> out) {
        unsigned i = Thread::get().global.x;
        out[i] = small[i % 4];
      },
      n / 128, 128)(out);
  kernel(
      [huge](vector_view<float> out) {
        unsigned i = Thread::get().global.x;
        out[i] = huge[(i * 7) % 9216];
      },
      n / 128, 128)(out);
  kernel(
      [ints](vector_view<float> out) mutable {
        unsigned i = Thread::get().global.x;
        ints[i % 16] += int(i);
        out[i] = float(ints[i % 16]);
      },
      n / 128, 128)(out);
  coefficients c{};
  kernel(
      [table](vector_view<float> out, coefficients c) {
        unsigned i = Thread::get().global.x;
        out[i] = table[i % 2048] * c.scale[i % 1500] + c.shift;
      },
      n / 128, 128)(out, c);
  synchronize();
}

// TRACE90: large-capture-ptx.cpp:49:{{.*}} cache miss: {{.*}}; capture 8192 B in memory
// TRACE90-NOT: large-capture-ptx.cpp:55:{{.*}} in memory
// TRACE90: large-capture-ptx.cpp:61:{{.*}} cache miss: {{.*}}; capture 36864 B in memory
// TRACE90: large-capture-ptx.cpp:67:{{.*}} cache miss: {{.*}}; capture 6144 B in memory
// TRACE90: large-capture-ptx.cpp:75:{{.*}} cache miss: {{.*}}; capture 14196 B in memory

// TRACE100-NOT: large-capture-ptx.cpp:49:{{.*}} in memory
// TRACE100: large-capture-ptx.cpp:61:{{.*}} cache miss: {{.*}}; capture 36864 B in memory
// TRACE100-NOT: large-capture-ptx.cpp:75:{{.*}} in memory

// BIG: .entry
// BIG-NEXT: .param .u64 .ptr .global .align 4 [[P:[A-Za-z0-9_]+]]_param_0,
// BIG-NOT: .b8 {{.*}}[8192]
// BIG: ld.param.b64 %rd{{[0-9]+}}, {{\[}}[[P]]_param_0];
// BIG: ld.global.nc.b32

// SMALL: .param .align 4 .b8 {{.*}}_param_0[16]
// SMALL-NOT: .ptr .global

// HUGE: .param .u64 .ptr .global .align 4 {{.*}}_param_0,
// HUGE-NOT: [36864]
// HUGE: ld.global.nc.b32

// MUTABLE: .param .u64 .ptr .global .align 4 {{.*}}_param_0,
// MUTABLE-COUNT-1: st.global
// MUTABLE-NOT: st.global

// ARGUMENT: .param .u64 .ptr .global .align 4 {{.*}}_param_0,
// ARGUMENT-NEXT: .param .align 8 .b8 {{.*}}_param_1[16],
// ARGUMENT-NEXT: .param .u64 .ptr .global .align 4 {{.*}}_param_2
// ARGUMENT: ld.global.nc

// BIG100: .param .align 4 .b8 {{.*}}_param_0[8192]
// BIG100-NOT: .ptr .global .align 4 {{.*}}_param_0

// AOT-DAG: .param .u64 .ptr .global .align 4 {{_ZN4main[0-9]+kernel_L49E}}_param_0,
// AOT-DAG: .param .align 4 .b8 {{_ZN4main[0-9]+kernel_L55E}}_param_0[16],
