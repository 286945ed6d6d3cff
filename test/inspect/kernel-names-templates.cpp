// A kernel made in a template's specialization is named with its template
// arguments, mangled as Itanium <template-arg>s (formats/KernelSymbol.h), so
// that the tools show scale<float, 3>::kernel_L<line>. An argument whose own
// mangling refers to a substitution (Pair<Tag, Tag>) cannot be moved into
// the kernel's symbol: it becomes part of the identifier instead. The
// reference for the readable names is llvm-cxxfilt on the symbols.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: %mstage_ptx %t | FileCheck %s --check-prefix=LIST
// RUN: %mstage_ptx %t | grep -o '^_Z[A-Za-z0-9_]*' | llvm-cxxfilt | sort | FileCheck %s --check-prefix=DEMANGLED
// RUN: %mstage_ptx %t --kernel 'scale<float, 3>::kernel_L27' --block 4 > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}
// RUN: env MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_CACHE=memory MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --check-prefix=OUT
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

using namespace mstage;

template <class T, int N> void scale(std::vector<T> &V) {
  kernel([](auto &v) { v[Thread::get().global.x] *= T(N); }, 1, 4)(V);
}

template <class T> struct Box {
  void run(std::vector<T> &V) {
    kernel([](auto &v) { v[Thread::get().global.x] += 1; }, 1, 4)(V);
  }
};

template <class T> struct AddTwo {
  void operator()(vector_view<T> v) const { v[Thread::get().global.x] += 2; }
};

struct Tag {};
template <class A, class B> struct Pair {};
template <class P> void tagged(std::vector<int> &V) {
  kernel([](auto &v) { v[Thread::get().global.x] += 5; }, 1, 4)(V);
}

int main() {
  std::vector<float> F(4, 1.0f);
  std::vector<int> I(4, 1);
  std::vector<double> D(4, 1.0);
  scale<float, 3>(F);
  scale<int, -2>(I);
  Box<double>().run(D);
  kernel(AddTwo<float>(), 1, 4)(F);
  tagged<Pair<Tag, Tag>>(I);
  std::printf("%g %d %g\n", std::accumulate(F.begin(), F.end(), 0.0),
              std::accumulate(I.begin(), I.end(), 0),
              std::accumulate(D.begin(), D.end(), 0.0));
}

// F: 1 * 3 + 2 = 5 each; I: 1 * -2 + 5 = 3 each; D: 2 each.
// OUT: 20 12 8

// LIST-DAG: {{^_ZN5scaleIfLi3EE10kernel_L27E}}  scale<float, 3>::kernel_L27@{{.*}}kernel-names-templates.cpp:27:10
// LIST-DAG: {{^_ZN5scaleIiLin2EE10kernel_L27E}}  scale<int, -2>::kernel_L27@{{.*}}kernel-names-templates.cpp:27:10
// LIST-DAG: {{^_ZN3BoxIdE3run10kernel_L32E}}  Box<double>::run::kernel_L32@{{.*}}kernel-names-templates.cpp:32:12
// LIST-DAG: {{^_ZN6AddTwoIfEE}}  AddTwo<float>@{{.*}}kernel-names-templates.cpp:36:27
// LIST-DAG: {{^_ZN20tagged_Pair_Tag__Tag10kernel_L43E}}  tagged_Pair_Tag__Tag::kernel_L43@{{.*}}kernel-names-templates.cpp:43:10

// DEMANGLED:      AddTwo<float>
// DEMANGLED-NEXT: Box<double>::run::kernel_L32
// DEMANGLED-NEXT: scale<float, 3>::kernel_L27
// DEMANGLED-NEXT: scale<int, -2>::kernel_L27
// DEMANGLED-NEXT: tagged_Pair_Tag__Tag::kernel_L43

// PTX: .visible .entry _ZN5scaleIfLi3EE10kernel_L27E(

// TRACE-DAG: mstage: trace: kernel 'scale<float, 3>::kernel_L27@{{.*}}kernel-names-templates.cpp:27:10' grid 1x1x1
// TRACE-DAG: mstage: trace: kernel 'AddTwo<float>@{{.*}}kernel-names-templates.cpp:36:27' grid 1x1x1
