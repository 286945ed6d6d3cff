// mstage-ptx --source prints the specialized PTX with, before the
// instructions of each source line, that line of the C++ source (from the
// PTX's .loc directives): a statement of the kernel body, a helper inlined
// into it, and the staged value's line; the directives themselves go. Then
// the SASS, or why there is none. Built without -g: the device code has
// its line directives anyway.
//
// RUN: %mstagexx -O2 -c %s -o %t.o
// RUN: %mstage_ptx %t.o | head -n 1 | cut -d " " -f 1 > %t.name
// RUN: xargs -I{} %mstage_ptx %t.o --kernel {} --stage 0=500 --grid 4 --block 128 --source < %t.name > %t.out
// RUN: FileCheck %s < %t.out
// RUN: tac %t.out | FileCheck %s --check-prefix=REV
// RUN: not %mstage_ptx %t.o --kernel nope --source 2>&1 | FileCheck %s --check-prefix=NOKERNEL

#include <mstage.hpp>
#include <vector>

template <class Y> static void scale(Y &y, unsigned i, float v) {
  y[i] = v * 3.0f;
}

int main(int argc, char **) {
  std::vector<float> x(1000, 4.0f), y(1000, 1.0f);
  unsigned n = 499 + argc;
  auto k = mstage::kernel(
      [n](const auto &x, auto &y) {
        auto i = mstage::Thread::get().global.x;
        if (i < mstage::stage(n))
          y[i] = x[i] + 1.0f;
        scale(y, i + 1, x[i]);
      },
      4, 256);
  k(x, y);
}

// CHECK: .visible .entry {{.*}}(
// CHECK-NOT: {{^[[:space:]]*}}.loc{{[[:space:]]}}
// CHECK: //## mstage-ptx-source.cpp:28:         if (i < mstage::stage(n))
// CHECK-NEXT: setp.{{.*}}, {{(499|500)}};
// CHECK: //## mstage-ptx-source.cpp:29:           y[i] = x[i] + 1.0f;
// CHECK: //## mstage-ptx-source.cpp:19:   y[i] = v * 3.0f;
// CHECK-NOT: {{^[[:space:]]*}}.loc{{[[:space:]]}}
// CHECK-NOT: {{^[[:space:]]*}}.file{{[[:space:]]}}
// CHECK: {{// SASS: (ptxas|nvdisasm) is absent|/\*0000\*/}}

// Reversed (tac): each instruction, then the source line shown above it.
// REV: mul.rn.f32 {{.*}}, 0f40400000;
// REV-NEXT: //## mstage-ptx-source.cpp:19:   y[i] = v * 3.0f;
// REV: add.rn.f32 {{.*}}, 0f3F800000;
// REV-NEXT: ld.global
// REV-NEXT: //## mstage-ptx-source.cpp:29:           y[i] = x[i] + 1.0f;

// NOKERNEL: mstage-ptx: error: {{.*}}nope
