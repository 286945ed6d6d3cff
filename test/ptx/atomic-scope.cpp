// mstage::atomic_ref lowers to single PTX atomics of the right scope:
// - device scope (.gpu) by default, block scope (.cta) with scope::block;
//   NVPTX emits every atomicrmw with the default .gpu scope, so block scope
//   shows in the fences, compare-and-swaps, loads and stores;
// - fetch_add of float and double is atom.add.f32/f64, not a CAS loop;
// - fetch_min/fetch_max are atom.min/max (.s32, .u32, .s64); for float there
//   is no atom.min/max, so it is a CAS loop around max.f32;
// - on shared memory, atom.shared (the scope mark does not hide the address
//   space from the optimizer);
// - plain std::atomic_ref gets device scope too.
// The embedded device IR has the scopes and no marks left, also at -O0, where
// the atomic operation is not inlined when the marks are read.
//
// RUN: rm -rf %t.dump && %mstagexx -O2 -DNDEBUG -std=c++20 %s -o %t
// RUN: env MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx MSTAGE_DUMP_DIR=%t.dump %t
// RUN: cat %t.dump/*.ptx | grep -Ev "^[[:space:]]*\.(loc|file)[[:space:]]" | FileCheck %s
// RUN: %ptxas -arch=sm_90 %t.dump/*.ptx -o /dev/null
// RUN: %mstage_ptx %t --kernel main::kernel_L38 --ir | FileCheck %s --check-prefix=IR
// RUN: %mstagexx -O0 -DNDEBUG -std=c++20 -c %s -o %t0.o
// RUN: %mstage_ptx %t0.o --kernel main::kernel_L38 --ir | FileCheck %s --check-prefix=IR
// REQUIRES: ptxas
// UNSUPPORTED: gpu

#include <atomic>
#include <mstage.hpp>
#include <vector>

using namespace mstage;

int main() {
  std::vector<int> c(8, 0);
  std::vector<unsigned> u(2, 0);
  std::vector<long long> l(2, 0);
  std::vector<float> f(2, 0);
  std::vector<double> d(2, 0);
  constexpr auto relaxed = std::memory_order_relaxed;
  kernel(
      [](auto &c, auto &u, auto &l, auto &f, auto &d) {
        int i = int(Thread::get().index.x);
        atomic_ref<int>(c[0]).fetch_add(1, relaxed);
        atomic_ref<int, scope::block>(c[1]).fetch_add(2);
        atomic_ref<float>(f[0]).fetch_add(1.5f, relaxed);
        atomic_ref<double>(d[0]).fetch_add(2.5, relaxed);
        atomic_ref<int>(c[2]).fetch_min(i - 5, relaxed);
        atomic_ref<unsigned>(u[0]).fetch_max(unsigned(i), relaxed);
        atomic_ref<long long>(l[0]).fetch_min(-i, relaxed);
        atomic_ref<float>(f[1]).fetch_max(float(i), relaxed);
        int expected = 0;
        atomic_ref<int, scope::block>(c[3]).compare_exchange_strong(
            expected, 1, std::memory_order_acq_rel);
        atomic_ref<int>(c[4]).compare_exchange_strong(expected, 2);
        atomic_ref<int, scope::block>(c[5]).store(3, std::memory_order_release);
        shared_memory<int> sm;
        atomic_ref<int, scope::block>(sm[0]).fetch_or(i, relaxed);
        atomic_ref<double, scope::block>(*reinterpret_cast<double *>(&sm[2]))
            .fetch_add(0.5, std::memory_order_acquire);
        std::atomic_ref<int>(c[6]).fetch_add(4);
      },
      1, 64, 16)(c, u, l, f, d);
}

// CHECK:      atom.global.add.u32 {{.*}}, 1;
// CHECK-NEXT: fence.sc.cta;
// CHECK-NEXT: atom.global.add.u32 {{.*}}, 2;
// CHECK-NEXT: fence.acq_rel.cta;
// CHECK:      atom.global.add.f32 {{.*}}, 0f3FC00000;
// CHECK:      atom.global.add.f64 {{.*}}, 0d4004000000000000;
// CHECK:      atom.global.min.s32
// CHECK:      atom.global.max.u32
// CHECK:      atom.global.min.s64
// CHECK:      [[LOOP:\$L__BB0_[0-9]+]]:
// CHECK:      max.f32 [[NEW:%r[0-9]+]], [[OLD:%r[0-9]+]],
// CHECK-NEXT: atom.relaxed.gpu.global.cas.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}+4], [[OLD]], [[NEW]];
// CHECK:      @{{%p[0-9]+}} bra [[LOOP]];
// CHECK:      atom.acq_rel.cta.global.cas.b32 {{.*}}, 0, 1;
// CHECK:      fence.sc.gpu;
// CHECK-NEXT: atom.acquire.gpu.global.cas.b32 {{.*}}, 2;
// CHECK:      st.release.cta.global.b32 {{.*}}, 3;
// CHECK:      atom.shared.or.b32
// CHECK-NEXT: atom.shared.add.f64 {{.*}}, 0d3FE0000000000000;
// CHECK-NEXT: fence.acq_rel.cta;
// CHECK-NEXT: fence.sc.gpu;
// CHECK-NEXT: atom.global.add.u32 {{.*}}, 4;
// CHECK-NEXT: fence.acq_rel.gpu;
// CHECK-NOT:  atom

// IR-NOT:  llvm.annotation
// IR:      atomicrmw add ptr {{.*}} syncscope("device") monotonic
// IR:      atomicrmw add ptr {{.*}} syncscope("block") monotonic
// IR:      atomicrmw fadd ptr {{.*}} float 1.500000e+00 syncscope("device") monotonic
// IR:      atomicrmw fadd ptr {{.*}} double 2.500000e+00 syncscope("device") monotonic
// IR:      atomicrmw min ptr {{.*}} syncscope("device") monotonic
// IR:      atomicrmw umax ptr {{.*}} syncscope("device") monotonic
// IR:      atomicrmw min ptr {{.*}} i64 {{.*}} syncscope("device") monotonic
// IR:      atomicrmw fmax ptr {{.*}} syncscope("device") monotonic
// IR:      cmpxchg ptr {{.*}} syncscope("block") acq_rel acquire
// IR:      cmpxchg ptr {{.*}} syncscope("device") seq_cst seq_cst
// IR:      store atomic i32 3, ptr {{.*}} syncscope("block") release
// IR:      atomicrmw or ptr {{.*}} syncscope("block") monotonic
// IR:      atomicrmw fadd ptr {{.*}} syncscope("block") monotonic
// IR:      atomicrmw add ptr {{.*}} i32 4 syncscope("device") monotonic
// IR-NOT:  llvm.annotation
