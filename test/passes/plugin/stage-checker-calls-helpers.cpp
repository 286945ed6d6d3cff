// The stage checker (MSTAGE_CHECK=stage) inlines only the calls that lead to
// the kernel's stage() sites: a large helper without sites stays a call to
// the host's own copy, so the host does not compile the kernel twice. The
// embedded device code still has the helper inlined (the flattened body).
//
// RUN: %mstagexx -O2 -DNDEBUG -Xclang -disable-llvm-passes -S -emit-llvm %s -o %t.ll
// RUN: %opt -load-pass-plugin=%mstage_passes -passes=mstage-extract-kernels -S %t.ll -o %t.ext.ll
// RUN: FileCheck %s --check-prefix=CHECKER < %t.ext.ll
// RUN: %mstagexx -O2 -DNDEBUG -c %s -o %t.o
// RUN: %mstage_ptx %t.o --kernel "main::kernel_L29" --ir | FileCheck %s --check-prefix=DEVICE

#include <mstage.hpp>
#include <vector>

using namespace mstage;

// No stage() inside: the checker calls it.
float heavy(const float *u, long i, float dt) {
  float s = 0;
  for (int k = 0; k < 8; ++k)
    s += u[i + k] * dt * float(k + 1);
  return s;
}

int main() {
  std::vector<float> u(64), out(64);
  float dt = 0.5f;
  auto kern = kernel(
      [](auto &out, const auto &u, float dtArg) {
        const float d = stage(dtArg);
        auto i = Thread::get().global.x;
        out[i] = heavy(u.data(), long(i), d);
      },
      1, 56);
  kern(out, u, dt);
}

// CHECKER: define internal void @__mstage_stage_checker.[[K:[A-Za-z0-9_]+]].impl(
// CHECKER-NOT: define
// CHECKER: call void @__mstage_stage_check(ptr %{{.*}}, i32 0,
// CHECKER-NOT: define
// CHECKER: call {{.*}}float @_Z5heavyPKflf(
// CHECKER: define internal void @__mstage_stage_checker.[[K]](

// The device copy was flattened: no call of heavy is left.
// DEVICE: define ptx_kernel void @{{.*}}(
// DEVICE-NOT: @_Z5heavyPKflf(
// DEVICE: fmul
