// The extraction pass embeds the kernel and what it calls, retargeted to
// nvptx64, with the host-only attributes gone and the builtins mapped to
// NVVM. The same holds at -O0 and with -g (-O0 -g: full DWARF, unoptimized).
//
// RUN: %mstagexx -O2 -DNDEBUG -c %s -o %t.o
// RUN: %mstage_ptx %t.o | FileCheck %s --check-prefix=LIST
// RUN: %mstage_ptx %t.o --kernel main::kernel_L29 --ir | FileCheck %s --check-prefixes=CHECK,LINES
// RUN: %mstagexx -O0 -g -DNDEBUG -c %s -o %t0.o
// RUN: %mstage_ptx %t0.o --kernel main::kernel_L29 --ir | FileCheck %s --check-prefixes=CHECK,FULL

#include <mstage.hpp>
#include <vector>

using namespace mstage;

struct Point {
  float x, y;
};

static float scale(float v, int k) { return v * k; }

// LIST: {{_ZN4main[0-9]+kernel_L29E}}  main::kernel_L{{[0-9]+}}@{{.*}}device-ir.cpp:29:7  (3 parameters, 0 stage sites)

int main() {
  std::vector<Point> pts(64);
  std::vector<float> out(64);
  int k = 3;
  auto kern = kernel(
      [k](const auto &pts, auto &out) {
        auto i = Thread::get().global.x;
        Block::get().synchronize();
        out[i] = scale(pts[i].x, k) + pts[i].y;
      },
      1, 64);
  kern(pts, out);
}

// CHECK: target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// CHECK: target triple = "nvptx64-nvidia-cuda"
// At -O0 -g the code is embedded unoptimized, for the debugger: the helpers
// that read the builtins are functions of their own, before the kernel.
// FULL-DAG: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// FULL-DAG: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// CHECK: define ptx_kernel void @{{_ZN4main[0-9]+kernel_L29E}}(ptr {{.*}}byval([4 x i8]) align 4 {{.*}}, ptr {{.*}}byval([16 x i8]) align 8 {{.*}}, ptr {{.*}}byval([16 x i8]) align 8
// LINES-DAG: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// LINES-DAG: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// CHECK-NOT: optnone
// CHECK-NOT: "target-cpu"
// CHECK-NOT: "target-features"
// CHECK-NOT: uwtable
// CHECK-NOT: __mstage_tid
// LINES: !DICompileUnit({{.*}}emissionKind: DebugDirectivesOnly
// FULL: !DICompileUnit({{.*}}emissionKind: FullDebug
// CHECK: !{i32 2, !"Debug Info Version", i32 3}
