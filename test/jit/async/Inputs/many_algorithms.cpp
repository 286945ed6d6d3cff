// A short program of many algorithm calls: transform, fill and copy of int,
// float and double over four sizes, each a specialization of its own (the
// size is folded). Nothing is checked here: the tests count what it dumps
// and caches.
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cstdio>

template <class T> void calls(std::size_t n) {
  mstage::device_vector<T> x(n), y(n);
  mstage::transform(mstage::vector_view<const T>(x.data(), n),
                    mstage::vector_view<T>(y.data(), n),
                    [](T v) { return T(2) * v + T(1); });
  mstage::fill(mstage::vector_view<T>(y.data(), n), T(3));
  mstage::copy(mstage::vector_view<const T>(x.data(), n),
               mstage::vector_view<T>(y.data(), n));
}

int main() {
  for (std::size_t n : {31, 1000, 4099, 65537}) {
    calls<int>(n);
    calls<float>(n);
    calls<double>(n);
  }
  std::printf("many_algorithms: done\n");
}
