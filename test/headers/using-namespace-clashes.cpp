// With `using namespace std; using namespace mstage;`, and a user's own
// launch and count_if, which unqualified names are ambiguous, and that the
// qualified spellings docs/api.md gives compile (clang's -verify: each error
// marked below must occur, and no other error). mstage's clashing
// names are the device algorithms of <mstage/algorithm.hpp> (min, max,
// count_if, reduce, sort, fill, copy, transform, iota, any_of,
// inclusive_scan, ...: function objects, which ADL cannot tell apart from
// std's functions), mstage::array and mstage::launch (async's policy, as
// std::launch). The program then runs on the CPU back end with the
// qualified spellings and compares with the host.
// RUN: %mstagexx -std=c++20 -fsyntax-only -DAMBIGUOUS -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
// RUN: %mstagexx -std=c++20 -O2 %s -o %t
// RUN: env MSTAGE_BACKEND=cpu %t | FileCheck %s
// CHECK: min 1 max 2 count 10 10 launch 4 reduce 10 10 sorted 1

#include <mstage.hpp>
#include <mstage/algorithm.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <future>
#include <numeric>
#include <vector>

using namespace std;
using namespace mstage;

int launch(int x) { return x + 1; }
template <class It, class P> long count_if(It b, It e, P p) {
  return std::count_if(b, e, p);
}

int main() {
  vector<int> h(10, 1);
  device_vector<int> d(10, 1);
#ifdef AMBIGUOUS
  min(1, 2);               // expected-error {{reference to 'min' is ambiguous}}
  max(1, 2);               // expected-error {{reference to 'max' is ambiguous}}
  count_if(h.begin(), h.end(), [](int) { return true; }); // expected-error {{reference to 'count_if' is ambiguous}}
  launch(3);               // expected-error {{reference to 'launch' is ambiguous}}
  sort(h.begin(), h.end()); // expected-error {{reference to 'sort' is ambiguous}}
  fill(h.begin(), h.end(), 2); // expected-error {{reference to 'fill' is ambiguous}}
  copy(h.begin(), h.end(), h.begin()); // expected-error {{reference to 'copy' is ambiguous}}
  transform(h.begin(), h.end(), h.begin(), [](int v) { return v; }); // expected-error {{reference to 'transform' is ambiguous}}
  reduce(h.begin(), h.end()); // expected-error {{reference to 'reduce' is ambiguous}}
  iota(h.begin(), h.end(), 0); // expected-error {{reference to 'iota' is ambiguous}}
  any_of(h.begin(), h.end(), [](int v) { return v; }); // expected-error {{reference to 'any_of' is ambiguous}}
  inclusive_scan(h.begin(), h.end(), h.begin()); // expected-error {{reference to 'inclusive_scan' is ambiguous}}
  array<int, 3> a{};       // expected-error {{reference to 'array' is ambiguous}}
  async(launch::async, [] { return 1; }); // expected-error {{reference to 'launch' is ambiguous}}
#endif
  // The qualified spellings: std:: and mstage:: for the library's, :: for
  // the user's own.
  int lo = std::min(1, 2), hi = std::max(1, 2);
  long hostCount = ::count_if(h.begin(), h.end(), [](int v) { return v > 0; });
  size_t deviceCount = mstage::count_if(d, [](int v) { return v > 0; });
  int launched = ::launch(3);
  int hostSum = std::reduce(h.begin(), h.end());
  int deviceSum = mstage::reduce(d, 0);
  std::array<int, 3> small{};
  auto future = std::async(std::launch::async, [] { return 1; });
  mstage::fill(d, 3 - future.get());
  mstage::sort(d);
  std::vector<int> back = d.download();
  std::printf("min %d max %d count %ld %zu launch %d reduce %d %d sorted %d\n",
              lo, hi, hostCount, deviceCount, launched, hostSum, deviceSum,
              int(small[0] == 0 && std::all_of(back.begin(), back.end(),
                                               [](int v) { return v == 2; })));
}
