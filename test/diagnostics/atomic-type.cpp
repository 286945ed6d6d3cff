// mstage::atomic_ref takes the types the GPU has atomics for; anything else
// is a compile error that says which types those are.
// RUN: not %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mstage.hpp>

int main() {
  std::vector<short> s(4);
  std::vector<bool> b(4);
  mstage::kernel(
      [](auto &s) {
        // CHECK: error: static assertion failed {{.*}}: mstage::atomic_ref<T>: T must be a 4- or 8-byte integer (int, unsigned, long long, ...), float or double; the GPU has no atomics for other types
        mstage::atomic_ref<short>(s[0]).fetch_add(1);
        // CHECK: error: static assertion failed {{.*}}: mstage::atomic_ref<T>: T must not be const or volatile
        const int c = 0;
        mstage::atomic_ref<const int> r(c);
        (void)r;
      },
      1, 32)(s);
}
