// Templates, classes with constructors, destructors and operators, and
// compile-time constants are fine in a kernel when their bodies are here.
// RUN: %mstagexx -fsyntax-only %s 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: error:
#include <mstage.hpp>

#include <array>
#include <utility>

template <class T, int N> struct Vec {
  T v[N] = {};
  Vec() = default;
  explicit Vec(T x) {
    for (int i = 0; i < N; ++i)
      v[i] = x;
  }
  ~Vec() {}
  T &operator[](int i) { return v[i]; }
  Vec operator+(const Vec &o) const {
    Vec r;
    for (int i = 0; i < N; ++i)
      r.v[i] = v[i] + o.v[i];
    return r;
  }
};

template <class T> T dot(Vec<T, 3> a, Vec<T, 3> b) {
  T s = 0;
  for (int i = 0; i < 3; ++i)
    s += a[i] * b[i];
  return s;
}

template <class T> constexpr T cube(T x) { return x * x * x; }
constexpr float table[] = {1, 2, 4, 8};
const int width = 4;

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

template <class T> T pick(T x) {
  if constexpr (sizeof(T) == 8)
    return x;
  else
    return x + 1;
}

int main() {
  std::vector<float> v(16);
  auto k = mstage::kernel([](mstage::vector_view<float> a) {
    unsigned i = mstage::Thread::get().global.x;
    Vec<float, 3> p(a[i]), q(2);
    std::array<int, width> arr{};
    arr[1] = fib(5);
    std::pair<float, int> pr(a[i], arr[1]);
    static_assert(cube(2) == 8);
    a[i] = dot(p + q, q) + table[i % width] + pr.first + pick(1.0f) +
           pick(2.0) + cube(a[i]);
    mstage::shared_memory<float> tile;
    tile[i] = a[i];
  }, 1, 16);
  k(v);
}
