// mstage::atomic_add & co. are relaxed: each is one atom (or red) with no
// fence around it, where atomic_ref's and std::atomic_ref's default seq_cst
// puts fence.sc before and fence.acq_rel after (the first kernel shows both,
// side by side). Device scope by default; atomic_add<scope::block> is block
// scope in the IR (NVPTX prints relaxed atomicrmws without a scope, so the
// PTX is the same). float and double adds are atom.add.f32/f64, min/max of
// integers atom.min/max, exch atom.exch, cas atom.cas.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG -std=c++20 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// RUN: %mstage_ptx %t --kernel main::kernel_L28 --ir | FileCheck %s --check-prefix=IR
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  std::vector<int> c(8, 0);
  std::vector<unsigned long long> u(2, 0);
  std::vector<float> f(2, 0);
  std::vector<double> d(2, 0);
  kernel(
      [](auto &c, auto &u, auto &f, auto &d) {
        int i = int(Thread::get().index.x);
        atomic_ref<int>(c[0]).fetch_add(1);
        atomic_add(&c[0], 2);
        atomic_sub(&c[1], 3); // atom.add of -3
        atomic_min(&c[2], i - 5);
        atomic_max(&u[0], (unsigned long long)i);
        atomic_exch(&c[3], 4);
        atomic_cas(&c[4], 5, 6);
        atomic_add(&f[0], 1.5f);
        atomic_add(&d[0], 2.5);
        atomic_max(&f[1], float(i));
        atomic_add<scope::block>(&c[5], 7);
        atomic_or(&c[6], i);
      },
      1, 64)(c, u, f, d);
}

// CHECK:      fence.sc.gpu;
// CHECK-NEXT: atom.global.add.u32 {{.*}}, 1;
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK-NEXT: atom.global.add.u32 {{.*}}, 2;
// CHECK-NOT:  fence
// CHECK:      atom.global.add.u32 {{.*}}, -3;
// CHECK-NOT:  fence
// CHECK:      atom.global.min.s32
// CHECK-NOT:  fence
// CHECK:      atom.global.max.u64
// CHECK-NOT:  fence
// CHECK:      atom.global.exch.b32 {{.*}}, 4;
// CHECK-NOT:  fence
// CHECK:      atom.relaxed.gpu.global.cas.b32 {{.*}}, 5, 6;
// CHECK-NOT:  fence
// CHECK:      atom.global.add.f32 {{.*}}, 0f3FC00000;
// CHECK-NOT:  fence
// CHECK:      atom.global.add.f64 {{.*}}, 0d4004000000000000;
// CHECK-NOT:  fence
// CHECK:      max.f32
// CHECK-NOT:  fence
// CHECK:      atom.relaxed.gpu.global.cas.b32
// CHECK-NOT:  fence
// CHECK:      atom.global.add.u32 {{.*}}, 7;
// CHECK-NOT:  fence
// CHECK:      atom.global.or.b32
// CHECK-NOT:  fence

// IR-NOT:  llvm.annotation
// IR:      fence syncscope("device") seq_cst
// IR-NEXT: atomicrmw add ptr {{.*}} i32 1 syncscope("device") monotonic
// IR-NEXT: fence syncscope("device") acquire
// IR-NOT:  fence
// IR:      atomicrmw add ptr {{.*}} i32 2 syncscope("device") monotonic
// IR:      atomicrmw sub ptr {{.*}} i32 3 syncscope("device") monotonic
// IR:      atomicrmw min ptr {{.*}} syncscope("device") monotonic
// IR:      atomicrmw umax ptr {{.*}} i64 {{.*}} syncscope("device") monotonic
// IR:      atomicrmw xchg ptr {{.*}} i32 4 syncscope("device") monotonic
// IR:      cmpxchg ptr {{.*}} i32 5, i32 6 syncscope("device") monotonic monotonic
// IR:      atomicrmw fadd ptr {{.*}} float 1.500000e+00 syncscope("device") monotonic
// IR:      atomicrmw fadd ptr {{.*}} double 2.500000e+00 syncscope("device") monotonic
// IR:      atomicrmw fmax ptr {{.*}} syncscope("device") monotonic
// IR:      atomicrmw add ptr {{.*}} i32 7 syncscope("block") monotonic
// IR:      atomicrmw or ptr {{.*}} syncscope("device") monotonic
// IR-NOT:  fence
