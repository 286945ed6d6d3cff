// mstage needs C++17 or later: an older -std= gives one error naming it,
// instead of a page of template errors from mstage's headers.
// RUN: not %mstagexx -std=c++14 -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=CXX14 --implicit-check-not=error:
// RUN: not %mstagexx -std=gnu++11 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=GNU11 --implicit-check-not=error:
// RUN: %mstagexx -std=c++17 -fsyntax-only %s
// RUN: %mstagexx -std=c++20 -fsyntax-only %s
#include <mstage.hpp>

int main() {
  std::vector<int> v(16);
  auto k = mstage::kernel([](auto &a) { a[0] = 1; }, 1, 16);
  k(v);
}
// CXX14: fatal error: mstage: C++17 or later is needed, and this compile selects -std=c++14; use -std=c++17 or later
// CXX14: 1 error generated
// GNU11: fatal error: mstage: C++17 or later is needed, and this compile selects -std=gnu++11; use -std=c++17 or later
// GNU11: 1 error generated
