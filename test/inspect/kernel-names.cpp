// Kernel symbols are Itanium-mangled nested names that the tools demangle
// (formats/KernelSymbol.h): Enclosing::kernel_L<line> by default, a label
// when kernel("label", f, ...) or k.named("label") gives one, a second
// kernel on one line with _C<column>, a lambda instantiated for two argument
// types with _2. The algorithms label theirs (mstage::reduce). The readable form is what the
// PTX's symbol demangles to (llvm-cxxfilt, the reference), and what
// mstage-ptx, MSTAGE_TRACE and MSTAGE_STATS show.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: %mstage_ptx %t | FileCheck %s --check-prefix=LIST
// RUN: %mstage_ptx %t | grep -o '^_Z[A-Za-z0-9_]*' | llvm-cxxfilt | sort | FileCheck %s --check-prefix=DEMANGLED
// RUN: %mstage_ptx %t --kernel main::saxpy --block 64 > %t.saxpy.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.saxpy.ptx
// RUN: grep -o '\.entry [A-Za-z0-9_]*' %t.saxpy.ptx | cut -d' ' -f2 | llvm-cxxfilt | FileCheck %s --check-prefix=ENTRY
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.saxpy.ptx -o /dev/null %}
// RUN: %mstage_ptx %t --kernel 'app::Solver::run::kernel_L44' --block 64 | FileCheck %s --check-prefix=NESTED
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_TRACE=1 MSTAGE_STATS=1 %t 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=OUT
// UNSUPPORTED: gpu

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

using namespace mstage;

namespace {
void anonymous(std::vector<float> &V) {
  kernel([](auto &v) { v[Thread::get().global.x] += 1; }, 1, 4)(V);
}
} // namespace

template <class T> void labelledInTemplate(std::vector<T> &V) {
  kernel("fill", [](auto &v) { v[Thread::get().global.x] += 2; }, 1, 4)(V);
}

namespace app {
struct Solver {
  void run(std::vector<float> &V) {
    kernel([](auto &v) { v[Thread::get().global.x] += 3; }, 1, 4)(V);
  }
};
} // namespace app

int main() {
  std::vector<float> V(4, 0.0f);
  std::vector<int> I(4, 0);
  float a = 2;
  // Two kernels on one line.
  auto k1 = kernel([](auto &v) { v[Thread::get().global.x] += 4; }, 1, 4); auto k2 = kernel([](auto &v) { v[Thread::get().global.x] += 5; }, 1, 4);
  k1(V);
  k2(V);
  // One generic lambda, two argument types.
  auto generic = [](auto &v) { v[Thread::get().global.x] += 6; };
  kernel(generic, 1, 4)(V);
  kernel(generic, 1, 4)(I);
  kernel("saxpy", [a](auto &v) { v[Thread::get().global.x] *= a; }, 1, 4)(V);
  kernel("physics::step", [](auto &v) { v[Thread::get().global.x] += 7; }, 1, 4)(V);
  anonymous(V);
  labelledInTemplate(I);
  app::Solver().run(V);
  std::vector<float> W(4, 1.0f);
  auto tripled = kernel([](auto &w) { w[Thread::get().global.x] *= 3; }, 1, 4);
  tripled.named("triple")(W);
  mstage::device_vector<int> D(I);
  int Sum = mstage::reduce(D, 0, std::plus<>());
  std::printf("%g %d %d\n", std::accumulate(V.begin(), V.end(), 0.0), I[0], Sum);
  std::printf("named %g\n", std::accumulate(W.begin(), W.end(), 0.0));
}

// (0 + 4 + 5 + 6) * 2 + 7 + 1 + 3 = 41 per element; I: 6 + 2 = 8 each.
// OUT: 164 8 32
// W: 1 * 3 each.
// OUT-NEXT: named 12

// LIST-DAG: {{^_ZN12_GLOBAL__N_19anonymous10kernel_L33E}}  (anonymous namespace)::anonymous::kernel_L33@{{.*}}kernel-names.cpp:33:10
// LIST-DAG: {{^_ZN18labelledInTemplateIiE4fillE}}  labelledInTemplate<int>::fill@{{.*}}kernel-names.cpp:38:18
// LIST-DAG: {{^_ZN3app6Solver3run10kernel_L44E}}  app::Solver::run::kernel_L44@{{.*}}kernel-names.cpp:44:12
// LIST-DAG: {{^_ZN4main10kernel_L54E}}  main::kernel_L54@{{.*}}kernel-names.cpp:54:20
// LIST-DAG: {{^_ZN4main14kernel_L54_C}}[[COL:[0-9]+]]E  main::kernel_L54_C[[COL]]@{{.*}}kernel-names.cpp:54:[[COL]]
// LIST-DAG: {{^_ZN4main10kernel_L58E}}  main::kernel_L58@{{.*}}kernel-names.cpp:58:18
// LIST-DAG: {{^_ZN4main12kernel_L58_2E}}  main::kernel_L58_2@{{.*}}kernel-names.cpp:58:18
// LIST-DAG: {{^_ZN4main5saxpyE}}  main::saxpy@{{.*}}kernel-names.cpp:61:19
// LIST-DAG: {{^_ZN4main6tripleE}}  main::triple@{{.*}}kernel-names.cpp:67:25
// LIST-DAG: {{^_ZN7physics4stepE}}  physics::step@{{.*}}kernel-names.cpp:62:27
// LIST-DAG: {{^_ZN6mstage6reduceE}}  mstage::reduce@{{.*}}reduce.hpp:{{[0-9]+}}:{{[0-9]+}}

// DEMANGLED:      (anonymous namespace)::anonymous::kernel_L33
// DEMANGLED-NEXT: app::Solver::run::kernel_L44
// DEMANGLED-NEXT: labelledInTemplate<int>::fill
// DEMANGLED-NEXT: main::kernel_L54
// DEMANGLED-NEXT: main::kernel_L54_C{{[0-9]+}}
// DEMANGLED-NEXT: main::kernel_L58
// DEMANGLED-NEXT: main::kernel_L58_2
// DEMANGLED-NEXT: main::saxpy
// DEMANGLED-NEXT: main::triple
// DEMANGLED-NEXT: mstage::reduce
// DEMANGLED-NEXT: physics::step

// PTX: .visible .entry [[SAXPY:_ZN4main5saxpyE]](
// PTX: .param .align 4 .b8 [[SAXPY]]_param_0[4]
// ENTRY: {{^main::saxpy$}}
// NESTED: .visible .entry _ZN3app6Solver3run10kernel_L44E(

// TRACE-DAG: mstage: trace: kernel 'main::kernel_L54@{{.*}}kernel-names.cpp:54:20' grid 1x1x1
// TRACE-DAG: mstage: trace: kernel 'main::saxpy@{{.*}}kernel-names.cpp:61:19' grid 1x1x1
// TRACE-DAG: mstage: trace: kernel 'main::triple@{{.*}}kernel-names.cpp:67:25' grid 1x1x1
// TRACE-DAG: mstage: trace: kernel 'physics::step@{{.*}}kernel-names.cpp:62:27' grid 1x1x1
// TRACE-DAG: mstage: trace: kernel 'mstage::reduce@{{.*}}reduce.hpp:{{[0-9]+}}:{{[0-9]+}}' grid
// TRACE-DAG: mstage: stats: {{.*}}  main::saxpy@{{.*}}kernel-names.cpp:61:19
// TRACE-DAG: mstage: stats: {{.*}}  mstage::reduce@{{.*}}reduce.hpp
