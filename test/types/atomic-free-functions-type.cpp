// mstage::atomic_add & co. take the types the GPU has atomics for, and
// atomic_cas/and/or/xor only integers; anything else is a compile error that
// says which types those are.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

int main() {
  std::vector<short> s(4);
  std::vector<float> f(4);
  mstage::kernel(
      [](auto &s, auto &f) {
        // CHECK: error: static assertion failed {{.*}}: mstage::atomic_*: T must be a 4- or 8-byte integer (int, unsigned, long long, ...), float or double; the GPU has no atomics for other types
        mstage::atomic_add(&s[0], 1);
        // CHECK: error: static assertion failed {{.*}}: mstage::atomic_and/or/xor/cas: T must be a 4- or 8-byte integer; for float or double use atomic_ref's compare_exchange on the same bits
        mstage::atomic_cas(&f[0], 1.0f, 2.0f);
        // CHECK: error: static assertion failed {{.*}}: mstage::atomic_*: the pointer must not point to const or volatile
        const int c = 0;
        mstage::atomic_max(&c, 1);
      },
      1, 32)(s, f);
}
