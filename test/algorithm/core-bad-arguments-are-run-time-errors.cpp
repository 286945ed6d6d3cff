// What only the launch can see is an mstage::error naming the call, and the
// program goes on: min/max/minmax of an empty view, views of different
// sizes, bounds whose upper limit is below the lower one minus 1, an empty
// output view, an array's bad dimension; the empty inputs that are not
// errors give the values (reduce: init, sum: T{}, count_if: 0,
// any_of: false, all_of: true) and launch nothing.
// RUN: %mstagexx -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t 2>&1 | FileCheck %s --implicit-check-not=unexpected
#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <cstdio>
#include <functional>

template <class F> void expectError(F f) {
  try {
    f();
    std::printf("unexpected: no error\n");
  } catch (const mstage::error &e) {
    std::printf("%s\n", e.what());
  }
}

int main() {
  mstage::device_vector<int> empty, four(4, 1), five(5, 1);
  // CHECK: mstage: min: the view is empty, so there is no value to return; check its size first
  expectError([&] { mstage::min(empty); });
  // CHECK-NEXT: mstage: max: the view is empty
  expectError([&] { mstage::max(empty); });
  // CHECK-NEXT: mstage: minmax: the view is empty
  expectError([&] { mstage::minmax(empty); });
  // CHECK-NEXT: mstage: min: the view is empty
  expectError([&] { mstage::min(empty, four); });
  // CHECK-NEXT: mstage: transform: the input and the output differ (4 and 5 elements); pass views of equal size
  expectError([&] { mstage::transform(four, five, [](int x) { return x; }); });
  // CHECK-NEXT: mstage: transform: the two inputs differ (4 and 5 elements)
  expectError(
      [&] { mstage::transform(four, five, four, [](int a, int b) { return a; }); });
  // CHECK-NEXT: mstage: copy: the input and the output differ (5 and 4 elements)
  expectError([&] { mstage::copy(five, four); });
  // CHECK-NEXT: mstage: parallel_for: dimension 1 has an upper limit -1 below its lower limit 1 minus 1; an empty range is {lo, lo - 1}
  expectError([&] {
    mstage::parallel_for(mstage::bounds<2>{{1, 4}, {1, -1}}, [](int, int) {});
  });
  // CHECK-NEXT: mstage: sum: the output view is empty; it needs one element for the result
  expectError([&] { mstage::sum(four, empty); });
  // CHECK-NEXT: mstage::array 'q': dimension 1 has an upper bound 0 below its lower bound 2 minus 1
  expectError([&] { mstage::array<float, 2> q("q", 3, {2, 0}); });

  // Empty inputs that are not errors; {1, 0} is an empty range.
  mstage::device_vector<int> ran(1, 0);
  auto r = ran.view();
  mstage::parallel_for(mstage::bounds<2>{{1, 4}, {1, 0}},
                       [=](int, int) { r[0] = 1; });
  mstage::parallel_for(0, [=](int) { r[0] = 2; });
  // CHECK-NEXT: empty bounds ran nothing: 0
  std::printf("empty bounds ran nothing: %d\n", ran.get(0));
  // CHECK-NEXT: empty: reduce 7 sum 0 count_if 0 any_of 0 all_of 1
  std::printf("empty: reduce %d sum %d count_if %zu any_of %d all_of %d\n",
              mstage::reduce(empty, 7, std::plus<>()), mstage::sum(empty),
              mstage::count_if(empty, [](int) { return true; }),
              int(mstage::any_of(empty, [](int) { return true; })),
              int(mstage::all_of(empty, [](int) { return false; })));
  mstage::transform(empty, empty, [](int x) { return x; });
  mstage::fill(empty, 3);
  mstage::copy(empty, empty);
  mstage::iota(empty, 3);
  // An empty input into device memory writes init.
  mstage::reduce(empty, 9, std::plus<>(), four);
  // CHECK-NEXT: into device: 9
  std::printf("into device: %d\n", four.get(0));
}
