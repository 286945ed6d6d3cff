// MSTAGE_CHECK=cpu with the same device_vector, managed_vector or std::vector
// passed twice: the CPU's run gets one snapshot of it for both arguments, as
// the launch had one array, and compares it once. With a snapshot per
// argument the CPU's run wrote one copy and the check reported a difference
// in the other (each launch here is checked: two runs in the trace, and no
// difference). The results are compared with a host loop.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=cpu MSTAGE_TRACE=1 %t 2>&1 | FileCheck %s --implicit-check-not=FAIL --implicit-check-not=differ
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <utility>
#include <vector>

using namespace mstage;

// a[i] = b[i] * 2 + 1 through the first non-const view.
auto body = [](auto a, auto b) {
  unsigned i = Thread::get().global.x;
  if (i >= a.size())
    return;
  using A = std::remove_pointer_t<decltype(a.data())>;
  using B = std::remove_pointer_t<decltype(b.data())>;
  if constexpr (!std::is_const_v<A>)
    a[i] = b[i] * 2 + 1;
  else if constexpr (!std::is_const_v<B>)
    b[i] = a[i] * 2 + 1;
};

const int N = 300;

void expect(const char *name, const std::vector<int> &got) {
  for (int i = 0; i < N; ++i)
    if (got[i] != (i - 100) * 2 + 1) {
      std::printf("FAIL %s: element %d is %d\n", name, i, got[i]);
      return;
    }
  std::printf("PASS %s\n", name);
}

std::vector<int> input() {
  std::vector<int> v(N);
  for (int i = 0; i < N; ++i)
    v[i] = i - 100;
  return v;
}

template <class A, class B> void run(A &&a, B &&b) {
  kernel(body, 3, 128)(std::forward<A>(a), std::forward<B>(b));
  std::fflush(stderr);
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0); // in order with stderr
  device_vector<int> d(input());
  run(d, d);
  expect("device_vector d, d", d.download());
  d.upload(input());
  run(d, std::as_const(d));
  expect("device_vector d, const d", d.download());
  d.upload(input());
  run(std::as_const(d), d);
  expect("device_vector const d, d", d.download());

  managed_vector<int> m(N);
  std::vector<int> in = input();
  for (int i = 0; i < N; ++i)
    m[i] = in[i];
  run(m, m);
  synchronize();
  expect("managed_vector m, m", std::vector<int>(m.begin(), m.end()));
  for (int i = 0; i < N; ++i)
    m[i] = in[i];
  run(std::as_const(m), m);
  synchronize();
  expect("managed_vector const m, m", std::vector<int>(m.begin(), m.end()));

  std::vector<int> v = input();
  run(v, v);
  expect("std::vector v, v", v);
}

// CHECK: mstage: MSTAGE_CHECK=cpu: each launch also runs on the CPU back end
// CHECK: trace: kernel '{{.*}}check-aliased-arguments-share-one-snapshot.cpp{{.*}} backend cpu
// CHECK-NEXT: trace: kernel '{{.*}}check-aliased-arguments-share-one-snapshot.cpp{{.*}} backend cpu
// CHECK: PASS device_vector d, d
// CHECK: trace: kernel {{.*}} backend cpu
// CHECK-NEXT: trace: kernel {{.*}} backend cpu
// CHECK: PASS device_vector d, const d
// CHECK: trace: kernel {{.*}} backend cpu
// CHECK-NEXT: trace: kernel {{.*}} backend cpu
// CHECK: PASS device_vector const d, d
// CHECK: trace: kernel {{.*}} backend cpu
// CHECK-NEXT: trace: kernel {{.*}} backend cpu
// CHECK: PASS managed_vector m, m
// CHECK: trace: kernel {{.*}} backend cpu
// CHECK-NEXT: trace: kernel {{.*}} backend cpu
// CHECK: PASS managed_vector const m, m
// CHECK: trace: kernel {{.*}} backend cpu
// CHECK-NEXT: trace: kernel {{.*}} backend cpu
// CHECK: PASS std::vector v, v
