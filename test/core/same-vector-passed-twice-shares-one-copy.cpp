// The same std::vector (or pinned_vector) passed twice to a launch is one
// array to the kernel: its arguments share one device copy, copied back once
// if either is non-const, so the kernel's writes through one argument are
// read through the other and come back (they were lost when each argument
// had its own copy and the unchanged one was copied back last). Compared
// with a host loop.
//
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s --implicit-check-not=FAIL
// RUN: env MSTAGE_BACKEND=cpu MSTAGE_CHECK=cpu %t 2>&1 | FileCheck %s --implicit-check-not=FAIL --implicit-check-not=differ
// UNSUPPORTED: gpu

#include <mstage.hpp>

#include <cstdio>
#include <utility>
#include <vector>

using namespace mstage;

// Writes through the first non-const view: a[i] = b[i] * 2 + 1, after
// reading both; then a[i] + b[i] as read before the write goes to sum.
auto body = [](auto a, auto b, vector_view<int> sum) {
  unsigned i = Thread::get().global.x;
  if (i >= a.size())
    return;
  int s = a[i] + b[i];
  using A = std::remove_pointer_t<decltype(a.data())>;
  using B = std::remove_pointer_t<decltype(b.data())>;
  if constexpr (!std::is_const_v<A>)
    a[i] = b[i] * 2 + 1;
  else if constexpr (!std::is_const_v<B>)
    b[i] = a[i] * 2 + 1;
  sum[i] = s;
};

template <class V, class A, class B>
void check(const char *name, V &v, A &&a, B &&b, bool writes) {
  std::vector<int> before(v.begin(), v.end()), sum(v.size());
  kernel(body, v.size() / 128 + 1, 128)(std::forward<A>(a),
                                            std::forward<B>(b), sum);
  for (std::size_t i = 0; i < v.size(); ++i) {
    int want = writes ? before[i] * 2 + 1 : before[i];
    if (v[i] != want || sum[i] != 2 * before[i]) {
      std::printf("FAIL %s: element %zu is %d (sum %d), expected %d (sum %d)\n",
                  name, i, v[i], sum[i], want, 2 * before[i]);
      return;
    }
  }
  std::printf("PASS %s\n", name);
}

int main() {
  std::vector<int> v(1000);
  for (int i = 0; i < 1000; ++i)
    v[i] = i - 300;
  check("v, v", v, v, v, true);
  check("v, const v", v, v, std::as_const(v), true);
  check("const v, v", v, std::as_const(v), v, true);
  check("const v, const v", v, std::as_const(v), std::as_const(v), false);
  std::vector<int> one(1, 7), none;
  check("one element", one, one, one, true);
  check("empty", none, none, none, true);
  pinned_vector<int> p(v.begin(), v.end());
  check("pinned p, p", p, p, p, true);
  check("pinned const p, p", p, std::as_const(p), p, true);
  // Two distinct vectors with equal contents stay two arrays.
  std::vector<int> w = v, w2 = v, sum(v.size());
  kernel(body, 8, 128)(w, w2, sum);
  bool ok = true;
  for (std::size_t i = 0; i < v.size(); ++i)
    ok &= w[i] == v[i] * 2 + 1 && w2[i] == v[i];
  std::printf("%s distinct vectors\n", ok ? "PASS" : "FAIL");
}

// CHECK: PASS v, v
// CHECK: PASS v, const v
// CHECK: PASS const v, v
// CHECK: PASS const v, const v
// CHECK: PASS one element
// CHECK: PASS empty
// CHECK: PASS pinned p, p
// CHECK: PASS pinned const p, p
// CHECK: PASS distinct vectors
